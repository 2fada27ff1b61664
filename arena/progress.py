"""A progress bar for a long command (simulate, metrics, export; the tournament has its
own, ``arena.tournament.progress``), drawn only where a person is watching.

Why on stderr and only when stderr is a terminal: ``werewolf simulate --players 12
--games 2000`` once printed nothing for 18 s, which reads as a hang; but a bar's
redraws in a file or a pipe are noise a program must strip, and ``--json`` promises
one JSON object. So the bar shows when stderr is a terminal and the command prints no
JSON, and is gone when the work is done (``transient``): what the command prints after
is all that stays. Nothing of rich's live display is loaded when no bar is drawn.
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def wanted(*, json: bool = False, quiet: bool = False, stream: IO[str] | None = None) -> bool:
    """Whether a command draws a bar: not for ``--json`` nor ``--quiet``, and only when
    its stream (stderr) is a terminal."""
    if json or quiet:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


class Bar:
    """``with Bar("games", total, enabled=wanted(...)) as bar: ... bar.advance()``: a bar
    of ``total`` steps named ``what``, or nothing at all when not enabled."""

    def __init__(self, what: str, total: int | None, *, enabled: bool, stream: IO[str] | None = None):
        self.what = what
        self.total = total
        self.enabled = enabled
        self.stream = stream
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> "Bar":
        if self.enabled:
            # here, not at the top: a run without a bar (--json, a pipe) never loads rich's live display
            from arena.progress_display import live_progress

            self._progress = live_progress(self.stream or sys.stderr)
            self._progress.start()
            self._task = self._progress.add_task(self.what, total=self.total)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def advance(self, steps: int = 1) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, steps)


__all__ = ["Bar", "wanted"]

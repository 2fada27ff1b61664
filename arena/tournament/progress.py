"""The progress bar: games done, time left, and what the models have cost so far.

Tokens and money move with every model call (not only when a game ends), because a
slow table of twelve model seats can spend for minutes before its game is over. The
games in which the fallback bot moved for a model seat are counted as they land.
Drawn on stderr so that ``--json`` output stays clean; silent when disabled.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


class TournamentProgress:
    def __init__(self, total: int, done: int, spent: dict[str, Any], console: Console | None = None, enabled: bool = True):
        self.enabled = enabled
        self.tokens = int(spent.get("input_tokens", 0)) + int(spent.get("output_tokens", 0))
        self.cost = float(spent.get("cost_usd", 0.0) or 0.0)
        self.failed = 0
        self.with_fallbacks = 0  # games played now in which the fallback bot moved for a model seat
        self._progress: Progress | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[spend]}"),
                console=console,
                transient=False,
            )
            self._task = self._progress.add_task("tournament", total=total, completed=done, spend=self._spend())

    def _spend(self) -> str:
        fail = f" · [red]{self.failed} failed[/red]" if self.failed else ""
        fell = f" · [yellow]{self.with_fallbacks} with fallback moves[/yellow]" if self.with_fallbacks else ""
        return f"{self.tokens:,} tokens · ${self.cost:.4f}{fell}{fail}"

    def __enter__(self) -> "TournamentProgress":
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def call(self, record: Any) -> None:
        """A model call ended (a ``CallRecord``)."""
        self.tokens += int(record.input_tokens or 0) + int(record.output_tokens or 0)
        self.cost += float(record.cost_usd or 0.0)
        self._refresh()

    def game_done(self) -> None:
        if self._progress is not None:
            self._progress.advance(self._task)
        self._refresh()

    def game_with_fallbacks(self) -> None:
        self.with_fallbacks += 1
        self._refresh()

    def game_failed(self) -> None:
        self.failed += 1
        self._refresh()

    def _refresh(self) -> None:
        if self._progress is not None:
            self._progress.update(self._task, spend=self._spend())

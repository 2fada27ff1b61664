"""The live display behind ``arena.progress.Bar``: rich's progress bar on a stream.

A module of its own so that rich's live display (a tenth of a second of start-up) is
imported only when a bar is drawn: ``Bar`` imports this module on entering, and only
when a person is watching (not for ``--json``, nor into a pipe)."""

from __future__ import annotations

from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


def live_progress(stream: IO[str]) -> Progress:
    """A transient bar (gone when the work is done) drawn on ``stream``, not yet started."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(file=stream, highlight=False),
        transient=True,
    )

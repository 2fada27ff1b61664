"""The tables the measuring commands print (``werewolf metrics``, ``werewolf
persuasion``): one look, so a reader moving between them reads them alike."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rich import box
from rich.table import Table


def report_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], *, left: int = 1) -> Any:
    """A rich table: the first ``left`` columns are text, aligned left; the others, numbers."""
    # Light rules and no edge padding leave an 80-column terminal room for every
    # column, each as wide as its longest word.
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
    for i, c in enumerate(columns):
        # The leading names (a seat, an agent, a role) are never cut; the other columns
        # give way, their headers wrapping at spaces.
        t.add_column(c, justify="left" if i < left else "right", no_wrap=i < min(left, 3))
    for row in rows:
        t.add_row(*row)
    return t

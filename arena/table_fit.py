"""Tables that fit the console's width by wrapping cells at spaces, never inside a word.

Why not rich's own sizing: when a table is wider than the console (80 columns when the
output is piped), rich narrows its widest columns without regard to the words in
them, so the leaderboard's headers broke mid-word (``particip`` / ``ant``, ``OpenSkil`` /
``l μ``) and ``tournament --plan`` cut ``Heuristic-B`` to an ambiguous ``Heuristic…``.
Here every column is at least as wide as its longest word (header and cells, measured
in terminal cells, so a Chinese word counts double as the terminal shows it), and the
room left is shared by narrowing the widest columns first; a cell longer than its column
wraps at its spaces. A table whose longest words alone are wider than the console drops
its outer edge and padding first; if it still does not fit it is drawn as wide as its
words need (a terminal then wraps the lines), never with a word cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.table import Table


def _plain(console: Console, cell: Any) -> str | None:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return console.render_str(cell).plain
    return None  # another renderable: rich measures it


def _span(console: Console, cells: list[Any]) -> tuple[int, int]:
    """(the longest word, the longest line) of ``cells``, in terminal cells."""
    word = line = 1
    for cell in cells:
        text = _plain(console, cell)
        if text is None:
            continue
        for row in text.splitlines() or [""]:
            line = max(line, cell_len(row))
            for w in row.split():
                word = max(word, cell_len(w))
    return word, line


def _chrome(table: Table) -> int:
    """The cells a row spends outside its columns' text: borders and padding."""
    n = len(table.columns)
    borders = 0 if table.box is None else (2 if table.show_edge else 0) + max(0, n - 1)
    _top, right, _bottom, left = table.padding
    edges = left + right if table.pad_edge else 0
    between = max(left, right) if table.collapse_padding else left + right
    return borders + edges + between * max(0, n - 1)


def _widths(lows: list[int], highs: list[int], room: int) -> list[int] | None:
    """Column widths within ``room``, each between its low and its high, the widest
    narrowed first; ``None`` when the lows alone do not fit."""
    if sum(lows) > room:
        return None
    widths = list(highs)
    excess = sum(widths) - room
    while excess > 0:
        i = max((i for i, w in enumerate(widths) if w > lows[i]), key=lambda i: widths[i])
        widths[i] -= 1
        excess -= 1
    return widths


class Fitted:
    """A renderable: ``table`` sized as the module says for the console it is drawn on."""

    def __init__(self, table: Table):
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table
        spans = [_span(console, [c.header, *c.cells]) for c in table.columns]
        lows, highs = [w for w, _ in spans], [max(w, h) for w, h in spans]
        widths = _widths(lows, highs, options.max_width - _chrome(table))
        if widths is None:  # lighter chrome: no outer edge, no padding at the edges
            table.show_edge, table.pad_edge = False, False
            widths = _widths(lows, highs, options.max_width - _chrome(table))
        drawn = options
        if widths is None:  # wider than the console: as wide as the words need, none cut
            widths = lows
            drawn = options.update(width=sum(lows) + _chrome(table))
        for column, width in zip(table.columns, widths):
            column.width = width
            column.overflow = "fold"  # never used: no word is wider than its column
        yield from console.render(table, drawn)


def fitted(table: Table) -> Fitted:
    """``table``, to be printed so that no word in it is cut (the module's rule)."""
    return Fitted(table)


__all__ = ["Fitted", "fitted"]

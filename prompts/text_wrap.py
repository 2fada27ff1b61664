"""Lines of Chinese (and any wide-character) text broken where a terminal reader expects.

Why not rich's own wrapping: it breaks lines only at spaces, and folds a run without
spaces only when the run is longer than a whole line. Chinese puts no spaces between
words, so "8 名玩家围坐：Alice、Bob……" was cut after "8" and the rest moved down a line,
leaving the first line nearly empty. Chinese text may break between any two
characters (the line-breaking rules of Unicode Standard Annex #14 treat ideographs as
break opportunities on both sides), except that a line must not start with closing
punctuation (，。、：；！？）」』】》…) nor end with opening punctuation (（「『【《): the
"kinsoku" rule every CJK typesetter follows. Widths are measured in terminal cells
(``rich.cells.cell_len``: an ideograph is two), as the terminal shows them.

Text without wide characters is left to rich, so English narration is unchanged.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

NO_START = frozenset("，。、：；！？）」』】》〉…—,.:;!?)]}%·")  # never at the start of a line
NO_END = frozenset("（「『【《〈([{")  # never at the end of a line


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def has_wide(text: str) -> bool:
    """Whether ``text`` holds a character a terminal shows two cells wide."""
    return cell_len(text) != len(text)


def breaks(text: str, width: int) -> list[int]:
    """Offsets at which ``text`` (one paragraph, no newline) is cut into lines of at
    most ``width`` cells: at spaces, and between characters where one of the two is
    wide, by the kinsoku rule; a run with no such place longer than a line is cut
    where the line is full."""
    cuts: list[int] = []
    start, used, last_ok = 0, 0, -1
    for i, ch in enumerate(text):
        if i > start:
            prev = text[i - 1]
            # A break before ``ch``: after a space, or beside a wide character, kinsoku allowing.
            if (prev.isspace() or _wide(prev) or _wide(ch)) and ch not in NO_START and prev not in NO_END and not ch.isspace():
                last_ok = i
        w = cell_len(ch)
        if used + w > width and i > start and not ch.isspace():
            cut = last_ok if last_ok > start else i
            cuts.append(cut)
            start, last_ok = cut, -1
            used = cell_len(text[start:i])
        used += w
    return cuts


def lines(text: Text, width: int) -> list[Text]:
    """``text`` as lines of at most ``width`` cells, its styles kept."""
    out: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        cuts = breaks(paragraph.plain, max(1, width))
        for line in paragraph.divide(cuts) if cuts else [paragraph]:
            line.rstrip()
            out.append(line)
    return out


class Paragraph:
    """A renderable: ``text`` wrapped by ``breaks`` at the console's width. Use
    ``paragraph(console, markup)`` to get it only where it is needed."""

    def __init__(self, text: Text):
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in lines(self.text, options.max_width):
            line.no_wrap = True
            line.end = "\n"
            yield line


def paragraph(console: Console, markup: str) -> str | Paragraph:
    """What to print for ``markup``: itself (rich wraps it) unless it holds wide
    characters, then a ``Paragraph`` of the same text, styles and all."""
    if not has_wide(markup):
        return markup
    return Paragraph(console.render_str(markup))


__all__ = ["Paragraph", "breaks", "has_wide", "lines", "paragraph"]

"""How a player's own words are written into a prompt: one JSON string, on one line.

Speeches, last words, night talk, ghost notes and any other text a player (a person,
a bot, a model) chose are quoted as a JSON string literal: a double quote opens it,
the next unescaped double quote closes it, and inside it a quote mark is ``\\"``, a
backslash ``\\\\`` and a line break ``\\n``. So the words cannot end their quotation
early, cannot start a line of their own, and every line of a history is one entry the
game wrote. The system prompt tells the reader this convention in its language
(``system.history_note``).

``json.dumps`` alone is not quite enough: it leaves the characters above U+007F as
they are, among them the line and paragraph separators (U+2028, U+2029, U+0085) that
many tokenizers and ``str.splitlines`` treat as line breaks, and the invisible format
characters (bidirectional overrides) that can make text read differently from what
it is. Those are escaped too (``\\u2028``), so the quoted form is plain printable text.

People read speeches through their own views (terminal, web pages), which keep their
presentation (``display``): there the words are shown as written, inside the
language's quotation marks.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def quote(text: Any) -> str:
    """``text`` as one JSON string literal on one line, with nothing invisible in it."""
    raw = json.dumps("" if text is None else str(text), ensure_ascii=False)
    if raw.isprintable():
        return raw
    # Spaces of other widths (U+3000 in Chinese text) break no line: kept as written.
    return "".join(ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else _escape(ch) for ch in raw)


def unquote(literal: str) -> str:
    """The words a ``quote`` literal holds (for tests and tools reading prompts)."""
    value = json.loads(literal)
    if not isinstance(value, str):
        raise ValueError("not a quoted string")
    return value

"""Words no entry may lose a game to: hypothesis strategies shared by the tests of every
entry point (``test_words.py``, ``test_words_seats.py``).

Random Unicode from every category, surrogates (``Cs``) included, which a plain
``st.text()`` leaves out; the characters a transcript or a terminal chokes on, drawn
often (lone surrogates of both halves, a pair as two code points, NUL, ESC sequences,
CR, NEL, DEL, C1, the line separators, a bidi override); and words longer than the
bound, so each test meets every kind of refusal and repair.
"""

from __future__ import annotations

from hypothesis import strategies as st

from engine.words import MAX_CHARS

# Unicode's seven major categories: "C" holds Cc, Cf, Cs (surrogates), Co and Cn.
ANY_CHARACTER = st.characters(codec=None, categories=("L", "M", "N", "P", "S", "Z", "C"))
TROUBLE = (
    "\ud800", "\udfff", "\udc80", "\ud83d\ude00", "\x00", "\x1b[2J", "\x1b]0;title\x07", "\r", "\r\n", "\x85", "\x7f",
    "\x9b", "\x08", "\u2028", "\u202e", "\n", "\t", "😀", "狼人", '"', "\\",
)  # fmt: skip

MIXED = st.lists(st.one_of(ANY_CHARACTER, st.sampled_from(TROUBLE)), max_size=40).map("".join)
LONG = st.builds(lambda piece, n: (piece * n)[: n], st.sampled_from(("x", "狼", "é ", "\ud800", "a\x1b")), st.integers(MAX_CHARS - 5, 3 * MAX_CHARS))

WORDS = st.one_of(MIXED, MIXED, MIXED, LONG)

"""Which player names a game accepts, and why the others are refused.

A name is printed bare in every prompt a model reads ("Alice said: ...", "Votes:
Alice → Bob", "Seating order: ..."), in both languages, while everything a player
*says* is quoted (``prompts.quoting``). So a name must never be able to do what only
the narrator may: start a new line, close or open a quotation, look like the reader
("you", "你"), or carry the separators the prompts use between list items, labels and
table cells. Checked at setup, for every way a table is described (``GameSetup``, a
game file, the web form, the command line), with a message naming the bad name.

The reserved words are those the prompts use for the reader and the narrator; a test
checks that every such word of ``prompts/<language>/*.yaml`` is in ``RESERVED``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Iterable

MAX_LENGTH = 24

# Quotation marks (a speech is a quoted string), line and entry separators (" — ",
# "——"), list and table separators (", " "、" "; " ": " "→" "×" "+"), the brackets of
# labels and public claims, Markdown headings and code, and the CLI's NAME=SPEC.
FORBIDDEN = frozenset('"\\“”„‟«»「」『』—–―[]{}()（）【】<>《》:：,，、;；→×+#`*|=$')

# Words the prompts use for the reader ("you" in every form) and for the narrator or
# nobody in particular: a player with such a name could not be told from them.
# The words the prompts use for the narrator: no player may be named so, and a line a
# player opens with one as a speaker ("Host: ...") speaks as the game (engine.impersonation).
NARRATOR_WORDS = ("narrator", "the narrator", "host", "the host", "game", "the game", "moderator", "主持人", "法官", "系统")
RESERVED = frozenset(
    unicodedata.normalize("NFKC", w).casefold()  # as ``fold`` reads them (plain Latin and Chinese)
    for w in (
        "you", "yourself", "your", "yours", "themself", "themselves", "me", "myself", "I",
        *NARRATOR_WORDS,
        "nobody", "no one", "none", "null", "everyone", "everybody", "someone",
        "你", "你自己", "您", "自己", "我", "无人", "没有人", "所有人",
    )
)


# Cyrillic and Greek letters that look like Latin ones once case is folded: "Yоu" with
# a Cyrillic о must not pass for "you", nor "Воb" sit beside "Bob".
_LOOKALIKES = str.maketrans(
    "авеёкмнорстухіјѕһԁԛԝүαβεικνορτυχζμıɡ",
    "abeekmhopctyxijshdqwyabeikvoptuxzmig",
)


def fold(name: str) -> str:
    """The form two names are compared in: ``Alice``, ``alice``, ``ＡＬＩＣＥ`` and
    ``Аlice`` (a Cyrillic А) are one."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKES)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None`` when it can."""
    if not isinstance(name, str):
        return "a name must be text"
    return _text_problem(name)


@lru_cache(maxsize=4096)
def _text_problem(name: str) -> str | None:
    """``name_problem`` of a text, kept: every game of a simulation or tournament
    checks the same table's names again (6% of a random-bot game's cost)."""
    if not name.strip():
        return "a name must not be empty"
    for ch in name:
        if ch != " " and not ch.isprintable():
            return f"a name must not contain the invisible or control character U+{ord(ch):04X}"
    for ch in name:
        if ch in FORBIDDEN:
            return f"a name must not contain {ch!r} (the prompts use it to separate or quote)"
    if len(name) > MAX_LENGTH:
        return f"a name has at most {MAX_LENGTH} characters (this one has {len(name)})"
    if name != name.strip():
        return "a name must not start or end with a space"
    if "  " in name:
        return "a name must not contain two spaces in a row"
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        return "a name needs at least one letter or digit"
    if fold(name) in RESERVED:
        return "the prompts use this word for the reader or the narrator"
    return None


def check_names(names: Iterable[object]) -> None:
    """Raise ``ValueError`` naming the first bad or repeated name."""
    seen: dict[str, str] = {}
    for name in names:
        why = name_problem(name)
        if why:
            raise ValueError(f"player name {name!r} is not allowed: {why}")
        key = fold(name)  # type: ignore[arg-type]
        if key in seen:
            other = seen[key]
            same = "" if other == name else f" (same as {other!r} but for case, width or look-alike letters)"
            raise ValueError(f"duplicate player name: {name}{same}")
        seen[key] = name  # type: ignore[assignment]

"""What a player's own words may hold: one rule for every seat, and one repair.

Everything a player says (a speech, last words, the pack's and the Sisters' private
talk, a ghost or coroner note: every ``TEXT`` decision) is written into the
transcript, quoted in every model's later prompts, and shown on people's terminals
and web pages. So the words are bounded, and they hold only what every one of those
readers can carry:

- **At most ``MAX_CHARS`` characters (2,000).** Every later request of every model
  seat carries each speech it heard, so one unbounded speech (a game file's 100,000
  characters) made every request after it 111 KB. 2,000 characters is the web's cap
  on a person's speech, kept as it was: about 350 English words or a long spoken
  minute, three times the longest speech a model seat is asked for by default
  (``text_chars`` 600), and about 2,000 tokens of Chinese, well inside any model's
  context however many speeches a day holds.
- **No unpaired UTF-16 surrogate** (U+D800 to U+DFFF on its own). JSON's ``\\ud800``
  escape reads as one, from a model's reply, a web page's answer or a game file, and
  no UTF-8 file can store it: the transcript's writer, and with it the game, failed.
- **No control character but the line break and the tab**: NUL, ESC and the rest of
  C0, DEL and the C1 range (U+0080 to U+009F). A terminal obeys them: ESC opens the
  escape sequences that clear the screen, move the cursor or retitle the window, a
  carriage return or a backspace writes over what was shown before it; a player's
  words could repaint a person's screen with lines the game never wrote. The model
  prompts quote them harmlessly (``prompts.quoting``), a terminal does not.

Everything else is kept as said: any script, emoji, the line and paragraph separators
and the invisible format characters, which the prompts escape and people read as
written (docs/PROMPTS.md).

Who does what with words that break the rule: the engine refuses them
(``Game.submit`` raises ``IllegalAnswer``); a game file is refused when it is read,
naming the seat; a person at the terminal or the web table is told why and asked
again; a model's words are repaired (``repair``) and the repair recorded as the
seat's rule-following violation, since a model is never asked to type again what it
could not have meant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

MAX_CHARS = 2000

# C0 but the tab and the line break, DEL, C1.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Line breaks of other systems: kept as line breaks when words are repaired.
_BREAKS = re.compile("\r\n?|\x85")
REPLACEMENT = "\ufffd"


def _surrogate_at(text: str) -> int | None:
    """Where the first surrogate of ``text`` is (a pair written as two code points
    counts: neither is a character a UTF-8 file can hold), or None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None


def encodable(text: str) -> str:
    """``text`` with every unpaired surrogate replaced by U+FFFD (and a pair written
    as two code points joined into its character): text that is not a player's words
    but must be stored all the same (a model's raw reply in its call record)."""
    if _surrogate_at(text) is None:
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def storable(value: Any) -> Any:
    """``value`` (mappings, lists, strings and scalars) with ``encodable`` applied to
    every text in it, keys included."""
    if isinstance(value, str):
        return encodable(value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v) for v in value]
    return value


def plain(text: str) -> bool:
    """Whether ``text`` is a plain line within the bound: such words can always be said
    (a printable line holds no surrogate and no control character), so ``problem``
    need not look for the reason they cannot."""
    return len(text) <= MAX_CHARS and text.isprintable()


def problem(text: str) -> str | None:
    """Why ``text`` cannot be said, in a sentence for the one who said it; or None."""
    n = len(text)
    if n > MAX_CHARS:
        return f"at most {MAX_CHARS:,} characters may be said at once (this is {n:,})"
    at = _surrogate_at(text)
    if at is not None:
        return (
            f"the words hold an unpaired UTF-16 surrogate (U+{ord(text[at]):04X}) at character {at + 1}, "
            "which no transcript can store"
        )
    m = _CONTROL.search(text)
    if m is not None:
        return (
            f"the words hold the control character U+{ord(m.group()):04X} at character {m.start() + 1} "
            "(only line breaks and tabs may be said: a terminal would obey the others)"
        )
    return None


@dataclass(frozen=True, slots=True)
class Repaired:
    """Words as they may be said, and what had to change (nothing: ``notes`` empty)."""

    text: str
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.notes)

    def summary(self) -> str:
        """What changed, as one sentence a violation record carries."""
        return "the words were repaired: " + "; ".join(self.notes)


def repair(text: str) -> Repaired:
    """``text`` made sayable: each unpaired surrogate and control character replaced
    by U+FFFD (other systems' line breaks, CR LF, CR and U+0085, made line breaks),
    then cut to ``MAX_CHARS``. Words that break no rule come back as they are; the
    repair of repaired words changes nothing."""
    text, notes = _characters(text)
    if len(text) > MAX_CHARS:
        notes.append(f"cut from {len(text):,} to {MAX_CHARS:,} characters")
        text = text[:MAX_CHARS]
    return Repaired(text, tuple(notes))


def harmless(text: str) -> str:
    """``repair`` but for the length: words as a person's screen may show them, for
    words that were never checked (a transcript written before the rule, or by hand),
    whose length is the record's to keep."""
    return _characters(text)[0]


def _characters(text: str) -> tuple[str, list[str]]:
    """The characters' part of ``repair``: the text and what changed."""
    notes: list[str] = []
    if _surrogate_at(text) is not None:
        fixed = encodable(text)
        lone = fixed.count(REPLACEMENT) - text.count(REPLACEMENT)
        notes.append(f"{lone} unpaired surrogate{'s' if lone != 1 else ''} replaced by U+FFFD" if lone else "surrogate pairs joined")
        text = fixed
    if _CONTROL.search(text) is not None:
        text = _BREAKS.sub("\n", text)
        found = sorted({f"U+{ord(c):04X}" for c in _CONTROL.findall(text)})
        if found:
            text = _CONTROL.sub(REPLACEMENT, text)
            notes.append(f"control characters replaced by U+FFFD ({', '.join(found)})")
        else:
            notes.append("line breaks made \\n")
    return text, notes


def unencodable(value: Any) -> tuple[tuple[Any, ...], str] | None:
    """The place (keys and indexes) of the first text in ``value`` (parsed JSON or
    YAML: mappings, lists, strings) that no UTF-8 file can store, with why; or None.
    A key is a place too: ``(..., key)`` names the key itself. The place is for a
    message, so its keys are made storable (``encodable``)."""
    for where, text in _texts(value, ()):
        at = _surrogate_at(text)
        if at is not None:
            shown = tuple(encodable(k) if isinstance(k, str) else k for k in where)
            return shown, f"holds an unpaired UTF-16 surrogate (U+{ord(text[at]):04X}), which no transcript can store"
    return None


def _texts(value: Any, where: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every text in ``value``, keys included, in the order it is written: a stack,
    not recursion, as a file may nest deeper than Python recurses."""
    stack: list[tuple[tuple[Any, ...], Any]] = [(where, value)]
    while stack:
        at, item = stack.pop()
        if isinstance(item, str):
            yield at, item
        elif isinstance(item, dict):
            for k, v in reversed(list(item.items())):
                stack.append(((*at, k), v))
                if isinstance(k, str):
                    stack.append(((*at, k), k))
        elif isinstance(item, (list, tuple)):
            stack.extend(((*at, i), v) for i, v in reversed(list(enumerate(item))))

"""A listener's view with one speech replaced: everything else the very same events.

The replacement keeps the speech's place (its number, day, phase, audience, round,
speaker and whether they were last words) and changes only what was said: the
neutral line, with no claims. Every other event is the same object as in the
recorded view, so nothing but that one speech differs between the arms.
"""

from __future__ import annotations

from engine.events import Event
from engine.speech import Speech
from prompts.catalog import LANGUAGES, catalog

NEUTRAL = "terms.persuasion.neutral"
CONTROL = "terms.persuasion.control"


def lines(language: str) -> tuple[str, str]:
    """The game language's neutral line and the control's second neutral line."""
    cat = catalog(language if language in LANGUAGES else "en")
    return cat.text(NEUTRAL), cat.text(CONTROL)


def replaced(events: list[Event], i: int, text: str) -> list[Event]:
    """``events`` with the speech at index ``i`` saying ``text`` and claiming nothing."""
    said = events[i]
    data = said.data
    if not isinstance(data, Speech):
        raise ValueError(f"event {said.seq} is a {said.kind}, not a speech")
    quiet = Speech(data.speaker, text, data.round, None, data.last_words)
    out = list(events)
    out[i] = Event(said.seq, said.day, said.phase, said.audience, quiet)
    return out

"""A seat's history: one entry per event it was shown, from its point of view.

Why one entry per event, rendered from that event alone: the agent re-sends the
history on every call and providers cache prompt prefixes, so an entry must never
change once written (append-only). Rendering each event without looking ahead makes
that true by construction, and the engine has already filtered the events, so the
text can only say what the seat was shown.

The sentences are the one text pipeline's (``prompts.events_text``), read by the
seat in the model style (players' words as one JSON string each); this module adds
the entry's time label and keeps each entry on one line.
"""

from __future__ import annotations

from engine.events import Event
from prompts.catalog import Catalog, catalog
from prompts.events_text import MODEL, PERSON, tell


def when(cat: Catalog, e: Event) -> str:
    """The entry's time label ("Night 2", "Day 3, vote"), by the event's phase."""
    path = f"terms.when.{e.phase}"
    return cat.text(path if cat.has(path) else "terms.when.default", n=e.day)


def event_body(cat: Catalog, e: Event, seat: str, *, display: bool = False) -> str:
    """An entry without its time label, told to ``seat``. ``display``: for people
    (players' words shown as written) rather than for a model's prompt (players'
    words as one JSON string each)."""
    return tell(cat, e, seat=seat, style=PERSON if display else MODEL)


def render_event(cat: Catalog, e: Event, seat: str) -> str:
    """One entry of a model's history, always one line. Players' words are quoted on
    one line already (``prompts.quoting``) and names cannot break one
    (``engine.names``); should any other value ever carry a line break (an engine
    change, a hand-made record), it is joined here rather than start a line that
    would read as the game's."""
    body = tell(cat, e, seat=seat, style=MODEL)
    if not body:
        return ""
    entry = cat.text("terms.entry", when=when(cat, e), body=body)
    lines = entry.splitlines()
    return entry if len(lines) <= 1 else " ".join(line.strip() for line in lines)


def told_entry(cat: Catalog, e: Event) -> str:
    """An event told by the narrator (for people: players' words in quotation marks)
    after its time label, as an entry of the table's log (the RL environment's render)."""
    body = tell(cat, e, style=PERSON)
    return cat.text("terms.entry", when=when(cat, e), body=body) if body else ""


def history_entries(events: list[Event], seat: str, *, language: str = "en") -> list[str]:
    cat = catalog(language)
    return [render_event(cat, e, seat) for e in events]

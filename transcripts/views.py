"""What a recorded game looks like through one pair of eyes.

A transcript holds the whole truth; a view is a lens over it. The lens uses only the
audience recorded with each event, the same test the engine applies when it builds a
seat's observation (``engine.events.Event.visible_to``), so a replay ``--as`` a seat or
a per-seat page of the HTML export can never show more than the seat was shown while
it played. Answers, model calls and beliefs carry no audience of their own: they are
the asking seat's own acts and thoughts, so a seat sees its own and nobody else's, and
only the full (god) view sees them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from transcripts.schema import AnswerRecord, EventRecord, Transcript

PUBLIC = "public"
NARRATOR = "narrator"
PRIVATE_ACTS = ("call", "belief")  # record types that are their seat's own, like answers


def visible(audience: Any, seat: str) -> bool:
    """Whether ``seat`` was shown an event with this recorded audience."""
    if audience == PUBLIC:
        return True
    if audience == NARRATOR or not isinstance(audience, (list, tuple, set, frozenset)):
        return False
    return seat in audience


@dataclass(frozen=True)
class Lens:
    """Who is looking: nobody in particular (public), one seat, or the narrator (god)."""

    seat: str | None = None
    god: bool = False

    @classmethod
    def public(cls) -> "Lens":
        return cls()

    @classmethod
    def full(cls) -> "Lens":
        return cls(god=True)

    @classmethod
    def of(cls, seat: str) -> "Lens":
        return cls(seat=seat)

    @property
    def label(self) -> str:
        if self.god:
            return "full view"
        return f"{self.seat}'s view" if self.seat else "public view"

    def sees_event(self, event: EventRecord) -> bool:
        if self.god:
            return True
        if self.seat is None:
            return event.audience == PUBLIC
        return visible(event.audience, self.seat)

    def sees_act(self, record: Any) -> bool:
        """An answer, a model call or a belief: its seat's own, private to it."""
        return self.god or (self.seat is not None and getattr(record, "seat", None) == self.seat)

    def sees(self, record: Any) -> bool:
        if isinstance(record, EventRecord):
            return self.sees_event(record)
        if isinstance(record, AnswerRecord) or getattr(record, "type", None) in PRIVATE_ACTS:
            return self.sees_act(record)
        return True  # the result and a stop notice are for everyone


def timeline(transcript: Transcript, lens: Lens) -> Iterator[Any]:
    """The records ``lens`` may see, in the order they were written."""
    for record in transcript.records:
        if lens.sees(record):
            yield record


def seat_events(records: Iterable[Any], seat: str) -> list[EventRecord]:
    """Every event ``seat`` was shown, in order: its observation as recorded."""
    return [r for r in records if isinstance(r, EventRecord) and visible(r.audience, seat)]


def knowledge_at(transcript: Transcript, seat: str, seq: int) -> list[EventRecord]:
    """What ``seat`` knew right after event ``seq``: the view a decision was made from."""
    return [e for e in seat_events(transcript.records, seat) if e.seq <= seq]


def check_seat(transcript: Transcript, seat: str) -> None:
    """Refuse a name that is not at the table, listing those that are."""
    names = transcript.header.names
    if seat not in names:
        raise ValueError(f"no seat named '{seat}' (seats: {', '.join(names)})")


def reasoning_of(call: Any) -> str | None:
    """A model's private reasoning behind one call, wherever the record keeps it.

    Call records may carry ``reasoning`` themselves, or only the parsed reply that
    holds it; older transcripts have no call records at all.
    """
    direct = getattr(call, "reasoning", None)
    if isinstance(direct, str) and direct.strip():
        return direct.strip()
    parsed = getattr(call, "parsed", None)
    if isinstance(parsed, dict):
        for key in ("reasoning", "thinking", "thoughts"):
            value = parsed.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None

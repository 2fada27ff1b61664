"""Events: everything that happens in a game, each tagged with who may see it.

Visibility is fixed when the event is emitted, because that is when a seat learns
something: a wolf who joins the pack later (the Thief) does not retroactively see
last night's talk. Observations are derived from events alone, so nothing a seat
was not shown can leak into its view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PUBLIC = "public"
NARRATOR = "narrator"


@dataclass(slots=True)
class Event:
    """One thing that happened.

    ``audience`` is ``PUBLIC``, ``NARRATOR`` or a frozenset of seat names. Data holds
    plain JSON values only (names, role ids, numbers), so events serialise as they are.
    """

    seq: int
    kind: str
    day: int
    phase: str
    audience: Any
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: str) -> bool:
        a = self.audience
        if a is PUBLIC or a == PUBLIC:
            return True
        if a is NARRATOR or a == NARRATOR:
            return False
        return seat in a

    @property
    def is_public(self) -> bool:
        return self.audience == PUBLIC

    def audience_json(self) -> Any:
        a = self.audience
        if isinstance(a, str):
            return a
        return sorted(a)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "day": self.day,
            "phase": self.phase,
            "audience": self.audience_json(),
            "data": self.data,
        }


def audience_from_json(value: Any) -> Any:
    if value in (PUBLIC, NARRATOR):
        return value
    return frozenset(value)

"""Who is looking at a game: one seat, the public, or the narrator (full view).

Why the test is the engine's own ``Event.visible_to``: the engine fixed each event's
audience when it happened, and a seat's page must show exactly what that seat's agent
would be given (``Game.observation``), no more. Everything a page receives passes
through ``Lens.sees`` on the server; nothing is sent for the page to hide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from engine.events import PUBLIC, Event


@dataclass(frozen=True)
class Lens:
    seat: str | None = None
    full: bool = False

    @property
    def kind(self) -> str:
        return "full" if self.full else ("seat" if self.seat else "public")

    def sees(self, e: Event) -> bool:
        if self.full:
            return True
        if self.seat is not None:
            return e.visible_to(self.seat)
        return e.audience == PUBLIC

    def filter(self, events: Iterable[Event]) -> list[Event]:
        return [e for e in events if self.sees(e)]


PUBLIC_LENS = Lens()
FULL_LENS = Lens(full=True)


def audience_of(e: Event) -> Any:
    """The recorded audience, for the full view only (a seat is told "secret", never
    who else shares it: an audience can itself be a secret)."""
    return e.audience_json()

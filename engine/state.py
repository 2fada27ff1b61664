"""State the mechanics keep, typed and owned by the mechanic that keeps it.

A game's memory across nights (``Game.memory``), the scratchpad of one night
(``Game.night``) and each player's role state (``Player.state``) hold one instance per
state class: a mechanic declares its own dataclass beside its rule (the Witch's
potions in ``engine.roles.witch``) and reads it with ``parts.of(WitchState)``, which
makes it with its defaults on first use. Nothing about a role lives on ``Game``, and
a renamed field is a type error rather than a silently missing key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class Parts:
    """One instance per state class, made on first use (``of``). There are no string
    keys: ``parts["x"]`` is a ``TypeError``, so a mechanic's state always has a class."""

    __slots__ = ("_parts",)

    def __init__(self) -> None:
        self._parts: dict[type, Any] = {}

    def of(self, cls: type[T]) -> T:
        """The mechanic's state, made with its defaults if this is its first use."""
        part: T | None = self._parts.get(cls)  # keyed by its own class
        if part is None:
            part = self._parts[cls] = cls()
        return part

    def peek(self, cls: type[T]) -> T | None:
        """The mechanic's state if it has been used, without making it."""
        part: T | None = self._parts.get(cls)
        return part

    def drop(self, cls: type[T]) -> T | None:
        """Forget the mechanic's state (returned, if there was any)."""
        part: T | None = self._parts.pop(cls, None)
        return part

    def __bool__(self) -> bool:
        """Whether any mechanic has kept state here."""
        return bool(self._parts)


class Night(Parts):
    """The scratchpad of one night, made fresh at nightfall (``engine.flow.night``).

    The fields are the night's own: who is to die at dawn and of what (``kills``: (name,
    cause) pairs, in order), who the wolves attacked (``attacked``, what the Witch is
    shown and the guards answer to) and the pack's victim (``wolf_victim``). Each power's
    own marks (a guard, a heal) are its parts (``of``)."""

    __slots__ = ("kills", "attacked", "wolf_victim")

    def __init__(self) -> None:
        super().__init__()
        self.kills: list[tuple[str, str]] = []
        self.attacked: list[str] = []
        self.wolf_victim: str | None = None


@dataclass(slots=True)
class Death:
    """One death of the game's record (``Game.deaths``), made by the flow when a player
    leaves play; kept here, below the game and its flow, because both need it."""

    name: str
    day: int
    cause: str

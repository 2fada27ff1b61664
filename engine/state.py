"""State the mechanics keep, typed and owned by the mechanic that keeps it.

A game's memory across nights (``Game.memory``), the scratchpad of one night
(``Game.night``) and each player's role state (``Player.state``) hold one instance per
state class: a mechanic declares its own dataclass beside its rule (the Witch's
potions in ``engine.roles.witch``) and reads it with ``parts.of(WitchState)``, which
makes it with its defaults on first use. Nothing about a role lives on ``Game``, and
a renamed field is a type error rather than a silently missing key.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


class Parts:
    """One instance per state class, made on first use (``of``)."""

    __slots__ = ("_parts", "_legacy")

    def __init__(self) -> None:
        self._parts: dict[type, Any] = {}
        self._legacy: dict[str, Any] = {}  # migration: keys not yet given a class

    def of(self, cls: type[T]) -> T:
        """The mechanic's state, made with its defaults if this is its first use."""
        part = self._parts.get(cls)
        if part is None:
            part = self._parts[cls] = cls()
        return part

    def peek(self, cls: type[T]) -> T | None:
        """The mechanic's state if it has been used, without making it."""
        return self._parts.get(cls)

    def drop(self, cls: type[T]) -> T | None:
        """Forget the mechanic's state (returned, if there was any)."""
        return self._parts.pop(cls, None)

    def __bool__(self) -> bool:
        return bool(self._parts) or bool(self._legacy)

    # ---------------------------------------------------------------- migration
    def __getitem__(self, key: str) -> Any:
        return self._legacy[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._legacy[key] = value

    def __contains__(self, key: str) -> bool:
        return key in self._legacy

    def get(self, key: str, default: Any = None) -> Any:
        return self._legacy.get(key, default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        return self._legacy.setdefault(key, default)

    def pop(self, key: str, *default: Any) -> Any:
        return self._legacy.pop(key, *default)


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

    _OWN = frozenset(("kills", "attacked", "wolf_victim"))

    def __getitem__(self, key: str) -> Any:  # migration: ``night["kills"]``
        if key in Night._OWN:
            return getattr(self, key)
        return self._legacy[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key in Night._OWN:
            setattr(self, key, value)
        else:
            self._legacy[key] = value

    def __contains__(self, key: str) -> bool:
        return key in Night._OWN or key in self._legacy

    def get(self, key: str, default: Any = None) -> Any:
        if key in Night._OWN:
            return getattr(self, key)
        return self._legacy.get(key, default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in Night._OWN:
            return getattr(self, key)
        return self._legacy.setdefault(key, default)

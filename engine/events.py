"""Events: everything that happens in a game, each tagged with who may see it.

Visibility is fixed when the event is emitted, because that is when a seat learns
something: a wolf who joins the pack later (the Thief) does not retroactively see
last night's talk. Observations are derived from events alone, so nothing a seat
was not shown can leak into its view.

An event is an envelope (``Event``: when, who may see it) around a payload whose class
is its kind. Each kind is declared once, beside the rule that emits it, with
``@event("kind")``: a dataclass whose typed fields are the record's ``data`` object,
in the order they are written. The declaration registers the kind (``EVENT_KINDS``),
so readers, renderers and tests iterate the kinds instead of scanning source for
strings, and a renamed field is a type error rather than a "?" in a prompt.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from functools import lru_cache
from typing import Annotated, Any, Callable, ClassVar, Iterator, TypeVar

from typing_extensions import dataclass_transform

PUBLIC = "public"
NARRATOR = "narrator"
# ``PUBLIC``, ``NARRATOR`` or the frozenset of the seats that see the event.
Audience = str | frozenset[str]


class Term:
    """What a payload field holds, for the words that tell it (``prompts.history``):
    a player's name is "you" to that player, a role id is the card's name in the
    reader's language, a player's own words are always quoted."""

    PLAYER = "player"
    PLAYERS = "players"
    ROLE = "role"
    ROLES = "roles"
    SAID = "said"
    BUILDING = "building"


# The field types payloads are declared with. They are plain ``str``/``list`` at run
# time; the annotation tells a renderer how to word the value.
Name = Annotated[str, Term.PLAYER]
Names = Annotated[list[str], Term.PLAYERS]
RoleId = Annotated[str, Term.ROLE]
RoleIds = Annotated[list[str], Term.ROLES]
Said = Annotated[str, Term.SAID]
BuildingId = Annotated[str, Term.BUILDING]


class Omit:
    """Marks a field (``Annotated[T, OMIT]``) that is left out of the record while it
    holds its default: a Death's role when the card is not shown, a speech's
    ``last_words`` flag. Recorded files have always been written that way, and a
    reader tells "not said" from "said: nothing" by the key's absence."""

    def __repr__(self) -> str:
        return "OMIT"


OMIT = Omit()
_KEEP = object()  # a field recorded whatever its value
_ABSENT = object()  # not a field of the kind


class EventData(Mapping[str, Any]):
    """The payload of one event kind; subclasses are declared with ``@event``.

    A payload also reads as its record (a read-only mapping of the fields as they
    are written, omitted ones absent), which is what generic readers want: the
    JSON writer, the export tables, the web page's data.
    """

    __slots__ = ()
    kind: ClassVar[str]
    _wire: ClassVar[tuple[tuple[str, Any], ...]] = ()
    _names: ClassVar[frozenset[str]] = frozenset()
    _omit: ClassVar[dict[str, Any]] = {}  # field -> the value that leaves it out (or _KEEP)

    def to_json(self) -> dict[str, Any]:
        """The record's ``data`` object: the fields in declared order."""
        out = {}
        for name, omitted in self._wire:
            value = getattr(self, name)
            if omitted is not _KEEP and value == omitted and type(value) is type(omitted):
                continue
            out[name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "EventData":
        """The payload of a recorded event; raises ``ValueError`` when the record does
        not have this kind's fields (a file from another version)."""
        extra = set(data) - cls._names
        if extra:
            raise ValueError(f"{cls.kind} has no field {', '.join(sorted(extra))}")
        try:
            return cls(**data)
        except TypeError as e:
            raise ValueError(f"{cls.kind}: {e}") from None

    # ---------------------------------------------------------------- read as a record
    def __getitem__(self, key: str) -> Any:
        value = self.get(key, _ABSENT)
        if value is _ABSENT:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """``Mapping.get`` without its ``KeyError`` round trip: bots read every payload
        they are shown this way, several fields an event (a measured hot spot)."""
        omitted = self._omit.get(key, _ABSENT)
        if omitted is not _ABSENT:
            value = getattr(self, key)
            if omitted is _KEEP or value != omitted or type(value) is not type(omitted):
                return value
        return default

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())

    def __repr__(self) -> str:
        """What the dataclass's own ``__repr__`` would say (``Speech(speaker='Ann', ...)``),
        written once here rather than compiled for each of the kinds at import."""
        fields_ = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self._wire)
        return f"{self.__class__.__qualname__}({fields_})"


E = TypeVar("E", bound=type)
EVENT_KINDS: dict[str, type[EventData]] = {}


def _omitted(hint: Any) -> bool:
    return typing.get_origin(hint) is Annotated and any(m is OMIT for m in hint.__metadata__)


@dataclass_transform(frozen_default=True)
def event(kind: str) -> Callable[[E], E]:
    """Declare the payload class of event ``kind`` and register it.

    Fields are typed (``Name``, ``RoleId``, ``Said``... for what a renderer words);
    ``Annotated[T, OMIT]`` with a default leaves the field out of the record while it
    holds that default. Payloads are immutable by contract (type checkers see a
    frozen dataclass): the run-time class is not frozen because a frozen dataclass's
    ``__init__`` costs four times a plain one, paid by every event of every game.
    """

    def declare(cls: E) -> E:
        if kind in EVENT_KINDS:
            raise ValueError(f"event kind {kind!r} is declared twice ({EVENT_KINDS[kind].__module__}, {cls.__module__})")
        made: Any = dataclass(slots=True, eq=False, repr=False)(cls)  # ``EventData.__repr__`` words it
        # Only a field with a default can be omitted: the annotations are evaluated
        # for the few kinds that have one (evaluating all 112 was a fifth of the
        # engine's import).
        declared = fields(made)
        hints = typing.get_type_hints(made, include_extras=True) if any(f.default is not MISSING for f in declared) else {}
        wire = []
        for f in declared:
            wire.append((f.name, f.default if f.default is not MISSING and _omitted(hints[f.name]) else _KEEP))
        made.kind = kind
        made._wire = tuple(wire)
        made._names = frozenset(n for n, _ in wire)
        made._omit = dict(wire)
        EVENT_KINDS[kind] = made
        return typing.cast(E, made)  # the dataclass made of ``cls``

    return declare


class RawEvent(EventData):
    """An event of a kind this version does not declare, or whose fields differ (a
    file written by another version): kept as recorded, so it is still shown and
    written back unchanged instead of being dropped."""

    __slots__ = ("kind", "fields")
    kind: str  # type: ignore[misc]

    def __init__(self, kind: str, fields: Mapping[str, Any]):
        self.kind = kind
        self.fields = dict(fields)

    def to_json(self) -> dict[str, Any]:
        return dict(self.fields)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __repr__(self) -> str:
        return f"RawEvent({self.kind!r}, {self.fields!r})"


def payload(kind: str, data: Mapping[str, Any]) -> EventData:
    """The payload of a recorded event: its declared kind's, or a ``RawEvent``."""
    cls = EVENT_KINDS.get(kind)
    if cls is not None:
        try:
            return cls.from_json(data)
        except ValueError:
            pass
    return RawEvent(kind, data)


@dataclass(slots=True)
class Event:
    """One thing that happened: ``data`` (its kind's payload), when, and who saw it.

    ``audience`` is ``PUBLIC``, ``NARRATOR`` or a frozenset of seat names.
    """

    seq: int
    day: int
    phase: str
    audience: Audience
    data: EventData

    @classmethod
    def recorded(cls, seq: int, kind: str, day: int, phase: str, audience: Audience, data: Mapping[str, Any]) -> "Event":
        """The event a record describes (a transcript line, a test's fixture): its
        declared kind's payload, or a ``RawEvent`` for a kind this version lacks."""
        return cls(seq, day, phase, audience, payload(kind, data))

    @property
    def kind(self) -> str:
        return self.data.kind

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
            "kind": self.data.kind,
            "day": self.day,
            "phase": self.phase,
            "audience": self.audience_json(),
            "data": self.data.to_json(),
        }


@lru_cache(maxsize=4096)
def private(*names: str) -> frozenset[str]:
    """The audience of an event only these seats see. One set per group of names,
    shared by every game (the sets are immutable, and a seat's nightly results reuse
    it every night)."""
    return frozenset(names)


def audience_from_json(value: Any) -> Audience:
    if value == PUBLIC:
        return PUBLIC
    if value == NARRATOR:
        return NARRATOR
    return frozenset(value)

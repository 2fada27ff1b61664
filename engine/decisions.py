"""Decisions: what the engine asks of a seat, with the legal answers spelled out.

A decision is an action spec in the Concordia sense: the asker states the kind, the
options and whether passing is allowed, so any agent (bot, model, person) can be
given exactly the legal choices and every answer can be checked the same way.

Each kind of decision is declared once, beside the rule that asks it, as a
``DecisionKind``: its name, the shape of its answer, the type of the context shown
with it and, for a power aimed at a player, what the power-accuracy metric needs.
The declaration registers it (``DECISION_KINDS``), so a game file's scripted answers,
the prompts' question texts and the metrics' tables are all checked against the
same list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping


class IllegalAnswer(ValueError):
    """An answer the rules do not allow at this moment. The message says why."""


class GameError(RuntimeError):
    """The game cannot go on (for example a scripted seat ran out of answers)."""


class Shape(StrEnum):
    """How an answer is shaped. The values are the words transcripts record."""

    CHOICE = "choice"  # one of ``options`` (or None when ``allow_pass``)
    MULTI = "multi"  # a list of ``count`` distinct options
    TEXT = "text"  # free text
    BOOL = "bool"  # true / false


CHOICE, MULTI, TEXT, BOOL = Shape.CHOICE, Shape.MULTI, Shape.TEXT, Shape.BOOL

# What a good target of a power is, for the side it serves (``Power.good``).
WOLF, NOT_WOLF, AUXILIARY = "wolf", "not_wolf", "auxiliary"


@dataclass(frozen=True, slots=True)
class Power:
    """A decision that aims a power at a player, as the power-accuracy metric reads it
    (``arena.metrics.powers``): what a good target is (``WOLF``, ``NOT_WOLF``,
    ``AUXILIARY``) for the side whose power it is, and, for a record without its legal
    options, the pool a random pick was drawn from (the ``living`` others or the
    ``dead``)."""

    good: str
    side: str = "village"
    pool: str = "living"
    note: str = ""


class DecisionKind(str):
    """A kind of decision. It is its wire name (a ``str``: records, game files and
    dict keys use the name), and carries what its declaration says:

    - ``shape``: the answer's shape;
    - ``context``: the type of the context the asker shows (a ``TypedDict``), or None;
    - ``power``: what the power-accuracy metric needs, for a power aimed at a player;
    - ``unmeasured``: otherwise, why the metric does not measure it (every kind says
      one or the other, so a new role's decision cannot be forgotten by the metrics).
    """

    shape: Shape
    context: type | None
    power: Power | None
    unmeasured: str

    def __new__(
        cls, name: str, shape: Shape, *, context: type | None = None, power: Power | None = None, unmeasured: str = ""
    ) -> "DecisionKind":
        self = super().__new__(cls, name)
        self.shape = shape
        self.context = context
        self.power = power
        self.unmeasured = unmeasured
        return self

    def __reduce__(self) -> Any:  # pickled by name: workers and parent share the registry
        return (_kind_named, (str(self),))


DECISION_KINDS: dict[str, DecisionKind] = {}


def decision(
    name: str, shape: Shape, *, context: type | None = None, power: Power | None = None, unmeasured: str = ""
) -> DecisionKind:
    """Declare and register a decision kind (see ``DecisionKind``)."""
    if name in DECISION_KINDS:
        raise ValueError(f"decision kind {name!r} is declared twice")
    if (power is None) == (not unmeasured):
        which = "both" if power is not None else "neither"
        raise ValueError(f"decision kind {name!r} declares {which} of power= and unmeasured= (the power metric needs one)")
    kind = DECISION_KINDS[name] = DecisionKind(name, shape, context=context, power=power, unmeasured=unmeasured)
    return kind


def _kind_named(name: str) -> DecisionKind | str:
    return DECISION_KINDS.get(name, name)


@dataclass(slots=True)
class Decision:
    """A question to one seat.

    ``options`` are player names, role ids, camps or booleans depending on ``kind``.
    ``context`` carries what the asker is shown with the question (the tied players,
    the wolves' victim the Witch may heal): the same facts are also in that seat's
    events, the context only saves an agent from searching for them. A context is
    read, never written: the decisions of one round (a vote's voters, a round of
    speeches) share one.
    """

    id: int
    seat: str
    kind: DecisionKind
    shape: Shape
    options: tuple[Any, ...] = ()
    allow_pass: bool = False
    count: int = 1
    context: Mapping[str, Any] = field(default_factory=dict)

    def validate(self, answer: Any) -> Any:
        """Return the answer in canonical form, or raise ``IllegalAnswer`` saying why."""
        shape = self.shape
        if shape == TEXT and answer.__class__ is str:
            return answer
        if shape == CHOICE:
            if answer in self.options and answer is not None and answer.__class__ is not bool:
                return answer
            if answer is None:
                if self.allow_pass:
                    return None
                raise IllegalAnswer(f"{self.seat} must choose for {self.kind}; passing is not allowed here")
            if answer in self.options and answer.__class__ is not bool:  # ``true`` is no bid of 1
                return answer
            raise IllegalAnswer(
                f"{answer!r} is not a legal {self.kind} for {self.seat}; legal: {', '.join(map(str, self.options))}"
                + (" or null" if self.allow_pass else "")
            )
        if shape == BOOL:
            if answer is None and self.allow_pass:
                return False
            if isinstance(answer, bool) and answer in self.options:
                return answer
            raise IllegalAnswer(
                f"{answer!r} is not a legal {self.kind} for {self.seat}; legal: "
                + ", ".join("true" if o else "false" for o in self.options)
            )
        if shape == TEXT:
            if answer is None:
                return ""
            if isinstance(answer, str):
                return answer
            if isinstance(answer, dict) and isinstance(answer.get("text", ""), str):
                return answer
            raise IllegalAnswer(f"{self.kind} for {self.seat} needs text, got {type(answer).__name__}")
        if shape == MULTI:
            if answer is None:
                if self.allow_pass:
                    return None
                raise IllegalAnswer(f"{self.seat} must name {self.count} players for {self.kind}")
            if isinstance(answer, str):
                answer = [answer]
            if not isinstance(answer, (list, tuple)):
                raise IllegalAnswer(f"{self.kind} for {self.seat} needs a list of {self.count} names")
            picks = list(answer)
            if len(picks) != self.count:
                raise IllegalAnswer(f"{self.kind} for {self.seat} needs exactly {self.count} distinct names, got {len(picks)}")
            if len(set(picks)) != len(picks):
                raise IllegalAnswer(f"{self.kind} for {self.seat} names the same player twice")
            for p in picks:
                if p not in self.options:
                    raise IllegalAnswer(
                        f"{p!r} is not a legal pick for {self.kind} by {self.seat}; legal: {', '.join(self.options)}"
                    )
            return picks
        raise IllegalAnswer(f"unknown decision shape {shape}")

    @property
    def pass_answer(self) -> Any:
        """The answer a seat gives by passing, when passing is legal."""
        if self.shape == TEXT:
            return ""
        if self.shape == BOOL:
            return False if False in self.options else None
        return None

    @property
    def can_pass(self) -> bool:
        if self.shape == TEXT:
            return True
        if self.shape == BOOL:
            return self.allow_pass or False in self.options
        return self.allow_pass

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "shape": self.shape,
            "options": list(self.options),
            "allow_pass": self.allow_pass,
            "count": self.count,
            "context": self.context,
        }

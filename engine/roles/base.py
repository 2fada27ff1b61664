"""Roles as data plus small hooks.

A role is a ``RoleSpec`` (id, camp, whether it wakes with the pack) and the night
steps it contributes. The night runner only knows steps sorted by their order; it
never names a role, so adding a role means adding a module here, not editing the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from engine.game import Game

VILLAGE = "village"
WEREWOLVES = "werewolves"


@dataclass(frozen=True, slots=True)
class RoleSpec:
    id: str
    name: str
    camp: str
    is_wolf: bool = False
    summary: str = ""
    decisions: tuple[str, ...] = ()  # the decision kinds this role is asked
    # When the Seer looks at this card she sees ``id``; a few roles may disguise it.
    presets: tuple[str, ...] = ("millers_hollow",)


StepFn = Callable[["Game"], Iterator]


@dataclass(frozen=True, slots=True)
class NightStep:
    """One call of the narrator's night. ``order`` follows the book's reminder list.

    ``group`` lets steps that do not depend on each other be asked together: steps of
    the same group run in parallel (their decisions are pending at once).
    """

    name: str
    order: int
    run: StepFn
    active: Callable[["Game"], bool]
    first_night_only: bool = False
    group: str = ""


ROLES: dict[str, RoleSpec] = {}
# Every decision kind the rules can ask, so a game file's scripted answers can be
# checked for a misspelled kind before a game starts.
DECISION_KINDS: set[str] = {"speak", "vote", "sheriff_vote", "sheriff_successor", "sheriff_tiebreak"}
NIGHT_STEPS: list[NightStep] = []


def register_role(spec: RoleSpec) -> RoleSpec:
    ROLES[spec.id] = spec
    DECISION_KINDS.update(spec.decisions)
    return spec


def register_step(step: NightStep) -> NightStep:
    NIGHT_STEPS.append(step)
    NIGHT_STEPS.sort(key=lambda s: s.order)
    return step


DEATH_HOOKS: list[tuple[int, bool, Callable]] = []


def register_death_hook(order: int, fn: Callable, *, before_victory: bool = False) -> Callable:
    """``fn(game, player, cause)`` is a generator; it may ask decisions and kill.

    ``before_victory`` hooks are part of the death itself (the Hunter shoots "before
    giving up the ghost", 000), so they run before the game can end; the others (the
    Sheriff's successor) only matter if the game goes on."""
    DEATH_HOOKS.append((order, before_victory, fn))
    DEATH_HOOKS.sort(key=lambda t: t[0])
    BEFORE_VICTORY[:] = [f for _, b, f in DEATH_HOOKS if b]
    AFTER_VICTORY[:] = [f for _, b, f in DEATH_HOOKS if not b]
    return fn


BEFORE_VICTORY: list[Callable] = []
AFTER_VICTORY: list[Callable] = []

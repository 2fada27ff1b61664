"""The Priest (004): "One time (and one time only), anytime Day or Night, publicly or
privately, you can bring back to life any player who was previously dead"; 6-C: "Any
Priest who makes a public Day-phase resurrection in-thread which is confirmed by the
Host is a confirmed Human."

``priest_revive``: a dead player, or null; asked each day after the debate (a public
resurrection that names the Priest) and each night last (the host announces the
returned player, not who brought them back). One use per game. The revived player
plays on with their card; their earlier death stays in the record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypedDict

from engine.decisions import CHOICE, NOT_WOLF, Power, decision
from engine.events import OMIT, PUBLIC, EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.flow.day_powers import register_day_power
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState, Player


class PriestReviveContext(TypedDict, total=False):
    by_day: bool  # asked by day (a public resurrection naming her) rather than at night


PRIEST_REVIVE = decision(
    "priest_revive",
    CHOICE,
    context=PriestReviveContext,
    power=Power(NOT_WOLF, pool="dead", note="the forum's Priest brings a dead player back"),
)


@dataclass(slots=True)
class PriestState:
    revived: bool = False  # her one resurrection is spent


@event("revived")
class Revived(EventData):
    """A dead player is back in play; ``priest`` names who brought them back when it was
    done by day, in public (at night the key is absent)."""

    player: Name
    priest: Annotated[Name | None, OMIT] = None


@event("priest_revive")
class PriestRevive(EventData):
    """The Priest is told her night resurrection of ``target`` went through."""

    target: Name


PRIEST = register_role(
    RoleSpec(
        id="priest",
        name="Priest",
        camp=VILLAGE,
        summary="Once per game, by day or by night, you may bring a dead player back to life.",
        decisions=(PRIEST_REVIVE,),
        presets=("forum",),
    )
)


def _spent(priest: Player) -> bool:
    st = priest.state.peek(PriestState)
    return st is not None and st.revived


def _revive(game: GameState, by_day: bool) -> Script:
    for priest in game.able("priest"):
        if _spent(priest):
            continue
        dead = tuple(p.name for p in game.players if not p.alive)
        if not dead:
            continue
        context: PriestReviveContext = {"by_day": by_day}
        target = yield from ask_one(game.ask(priest.name, PRIEST_REVIVE, dead, context, True))
        if target is None:
            continue
        priest.state.of(PriestState).revived = True
        p = game.by_name[target]
        p.alive = True
        if by_day:
            game.emit(Revived(target, priest.name), PUBLIC)
        else:
            game.emit(Revived(target), PUBLIC)
            game.emit(PriestRevive(target), private(priest.name))


def _day(game: GameState) -> Script:
    yield from _revive(game, True)


def _night(game: GameState) -> Script:
    yield from _revive(game, False)


def _active(game: GameState) -> bool:
    return any(p.role == "priest" and p.alive and not p.powerless and not _spent(p) for p in game.players)


register_day_power(("priest",), _day)
register_step(NightStep(name="priest", run=_night, active=_active, roles=("priest",)))

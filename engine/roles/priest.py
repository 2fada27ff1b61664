"""The Priest (004): "One time (and one time only), anytime Day or Night, publicly or
privately, you can bring back to life any player who was previously dead"; 6-C: "Any
Priest who makes a public Day-phase resurrection in-thread which is confirmed by the
Host is a confirmed Human."

``priest_revive``: a dead player, or null; asked each day after the debate (a public
resurrection that names the Priest) and each night last (the host announces the
returned player, not who brought them back). One use per game. The revived player
plays on with their card; their earlier death stays in the record."""

from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.flow.day_powers import register_day_power
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import CHOICE, NOT_WOLF, Power, decision

PRIEST_REVIVE = decision("priest_revive", CHOICE, power=Power(NOT_WOLF, pool="dead", note="the forum's Priest brings a dead player back"))

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


def _revive(game, by_day: bool):
    for priest in game.able("priest"):
        if priest.state.get("revived"):
            continue
        dead = tuple(p.name for p in game.players if not p.alive)
        if not dead:
            continue
        target = yield from ask_one(game.ask(priest.name, PRIEST_REVIVE, dead, allow_pass=True, by_day=by_day))
        if target is None:
            continue
        priest.state["revived"] = True
        p = game.by_name[target]
        p.alive = True
        if by_day:
            game.emit("revived", PUBLIC, player=target, priest=priest.name)
        else:
            game.emit("revived", PUBLIC, player=target)
            game.emit("priest_revive", game.private(priest.name), target=target)


def _day(game):
    yield from _revive(game, True)


def _night(game):
    yield from _revive(game, False)


def _active(game) -> bool:
    return any(p.role == "priest" and p.alive and not p.powerless and not p.state.get("revived") for p in game.players)


register_day_power(("priest",), _day)
register_step(NightStep(name="priest", order=330, run=_night, active=_active, roles=("priest",)))

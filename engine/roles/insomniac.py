"""The Insomniac (004): "Each night, you must PM the Host and tell them whether you were
able to sleep. If not, you will be informed of the NAME of one of the wolves!! The
problem is, that very Wolf will also be told who YOU are, so be careful!!"

Each night ``insomniac_stay_awake`` (true / false). Awake, she is told one living
werewolf drawn by lot, and that werewolf is told who she is. An awake Insomniac is "up
and about" for the Ninja."""

from __future__ import annotations


from engine.decisions import BOOL, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.roles.ninja import UpNight
from engine.game_state import GameState

INSOMNIAC_STAY_AWAKE = decision("insomniac_stay_awake", BOOL, unmeasured="yes/no, no target")


@event("insomniac_saw")
class InsomniacSaw(EventData):
    """The werewolf the awake Insomniac saw (None: no werewolf but her is alive)."""

    wolf: Name | None


@event("insomniac_seen")
class InsomniacSeen(EventData):
    """The werewolf she saw is told who the Insomniac is."""

    insomniac: Name


INSOMNIAC = register_role(
    RoleSpec(
        id="insomniac",
        name="Insomniac",
        camp=VILLAGE,
        summary="Each night you may stay awake: you learn the name of one werewolf, and that werewolf learns yours.",
        decisions=(INSOMNIAC_STAY_AWAKE,),
        presets=("forum",),
    )
)


def _run(game: GameState) -> Script:
    for ins in game.able("insomniac"):
        awake = yield from ask_one(game.ask(ins.name, INSOMNIAC_STAY_AWAKE, (True, False)))
        if not awake:
            continue
        game.night.of(UpNight).names.append(ins.name)
        wolves = sorted(p.name for p in game.wolves() if p is not ins)
        if not wolves:
            game.emit(InsomniacSaw(None), private(ins.name))
            continue
        wolf = game.rng.choice(wolves)
        game.emit(InsomniacSaw(wolf), private(ins.name))
        game.emit(InsomniacSeen(ins.name), private(wolf))


register_step(NightStep(name="insomniac", run=_run, active=lambda game: game.has_able("insomniac"), roles=("insomniac",)))

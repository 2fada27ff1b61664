"""The Insomniac (004): "Each night, you must PM the Host and tell them whether you were
able to sleep. If not, you will be informed of the NAME of one of the wolves!! The
problem is, that very Wolf will also be told who YOU are, so be careful!!"

Each night ``insomniac_stay_awake`` (true / false). Awake, she is told one living
werewolf drawn by lot, and that werewolf is told who she is. An awake Insomniac is "up
and about" for the Ninja."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import BOOL, decision

INSOMNIAC_STAY_AWAKE = decision("insomniac_stay_awake", BOOL, unmeasured="yes/no, no target")

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


def _run(game):
    for ins in game.able("insomniac"):
        awake = yield from ask_one(game.ask_bool(ins.name, INSOMNIAC_STAY_AWAKE, True))
        if not awake:
            continue
        game.night.setdefault("up", []).append(ins.name)
        wolves = sorted(p.name for p in game.wolves() if p is not ins)
        if not wolves:
            game.emit("insomniac_saw", game.private(ins.name), wolf=None)
            continue
        wolf = game.rng.choice(wolves)
        game.emit("insomniac_saw", game.private(ins.name), wolf=wolf)
        game.emit("insomniac_seen", game.private(wolf), insomniac=ins.name)


register_step(NightStep(name="insomniac", order=97, run=_run, active=lambda game: game.has_able("insomniac"), roles=("insomniac",)))

"""The Idiot (001 zh 白痴).

The seed lists him among the roles ("白痴行动：白痴无法行动" -- he has no night action)
and says: "白痴如果已经揭开身份，则将同长老一起死去" -- a revealed Idiot dies with the Elder.
His power is the common 狼人杀 one (the issue's statement, also New Moon's Village
Idiot): when the village votes him out he reveals his card and survives, but from then
on he has no vote. It works once: voted out again, he dies. A revealed Idiot still
speaks. When the Elder's death takes the village's powers, a revealed Idiot dies with
him (cause ``with_elder``); an Idiot not yet revealed simply loses his pardon.
"""

from engine.events import PUBLIC
from engine.roles.base import VILLAGE, RoleSpec, register_batch_hook, register_pardon, register_role

IDIOT = register_role(
    RoleSpec(
        id="idiot",
        name="Idiot",
        camp=VILLAGE,
        summary="If the village votes you out, your card is revealed and you survive, but you can no longer vote.",
        presets=("langrensha",),
    )
)


def _pardon(game, target: str):
    p = game.by_name[target]
    if p.role != "idiot" or p.powerless or p.state.get("revealed"):
        return False
    p.state["revealed"] = True
    game.voteless.add(target)
    game.emit("idiot_revealed", PUBLIC, player=target, role="idiot")
    return True
    yield  # a generator, like every pardon


def _with_elder(game, fallen, queue) -> None:
    if not game.memory.get("powers_lost"):
        return
    for p in game.players:
        if p.role == "idiot" and p.alive and p.state.get("revealed") and (p.name, "with_elder") not in queue:
            queue.append((p.name, "with_elder"))


register_pardon(10, _pardon, roles=("idiot",))
register_batch_hook(20, _with_elder, roles=("idiot",))

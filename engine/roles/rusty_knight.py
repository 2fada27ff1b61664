"""The Knight with the Rusty Sword (003 "Knight in the Rugged Sword").

"If it is devoured, it dies, but contaminates the first responsible Wolf-Garou met to
its left around the circle. This wolf dies at the beginning of the next night; the
leader reveals this death the following morning. It is not an immediate elimination
the same morning as the Knight." Aide-mémoire: "Early night: remove the wolf condemned
by the Sword if its delay arrives; do not allow it to hunt. His death will be announced
in the morning."

Devoured means by the pack or the Big Bad Wolf. The contaminated wolf is the first
living werewolf clockwise from the Knight's left (the next seat). Nobody is told
(narrator-only ``rusty_sword``). At the start of the next night he is out of play (he
neither hunts nor is targeted); his death (cause ``rusty_sword``) is told at dawn with
the night's other deaths, first.
"""

from engine.events import NARRATOR
from engine.roles.base import DEVOURED, VILLAGE, NightStep, RoleSpec, register_death_hook, register_role, register_step

RUSTY_KNIGHT = register_role(
    RoleSpec(
        id="rusty_knight",
        name="Knight with the Rusty Sword",
        camp=VILLAGE,
        summary="If the werewolves devour you, the first werewolf to your left catches tetanus from your rusty sword and dies the next night.",
        presets=("best_of",),
    )
)


def _contaminate(game, player, cause):
    if player.role != "rusty_knight" or cause not in DEVOURED or player.powerless:
        return
    n = len(game.players)
    for k in range(1, n):
        p = game.table[(player.seat + k) % n]
        if p.alive and p.is_wolf:
            game.memory.setdefault("rusty", []).append(p.name)
            game.emit("rusty_sword", NARRATOR, knight=player.name, wolf=p.name)
            break
    return
    yield  # a generator, like every death hook


def _active(game) -> bool:
    return bool(game.memory.get("rusty"))


def _run(game):
    for name in game.memory.pop("rusty"):
        p = game.by_name[name]
        if not p.alive:
            continue
        p.alive = False  # out of play from the start of the night
        p.state["dying"] = True
        game.night["kills"].insert(0, (name, "rusty_sword"))
        game.night.setdefault("dying", []).append((name, "rusty_sword"))
    return
    yield


register_death_hook(15, _contaminate, roles=("rusty_knight",))
register_step(NightStep(name="rusty_sword", order=1, run=_run, active=_active, roles=("rusty_knight",)))

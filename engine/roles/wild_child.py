"""The Wild Child (003 "Wild child").

"On the first night, he secretly chooses a model. As long as he lives, he defends the
village; when his model dies, he becomes Loup-Garou and joins the pack the next night.
The role of the model does not change it. He can help eliminate his model."

Night 1 (after the Sisters): ``wild_child_model`` names another living player. When the
model dies, whatever the cause, the living Wild Child turns werewolf (his card stays:
the Seer still sees a Wild Child) before victory is checked (003: "After each
elimination, check the lovers, the Hunter, the model of the Wild Child... Then check the
conditions of victory"); he is told (``wild_child_turned``) and wakes with the pack from
the next night. Turning is his fate, not a power: the Elder's death does not stop it.
"""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, WEREWOLVES, NightStep, RoleSpec, register_death_hook, register_role, register_step
from engine.decisions import CHOICE, decision

WILD_CHILD_MODEL = decision("wild_child_model", CHOICE, unmeasured="a model chosen on the first night; no target is better for the village")

WILD_CHILD = register_role(
    RoleSpec(
        id="wild_child",
        name="Wild Child",
        camp=VILLAGE,
        summary="On the first night you choose a model. You play for the village, but if your model dies you become a werewolf.",
        decisions=(WILD_CHILD_MODEL,),
        presets=("best_of",),
    )
)


def _active(game) -> bool:
    return game.has_alive("wild_child")


def _run(game):
    for child in game.with_role("wild_child"):
        options = tuple(n for n in game.alive_names() if n != child.name)
        if not options:
            continue
        model = yield from ask_one(game.ask(child.name, WILD_CHILD_MODEL, options))
        child.state["model"] = model
        game.emit("wild_child_model", game.private(child.name), model=model)


def _orphaned(game, player, cause):
    for child in game.players:
        if child.role == "wild_child" and child.alive and not child.is_wolf and child.state.get("model") == player.name:
            child.convert(WEREWOLVES, True)
            game.emit("wild_child_turned", game.private(child.name), player=child.name, model=player.name)
    return
    yield


register_step(
    NightStep(name="wild_child", order=130, run=_run, active=_active, first_night_only=True, group="night_main", roles=("wild_child",))
)
register_death_hook(15, _orphaned, before_victory=True, roles=("wild_child",))

"""The Hunter: when he dies he takes another player with him (000 "The Hunter").

Which deaths let him shoot is ``hunter_shot_causes`` (000: devoured or executed);
whether he may hold fire is ``hunter_may_pass`` (000 "must", 002 "puede")."""

from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.decisions import CHOICE, WOLF, Power, decision

HUNTER_SHOT = decision("hunter_shot", CHOICE, power=Power(WOLF, note="the dying Hunter's shot"))

HUNTER = register_role(
    RoleSpec(
        id="hunter",
        name="Hunter",
        camp=VILLAGE,
        summary="When you are killed by the werewolves or eliminated by the village vote, you immediately shoot another player, who dies too.",
        decisions=(HUNTER_SHOT,),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _shot(game, player, cause):
    from engine.flow.deaths import kill_batch

    if player.role != "hunter" or cause not in game.options.hunter_shot_causes or player.powerless:
        return
    options = game.targets(player.name)
    if not options:
        return
    target = yield from ask_one(
        game.ask(player.name, HUNTER_SHOT, options, allow_pass=game.options.hunter_may_pass, cause=cause)
    )
    game.emit("hunter_shot", PUBLIC, hunter=player.name, target=target)
    if target is not None:
        yield from kill_batch(game, [(target, "hunter")])


register_death_hook(10, _shot, before_victory=True, roles=("hunter",))

"""The Hunter: when he dies he takes another player with him (000 "The Hunter").

Which deaths let him shoot is ``hunter_shot_causes`` (000: devoured or executed);
whether he may hold fire is ``hunter_may_pass`` (000 "must", 002 "puede")."""

from __future__ import annotations

from typing import TypedDict

from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script, ask_one
from engine.flow.deaths import kill_batch
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.game_state import GameState, Player


class HunterShotContext(TypedDict, total=False):
    cause: str  # the cause of his death, which lets him shoot (``hunter_shot_causes``)


HUNTER_SHOT = decision("hunter_shot", CHOICE, context=HunterShotContext, power=Power(WOLF, note="the dying Hunter's shot"))


@event("hunter_shot")
class HunterShot(EventData):
    """The dying Hunter's shot (target None: he held fire, under ``hunter_may_pass``)."""

    hunter: Name
    target: Name | None


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


def _shot(game: GameState, player: Player, cause: str) -> Script:
    if player.role != "hunter" or cause not in game.options.hunter_shot_causes or player.powerless:
        return
    options = game.targets(player.name)
    if not options:
        return
    target = yield from ask_one(
        game.ask(player.name, HUNTER_SHOT, options, {"cause": cause}, game.options.hunter_may_pass)
    )
    game.emit(HunterShot(player.name, target), PUBLIC)
    if target is not None:
        yield from kill_batch(game, [(target, "hunter")])


register_death_hook(10, _shot, before_victory=True, roles=("hunter",))

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

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, WEREWOLVES, NightStep, RoleSpec, register_death_hook, register_role, register_step
from engine.game_state import GameState, Player

WILD_CHILD_MODEL = decision("wild_child_model", CHOICE, unmeasured="a model chosen on the first night; no target is better for the village")


@event("wild_child_model")
class WildChildModel(EventData):
    """The Wild Child's model, as he chose it."""

    model: Name


@event("wild_child_turned")
class WildChildTurned(EventData):
    """His model died: the Wild Child is told he is a werewolf now."""

    player: Name
    model: Name


@dataclass(slots=True)
class WildChildState:
    """The model he chose on the first night (None: none chosen, nobody else was alive)."""

    model: str | None = None


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


def _active(game: GameState) -> bool:
    return game.has_alive("wild_child")


def _run(game: GameState) -> Script:
    for child in game.with_role("wild_child"):
        options = tuple(n for n in game.alive_names() if n != child.name)
        if not options:
            continue
        model = yield from ask_one(game.ask(child.name, WILD_CHILD_MODEL, options))
        child.state.of(WildChildState).model = model
        game.emit(WildChildModel(model), private(child.name))


def _orphaned(game: GameState, player: Player, cause: str) -> Script:
    for child in game.players:
        if child.role != "wild_child" or not child.alive or child.is_wolf:
            continue
        chose = child.state.peek(WildChildState)
        if chose is not None and chose.model == player.name:
            child.convert(WEREWOLVES, True)
            game.emit(WildChildTurned(child.name, player.name), private(child.name))
    return
    yield


register_step(
    NightStep(name="wild_child", run=_run, active=_active, first_night_only=True, group="night_main", roles=("wild_child",))
)
register_death_hook(15, _orphaned, before_victory=True, roles=("wild_child",))

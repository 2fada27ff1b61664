"""The Fox (003 "Fox").

"On his appeal, he may designate a person and his two neighbours still at stake. The
leader indicates whether this group contains at least one Loup-Garou, without showing a
map or specifying which one. Positive answer: he retains his power. Negative answer: he
cleared this group at this moment, but loses his power for the rest of the game. He may
choose not to probe one night."

Called after the Witch (003 night order). ``fox_sniff`` names any living player (himself
too) or null; the group is that player and the nearest living player on each side. A
werewolf is any player now in the pack (infected, turned, the Wolf-Hound's choice): the
Fox smells the camp, where the Seer reads the card. The answer is private
(``fox_result``); after a negative one the Fox is never called again.
"""

from __future__ import annotations


from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import EventData, Name, Names, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

FOX_SNIFF = decision("fox_sniff", CHOICE, power=Power(WOLF, note="the Fox's sniff (the named player; his neighbours are not counted)"))


@event("fox_result")
class FoxResult(EventData):
    """Whether a werewolf is among ``group`` (``target`` and his living neighbours)."""

    target: Name
    group: Names
    wolf: bool


FOX = register_role(
    RoleSpec(
        id="fox",
        name="Fox",
        camp=VILLAGE,
        summary="Each night you may sniff a player and their two living neighbours: you learn whether a werewolf is among the three. If not, you lose your power.",
        decisions=(FOX_SNIFF,),
        presets=("best_of",),
    )
)


def _active(game: GameState) -> bool:
    return game.has_able("fox")


def _run(game: GameState) -> Script:
    for fox in game.able("fox"):
        target = yield from ask_one(game.ask(fox.name, FOX_SNIFF, tuple(game.alive_names()), None, True))
        if target is None:
            continue
        group = [game.by_name[target], *game.neighbours(target)]
        wolf = any(p.is_wolf for p in group)
        game.emit(FoxResult(target, [p.name for p in group], wolf), private(fox.name))
        if not wolf:
            fox.powerless = True  # "loses his power for the rest of the game"


register_step(NightStep(name="fox", run=_run, active=_active, roles=("fox",)))

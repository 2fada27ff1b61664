"""The Bear Tamer (003 "Bear Showr").

"Every morning, after the victims, the leader grunts if at least one of his two still
alive neighbors is Loup-Garou. The places of the dead no longer count. If the Montreur
is infected, the leader grunts every morning as long as he lives. The grunt is public,
but does not identify the suspect neighbour."

Each dawn, after the night's deaths and their consequences (Aide-mémoire: "reveal the
dead; resolve the consequences and verify the victories; grunt of the Bear"), while the
Bear Tamer lives with his power, a public ``bear_growl`` says whether the bear growls
(``growl`` true or false; it never names the Tamer). A werewolf is any player now in
the pack: an infected player, a Wild Child who turned, a Wolf-Hound who chose the wolves.
"""

from __future__ import annotations


from engine.events import PUBLIC, EventData, event
from engine.flow.common import Script
from engine.roles.base import VILLAGE, RoleSpec, register_dawn_hook, register_role
from engine.game_state import GameState


@event("bear_growl")
class BearGrowl(EventData):
    """Whether the bear growls this morning (it never says whose bear)."""

    growl: bool


BEAR_TAMER = register_role(
    RoleSpec(
        id="bear_tamer",
        name="Bear Tamer",
        camp=VILLAGE,
        summary="Each morning your bear growls, for all to hear, if one of your two living neighbours is a werewolf.",
        presets=("best_of",),
    )
)


def _growl(game: GameState) -> Script:
    for tamer in game.able("bear_tamer"):
        growl = tamer.is_wolf or any(p.is_wolf for p in game.neighbours(tamer.name))
        game.emit(BearGrowl(growl), PUBLIC)
    return
    yield


register_dawn_hook(50, _growl, roles=("bear_tamer",))

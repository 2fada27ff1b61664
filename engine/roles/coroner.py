"""The Coroner (004): "Via PM, each Dawn, you're told the exact role of the person the
Wolves killed, and each Sundown, you're told the exact role of the player who got
lynched."

No decision: when the pack's victim dies (cause ``werewolves``) or a player is lynched
(cause ``vote``), every living Coroner privately learns the dead player's card
(``coroner_report``)."""

from __future__ import annotations


from engine.events import EventData, Name, RoleId, event, private
from engine.flow.common import Script
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.game_state import GameState, Player


@event("coroner_report")
class CoronerReport(EventData):
    """The Coroner learns the card of a player the pack killed or the village lynched
    (``cause``: ``werewolves`` or ``vote``)."""

    target: Name
    role: RoleId
    cause: str


CORONER = register_role(
    RoleSpec(
        id="coroner",
        name="Coroner",
        camp=VILLAGE,
        summary="You are told the exact role of each victim of the werewolves at dawn and of each lynched player at sundown.",
        presets=("forum",),
    )
)


def _report(game: GameState, player: Player, cause: str) -> Script:
    if cause in ("werewolves", "vote"):
        for c in game.able("coroner"):
            game.emit(CoronerReport(player.name, player.role, cause), private(c.name))
    return
    yield


register_death_hook(5, _report, before_victory=True, roles=("coroner",))

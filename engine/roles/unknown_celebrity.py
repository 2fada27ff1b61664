"""The Unknown Celebrity (004): "If you're killed by the Wolves, the players will find out
in the newspaper the next day, and that day's lynching will be CANCELLED."

No decision. Devoured, the newspaper tells the table (a public ``celebrity_news``) and
that day's lynching does not take place (``engine.flow.forum.lynch``): the phantom
votes due that day carry over to the next tally. Dying any other way changes nothing."""

from __future__ import annotations


from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script
from engine.flow.forum import LynchCall
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.game_state import GameState, Player


@event("celebrity_news")
class CelebrityNews(EventData):
    """The newspaper: the Unknown Celebrity was devoured, so ``day``'s lynching is off."""

    player: Name
    day: int


CELEBRITY = register_role(
    RoleSpec(
        id="unknown_celebrity",
        name="Unknown Celebrity",
        camp=VILLAGE,
        summary="If the werewolves kill you, the newspaper reveals it and that day's lynching is cancelled.",
        presets=("forum",),
    )
)


def _news(game: GameState, player: Player, cause: str) -> Script:
    if cause == "werewolves" and player.role == "unknown_celebrity":
        game.memory.of(LynchCall).cancelled = game.day  # the lynching is off (engine.flow.forum)
        game.emit(CelebrityNews(player.name, game.day), PUBLIC)
    return
    yield


register_death_hook(6, _news, before_victory=True, roles=("unknown_celebrity",))

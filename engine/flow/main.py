"""The whole game, night after day, until a camp wins or the day limit is reached."""

from __future__ import annotations


from engine.events import NARRATOR, PUBLIC, EventData, Name, Names, RoleId, RoleIds, event, private
from engine.flow.common import Script
from engine.flow.day import day
from engine.flow.night import night
from engine.flow.victory import end_game
from engine.flow import sheriff as _sheriff  # noqa: F401  (registers the successor hook)
from engine.flow import last_words as _last_words  # noqa: F401  (registers the last words)
from engine.flow import ghost_notes as _ghost_notes  # noqa: F401  (registers the ghost notes)
from engine.game_state import GameState


@event("game_start")
class GameStart(EventData):
    """The table: who plays, under which preset, with which deck. ``roles_in_play`` is
    the whole deck, the set-aside cards included (listing only the seats' cards would
    tell everyone what lies in the center); ``set_aside`` is how many cards lie there."""

    players: Names
    preset: str
    roles_in_play: RoleIds
    set_aside: int


@event("role")
class Role(EventData):
    """A player learns their card: at the deal, and whenever a power hands them another
    (the Thief's swap, the Mad Scientist's vial)."""

    player: Name
    role: RoleId


@event("center")
class Center(EventData):
    """The cards set aside for the Thief, told to the narrator only."""

    cards: RoleIds


def script(game: GameState) -> Script:
    # The deal's own sorted deck and the setup's seating: the cards of the players and
    # the center, sorted, and the players in seat order, without walking them again.
    game.emit(GameStart(list(game.setup.names), game.preset, list(game.deck), len(game.center)), PUBLIC)
    for p in game.players:
        game.emit(Role(p.name, p.role), private(p.name))
    if game.center:
        game.emit(Center(list(game.center)), NARRATOR)
    for hook in game.rules.setup:  # The Village: the buildings are handed out
        yield from hook(game)
    if game.rules.opening_day:
        # 003 "Preparing the game": "With Angel, start with a day of debate and an
        # eliminatory vote, then the first night if the game continues." It is day 0:
        # night N still precedes day N.
        yield from day(game, opening=True)
        if game.over:
            return
    while True:
        if game.day >= game.options.max_days:
            end_game(game, "none", f"the day limit ({game.options.max_days}) was reached")
            return
        game.day += 1
        yield from night(game)
        if game.over:
            return
        yield from day(game)
        if game.over:
            return


__all__ = ["Center", "GameStart", "Role", "script"]

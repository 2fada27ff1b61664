"""The Angel (003 "Angel").

"His presence requires him to start with one day. If he is eliminated during the first
round by the vote, wolves or poison, he wins alone immediately. If he survives this
first cycle, he becomes simple Villagers. If he falls in love, his goal of Angel
disappears: he must survive with his partner." Preparing the game: "With Angel, start
with a day of debate and an eliminatory vote, then the first night if the game
continues." Errors to avoid: "Forgetting the Angel: starting with one night makes its
initial goal false."

With an Angel in the deck the game opens with day 0 (debate and vote, no dawn), then
night 1. The first round is day 0, night 1 and the dawn of day 1: dying then by the
vote, the wolves (the pack or the Big Bad Wolf) or the poison, he wins alone at once.
At the end of that dawn a living Angel becomes a plain villager (``angel_villager``,
camp village). Made a Lover by Cupid, he plays for the village from then on (the couple
is mixed if his beloved is not), and his own goal is gone.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import EventData, Name, event, private
from engine.flow.common import Script
from engine.roles.base import (
    VILLAGE,
    NightStep,
    RoleSpec,
    register_dawn_hook,
    register_death_hook,
    register_opening_day,
    register_role,
    register_step,
    register_victory,
)
from engine.game_state import GameState, Player

ANGEL = "angel"
WINNING_CAUSES = ("vote", "werewolves", "big_bad_wolf", "poison")


@dataclass(slots=True)
class AngelMemory:
    won: str | None = None  # the Angel who fell in the first round, and so has won


@event("angel_villager")
class AngelVillager(EventData):
    """The Angel's own goal is gone: he plays on as a villager (``reason``:
    ``first_round`` survived, or ``love``)."""

    player: Name
    reason: str

ANGEL_SPEC = register_role(
    RoleSpec(
        id=ANGEL,
        name="Angel",
        camp=ANGEL,
        summary="The game starts with a day. If you are voted out, devoured or poisoned in the first round, you win alone; after it you are a plain villager.",
        presets=("best_of",),
    )
)


def _first_round(game: GameState) -> bool:
    return game.day == 0 or (game.day == 1 and game.phase in ("night", "dawn"))


def _fallen(game: GameState, player: Player, cause: str) -> Script:
    if player.role == ANGEL and player.camp == ANGEL and cause in WINNING_CAUSES and _first_round(game):
        game.memory.of(AngelMemory).won = player.name
    return
    yield


def _won(game: GameState, alive: list[Player]) -> tuple[str, str] | None:
    memory = game.memory.peek(AngelMemory)
    if memory is not None and memory.won:
        return ANGEL, "the Angel was eliminated in the first round"
    return None


def _villager(game: GameState, reason: str) -> None:
    for p in game.players:
        if p.role == ANGEL and p.camp == ANGEL and p.alive:
            p.convert(VILLAGE, False)
            game.emit(AngelVillager(p.name, reason), private(p.name))


def _round_over(game: GameState) -> Script:
    if game.day == 1:
        _villager(game, "first_round")
    return
    yield


def _in_love(game: GameState) -> bool:
    return game.lovers is not None and any(game.by_name[n].role == ANGEL for n in game.lovers)


def _love(game: GameState) -> Script:
    for name in game.lovers or ():
        p = game.by_name[name]
        if p.role == ANGEL and p.camp == ANGEL:
            p.convert(VILLAGE, False)
            game.emit(AngelVillager(name, "love"), private(name))
    return
    yield


register_opening_day(roles=(ANGEL,))
register_death_hook(1, _fallen, before_victory=True, roles=(ANGEL,))
register_victory(10, _won, roles=(ANGEL,))
register_dawn_hook(5, _round_over, roles=(ANGEL,))
register_step(NightStep(name="angel_love", run=_love, active=_in_love, first_night_only=True, roles=(ANGEL,)))

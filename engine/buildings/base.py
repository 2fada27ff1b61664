"""The Village's buildings (000, Rules of Expansion #2): a second, public layer.

Every player holds a hidden character card and, in a game with buildings, a visible
"role" token: the building they live in (a farm, the church, the school...) or a
Vagabond's bindle. The tokens are data here (``BuildingSpec``); each building's power
is a small module of this package that registers hooks at the engine's extension points,
as the characters do. The whole layer is switched on by the ``buildings`` option, so a
game without it pays nothing.

"A permanent power applies throughout the game ... A unique power applies only once.
Only players whose building has a unique power keep their "role" token, which they
place face up in plain view on the building ... After using it, the player loses their
building's power and returns their token to the narrator." ``Player.token`` is that
token: held, the unique power is still there (for the Tavernkeeper, his immunity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from engine.events import PUBLIC, BuildingId, EventData, Name, event
# The tokens' data, declared below the rules (``engine.cards``), re-exported here,
# where the buildings register.
from engine.cards import (
    BUILDINGS as BUILDINGS,
    BuildingSpec as BuildingSpec,
    register_building as register_building,
)
from engine.game_state import GameState, Player

if TYPE_CHECKING:  # pragma: no cover
    from engine.options import RuleOptions

VAGABOND = "vagabond"
YES_NO = (True, False)  # the options of the layer's yes/no questions, where null is no
PERMANENT = "permanent"
UNIQUE = "unique"


@event("token_returned")
class TokenReturned(EventData):
    """A unique power used (``reason`` ``used``) or the Tavernkeeper's immunity lost
    (``voted_out``): the token goes back to the narrator, in plain view."""

    player: Name
    building: BuildingId
    reason: str


@event("token_given")
class TokenGiven(EventData):
    """A spent power given back (``reason``: who gave it, ``bonesetter``)."""

    player: Name
    building: BuildingId
    reason: str


def layer_on(options: RuleOptions) -> bool:
    """The ``when`` of every building hook: the game has buildings."""
    return options.buildings != "none"


def holders(game: GameState, building: str) -> list[Player]:
    """Living players living in ``building`` (its power is theirs)."""
    return [p for p in game.players if p.building == building and p.alive]


def with_token(game: GameState, building: str) -> list[Player]:
    """Living holders of ``building`` whose token is still in front of them."""
    return [p for p in game.players if p.building == building and p.alive and p.token]


def has_token(game: GameState, building: str) -> bool:
    for p in game.players:
        if p.building == building and p.alive and p.token:
            return True
    return False


def vagabonds(game: GameState) -> tuple[str, ...]:
    """The living Vagabonds, whom the Schoolmistress, the Barber, the Raven and the
    Arsonist cannot touch (000 "The Vagabonds")."""
    return tuple(p.name for p in game.players if p.building == VAGABOND and p.alive)


def homes(game: GameState) -> dict[str, str]:
    """Every player's token: the public table of who lives where."""
    return {p.name: p.building for p in game.players if p.building}


def spend_token(game: GameState, player: Player, why: str) -> None:
    """A unique power used (or the Tavernkeeper's immunity lost): the token goes back
    to the narrator, in plain view."""
    player.token = False
    game.emit(TokenReturned(player.name, player.building, why), PUBLIC)
    refresh(game)


def give_token(game: GameState, player: Player, why: str) -> None:
    player.token = True
    game.emit(TokenGiven(player.name, player.building, why), PUBLIC)
    refresh(game)


# What changes with the tokens: each building module that keeps a derived view (the
# Tavernkeeper's shelter, the Farmers' pool) registers a refresher.
REFRESHERS: list[Callable[[GameState], None]] = []


def refresh(game: GameState) -> None:
    for fn in REFRESHERS:
        fn(game)

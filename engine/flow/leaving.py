"""A player leaving play: the death's record and event, and the state of a player
taken out of play before his death is told.

It sits below both ``engine.flow.deaths`` (which settles a batch of deaths and then
checks victory) and ``engine.flow.victory`` (which, when the game ends in the night,
tells the deaths still due at dawn), so neither imports the other to reach it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from engine.events import OMIT, PUBLIC, EventData, Name, RoleId, event
from engine.state import Death
from engine.game_state import GameState, Player


@event("death")
class DeathEvent(EventData):
    """A player dies. ``cause`` is the death's cause id (``werewolves``, ``vote``,
    ``poison``...); ``role`` is the card, shown unless ``reveal_role_on_death`` is off
    (then the key is absent from the record)."""

    player: Name
    cause: str
    role: Annotated[RoleId | None, OMIT] = None


@dataclass(slots=True)
class OutOfPlay:
    """A player's part while he is out of play but his death not yet told (the Rusty
    Knight's wolf, taken at the start of the night, ``engine.roles.rusty_knight``)."""


@dataclass(slots=True)
class ToldAtDawn:
    """The night's part: the deaths of players already out of play, (name, cause) in
    order, told at dawn with the night's other deaths, or at once if the game ends
    first (``engine.flow.victory.end_game``)."""

    deaths: list[tuple[str, str]] = field(default_factory=list)


def record_death(game: GameState, p: Player, cause: str) -> None:
    game.deaths.append(Death(p.name, game.day, cause))
    game.emit(DeathEvent(p.name, cause, p.role if game.options.reveal_role_on_death else None), PUBLIC)

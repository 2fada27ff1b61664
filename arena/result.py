"""The result of a finished game: the JSON object of CONTRACT.md section 3.

It is what outside checks read, so its shape is fixed by the contract: exactly
``winner``, ``winners``, ``deaths``, ``players`` and ``days``. Anything richer (the
reason the game ended, who was the Sheriff) belongs in the transcript.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict

from engine.game import Game


class DeathOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    day: int
    cause: str


class PlayerOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    initial_role: str
    role: str
    alive: bool


class GameResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    winner: str
    winners: list[str]
    deaths: list[DeathOut]
    players: list[PlayerOut]
    days: int

    def to_json(self) -> str:
        """One line, non-ASCII names kept readable."""
        return json.dumps(self.model_dump(), ensure_ascii=False)


class GameNotOver(RuntimeError):
    """A result was asked of a game that has not reached an end."""


def result_of(game: Game) -> GameResult:
    if game.winner is None:
        raise GameNotOver("the game has not ended")
    return GameResult(
        winner=game.winner,
        winners=list(game.winners),
        deaths=[DeathOut(name=d.name, day=d.day, cause=d.cause) for d in game.deaths],
        players=[PlayerOut(name=p.name, initial_role=p.initial_role, role=p.role, alive=p.alive) for p in game.players],
        days=game.day,
    )

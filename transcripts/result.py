"""The result of a finished game: the JSON object of CONTRACT.md section 3.

It is what outside checks read, so its shape is fixed by the contract: ``winner``,
``winners``, ``deaths``, ``players`` and ``days``, which the transcript's result record
holds too (this is why it lives with the transcripts: the writer and ``verify`` build
it from a game). Keys may only be added: ``model_seats``, printed by ``werewolf play
--json`` when the table has a model seat, says for each what its model did
(``calls``, ``fallbacks``, ``errors``, counted as the closing table and ``werewolf
verify`` count them: ``transcripts.call_counts``), so a game that no model played
cannot pass for one that a model did; ``own_seats`` says the same of the seats of
agents of one's own (``py:MODULE:CLASS``), whose moves the game could not take the
fallback bot played. Which seats those are is the arena's to say
(``arena.result``). Anything richer (the reason the game ended, who was the Sheriff)
belongs in the transcript.
"""

from __future__ import annotations

import json
from typing import Any

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


class ModelSeatOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    agent: str  # the seat's spec, as in the game file
    calls: int  # requests sent to the model (an agent of one's own sends none)
    fallbacks: int  # decisions the fallback bot answered
    errors: int  # calls that failed after their retries, decisions that ended with no reply, an agent's decide that raised


class GameResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    winner: str
    winners: list[str]
    deaths: list[DeathOut]
    players: list[PlayerOut]
    days: int

    def to_json(self, model_seats: list[ModelSeatOut] | None = None, own_seats: list[ModelSeatOut] | None = None) -> str:
        """One line, non-ASCII names kept readable; ``model_seats`` and ``own_seats``
        added when given (the transcript's result record keeps the contract's five keys)."""
        out: dict[str, Any] = self.model_dump()
        if model_seats:
            out["model_seats"] = [m.model_dump() for m in model_seats]
        if own_seats:
            out["own_seats"] = [m.model_dump() for m in own_seats]
        return json.dumps(out, ensure_ascii=False)


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

"""The result of a finished game: the JSON object of CONTRACT.md section 3.

It is what outside checks read, so its shape is fixed by the contract: ``winner``,
``winners``, ``deaths``, ``players`` and ``days``, which the transcript's result record
holds too. Keys may only be added: ``model_seats``, printed by ``werewolf play
--json`` when the table has a model seat, says for each what its model did
(``calls``, ``fallbacks``, ``errors``, counted as the closing table and ``werewolf
verify`` count them: ``transcripts.call_counts``), so a game that no model played
cannot pass for one that a model did; ``own_seats`` says the same of the seats of
agents of one's own (``py:MODULE:CLASS``), whose moves the game could not take the
fallback bot played (``agents.own_seat``). Anything richer (the reason the game ended, who
was the Sheriff) belongs in the transcript.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from agents.own_seat import OwnSeat
from engine.game import Game
from transcripts.call_counts import by_seat
from transcripts.schema import CallRecord


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


def model_seats(agents: Mapping[str, Any], records: Iterable[CallRecord]) -> list[ModelSeatOut]:
    """Every model seat of the table (an agent with a model ``spec`` and a back end),
    in seat order, with what its records count; a seat never asked counts zeros."""
    return _counted(agents, records, lambda agent: getattr(agent, "backend", None) is not None)


def own_seats(agents: Mapping[str, Any], records: Iterable[CallRecord]) -> list[ModelSeatOut]:
    """Every seat of an agent of one's own, in seat order, with what its records count
    (no calls; its fallbacks and errors); a seat the fallback bot never played counts zeros."""
    return _counted(agents, records, lambda agent: isinstance(agent, OwnSeat))


def _counted(agents: Mapping[str, Any], records: Iterable[CallRecord], chosen: Callable[[Any], bool]) -> list[ModelSeatOut]:
    counts = by_seat(records)
    out = []
    for name, agent in agents.items():
        if not chosen(agent):
            continue
        c = counts.get(name)
        out.append(ModelSeatOut(name=name, agent=str(agent.spec), calls=c.calls if c else 0, fallbacks=c.fallbacks if c else 0, errors=c.errors if c else 0))
    return out


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

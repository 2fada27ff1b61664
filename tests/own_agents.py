"""Agents of one's own that misbehave, for ``tests/test_own_seat.py``: seated as
``py:own_agents:NAME``. Each plays the heuristic bot's moves except for one fault, and
none sets a ``spec``, as a class written from docs/AGENTS.md need not."""

from __future__ import annotations

from typing import Any

from agents.base import Agent, SeatView
from agents.heuristic import HeuristicAgent
from engine.decisions import Decision


class _Own(Agent):
    def __init__(self, name: str, *, seed: int = 0, options: dict[str, Any] | None = None):
        super().__init__(name)
        self.bot = HeuristicAgent(name, seed=seed)
        self.faults = 0

    def decide(self, view: SeatView, decision: Decision) -> Any:
        answer = self.bot.decide(view, decision)  # keeps the bot's memory up to date
        wrong = self.wrong(decision)
        if wrong is None:
            return answer
        self.faults += 1
        return wrong[0]

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        """(the faulty move,) for ``decision``, or None to play the bot's."""
        return None


class Plain(_Own):
    """No fault at all."""


class IllegalVoter(_Own):
    """Votes for a player who is not at the table."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        return ("Nobody",) if decision.kind == "vote" else None


class EscapeWords(_Own):
    """Speaks words holding ESC, which would clear a person's screen."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        return ("hello\x1b[2J",) if decision.kind == "speak" else None


class LongWords(_Own):
    """Speaks past the engine's bound on words."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        return ("x" * 5000,) if decision.kind == "speak" else None


class Surrogate(_Own):
    """Speaks a lone UTF-16 surrogate, which no transcript can store."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        return ("I am \ud800 a villager",) if decision.kind == "speak" else None


class Raiser(_Own):
    """Its ``decide`` raises on a vote."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        if decision.kind == "vote":
            raise RuntimeError("my bug")
        return None


class AsyncRaiser(_Own):
    """Its ``adecide`` raises on a speech (the async runner asks through it)."""

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        if decision.kind == "speak":
            raise ValueError("my async bug")
        return self.decide(view, decision)


class OnceIllegal(_Own):
    """Votes for nobody at the table once a game, then plays well."""

    def wrong(self, decision: Decision) -> tuple[Any] | None:
        return ("Nobody",) if decision.kind == "vote" and not self.faults else None

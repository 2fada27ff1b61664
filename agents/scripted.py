"""Scripted seats: one queue of answers per decision kind, answered in order.

CONTRACT.md section 2: when a queue runs out the seat passes where passing is legal,
otherwise the game fails with an error naming the seat and the kind."""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable

from agents.base import Agent, SeatView
from engine.decisions import Decision, GameError


class ScriptedAgent(Agent):
    spec = "scripted"

    def __init__(self, name: str, answers: dict[str, Iterable[Any]] | None = None):
        super().__init__(name)
        self.queues: dict[str, deque] = {k: deque(v) for k, v in (answers or {}).items()}

    def decide(self, view: SeatView, decision: Decision) -> Any:
        q = self.queues.get(decision.kind)
        if q:
            return q.popleft()
        if decision.can_pass:
            return decision.pass_answer
        raise GameError(f"scripted seat {self.name} has no answer left for '{decision.kind}' (day {view.day})")

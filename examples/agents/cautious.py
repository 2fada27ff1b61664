"""An agent of one's own: the heuristic bot, but it abstains from a day vote unless
it is sure enough.

Seat it with ``agent: py:examples.agents.cautious:CautiousAgent`` in a game file or a
tournament (``options: {threshold: 0.6}``), ``--seat Alice=py:examples.agents.cautious:CautiousAgent``
on the command line. The web server seats none: naming it imports this module, which
runs its code (docs/AGENTS.md).
"""

from __future__ import annotations

from typing import Any

from agents.base import Agent, SeatView
from agents.heuristic import HeuristicAgent
from engine.decisions import Decision


class CautiousAgent(Agent):
    spec = "py:examples.agents.cautious:CautiousAgent"

    def __init__(self, name: str, *, seed: int = 0, options: dict[str, Any] | None = None):
        super().__init__(name)
        options = dict(options or {})
        self.threshold = float(options.pop("threshold", 0.5))
        if options:
            raise ValueError(f"unknown option(s) {', '.join(sorted(options))} (CautiousAgent takes: threshold)")
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError("threshold must be between 0 and 1")
        self.bot = HeuristicAgent(name, seed=seed)

    def decide(self, view: SeatView, decision: Decision) -> Any:
        answer = self.bot.decide(view, decision)  # keeps the bot's memory up to date
        if decision.kind == "vote" and decision.allow_pass and answer is not None:
            if self.bot.beliefs(view).get(answer, 0.0) < self.threshold:
                return None  # not sure enough: abstain
        return answer

    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float]:
        return self.bot.beliefs(view, moment)

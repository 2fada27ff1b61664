"""A bot with a planted speaking-position bias, for the bias report's tests (``py:bias_bots:LastSpeakerVoter``)."""

from __future__ import annotations

import random
from typing import Any

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from engine.decisions import Decision
from engine.speech import Speech


class LastSpeakerVoter(HeuristicAgent):
    """The heuristic bot, except that with probability ``share`` (option, default 0.5)
    its day vote goes to the day's last discussion speaker, when that is a legal pick."""

    def __init__(self, name: str, *, seed: int = 0, options: dict[str, Any] | None = None, **_: Any):
        super().__init__(name, seed=seed)
        self.share = float((options or {}).get("share", 0.5))
        self.coin = random.Random(f"{seed}:{name}:last")

    def decide(self, view: SeatView, decision: Decision) -> Any:
        if decision.kind == "vote" and self.coin.random() < self.share:
            day = view.events[-1].day if view.events else 0
            said = [e.data.speaker for e in view.events if isinstance(e.data, Speech) and e.day == day
                    and e.phase == "discussion" and not e.data.last_words]  # fmt: skip
            if said and said[-1] in decision.options:
                return said[-1]
        return super().decide(view, decision)

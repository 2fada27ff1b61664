"""The heuristic bot's noisy moves (``options: {noise: P}``).

A noisy decision is a uniformly random legal answer, as the random bot would give,
while the bot's memory keeps following the game (the next decision may be a good one
again, and knows everything that happened). Speech has no finite set of legal answers,
so a random speech is defined as the bot's own words carrying a uniformly random
content: an accusation of one living player or of nobody, each equally likely, and no
role claim. The pack's night talk proposes a uniformly random legal victim. Speaking
the bot's lines (in the table's language) keeps a noisy seat from being recognisable
by its wording alone.
"""

from __future__ import annotations

from typing import Any

from agents.base import SeatView
from agents.heuristic_night import kill_options
from agents.heuristic_situation import Situation
from agents.heuristic_talk import Speech, words
from agents.random_agent import random_answer
from engine.decisions import TEXT

WOLF_CHAT = "wolf_chat"


def noisy_answer(sit: Situation, view: SeatView) -> Any:
    d = sit.decision
    if d.shape != TEXT:
        return random_answer(sit.rng, d)
    if d.kind == WOLF_CHAT:
        legal = kill_options(sit.mem, d.context.get("victims"))
        target = sit.rng.choice(legal) if legal else None
        return {"text": sit.say("wolf_chat.propose", target=target), "target": target} if target else {"text": ""}
    others = [n for n in view.alive if n != sit.me]
    pick = sit.rng.choice(others + [None]) if others else None
    sp = Speech(accuses=[pick] if pick else [])
    return {"text": words(sit, sp), "claims": sp.claims()}

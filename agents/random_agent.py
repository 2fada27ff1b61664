"""The random bot: uniform over the legal answers, passing included where legal.

It is the baseline every other agent is measured against, and the fuzzer of the
engine's property tests."""

from __future__ import annotations

import random
from typing import Any

from agents.base import Agent, SeatView
from engine.decisions import BOOL, MULTI, TEXT, Decision

_LINES = ("I have nothing to add.", "Let's think carefully.", "I am a simple villager.", "Hmm.")


class RandomAgent(Agent):
    spec = "random"

    def __init__(self, name: str, seed: int = 0):
        super().__init__(name)
        self.rng = random.Random(f"{seed}:{name}")

    def decide(self, view: SeatView, decision: Decision) -> Any:
        return random_answer(self.rng, decision)


def random_answer(rng: random.Random, d: Decision) -> Any:
    if d.shape == TEXT:
        return rng.choice(_LINES)
    if d.shape == MULTI:
        if len(d.options) < d.count:
            return None
        return rng.sample(list(d.options), d.count)
    choices = list(d.options)
    if d.allow_pass and d.shape != BOOL:
        choices.append(None)
    if not choices:
        return None
    return rng.choice(choices)

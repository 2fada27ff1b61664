"""``Situation.best`` and ``Situation.consensus`` pick what their plain definitions pick.

Both are written for their cost (scores rounded only when close to the leader's, the
leader's range test kept as the leader changes); the bot's play depends on them
choosing the option the rounded comparison chooses, with the same draws.
"""

from __future__ import annotations

import math
import random

from agents.heuristic_memory import Memory
from agents.heuristic_situation import Situation


def plain_best(options: list[str], scores: dict[str, float], rng: random.Random) -> str | None:
    """The highest (score rounded to 6 places, draw), the first of equals kept."""
    best, key = None, None
    for o in options:
        k = (round(scores[o], 6), rng.random())
        if key is None or k > key:
            best, key = o, k
    return best


def plain_consensus(options: list[str], scores: dict[str, float]) -> str | None:
    """The highest score rounded to 2 places, the first in seat order among equals."""
    best, key = None, None
    for o in options:
        k = round(scores[o], 2)
        if key is None or k > key:
            best, key = o, k
    return best


def _scores(rng: random.Random, names: list[str]) -> dict[str, float]:
    base = rng.uniform(-3, 3)
    pick = [
        lambda: base,
        lambda: base + rng.choice([1e-7, -1e-7, 4e-7, 1e-3, -1e-3, 0.004, 0.02, 0.5]),
        lambda: rng.uniform(-3, 3),
        lambda: rng.choice([0.0, 1.0, 2.0**33, -(2.0**33), math.inf, -math.inf, math.nan]),
    ]
    return {n: rng.choice(pick)() for n in names}


def test_best_and_consensus_choose_as_plainly_written():
    rng = random.Random(18)
    names = [f"P{i}" for i in range(9)]
    for trial in range(4000):
        scores = _scores(rng, names)
        options = rng.sample(names, rng.randint(0, 9))
        sit = Situation(Memory("P0"), random.Random(trial), None, {})  # type: ignore[arg-type]
        got = sit.best(options, scores.__getitem__)
        assert got == plain_best(options, scores, random.Random(trial)), (options, scores)
        assert sit.consensus(options, scores.__getitem__) == plain_consensus(options, scores), (options, scores)

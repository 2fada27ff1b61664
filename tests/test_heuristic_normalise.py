"""``heuristic_suspicion.normalise`` gives every float its plain definition gives.

The function is written for its fixed costs (plain loops instead of ``max``, ``zip``
and comprehensions, the usual case's weights and shares written into the dict it
returns); the bot's play depends on each share
being the same float as the water-filling written out plainly, capped rounds too.
"""

from __future__ import annotations

import math
import random

from agents.heuristic_suspicion import CAP, normalise


def plain(s: dict[str, float], pool: list[str], hidden: float) -> dict[str, float]:
    """The water-filling as first written: weights against the top score, shares
    ``hidden * w / total``, capped players at ``CAP`` and the rest spread again."""
    if not pool or hidden <= 0:
        return {n: 0.0 for n in pool}
    top = max(s[n] for n in pool)
    weights = [math.exp(max(s[n] - top, -30.0)) for n in pool]
    total = sum(weights)
    free = [(n, w, hidden * w / total) for n, w in zip(pool, weights)]
    p: dict[str, float] = {}
    left = hidden
    while free:
        capped = [n for n, _, share in free if share > CAP]
        if not capped:
            p.update((n, share) for n, _, share in free)
            break
        for n in capped:
            p[n] = CAP
            left -= CAP
        kept = [(n, w) for n, w, share in free if share <= CAP]
        if left <= 0:
            p.update((n, 0.0) for n, _ in kept)
            break
        total = sum([w for _, w in kept])
        free = [(n, w, left * w / total) for n, w in kept]
    return p


def test_normalise_is_the_plain_water_filling_to_the_last_bit():
    rng = random.Random(18)
    names = [f"P{i}" for i in range(12)]
    for _ in range(3000):
        s = {n: rng.choice([0.0, 0.5, -0.8, 5.0, 40.0, -40.0, rng.uniform(-9, 9)]) for n in names}
        pool = rng.sample(names, rng.randint(0, 12))
        hidden = rng.choice([0.0, 0.5, 0.97, 1.0, 1.25, 2.0, 3.0, rng.uniform(0, 4)])
        got, want = normalise(s, pool, hidden), plain(s, pool, hidden)
        assert list(got) == list(want)
        assert {n: got[n].hex() for n in want} == {n: want[n].hex() for n in want}

"""Adaptive scheduling: spend the next games on the pairs the leaderboard cannot yet
tell apart (``adaptive:`` in a tournament file, with ``seating: teams``).

A fixed round robin spends as many games on the best participant against the worst
(decided long ago) as on two neighbours whose intervals still overlap. Here the plan
grows in batches:

1. **Warm-up.** The first ``warmup`` deals (default one cycle of ordered pairs per
   table) follow the plain teams schedule, so every participant has been seen.
2. **Batches.** Each later batch (``batch`` deals, or a tenth of the deals so far when
   that is more, so a long tournament rebuilds its plan a few dozen times, not
   thousands) is chosen from every game before it: the rating fit the leaderboard
   uses (``rating.outcome``), its strengths and their covariance from the fit's
   curvature (``BTDesign.wald``: one fit, where a bootstrap would be hundreds).
   Half of the batch (rounded up) is **spread**: each game to the ordered pair
   (wolves, village) played least so far, which reads the counts, never the results.
   The rest goes, one game at a time, to the pair of participants whose game would
   most reduce the weighted variance of every pair's difference (A-optimal design,
   the covariance updated after each choice as if the game were played,
   Sherman-Morrison), each pair weighted by ``exp(-(gap / resolution)²)`` of its
   estimated gap, so the games go where participants are still close. A pair's side
   orientation alternates (the one it has played less as wolves goes first), so
   ratings per side stay identified.

   Why half by counts: a plan that only follows the results stops feeding the
   participants that look far from the rest, and their early luck stays. The first
   version (each batch to the fitted order's neighbours not yet separated) marked
   five identical copies separated in 18% of pairs by 95% intervals; following the
   neighbours without stopping, 13%; weights by gap alone, 12% to 32%; with half of
   every batch spread, 7% (teams seating without adaptive: 5%). docs/RATINGS.md
   (lever 3) has the measurements.
3. **Determinism.** A choice depends only on the games before its batch and on a
   generator seeded by the tournament seed and the batch, so the same results give
   the same plan. The chosen pairs are also kept in the database
   (``arena.tournament.run``), so a resumed run (after a kill, or under a newer
   version whose fit differs) continues the plan it began.

A batch is chosen only when every game before it is finished: a failed game holds
the plan until a later run plays it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator, Sequence

import numpy as np

from arena.ratings.bradley_terry import ELO
from arena.ratings.games import VILLAGE, WOLVES, GameOutcome
from arena.ratings.margin import design_for
from arena.tournament.config import TournamentConfig


def warmup_deals(cfg: TournamentConfig) -> int:
    """Deals of the plain teams schedule before the first adaptive batch."""
    n = len(cfg.participants)
    default = len(cfg.tables) * n * (n - 1)
    assert cfg.adaptive is not None
    return min(cfg.games, cfg.adaptive.warmup or default)


def batches(cfg: TournamentConfig) -> Iterator[tuple[int, int, bool]]:
    """(first deal, end deal, adaptive?) of the warm-up and each batch, in order."""
    assert cfg.adaptive is not None
    warm = warmup_deals(cfg)
    if warm:
        yield 0, warm, False
    start = warm
    while start < cfg.games:
        end = min(cfg.games, start + max(cfg.adaptive.batch, start // 10))
        yield start, end, True
        start = end


def side_counts(games: Sequence[GameOutcome]) -> Counter:
    """(wolf participant, village participant) -> games, for teams-seated games."""
    out: Counter = Counter()
    for g in games:
        w = {s.participant for s in g.team(WOLVES)}
        v = {s.participant for s in g.team(VILLAGE)}
        if len(w) == 1 and len(v) == 1:
            out[(next(iter(w)), next(iter(v)))] += 1
    return out


def contrast_weights(s: np.ndarray, scale: float) -> tuple[list[tuple[int, int]], np.ndarray]:
    """Every pair (indices) and how much the results-led half of a batch cares about its
    difference: ``exp(-(gap / scale)²)`` of the estimated gap in Elo, so games go where
    participants are still close, with no cliff at the edge of an interval. (Weights
    alone do not keep the intervals honest, the spread half does: see the module's
    docstring.)"""
    n = len(s)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    gaps = np.array([(s[a] - s[b]) * ELO for a, b in pairs])
    return pairs, np.exp(-((gaps / scale) ** 2))


SPREAD = 0.5  # the share of each batch that goes to the ordered pairs played least


def choose_pairs(cfg: TournamentConfig, names: list[str], played: Sequence[GameOutcome], k: int, batch_start: int) -> list[tuple[str, str]] | None:
    """``k`` (wolf participant, village participant) pairs for the deals of the batch
    that starts at deal ``batch_start``; ``None`` when the games so far do not pin the
    strengths down (the caller keeps the plain schedule).

    Half the batch (rounded up) is spread: each game to the ordered pair played least so
    far, which reads the counts, never the results, so no participant's games stop
    because of how it has done. The rest goes, one game at a time, to the pair that most
    reduces the weighted variance of the pairs' differences (``contrast_weights``), the
    spread games already counted in."""
    assert cfg.adaptive is not None
    design = design_for(cfg.rating.outcome, played, names)
    sol = design.wald()
    if sol is None:
        return None
    s = sol.strengths
    cov = sol.strength_cov()
    rng = random.Random(f"{cfg.seed}:adaptive:{batch_start}")
    targets, weights = contrast_weights(s, cfg.adaptive.resolution)
    contrasts = np.zeros((len(targets), len(names)))
    for row, ((a, b), w) in enumerate(zip(targets, np.sqrt(weights))):
        contrasts[row, a], contrasts[row, b] = w, -w
    counts = side_counts(played)
    index = {n: i for i, n in enumerate(names)}
    ordered = [(w, v) for w in names for v in names if w != v]
    candidates = [(u, v) for u in range(len(names)) for v in range(u + 1, len(names))]

    def game(wolf: int, village: int) -> tuple[np.ndarray, float, np.ndarray]:
        """The game's contrast, its expected information and ``cov @ x``."""
        x = np.zeros(len(names))
        x[village], x[wolf] = 1.0, -1.0
        return x, float(design.expected_information(np.array([s[village] - s[wolf]]), sol)[0]), cov @ x

    out = []
    spread = k - int(k * (1 - SPREAD))
    for i in range(k):
        if i < spread:
            rng.shuffle(ordered)  # ties go to a seeded draw
            w_name, v_name = min(ordered, key=counts.__getitem__)
            wolf, village = index[w_name], index[v_name]
            x, omega, cx = game(wolf, village)
        else:
            rng.shuffle(candidates)
            best = None
            for u, v in candidates:
                wolf, village = _orientation(names, u, v, counts, rng)
                x, omega, cx = game(wolf, village)
                gain = omega * float(np.sum((contrasts @ cx) ** 2)) / (1.0 + omega * float(x @ cx))
                if best is None or gain > best[0] + 1e-15:
                    best = (gain, wolf, village, x, omega, cx)
            assert best is not None  # at least two participants (the config says so)
            _, wolf, village, x, omega, cx = best
        cov = cov - omega * np.outer(cx, cx) / (1.0 + omega * float(x @ cx))  # as if played (Sherman-Morrison)
        counts[(names[wolf], names[village])] += 1
        out.append((names[wolf], names[village]))
    return out


def _orientation(names: list[str], u: int, v: int, counts: Counter, rng: random.Random) -> tuple[int, int]:
    """(wolf, village) for a game between ``u`` and ``v``: the way round played less."""
    a, b = counts[(names[u], names[v])], counts[(names[v], names[u])]
    if a != b:
        return (u, v) if a < b else (v, u)
    return (u, v) if rng.random() < 0.5 else (v, u)

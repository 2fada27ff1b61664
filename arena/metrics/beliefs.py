"""Beliefs: how well a seat's private probabilities track the hidden truth.

When the game option is on, after each day's talk every model seat privately states,
for each other player, the probability that it is a werewolf. The record is::

    {"type": "belief", "day": 2, "seat": "Alice", "probabilities": {"Bob": 0.8, "Chloe": 0.1}}

Beliefs measure reasoning even when the seat's team loses. Two scores, over all of a
seat's statements in the game (the seat itself is never scored):

- Brier score: mean of (p - truth)^2; 0 is perfect, and ``baseline_brier`` is what
  always answering the table's true wolf share would score, the bar to beat.
- AUC: the chance that a random wolf got a higher probability than a random innocent
  (ties count half); 0.5 is guessing, 1 is perfect separation. Undefined when the
  seat only ever rated one kind of player.

Probabilities outside [0, 1] or not numbers are counted as ``invalid`` and not scored.
A record whose ``probabilities`` is ``null`` is a seat that was asked and gave no
readable answer: counted as ``missing``, never scored (nor guessed).

The records are written by ``arena.beliefs`` (``werewolf play --beliefs``, the game
file's ``beliefs: true``), one per living seat that gives beliefs (model seats and
heuristic bots) each day, as the day's vote opens.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable

from arena.metrics.load import GameRecord


def brier(pairs: list[tuple[float, int]]) -> float | None:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else None


def auc(pairs: Iterable[tuple[float, int]]) -> float | None:
    """Mann-Whitney U over (probability, is_wolf) pairs, by ranks with ties averaged."""
    pairs = list(pairs)
    pos = sum(1 for _, y in pairs if y)
    neg = len(pairs) - pos
    if pos == 0 or neg == 0:
        return None
    ordered = sorted(pairs, key=lambda t: t[0])
    rank_sum = 0.0
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        avg_rank = (i + 1 + j) / 2  # ranks i+1 .. j share their mean
        rank_sum += avg_rank * sum(1 for _, y in ordered[i:j] if y)
        i = j
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def belief_pairs(g: GameRecord) -> tuple[dict[str, list[tuple[float, int, int]]], dict[str, int]]:
    """Per seat: (probability, is_wolf, day) for every valid rating; and invalid counts."""
    wolves = g.wolves
    pairs: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    invalid: dict[str, int] = defaultdict(int)
    for b in g.beliefs:
        seat, day = b.get("seat"), int(b.get("day", 0))
        probs = b.get("probabilities")
        if not isinstance(seat, str) or not isinstance(probs, dict):
            continue
        for target, p in probs.items():
            if target == seat or target not in g.roles:
                continue
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or not 0 <= p <= 1:
                invalid[seat] += 1
                continue
            pairs[seat].append((float(p), int(target in wolves), day))
    return dict(pairs), dict(invalid)


def missing_beliefs(g: GameRecord) -> dict[str, int]:
    """Per seat: the days it was asked and gave no belief (``probabilities: null``)."""
    missing: dict[str, int] = defaultdict(int)
    for b in g.beliefs:
        seat = b.get("seat")
        if isinstance(seat, str) and b.get("probabilities") is None:
            missing[seat] += 1
    return dict(missing)


def belief_metrics(g: GameRecord) -> dict[str, Any]:
    pairs, invalid = belief_pairs(g)
    missing = missing_beliefs(g)
    n_players = len(g.roles)
    seats: dict[str, Any] = {}
    for seat in sorted(set(pairs) | set(invalid) | set(missing)):
        rows = pairs.get(seat, [])
        py = [(p, y) for p, y, _ in rows]
        others_wolves = len(g.wolves - {seat})
        share = others_wolves / (n_players - 1) if n_players > 1 else 0.0
        by_day = {}
        for d in sorted({d for _, _, d in rows}):
            day_pairs = [(p, y) for p, y, dd in rows if dd == d]
            by_day[d] = {"n": len(day_pairs), "brier": brier(day_pairs), "auc": auc(day_pairs)}
        seats[seat] = {
            "role": g.roles.get(seat),
            "n": len(py),
            "invalid": invalid.get(seat, 0),
            "missing": missing.get(seat, 0),
            "brier": brier(py),
            "baseline_brier": brier([(share, y) for _, y in py]),
            "auc": auc(py),
            "by_day": by_day,
        }
    return {"seats": seats, "records": len(g.beliefs)}

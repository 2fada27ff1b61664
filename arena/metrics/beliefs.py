"""Beliefs: how well a seat's private probabilities track the hidden truth.

When the game option is on, after each day's talk every model seat privately states,
for each other player, the probability that it is a werewolf. The record is::

    {"type": "belief", "day": 2, "seat": "Alice", "probabilities": {"Bob": 0.8, "Chloe": 0.1}}

Beliefs measure reasoning even when the seat's team loses. Only answers that could be
wrong are scored: the seat itself never, nor a player whose card the seat has seen by
then (a werewolf's packmates, a Seer's checks, any card shown to the seat privately or
to everyone): a wolf rating its pack 1 shows it can read its own card, not the table,
and would make every wolf seat look perfect. Scores, over a seat's scored answers:

- Brier score: mean of (p - truth)^2; 0 is perfect, and ``baseline_brier`` is what
  always answering the table's true wolf share would score, the bar to beat.
  ``skill`` is 1 - brier / baseline_brier: above 0 beats the constant answer.
- AUC: the chance that a random wolf got a higher probability than a random innocent
  (ties count half); 0.5 is guessing, 1 is perfect separation. Undefined when the
  seat only ever rated one kind of player.
- ``bins``: the answers in ``BINS`` equal-width bins of probability, as (answers, sum of
  probabilities, wolves) per bin: additive over seats, so a participant's reliability
  diagram (and a binned AUC) is a sum, per side.

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

from arena.metrics.load import GameRecord, payload_is
from arena.ratings.behaviour import BINS
from engine.events import PUBLIC
from engine.roles.werewolf import WolfPack


def cards_seen(g: GameRecord) -> list[tuple[int, str, str | None]]:
    """(record position, target, seat or None for everyone) for every card a seat was
    shown, in file order: a wolf's pack, a role shown privately (the Seer's result,
    the deal), a role revealed to the table (a death that shows the card)."""
    out: list[tuple[int, str, str | None]] = []
    for i, r in enumerate(g.records):
        if r.get("type") != "event":
            continue
        e = g.typed(r)
        d = e.data
        targets: list[str] = []
        if payload_is(d, WolfPack):
            targets = [w for w in d.wolves or [] if isinstance(w, str)]
        elif d.get("role"):  # any kind that shows a card: a Seer's result, the deal, a death that shows it
            targets = [t for t in (d.get("target"), d.get("player")) if isinstance(t, str)]
        if not targets:  # most events show no card
            continue
        audience = e.audience
        seats = [None] if audience == PUBLIC else [a for a in sorted(audience) if isinstance(a, str)] if isinstance(audience, frozenset) else []
        for seat in seats:
            out.extend((i, t, seat) for t in targets if t != seat)
    return out


def bins_of(pairs: Iterable[tuple[float, int]]) -> list[list[float]]:
    """[answers, sum of probabilities, wolves] per bin."""
    out = [[0, 0.0, 0] for _ in range(BINS)]
    for p, y in pairs:
        b = out[min(BINS - 1, int(p * BINS))]
        b[0] += 1
        b[1] += p
        b[2] += y
    return out


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
    """Per seat: (probability, is_wolf, day) for every valid rating of a player whose
    card the seat had not seen by then; and invalid counts. Kept on the game: its
    measures, the CLI's check and the aggregate all read them."""
    kept = getattr(g, "pairs", None)
    if kept is not None:
        return kept
    g.pairs = _belief_pairs(g)
    return g.pairs


def _belief_pairs(g: GameRecord) -> tuple[dict[str, list[tuple[float, int, int]]], dict[str, int]]:
    if not g.beliefs:
        # No seat gave beliefs (a game without the option, every bot-only game): no
        # pairs, and no need to list the cards shown, a pass over every event (measured:
        # a tenth of ``werewolf metrics`` over a bot tournament).
        return {}, {}
    wolves = g.wolves
    pairs: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    invalid: dict[str, int] = defaultdict(int)
    seen = cards_seen(g)
    known: dict[str | None, set[str]] = defaultdict(set)
    k = 0
    for i, b in enumerate(g.records):
        while k < len(seen) and seen[k][0] < i:
            known[seen[k][2]].add(seen[k][1])
            k += 1
        if b.get("type") != "belief":
            continue
        seat, day = b.get("seat"), int(b.get("day", 0))
        probs = b.get("probabilities")
        if not isinstance(seat, str) or not isinstance(probs, dict):
            continue
        for target, p in probs.items():
            if target == seat or target not in g.roles or target in known[seat] or target in known[None]:
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
        score, base = brier(py), brier([(share, y) for _, y in py])
        seats[seat] = {
            "role": g.roles.get(seat),
            "side": "werewolves" if g.is_wolf(seat) else "village",
            "n": len(py),
            "invalid": invalid.get(seat, 0),
            "missing": missing.get(seat, 0),
            "brier": score,
            "baseline_brier": base,
            "skill": (1 - score / base) if score is not None and base else None,
            "auc": auc(py),
            "bins": bins_of(py),
            "by_day": by_day,
        }
    return {"seats": seats, "records": len(g.beliefs)}

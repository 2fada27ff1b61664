"""Issue 40, goal 2: a "separated" mark that holds for the whole table (family-wise 95%
over its pairs), beside each pair's own interval."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from arena.ratings.bootstrap import cluster_rows, clusters_of
from arena.ratings.bradley_terry import BTDesign
from arena.ratings.games import GameOutcome, SeatResult
from arena.ratings.leaderboard import compute
from arena.ratings.pairs import pair_table
from arena.ratings.render import markdown
from arena.ratings.simultaneous import max_t_family


def teams_games(strengths: dict[str, float], n: int, seed: int) -> list[GameOutcome]:
    """Teams seating: one participant's pack against another's village, the village
    winning with the Bradley-Terry probability of their strengths (log-odds)."""
    rng = random.Random(seed)
    names = list(strengths)
    games = []
    for i in range(n):
        wolf, village = rng.sample(names, 2)
        p = 1 / (1 + math.exp(-(strengths[village] - strengths[wolf] - 0.3)))
        winner = "village" if rng.random() < p else "werewolves"
        seats = [SeatResult(village, "village", "villager", winner == "village")] * 6
        seats += [SeatResult(wolf, "werewolves", "werewolf", winner == "werewolves")] * 2
        games.append(GameOutcome(str(i), winner, tuple(seats)))
    return games


def test_critical_value_is_the_normal_maximums_quantile():
    """Independent differences: the 95% quantile of the largest of m |N(0, 1)| (1.96 for
    one, 2.80 for ten); identical ones: one difference's (1.96)."""
    rng = np.random.default_rng(0)
    z = rng.standard_normal((40_000, 10))
    one = max_t_family(np.zeros(1), z[:, :1])
    ten = max_t_family(np.zeros(10), z)
    same = max_t_family(np.zeros(10), np.repeat(z[:, :1], 10, axis=1))
    assert one.critical == pytest.approx(1.96, abs=0.04)
    assert ten.critical == pytest.approx(2.80, abs=0.05)  # (2 Φ(c) − 1)^10 = 0.95
    assert same.critical == pytest.approx(1.96, abs=0.04)
    # Scale and centre: a member's interval is its point ± critical × its own spread.
    scaled = max_t_family(np.array([5.0, -1.0]), np.column_stack([5 + 3 * z[:, 0], -1 + 0.5 * z[:, 1]]))
    lo, hi = scaled.interval(0, 5.0)
    assert (hi - lo) / 2 == pytest.approx(scaled.critical * 3, rel=0.03)
    assert scaled.interval(1, None) == (None, None)


def test_members_without_spread_or_replicates_stay_out_of_the_family():
    nan = np.full(50, np.nan)
    rng = np.random.default_rng(1)
    fam = max_t_family(np.array([1.0, np.nan, 2.0]), np.column_stack([1 + rng.standard_normal(50), nan, np.full(50, 2.0)]))
    assert fam.critical is not None and math.isfinite(fam.critical)
    assert fam.interval(1, None) == (None, None)
    assert fam.interval(2, 2.0) == (2.0, 2.0)  # no spread: as the pair's own percentile interval, a point
    assert max_t_family(np.zeros(0), np.zeros((0, 0))).critical is None
    assert max_t_family(np.zeros(2), np.zeros((0, 2))).critical is None


def test_five_equals_are_rarely_marked_anywhere_in_the_table():
    """Five participants of one strength: a pair's own interval marks one of the ten
    pairs in far more tournaments than 5%; the simultaneous marks about 5% of them."""
    names = [f"P{i}" for i in range(5)]
    any_pair = any_family = 0
    for seed in range(40):
        games = teams_games(dict.fromkeys(names, 0.0), 150, seed)
        design = BTDesign(games, names)
        point = {f"bt:{k}": v for k, v in design.fit().items()}
        rows = cluster_rows(clusters_of(range(len(games))), 200, seed)
        fits = design.fit_many(rows)
        reps = {f"bt:{k}": np.array([f[k] for f in fits]) for k in names}
        pairs, family = pair_table(names, point, reps)
        assert family["pairs"] == 10 and family["critical"] > 2.2
        any_pair += any(q["separated_per_pair"] for q in pairs)
        any_family += any(q["separated"] for q in pairs)
    assert any_pair >= 7  # about a third of 40 expected (13 with these seeds)
    assert any_family <= 5  # about 2 of 40 expected (3 with these seeds)


def test_leaderboard_offers_both_intervals_and_marks_by_the_simultaneous_one():
    strengths = {"A": 1.2, "B": 0.6, "C": 0.5, "D": 0.0}
    lb = compute(teams_games(strengths, 600, 3), n_boot=300, seed=1)
    doc = lb.to_json()
    fam = doc["simultaneous"]
    assert fam["pairs"] == 6 and fam["level"] == 0.95 and 1.96 < fam["critical"] < 2.8 and "max-t" in fam["method"]
    for q in doc["pairs"]:
        s = q["simultaneous"]
        assert s["low"] < q["diff"] < s["high"]
        assert s["high"] - s["low"] > q["high"] - q["low"]  # wider than the pair's own
        assert q["separated"] == (s["low"] > 0 or s["high"] < 0)
        assert q["separated_per_pair"] == (q["low"] > 0 or q["high"] < 0)
        if q["separated"]:
            assert q["separated_per_pair"]
    by = {(q["a"], q["b"]): q for q in doc["pairs"]}
    rows = doc["participants"]
    for r, nxt in zip(rows, rows[1:]):
        q = by[(r["participant"], nxt["participant"])]
        assert r["separated_from_next"] == q["separated"] and r["separated_from_next_per_pair"] == q["separated_per_pair"]
    assert rows[-1]["separated_from_next"] is None
    assert by[("A", "D")]["separated"]  # 1.2 log-odds in 600 games
    text = markdown(lb)
    assert "simultaneous" in text and f"± {fam['critical']:.2f}" in text


def test_pair_only_is_shown_where_only_the_pairs_own_interval_excludes_zero():
    """A pair marked by its own interval but not by the table's reads "pair only"."""
    for seed in range(40):
        lb = compute(teams_games({"A": 0.3, "B": 0.0, "C": 0.0}, 300, seed), n_boot=200, seed=seed)
        q = next((q for q in lb.pairs if q["separated_per_pair"] and not q["separated"]), None)
        if q is not None:
            break
    assert q is not None, "no tournament of 40 where the two intervals disagree"
    row = next(line for line in markdown(lb).splitlines() if line.startswith(f"| {q['a']} − {q['b']} |"))
    assert row.rstrip(" |").endswith("pair only")


def test_no_resample_leaves_both_marks_unknown():
    lb = compute(teams_games({"A": 0.5, "B": 0.0}, 100, 1), n_boot=0, seed=0)
    (q,) = lb.pairs
    assert q["separated"] is None and q["separated_per_pair"] is None and q["simultaneous"] == {"low": None, "high": None}
    assert lb.simultaneous["critical"] is None and lb.rows[0]["separated_from_next"] is None

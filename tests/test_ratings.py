"""Ratings on synthetic games whose true strengths are known."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from arena.ratings.bootstrap import bootstrap, percentile_interval
from arena.ratings.bradley_terry import ELO, bradley_terry
from arena.ratings.games import GameOutcome, SeatResult
from arena.ratings.leaderboard import compute
from arena.ratings.plackett_luce import TeamRater, overall_identity, replicate_mu, side_identity
from arena.ratings.wilson import wilson

TRUE = {"Strong": 0.9, "Good": 0.3, "Weak": -0.3, "Poor": -0.9}  # log-odds, mean zero
ALPHA = -0.4  # the village's built-in disadvantage


def synthetic(n_games: int, seed: int = 1, village_seats: int = 6, wolf_seats: int = 2) -> list[GameOutcome]:
    """Side-against-side games: one participant's wolves against another's village, the
    winner drawn from the Bradley-Terry model with the true strengths."""
    rng = random.Random(seed)
    names = list(TRUE)
    games = []
    for i in range(n_games):
        wolf, village = rng.sample(names, 2)
        p = 1 / (1 + math.exp(-(ALPHA + TRUE[village] - TRUE[wolf])))
        winner = "village" if rng.random() < p else "werewolves"
        seats = [SeatResult(village, "village", "villager", winner == "village") for _ in range(village_seats)]
        seats += [SeatResult(wolf, "werewolves", "werewolf", winner == "werewolves") for _ in range(wolf_seats)]
        games.append(GameOutcome(f"g{i}", winner, tuple(seats)))
    return games


def mixed_games(n: int, seed: int = 3) -> list[GameOutcome]:
    """Tables where participants share sides, sit on both, and some games are drawn."""
    rng = random.Random(seed)
    games = []
    for i in range(n):
        roles = ["werewolf"] * 2 + ["seer"] + ["villager"] * 5
        winner = rng.choice(["village", "werewolves", "none"])
        seats = []
        for r in roles:
            side = "werewolves" if r == "werewolf" else "village"
            seats.append(SeatResult(rng.choice("ABC"), side, r, side == winner))
        games.append(GameOutcome(f"m{i}", winner, tuple(seats)))
    return games


def test_wilson_matches_published_values():
    lo, hi = wilson(81, 263)  # Wilson (1927) / Newcombe (1998) example: 0.2553 - 0.3662
    assert lo == pytest.approx(0.2553, abs=5e-4) and hi == pytest.approx(0.3662, abs=5e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_true_order_and_covers_truth():
    games = synthetic(1500)
    lb = compute(games, n_boot=200, seed=5)
    by_name = {r["participant"]: r for r in lb.rows}
    fitted = {p: by_name[p]["bradley_terry"]["value"] for p in TRUE}
    assert sorted(fitted, key=fitted.get, reverse=True) == list(TRUE)
    for p, truth in TRUE.items():
        e = by_name[p]["bradley_terry"]
        assert e["low"] <= truth * ELO <= e["high"], (p, truth * ELO, e)
    va = lb.village_advantage
    assert va["low"] <= ALPHA * ELO <= va["high"]


def test_openskill_orders_participants_like_the_truth():
    lb = compute(synthetic(1200), n_boot=100, seed=2)
    order = [r["participant"] for r in lb.rows]  # sorted by OpenSkill
    assert order == list(TRUE)
    strong, poor = lb.rows[0]["openskill"], lb.rows[-1]["openskill"]
    assert strong["low"] > poor["high"]  # clearly separated at the extremes


def test_side_ratings_separate_a_good_liar_from_a_good_detective():
    """A participant strong only as a werewolf shows it in the per-side figures."""
    rng = random.Random(4)
    games = []
    for i in range(1500):
        wolf, village = rng.sample(["Liar", "Plain", "Plain2"], 2)
        edge = (0.0 if village != "Liar" else 0.0) - (1.2 if wolf == "Liar" else 0.0)
        winner = "village" if rng.random() < 1 / (1 + math.exp(-edge)) else "werewolves"
        seats = [SeatResult(village, "village", "villager", winner == "village")] * 6
        seats += [SeatResult(wolf, "werewolves", "werewolf", winner == "werewolves")] * 2
        games.append(GameOutcome(str(i), winner, tuple(seats)))
    lb = compute(games, n_boot=100, seed=1)
    liar = next(r for r in lb.rows if r["participant"] == "Liar")
    plain = next(r for r in lb.rows if r["participant"] == "Plain")
    assert liar["bradley_terry_by_side"]["werewolves"]["low"] > plain["bradley_terry_by_side"]["werewolves"]["high"]
    v_liar, v_plain = liar["bradley_terry_by_side"]["village"], plain["bradley_terry_by_side"]["village"]
    assert v_liar["low"] < v_plain["value"] < v_liar["high"]  # as villagers they are alike
    assert liar["openskill_by_side"]["werewolves"]["value"] > plain["openskill_by_side"]["werewolves"]["value"]


def test_vectorised_openskill_is_the_library_update():
    games = mixed_games(300)
    for ident in (overall_identity, side_identity):
        ref = TeamRater(ident).fit(games)
        keys, mu = replicate_mu(games, np.arange(len(games))[None, :], ident)
        assert set(keys) == set(ref)
        for i, k in enumerate(keys):
            assert mu[0, i] == pytest.approx(ref[k], abs=1e-9)
    # several orders at once give each order's own sequential result
    orders = np.stack([np.random.default_rng(s).permutation(len(games)) for s in range(3)])
    keys, mu = replicate_mu(games, orders)
    for r in range(3):
        ref = TeamRater().fit([games[i] for i in orders[r]])
        assert [mu[r, keys.index(k)] for k in sorted(ref)] == pytest.approx([ref[k] for k in sorted(ref)], abs=1e-9)


def test_bootstrap_is_seeded_and_resamples_games():
    items = list(range(50))
    a = bootstrap(items, lambda xs: {"mean": float(np.mean(xs))}, n_boot=100, seed=3)
    b = bootstrap(items, lambda xs: {"mean": float(np.mean(xs))}, n_boot=100, seed=3)
    assert np.array_equal(a["mean"], b["mean"])
    lo, hi = percentile_interval(a["mean"])
    assert lo < 24.5 < hi
    assert percentile_interval(np.array([np.nan])) == (None, None)


def test_leaderboard_gives_every_number_its_interval():
    lb = compute(mixed_games(120), n_boot=50, seed=0)
    doc = lb.to_json()
    assert doc["bootstrap"] == {"resamples": 50, "seed": 0, "level": 0.95, "unit": "game"}
    for row in doc["participants"]:
        for key in ("win_rate", "openskill", "bradley_terry"):
            e = row[key]
            assert e["value"] is not None and e["low"] <= e["value"] <= e["high"] or e["value"] is None
        for side in ("village", "werewolves"):
            w = row["win_rate_by_side"][side]
            assert {"k", "n", "rate", "low", "high"} <= set(w)
            for key in ("openskill_by_side", "bradley_terry_by_side"):
                assert {"value", "low", "high"} == set(row[key][side])
        for role, w in row["win_rate_by_role"].items():
            assert 0 <= w["low"] <= w["rate"] <= w["high"] <= 1
    again = compute(mixed_games(120), n_boot=50, seed=0).to_json()
    assert again == doc


def test_bradley_terry_on_no_decided_game_is_empty():
    g = GameOutcome("x", "none", (SeatResult("A", "village", "villager", False), SeatResult("B", "werewolves", "werewolf", False)))
    assert bradley_terry([g], ["A", "B"]) == {}


def test_per_side_strengths_are_withheld_when_the_games_cannot_separate_them():
    """Two participants who only meet as whole teams: village and wolf skill are
    confounded, so the per-side fit says nothing rather than split the sum evenly."""
    games = [g for g in synthetic(400) if {s.participant for s in g.seats} == {"Strong", "Poor"}]
    lb = compute(games, n_boot=30, seed=0)
    for r in lb.rows:
        assert r["bradley_terry"]["value"] is not None
        assert all(r["bradley_terry_by_side"][s]["value"] is None for s in ("village", "werewolves"))

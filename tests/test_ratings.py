"""Ratings on synthetic games whose true strengths are known."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from fit_checks import assert_batched_fits_agree

from arena.ratings.bootstrap import bootstrap, percentile_interval
from arena.ratings.bradley_terry import ELO, bradley_terry
from arena.ratings.fallbacks import keep_decided, left_out, nothing_rated
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


def test_vectorised_openskill_pads_skips_unrated_and_reads_tau():
    """Padding rates nothing, a game with one side missing is not rated, and the
    closed-form update follows the library's with tau > 0 (variance added per game)."""
    from openskill.models import PlackettLuce

    games = mixed_games(60, seed=5)
    games.insert(7, GameOutcome("solo", "werewolves", (SeatResult("A", "werewolves", "werewolf", True),)))
    model = PlackettLuce(tau=0.3)
    short = [i for i in range(len(games)) if i % 3]
    orders = np.full((2, len(games)), -1)
    orders[0, : len(short)] = short
    orders[1] = np.arange(len(games))[::-1]
    keys, mu = replicate_mu(games, orders, model=model)
    for r, order in enumerate((short, list(range(len(games)))[::-1])):
        ref = TeamRater(model=model).fit([games[i] for i in order])
        assert [mu[r, keys.index(k)] for k in sorted(ref)] == pytest.approx([ref[k] for k in sorted(ref)], abs=1e-9)


def test_batched_bradley_terry_fits_are_each_replicates_own_fit():
    """``fit_many`` solves the replicates together; each must be what ``fit`` gives
    alone, including replicates that miss a participant (it is then left out) and
    replicates whose games do not identify the per-side strengths."""
    from arena.ratings.bradley_terry import BTDesign

    games = synthetic(80, seed=4) + mixed_games(40)
    rng = np.random.default_rng(2)
    rows = [rng.integers(0, len(games), len(games)) for _ in range(30)]
    rows.append(np.array([i for i, g in enumerate(games) if all(s.participant != "Poor" for s in g.seats)]))
    rows.append(np.array([0, 0, 1]))  # too few games for every strength
    for by_side in (False, True):
        design = BTDesign(games, list(TRUE) + list("ABC"), by_side=by_side)
        together = assert_batched_fits_agree(design, rows)
    assert "Poor" not in together[-2]


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


# ---------------------------------------------------------------------- issue 13
def test_primary_rating_sorts_the_table_and_every_pair_has_its_difference():
    lb = compute(synthetic(900, seed=8), n_boot=100, seed=1)
    doc = lb.to_json()
    assert doc["primary"] == "bradley_terry"
    order = [r["participant"] for r in doc["participants"]]
    assert order == list(TRUE)  # best first, by Bradley-Terry
    ratings = {r["participant"]: r["rating"] for r in doc["participants"]}
    assert [(q["a"], q["b"]) for q in doc["pairs"]] == [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
    for q in doc["pairs"]:
        assert q["diff"] == pytest.approx(ratings[q["a"]]["value"] - ratings[q["b"]]["value"])
        assert q["low"] <= q["diff"] <= q["high"] and q["p_better"] >= 0.5
        assert (q["low"] > 0) == (q["p_better"] > 0.975 - 1e-9) or q["low"] <= 0 < q["p_better"]
    strong_poor = next(q for q in doc["pairs"] if (q["a"], q["b"]) == ("Strong", "Poor"))
    assert strong_poor["low"] > 0 and strong_poor["p_better"] == 1.0
    marks = [r["separated_from_next"] for r in doc["participants"]]
    assert marks[-1] is None and all(isinstance(m, bool) for m in marks[:-1])


def test_identical_players_are_not_declared_different():
    """Two names for one strength: their difference's interval covers zero."""
    rng = random.Random(2)
    games = []
    for i in range(600):
        wolf, village = rng.sample(["A", "A2", "B"], 2)
        s = {"A": 0.0, "A2": 0.0, "B": -0.5}
        p = 1 / (1 + math.exp(-(s[village] - s[wolf])))
        winner = "village" if rng.random() < p else "werewolves"
        seats = [SeatResult(village, "village", "villager", winner == "village")] * 6
        seats += [SeatResult(wolf, "werewolves", "werewolf", winner == "werewolves")] * 2
        games.append(GameOutcome(str(i), winner, tuple(seats)))
    lb = compute(games, n_boot=200, seed=3)
    q = next(q for q in lb.pairs if {q["a"], q["b"]} == {"A", "A2"})
    assert q["low"] < 0 < q["high"] and 0.1 < q["p_better"] < 0.9


def test_side_ratings_only_where_the_design_identifies_them():
    mixed = compute(mixed_games(200), n_boot=30, seed=0)
    assert mixed.sides["identified"] is False and "mixed seating" in mixed.sides["why"]
    for r in mixed.rows:
        assert all(r["bradley_terry_by_side"][s]["value"] is None for s in ("village", "werewolves"))
        assert all(r["openskill_by_side"][s]["value"] is None for s in ("village", "werewolves"))
        assert set(r["win_rate_vs_field"]) == {"village", "werewolves"}
    teams = compute(synthetic(400), n_boot=30, seed=0)
    assert teams.sides["identified"] is True
    assert all(r["bradley_terry_by_side"]["werewolves"]["value"] is not None for r in teams.rows)


def test_win_rate_against_the_field_is_withheld_where_the_schedule_leaves_no_field():
    """Everyone sits in every village: no village field to compare with."""
    full = [g for g in mixed_games(300) if {s.participant for s in g.team("village")} == set("ABC")]
    lb = compute(full, n_boot=30, seed=0)
    for r in lb.rows:
        assert r["win_rate_vs_field"]["village"]["value"] is None
    wolves = {r["participant"]: r["win_rate_vs_field"]["werewolves"] for r in compute(synthetic(600), n_boot=50, seed=0).rows}
    assert wolves["Strong"]["low"] > 0 > wolves["Poor"]["high"]  # a strong pack wins more than the field's packs


def _with_fallbacks(games: list[GameOutcome], who: str, every: int) -> list[GameOutcome]:
    """Every ``every``-th game, ``who``'s seats had 3 of their 10 decisions played by the fallback."""
    out = []
    for i, g in enumerate(games):
        bad = i % every == 0
        seats = tuple(
            SeatResult(s.participant, s.side, s.role, s.won, decisions=10, fallbacks=3 if bad and s.participant == who else 0)
            for s in g.seats
        )
        out.append(GameOutcome(g.id, g.winner, seats, deal=g.deal))
    return out


def test_games_with_fallback_moves_are_left_out_and_counted():
    games = _with_fallbacks(synthetic(300, seed=6), "Weak", every=4)
    weak_games = sum(1 for i, g in enumerate(games) if i % 4 == 0 and any(s.participant == "Weak" for s in g.seats))
    lb = compute(games, n_boot=20, seed=0)
    assert lb.excluded["games"] == weak_games and lb.excluded["by_participant"] == {"Weak": weak_games}
    assert "90%" in lb.excluded["reason"] and lb.games == 300 - weak_games
    row = next(r for r in lb.rows if r["participant"] == "Weak")
    assert row["excluded_games"] == weak_games
    loose = compute(games, n_boot=20, seed=0, min_decided=0.6)  # 70% decided is enough at 60%
    assert loose.excluded["games"] == 0 and loose.games == 300
    from arena.ratings.render import headline

    assert f"{weak_games} games left out (Weak {weak_games})" in headline(lb)


def _fallback_game(gid: str, fell: int) -> GameOutcome:
    return GameOutcome(gid, "village", (SeatResult("Dead", "village", "villager", True, decisions=10, fallbacks=fell),
                                        SeatResult("H", "werewolves", "werewolf", False)))  # fmt: skip


def test_the_leaderboard_says_what_it_left_out_for_whom_and_the_flag_that_includes_it():
    kept, ex = keep_decided([_fallback_game("a", 10), _fallback_game("b", 3), _fallback_game("c", 0)], 0.9)
    assert [g.id for g in kept] == ["c"]
    assert ex["by_participant"] == {"Dead": 2} and ex["decisions"] == {"Dead": {"asked": 20, "decided": 7}}
    assert ex["include_with"] == "--min-decided 0"
    assert keep_decided([_fallback_game("b", 3)], 0.9)[1]["include_with"] == "--min-decided 0.7"
    assert keep_decided([_fallback_game("b", 3)], 0.7)[1]["games"] == 0  # the flag it names includes the game
    text = left_out(ex)
    assert text.startswith("2 games left out (Dead 2): a participant's own agent decided less than 90%")
    assert "Dead decided 7 of its 20 decisions" in text and text.endswith("--min-decided 0 includes them")
    assert nothing_rated(ex).startswith("no game rated: 2 of 2 finished games left out (Dead 2)")
    assert nothing_rated(keep_decided([], 0.9)[1]) == "no finished game in the database yet"


def test_mirrored_deals_are_resampled_together():
    base = synthetic(200, seed=9)
    games = [GameOutcome(f"{g.id}m{r}", g.winner, g.seats, deal=i) for i, g in enumerate(base) for r in range(2)]
    lb = compute(games, n_boot=50, seed=0)
    assert lb.unit == "deal" and lb.to_json()["bootstrap"]["unit"] == "deal"
    # a duplicated game is no new evidence: the interval is the single games' interval
    single = compute([GameOutcome(g.id, g.winner, g.seats, deal=i) for i, g in enumerate(base)], n_boot=50, seed=0)
    w2 = {r["participant"]: r["rating"]["high"] - r["rating"]["low"] for r in lb.rows}
    w1 = {r["participant"]: r["rating"]["high"] - r["rating"]["low"] for r in single.rows}
    for p in w1:
        assert w2[p] == pytest.approx(w1[p], rel=0.05)


def test_no_game_gives_an_empty_leaderboard():
    lb = compute([], n_boot=20, seed=0)
    doc = lb.to_json()
    assert doc["participants"] == [] and doc["pairs"] == [] and doc["games"] == 0 and doc["primary"] == "bradley_terry"

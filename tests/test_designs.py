"""Tournament designs for fewer games (issue 13): duplicate deals, and the rating
self-test's in-memory play and figures."""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict

import pytest

from arena.ratings.games import GameOutcome, SeatResult
from arena.ratings.recovery import first_separated, kendall_tau, pair_figures, projected_games
from arena.ratings.selftest import ladder_config, play_games
from arena.tournament.config import ConfigError, config_from_data
from arena.tournament.run import run_tournament
from arena.tournament.schedule import build_schedule, side_of

NAMES = ["A", "B", "C", "D"]


def dup_cfg(games: int = 16, players: int = 8, **over):
    data = {"seed": 5, "games": games, "seating": "duplicate", "tables": [{"players": players}],
            "participants": [{"name": n, "agent": "heuristic"} for n in NAMES]}  # fmt: skip
    data.update(over)
    return config_from_data(data)


def test_a_duplicate_deal_replays_one_table_for_every_other_participant():
    plans, _ = build_schedule(dup_cfg())
    deals = defaultdict(list)
    for p in plans:
        deals[p.deal].append(p)
    assert len(plans) == 16 * 3 and all(len(g) == 3 for g in deals.values())
    fixed_sides = Counter()
    for games in deals.values():
        first = games[0]
        # same seed, names, positions and cards in every game of the deal
        assert {g.seed for g in games} == {first.seed}
        assert all([(s.name, s.role, s.position) for s in g.seats] == [(s.name, s.role, s.position) for s in first.seats] for g in games)
        sides = [{side: {s.participant for s in g.seats if side_of(s.role) == side} for side in ("village", "werewolves")} for g in games]
        assert all(len(x["village"]) == 1 and len(x["werewolves"]) == 1 for x in sides)  # one participant per side
        fixed = [side for side in ("village", "werewolves") if len({next(iter(x[side])) for x in sides}) == 1]
        assert len(fixed) == 1
        rotating = "village" if fixed[0] == "werewolves" else "werewolves"
        others = {next(iter(x[rotating])) for x in sides}
        holder = next(iter(sides[0][fixed[0]]))
        assert others == set(NAMES) - {holder}  # every other participant takes the other side once
        fixed_sides[(holder, fixed[0])] += 1
    # every participant holds the fixed pack and the fixed village equally often
    assert set(fixed_sides.values()) == {2} and len(fixed_sides) == 8


def test_duplicate_seating_is_refused_with_mirror():
    with pytest.raises(ConfigError, match="mirror"):
        dup_cfg(mirror=True)


def test_duplicate_tournament_runs_resumes_and_rates_by_deal(tmp_path, capsys):
    cfg = dup_cfg(games=3)
    db = tmp_path / "d.sqlite"
    first = run_tournament(cfg, db, progress=False, max_games=4)
    assert (first.played, first.remaining) == (4, 5)
    assert run_tournament(cfg, db, progress=False).played == 5
    assert run_tournament(cfg, db, progress=False).played == 0
    ids = [r[0] for r in sqlite3.connect(db).execute("SELECT id FROM games ORDER BY idx")]
    assert ids == [f"g{d:05d}d{r}" for d in range(3) for r in range(3)]
    import json

    from arena.cli import main

    assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "30"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bootstrap"]["unit"] == "deal" and doc["side_ratings"]["identified"] is True


def test_in_memory_play_follows_the_tournament_schedule():
    cfg = ladder_config(4, 8, seed=3, seating="teams")
    games = list(play_games(cfg))
    plans, _ = build_schedule(cfg)
    assert [g.id for g in games] == [p.id for p in plans]
    assert all(len(g.seats) == 8 and g.winner for g in games)
    assert list(play_games(cfg)) == games  # seeded: the same games again


def _games(true: dict[str, float], n: int, seed: int) -> list[GameOutcome]:
    import math
    import random

    rng = random.Random(seed)
    out = []
    for i in range(n):
        wolf, village = rng.sample(list(true), 2)
        won = rng.random() < 1 / (1 + math.exp(-(true[village] - true[wolf])))
        seats = (SeatResult(village, "village", "villager", won),) * 3 + (SeatResult(wolf, "werewolves", "werewolf", not won),)
        out.append(GameOutcome(str(i), "village" if won else "werewolves", seats, deal=i))
    return out


def test_recovery_figures():
    assert kendall_tau(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert kendall_tau(["c", "b", "a"], ["a", "b", "c"]) == -1.0
    assert kendall_tau(["b", "a", "c"], ["a", "b", "c"]) == pytest.approx(1 / 3)
    assert first_separated([100, 200, 300, 400], [True, False, True, True]) == 300
    assert first_separated([100, 200], [True, False]) is None
    assert projected_games(400, 40.0) == pytest.approx(400 * (1.959963984540054 * 40 / 75) ** 2)
    games = _games({"S": 1.0, "M": 0.0, "W": -1.0}, 600, 1)
    figs = pair_figures(games, ["S", "M", "W"], [("S", "M"), ("M", "W")], 100, 0)
    for f in figs:
        assert f.separated and f.diff > 0 and f.sd > 0
        assert f.low < 400 / 2.302585 < f.high  # the truth: 1 log-odd = 174 Elo

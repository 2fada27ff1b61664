"""The bias report (``arena.metrics.bias``): votes and survival by speaking position and
by seat name, read from transcripts. It finds a planted effect (a bot that votes for
the day's last speaker) and shows none in a rotated bot tournament without one; and
``names:`` in a tournament file draws, fixes or pools the seat names."""

from __future__ import annotations

from statistics import NormalDist

import json
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from arena.metrics import load_transcript
from arena.metrics.bias import POSITIONS, GameBias, bias_report, seat_days
from arena.tournament.config import ConfigError, config_from_data
from arena.tournament.schedule import build_schedule
from arena.gamefile import NAMES
from arena.site.bias import store_bias
from arena.site.frame import num

TABLE = {"preset": "millers_hollow", "players": 8, "options": {"sheriff": False}}  # no Sheriff: the order rotates by day


def _bias_of(tmp_path: Path, participants: list[dict], games: int = 200, seed: int = 7) -> dict:
    """A played mixed-seating tournament's transcripts, measured by ``werewolf metrics --json``."""
    cfg = {"name": "bias", "seed": seed, "games": games, "tables": [TABLE], "participants": participants}
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    assert main(["tournament", str(tmp_path / "t.yaml"), "--db", str(db), "--quiet"]) == 0
    return {"folder": tmp_path / "t_transcripts"}


def _measured(folder: Path, capsys) -> dict:
    capsys.readouterr()
    assert main(["metrics", str(folder), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["aggregate"]["bias"]


def _excludes_zero(e: dict) -> bool:
    return e["low"] > 0 or e["high"] < 0


def test_seat_days_follow_the_days_speaking_order(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["play", "--seed", "5", "--quiet", "--transcript", str(out)]) == 0
    g = load_transcript(out)
    rows = seat_days(g)
    assert rows
    for day in {r.day for r in rows}:
        today = sorted((r for r in rows if r.day == day), key=lambda r: r.position)
        assert [r.position for r in today] == list(range(len(today))) and all(r.speakers == len(today) for r in today)
        assert abs(sum(r.vote_share for r in today) - 1.0) < 1e-9 or sum(r.vote_share for r in today) < 1  # a ballot for a non-speaker
        assert abs(sum(r.share_excess for r in today)) < 1e-9 and abs(sum(r.out_excess for r in today)) < 1e-9
        assert sum(r.voted_out for r in today) <= 1
        assert today[0].bin == "first" and today[-1].bin == "last"
    report = bias_report([GameBias.of(g)], n_boot=50)
    assert report is not None and [r["position"] for r in report["by_position"]] == list(POSITIONS)
    assert sum(r["seat_days"] for r in report["by_position"]) == len(rows) == report["seat_days"]
    assert {r["name"] for r in report["by_name"]} == {r.name for r in rows}


def test_a_planted_last_speaker_bias_is_found(tmp_path, capsys):
    """One participant's bot votes for the day's last speaker with probability 0.6."""
    folder = _bias_of(tmp_path, [{"name": "Last", "agent": "py:bias_bots:LastSpeakerVoter", "options": {"share": 0.6}},
                                 {"name": "Heuristic", "agent": "heuristic"}])["folder"]  # fmt: skip
    b = _measured(folder, capsys)
    last = next(r for r in b["by_position"] if r["position"] == "last")
    assert last["vote_share_excess"]["low"] > 0.05 and last["voted_out_excess"]["low"] > 0
    assert b["slope"]["vote_share"]["low"] > 0
    first = next(r for r in b["by_position"] if r["position"] == "first")
    assert first["vote_share_excess"]["high"] < 0  # the others' votes went to the last speaker
    assert main(["metrics", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "Votes by speaking position" in text and "Votes and survival by seat name" in text
    # The site shows the same report, read from the store's transcripts and then kept in its cache.
    db = tmp_path / "t.sqlite"
    assert main(["leaderboard", "--db", str(db), "--html", str(tmp_path / "site"), "--bootstrap", "20"]) == 0
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    section = page.split('id="bias"')[1].split("<h2")[0]
    assert "chart points" in section and "By seat name" in section
    shown = num(last["vote_share_excess"], 1, 100.0, signed=True)
    assert f'<td class="name">last</td><td class="name">{last["seat_days"]:,}</td>' in section and shown in section
    assert store_bias(str(db)) == store_bias(str(db))  # the second from the cache


def test_no_bias_is_shown_where_none_was_planted(tmp_path, capsys):
    """Bots with no positional play, the order rotating by day, names drawn per game:
    every position's interval and the slope's cover 0, and the permutation test finds no
    name effect. (Random bots: a heuristic bot's hunches may well fall on a day's last
    speaker, a real effect of its play that the report should show, not a null.)"""
    folder = _bias_of(tmp_path, [{"name": "Random-A", "agent": "random"}, {"name": "Random-B", "agent": "random"}])["folder"]
    b = _measured(folder, capsys)
    # Each interval is a 95% one: of the ten below, one excludes 0 by chance in about
    # four tables of none. The test holds the family at 5% (Bonferroni: each estimate
    # within z standard errors of 0, z = 2.81 for ten), as a reader scanning the table should.
    estimates = [(r["position"], key, r[key]) for r in b["by_position"] for key in ("vote_share_excess", "voted_out_excess")]
    estimates += [("slope", key, b["slope"][key]) for key in ("vote_share", "voted_out")]
    z = NormalDist().inv_cdf(1 - 0.025 / len(estimates))
    for where, key, e in estimates:
        se = (e["high"] - e["low"]) / (2 * 1.96)
        assert abs(e["value"]) <= z * se, (where, key, e)
    assert len(b["by_name"]) == len(NAMES)  # every name of the pool was drawn
    effect = b["name_effect"]
    assert all(effect[k]["p_value"] > 0.05 / 3 for k in ("vote_share_excess", "voted_out_excess", "survived_excess")), effect


def _config(**extra) -> dict:
    return {"name": "n", "games": 6, "tables": [TABLE], "participants": [{"name": "A", "agent": "heuristic"}, {"name": "B", "agent": "random"}]} | extra


def test_names_are_drawn_fixed_or_from_a_pool():
    drawn = [[s.name for s in p.seats] for p in build_schedule(config_from_data(_config()))[0]]
    assert len({tuple(n) for n in drawn}) > 1 and all(set(n) <= set(NAMES) for n in drawn)
    assert drawn == [[s.name for s in p.seats] for p in build_schedule(config_from_data(_config(names="shuffled")))[0]]
    fixed = build_schedule(config_from_data(_config(names="fixed")))[0]
    assert all([s.name for s in p.seats] == list(NAMES[:8]) for p in fixed)
    # The rule changes the names only: the deals (who sits where with which card) are the same.
    shuffled = build_schedule(config_from_data(_config()))[0]
    assert [[(s.participant, s.role) for s in p.seats] for p in fixed] == [[(s.participant, s.role) for s in p.seats] for p in shuffled]
    pool = [f"N{i}" for i in range(10)]
    own = build_schedule(config_from_data(_config(names=pool)))[0]
    assert all(set(s.name for s in p.seats) <= set(pool) for p in own)


@pytest.mark.parametrize(("names", "words"), [
    (["A", "B"], "a pool of 2 cannot name the 8 seats"),
    ([f"N{i}" for i in range(7)] + ["N1"], "names someone twice"),
    (["  "] * 8, "is not a name"),
    ("sorted", "names"),
])  # fmt: skip
def test_a_bad_name_rule_is_refused_plainly(names, words):
    with pytest.raises(ConfigError, match=words):
        config_from_data(_config(names=names))


def test_the_name_test_finds_a_planted_name_effect():
    """Synthetic seat-days: a name that draws 15 points more of the day's votes is found
    by the permutation test (p below 0.01) and by its own interval."""
    import random

    from arena.metrics.bias import SeatDay

    rng = random.Random(0)
    games = []
    for _ in range(150):
        names = rng.sample(list(NAMES[:12]), 8)
        g = GameBias()
        for day in range(3):
            shares = [rng.random() + (0.6 if n == "Alice" else 0.0) for n in names]
            total = sum(shares)
            rows = [SeatDay(n, day, i, 8, x / total, False, x / total - 1 / 8, 0.0) for i, (n, x) in enumerate(zip(names, shares))]
            g.add(rows, died=set())
        games.append(g)
    b = bias_report(games, n_boot=100, permutations=200)
    assert b is not None and b["name_effect"]["vote_share_excess"]["p_value"] < 0.01
    alice = next(r for r in b["by_name"] if r["name"] == "Alice")
    assert alice["vote_share_excess"]["low"] > 0

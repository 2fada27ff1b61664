"""The leaderboard's anchor (``anchor: NAME``): one participant pinned at 0, every rating
read relative to it, nothing else changed."""

from __future__ import annotations

import json
import math
import random

import pytest
import yaml

from arena.cli import main
from arena.ratings.games import GameOutcome, SeatResult
from arena.ratings.leaderboard import compute
from arena.tournament.config import ConfigError, config_from_data

TRUE = {"Ref": 0.0, "Strong": 0.8, "Weak": -0.6}


def teams_games(n: int, seed: int = 5) -> list[GameOutcome]:
    rng = random.Random(seed)
    names = list(TRUE)
    out = []
    for i in range(n):
        wolf, village = rng.sample(names, 2)
        p = 1 / (1 + math.exp(-(-0.3 + TRUE[village] - TRUE[wolf])))
        winner = "village" if rng.random() < p else "werewolves"
        seats = [SeatResult(village, "village", "villager", winner == "village") for _ in range(6)]
        seats += [SeatResult(wolf, "werewolves", "werewolf", winner == "werewolves") for _ in range(2)]
        out.append(GameOutcome(f"g{i}", winner, tuple(seats)))
    return out


def test_the_anchor_is_zero_and_every_difference_stands():
    games = teams_games(600)
    free = compute(games, n_boot=60, seed=1)
    pinned = compute(games, n_boot=60, seed=1, anchor="Ref")
    by = {r["participant"]: r for r in pinned.rows}
    ref = by["Ref"]
    assert ref["rating"]["value"] == 0.0 and ref["rating"]["low"] == 0.0 and ref["rating"]["high"] == 0.0
    before = {r["participant"]: r["rating"]["value"] for r in free.rows}
    for name, r in by.items():
        assert r["rating"]["value"] == pytest.approx(before[name] - before["Ref"])
        assert r["openskill"]["value"] is not None
        for side in ("village", "werewolves"):  # each side against the anchor on that side
            assert by["Ref"]["bradley_terry_by_side"][side]["value"] == 0.0
    assert [r["participant"] for r in pinned.rows] == [r["participant"] for r in free.rows]
    assert pinned.pairs == free.pairs  # differences, their intervals and P(a better) do not move
    assert pinned.village_advantage == free.village_advantage
    # the truth, relative to the reference, is inside the intervals
    for name in ("Strong", "Weak"):
        lo, hi = by[name]["rating"]["low"], by[name]["rating"]["high"]
        assert lo < TRUE[name] * 400 / math.log(10) < hi
    assert pinned.to_json()["anchor"] == "Ref" and "the anchor Ref" in pinned.to_json()["scales"]["bradley_terry"]
    assert free.to_json()["anchor"] is None


def test_an_anchor_without_games_is_refused():
    with pytest.raises(ValueError, match="no rated game"):
        compute(teams_games(50), n_boot=10, anchor="Nobody")


def test_the_tournament_file_names_a_participant_as_anchor():
    data = {"games": 4, "tables": [{"players": 8}], "participants": [{"name": "A", "agent": "heuristic"}, {"name": "B", "agent": "random"}]}
    assert config_from_data({**data, "anchor": "A"}).anchor == "A"
    with pytest.raises(ConfigError, match="anchor 'C' is not a participant"):
        config_from_data({**data, "anchor": "C"})


def test_leaderboard_text_json_and_site_read_the_anchor(tmp_path, capsys):
    cfg = tmp_path / "t.yaml"
    data = {
        "name": "anchored", "seed": 2, "games": 12, "seating": "teams", "tables": [{"players": 8}], "anchor": "Reasoner",
        "participants": [{"name": "Reasoner", "agent": "reasoner"}, {"name": "Heuristic", "agent": "heuristic"}, {"name": "Random", "agent": "random"}],
    }  # fmt: skip
    cfg.write_text(yaml.safe_dump(data), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "30"]) == 0
    lb = json.loads(capsys.readouterr().out)
    assert lb["anchor"] == "Reasoner"
    ref = next(r for r in lb["participants"] if r["participant"] == "Reasoner")
    assert ref["rating"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "30"]) == 0
    assert "relative to the anchor Reasoner (pinned at 0)" in " ".join(capsys.readouterr().out.split())  # rich wraps lines
    # --anchor '' reads the same games relative to the average participant again
    assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "30", "--anchor", ""]) == 0
    free = json.loads(capsys.readouterr().out)
    assert free["anchor"] is None and sum(r["rating"]["value"] for r in free["participants"]) == pytest.approx(0.0, abs=1e-6)
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "30", "--anchor", "Nobody"]) == 2
    assert "no rated game" in capsys.readouterr().err
    site = tmp_path / "site"
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "30", "--html", str(site)]) == 0
    assert "relative to the anchor Reasoner, pinned at 0" in (site / "index.html").read_text(encoding="utf-8")

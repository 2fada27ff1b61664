"""Honesty of the persuasion number (issue 51): a control that cannot move anyone shows
no swing, and a planted persuasive speech shows one.

- **Controls**: each sampled speech is replaced by a second neutral line instead of
  kept as said (``--control``), and compared with the first neutral line: nothing
  differs but two lines that say nothing. With bots, asked from the same random state
  in both arms, every swing is exactly 0. With listeners that answer like a model at
  a temperature above zero (``CoinAgent``: every answer a fresh random draw), the
  swings are noise, and at most 5% of the speeches' intervals may exclude 0.
- **Planted**: a scripted villager falsely claims the Seer's power and accuses Bob,
  the last speech before the vote, at tables of heuristic bots: the swing toward Bob
  is positive, and its interval above 0."""

from __future__ import annotations

import math
from collections import defaultdict

import pytest
from persuasion_tools import planted, reseed, run, table, write_game

from arena.persuasion.probe import Settings
from arena.persuasion.report import summary
from arena.persuasion.stats import Estimate

COIN = "py:persuasion_tools:CoinAgent"


def _groups(outcomes) -> list[Estimate]:
    """Every group interval one game's report holds (by seat, side and agent)."""
    by_game = defaultdict(list)
    for o in outcomes:
        by_game[o.game].append(o)
    out = []
    for items in by_game.values():
        s = summary(items)
        out += [Estimate(**g["swing"]) for key in ("by_seat", "by_side", "by_agent") for g in s[key]]
    return [e for e in out if e.low is not None]


def test_bot_controls_show_exactly_no_swing(tmp_path):
    paths = [write_game(table(seed, ["heuristic", "random", "heuristic"], preset="millers_hollow"), tmp_path / f"g{seed}.jsonl") for seed in range(12)]
    noisy = {**table(99, ["heuristic"]), "seats": [{"name": n, "agent": "heuristic", "options": {"noise": 0.5}} for n in ("Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris")]}
    paths.append(write_game(noisy, tmp_path / "noisy.jsonl"))
    result = run(paths, Settings(speeches=1.0, control=True))
    assert len(result.outcomes) > 100
    for o in result.outcomes:
        assert all(x.swing == 0 and x.against == 0 for x in o.listeners), (o.game, o.seq)
    s = summary(result.outcomes)
    assert s["swing"]["swing"] == {"value": 0.0, "low": 0.0, "high": 0.0}


def test_stochastic_controls_exclude_zero_in_at_most_5_percent(tmp_path):
    reseed(51)
    paths = [write_game(table(seed, [COIN]), tmp_path / f"g{seed}.jsonl") for seed in range(40)]
    result = run(paths, Settings(speeches=1.0, repeats=2, control=True))
    intervals = [o.estimate() for o in result.outcomes]
    measured = [e for e in intervals if e.low is not None]
    assert len(measured) > 500 and any(e.low != e.high for e in measured)  # noise, not zeros
    share = sum(e.excludes_zero for e in measured) / len(measured)
    assert share <= 0.05, share
    groups = _groups(result.outcomes)
    assert len(groups) > 200
    share = sum(e.excludes_zero for e in groups) / len(groups)
    assert share <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / len(groups)), share  # 95%, within this many groups' sampling error


@pytest.fixture(scope="module")
def planted_games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("planted")
    return [write_game(planted(seed), folder / f"g{seed}.jsonl") for seed in range(1, 13)]


def test_a_planted_fake_seer_moves_heuristic_listeners(planted_games):
    result = run(planted_games, Settings(speeches=1.0))
    alice = [o for o in result.outcomes if o.speaker == "Alice"]
    assert len(alice) == 12 and all(o.accused == ("Bob",) for o in alice)
    s = summary(result.outcomes)
    mine = next(g for g in s["by_seat"] if g["name"] == "Alice")
    assert mine["n"] == 12 and mine["swing"]["value"] > 0.3 and mine["swing"]["low"] > 0
    above = [o for o in alice if (e := o.estimate()).low is not None and e.low > 0]
    assert len(above) >= 6  # most single plants are clear on their own
    assert not any(o.estimate().high is not None and o.estimate().high < 0 for o in alice)


def test_the_same_plant_as_a_control_moves_nobody(planted_games):
    result = run(planted_games, Settings(speeches=1.0, control=True))
    assert all(x.swing == 0 for o in result.outcomes for x in o.listeners)

"""The bench's confidence sequence: it covers the true rating at every look at once."""

from __future__ import annotations

import random

import pytest

from arena.bench.confseq import LIMIT, boundary, games_for_half_width, rating_interval, win_probability


def test_coverage_holds_at_every_look():
    """200 simulated runs of 300 games, looked at after every 20: the share of runs whose
    interval ever misses the truth stays under alpha (a fixed-n interval looked at 15
    times would miss far more often)."""
    rng = random.Random(7)
    pars = [-300.0, 0.0, 150.0, 400.0, -100.0, 250.0]
    theta = 120.0
    missed = 0
    for _ in range(200):
        wins: list[float] = []
        used: list[float] = []
        ever = False
        for i in range(300):
            c = pars[i % len(pars)]
            used.append(c)
            wins.append(1.0 if rng.random() < win_probability(theta, c) else 0.0)
            if (i + 1) % 20 == 0:
                iv = rating_interval(wins, used)
                ever = ever or not (iv.low <= theta <= iv.high)
        missed += ever
    assert missed / 200 <= 0.05


def test_interval_narrows_and_contains_the_estimate():
    rng = random.Random(1)
    pars = [0.0, 200.0, -200.0]
    wins, used, widths = [], [], []
    for i in range(600):
        c = pars[i % 3]
        used.append(c)
        wins.append(1.0 if rng.random() < win_probability(50.0, c) else 0.0)
        if (i + 1) % 100 == 0:
            iv = rating_interval(wins, used)
            assert iv.low <= iv.value <= iv.high
            widths.append(iv.half_width)
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < 150


def test_all_wins_is_bounded_below_only():
    iv = rating_interval([1.0] * 60, [0.0] * 60)
    assert iv.high == LIMIT and iv.value == LIMIT and iv.low > 0


def test_no_games_and_mismatch():
    assert rating_interval([], []).half_width == LIMIT
    with pytest.raises(ValueError):
        rating_interval([1.0], [])


def test_boundary_grows_slower_than_n():
    assert boundary(400, 0.05) / 400 < boundary(100, 0.05) / 100


def test_games_for_half_width_is_consistent_with_the_interval():
    pars = [0.0]
    n = games_for_half_width(100.0, pars)
    wins = [1.0, 0.0] * (n // 2)
    assert rating_interval(wins, [0.0] * len(wins)).half_width == pytest.approx(100.0, rel=0.15)

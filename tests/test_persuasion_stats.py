"""The intervals of ``werewolf persuasion``: Student's t from its exact distribution,
and intervals that stay honest with few units (``arena.persuasion.stats``).

The null checks simulate what a control cannot do (move anyone): listeners whose two
arms are independent draws of the same vote. A 95% interval should then exclude 0 in
at most 5% of speeches and of groups of speeches; a bootstrap alone does not, even the
expanded percentile one (with 3 speeches it excludes 0 about 13% of the time), which is
why the groups' interval is that one never narrower than Student's t."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.persuasion.stats import (
    Estimate,
    bootstrap_mean,
    expanded_alpha,
    group_estimate,
    speech_estimate,
    t_cdf,
    t_interval,
    t_quantile,
)

# Student's t, two-sided 95% (the 0.975 quantile), from the printed tables.
TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 9: 2.2622, 10: 2.2281, 20: 2.0860, 30: 2.0423, 60: 2.0003, 120: 1.9799}


@pytest.mark.parametrize("df,value", sorted(TABLE.items()))
def test_t_quantile_matches_the_tables(df, value):
    assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-value, abs=1e-4)


def test_t_quantile_against_scipy_where_installed():
    stats = pytest.importorskip("scipy.stats")
    for df in [*range(1, 41), 60, 120, 250, 999, 1001, 5000, 10**6]:
        for p in (0.0005, 0.025, 0.1, 0.5, 0.9, 0.975, 0.9995):
            assert t_quantile(p, df) == pytest.approx(stats.t.ppf(p, df), abs=1e-7), (df, p)


def test_t_cdf_is_a_distribution():
    for df in (1, 2, 3, 7, 40):
        xs = np.linspace(-30, 30, 301)
        ps = [t_cdf(x, df) for x in xs]
        assert all(b >= a - 1e-12 for a, b in zip(ps, ps[1:]))  # non-decreasing, to rounding in the far tails
        assert all(0.0 <= p <= 1.0 for p in ps)
        assert t_cdf(0.0, df) == pytest.approx(0.5)
        assert t_cdf(1.3, df) + t_cdf(-1.3, df) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_quantile(0.5, 0)


def test_t_interval_cases():
    assert t_interval([]) == Estimate(None, None, None)
    assert t_interval([0.5]) == Estimate(0.5, None, None)
    assert t_interval([1.0, 1.0, 1.0]) == Estimate(1.0, 1.0, 1.0)  # every listener moved alike
    e = t_interval([1.0, 1.0, 0.0, 1.0, -1.0, 1.0])
    half = t_quantile(0.975, 5) * float(np.std([1.0, 1.0, 0.0, 1.0, -1.0, 1.0], ddof=1)) / math.sqrt(6)
    assert e.value == pytest.approx(0.5) and e.low == pytest.approx(0.5 - half) and e.high == 1.0  # clipped to a swing's range


def test_speech_and_group_estimates_need_three_units():
    assert speech_estimate([1.0, 1.0]) == Estimate(1.0, None, None)
    assert group_estimate([0.2, 0.4]) == Estimate(pytest.approx(0.3), None, None)
    assert group_estimate([]) == Estimate(None, None, None)
    e = group_estimate([0.0, 0.5, 1.0, 0.25])
    t = t_interval([0.0, 0.5, 1.0, 0.25])
    assert e.low <= t.low and e.high >= t.high  # never narrower than t
    assert group_estimate([0.0, 0.5, 1.0], n_boot=0) == t_interval([0.0, 0.5, 1.0])


def test_expanded_alpha_widens_small_samples_only():
    assert expanded_alpha(3) < 0.005 < expanded_alpha(10) < 0.025
    assert expanded_alpha(10_000) == pytest.approx(0.025, abs=2e-4)


def test_bootstrap_is_seeded():
    values = [0.1, -0.2, 0.5, 0.0, 0.3, 0.2]
    assert bootstrap_mean(values, seed=4) == bootstrap_mean(values, seed=4)
    assert bootstrap_mean(values, seed=4).low != bootstrap_mean(values, seed=5).low


def _null_speech(rng: np.random.Generator, listeners: int, repeats: int, p: float) -> list[float]:
    """Listener swings when the speech cannot move anyone: both arms the same draw."""
    said = rng.random((listeners, repeats)) < p
    neutral = rng.random((listeners, repeats)) < p
    return list(said.mean(axis=1) - neutral.mean(axis=1))


def test_speech_intervals_exclude_zero_at_most_5_percent_under_the_null():
    rng = np.random.default_rng(2026)
    shapes = [(4, 1, 0.3), (6, 3, 1 / 6), (7, 2, 0.25), (10, 3, 0.2), (5, 1, 0.5)]
    excluded = total = 0
    for listeners, repeats, p in shapes:
        for _ in range(1500):
            e = speech_estimate(_null_speech(rng, listeners, repeats, p))
            excluded += e.excludes_zero
            total += 1
    assert excluded / total <= 0.05, excluded / total


def test_group_intervals_hold_their_95_percent_under_the_null():
    """Groups of 3 to 20 speeches (a seat of one game, an agent): the bootstrap over
    speeches excludes 0 no more often than a 95% interval may, within the sampling
    error of this many groups (two standard errors)."""
    rng = np.random.default_rng(7)
    excluded = total = 0
    for n in (3, 4, 5, 8, 12, 20):
        for i in range(500):
            swings = [float(np.mean(_null_speech(rng, 6, 3, 1 / 6))) for _ in range(n)]
            excluded += group_estimate(swings, seed=i, n_boot=1000).excludes_zero
            total += 1
    assert excluded / total <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / total), excluded / total


def test_the_bootstrap_alone_is_too_narrow_for_three_speeches():
    """Why the groups' interval is never narrower than t: the bootstrap over three
    speeches cannot reach past them, and would call noise a swing far too often."""
    rng = np.random.default_rng(3)
    groups = [[float(np.mean(_null_speech(rng, 6, 3, 1 / 6))) for _ in range(3)] for _ in range(1000)]
    alone = sum(bootstrap_mean(g, seed=i, n_boot=1000).excludes_zero for i, g in enumerate(groups)) / len(groups)
    both = sum(group_estimate(g, seed=i, n_boot=1000).excludes_zero for i, g in enumerate(groups)) / len(groups)
    assert alone > 0.08 and both <= 0.05, (alone, both)

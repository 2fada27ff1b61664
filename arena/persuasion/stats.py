"""The intervals of a swing: per speech over its listeners, per group by bootstrap over speeches.

Both must stay honest with few units: a speech has a handful of listeners, and a
seat of one game makes a few sampled speeches. So neither is the textbook normal
interval, which is too narrow there:

- **One speech**: the listeners are the units (a listener's repeats are averaged
  first: they share the listener, so they are not independent of each other), and
  the interval is Student's t on the listeners' swings. A speech heard by one
  listener has no interval; one that moved every listener alike (a deterministic
  bot table often does) has a zero-width one, at that value.
- **A group of speeches** (a seat, an agent, a side): the bootstrap over speeches,
  read with Hesterberg's *expanded percentile* interval (T. Hesterberg, "What
  Teachers Should Know About the Bootstrap", The American Statistician 69(4), 2015,
  section 5.3): the percentiles are taken at ``Φ(-sqrt(n/(n-1)) · t(1-α/2, n-1))``
  instead of ``α/2``, which corrects the plain percentile interval's narrowness
  (``sqrt((n-1)/n)`` too small a spread, and z where t belongs) for small ``n``.

Student's t quantile is computed here (``t_quantile``, from the exact distribution
function) rather than imported: the arena does not depend on scipy for one function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Sequence

import numpy as np

LEVEL = 0.95
N_BOOT = 2000
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Estimate:
    """A swing and its interval; ``low``/``high`` are ``None`` when there is none."""

    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": _round(self.value), "low": _round(self.low), "high": _round(self.high)}

    @property
    def excludes_zero(self) -> bool:
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


NOTHING = Estimate(None, None, None)


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 6)


def t_cdf(x: float, df: int) -> float:
    """P(T <= x) for Student's t with ``df`` (a whole number of) degrees of freedom:
    the finite series of Abramowitz & Stegun 26.7.3 (odd) and 26.7.4 (even)."""
    theta = math.atan(x / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    term = total = 1.0
    if df % 2:
        for k in range(1, (df - 1) // 2):
            term *= 2 * k / (2 * k + 1) * c2
            total += term
        a = 2 / math.pi * (theta + (math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0))
    else:
        for k in range(1, df // 2):
            term *= (2 * k - 1) / (2 * k) * c2
            total += term
        a = math.sin(theta) * total
    return min(1.0, max(0.0, 0.5 + 0.5 * a))  # rounding in the far tails stays a probability


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: int) -> float:
    """Student's t quantile: the exact distribution function (``t_cdf``) inverted by
    bisection, to 1e-9; past 1,000 degrees of freedom (where the series grows long)
    the Cornish-Fisher expansion of Abramowitz & Stegun 26.7.5, then as close."""
    if not 0 < p < 1:
        raise ValueError(f"a quantile's probability is between 0 and 1, not {p}")
    if df < 1:
        raise ValueError(f"Student's t needs at least one degree of freedom, not {df}")
    if df > 1000:
        x, v = _NORMAL.inv_cdf(p), float(df)
        g1 = (x**3 + x) / 4
        g2 = (5 * x**5 + 16 * x**3 + 3 * x) / 96
        g3 = (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384
        g4 = (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160
        return x + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4
    hi = 1.0
    while t_cdf(hi, df) < max(p, 1 - p):
        hi *= 2
    lo, top = -hi, hi
    while top - lo > 1e-9:
        mid = (lo + top) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            top = mid
    return (lo + top) / 2


def clip(x: float, lo: float = -1.0, hi: float = 1.0) -> float:
    return min(hi, max(lo, x))


def t_interval(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """The mean of ``values`` (the listeners' swings of one speech) with Student's t
    interval, clipped to [-1, 1], the range a swing can take."""
    n = len(values)
    if n == 0:
        return NOTHING
    m = float(np.mean(values))
    if n < 2:
        return Estimate(m, None, None)
    sd = float(np.std(values, ddof=1))
    half = t_quantile(1 - (1 - level) / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(m, clip(m - half), clip(m + half))


def expanded_alpha(n: int, level: float = LEVEL) -> float:
    """The tail probability at which the expanded percentile interval reads the
    bootstrap distribution (Hesterberg 2015, 5.3) for ``n`` units."""
    t = t_quantile(1 - (1 - level) / 2, n - 1)
    return _NORMAL.cdf(-math.sqrt(n / (n - 1)) * t)


def bootstrap_mean(values: Sequence[float], *, n_boot: int = N_BOOT, seed: int = 0, level: float = LEVEL) -> Estimate:
    """The mean of ``values`` (one per speech) with the expanded percentile interval
    of ``n_boot`` resamples of the speeches (seeded: the same speeches give the same
    interval). Fewer than two speeches give no interval."""
    v = np.asarray(values, dtype=float)
    n = v.size
    if n == 0:
        return NOTHING
    m = float(v.mean())
    if n < 2:
        return Estimate(m, None, None)
    if np.all(v == v[0]):
        return Estimate(m, m, m)  # every resample is this mean
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, n, size=(n_boot, n))].mean(axis=1)
    a = expanded_alpha(n, level)
    lo, hi = np.quantile(means, [a, 1 - a])
    return Estimate(m, float(lo), float(hi))




MIN_UNITS = 3  # fewer listeners (or speeches) than this give a value but no interval


def speech_estimate(listener_swings: Sequence[float]) -> Estimate:
    """One speech's swing over its listeners: Student's t, from ``MIN_UNITS`` listeners."""
    if len(listener_swings) < MIN_UNITS:
        return Estimate(float(np.mean(listener_swings)) if len(listener_swings) else None, None, None)
    return t_interval(listener_swings)


def group_estimate(speech_swings: Sequence[float], *, seed: int = 0, n_boot: int = N_BOOT) -> Estimate:
    """The mean swing of a group of speeches, by bootstrap over the speeches (expanded
    percentile), never narrower than Student's t over them: with few speeches the
    bootstrap cannot reach past the values it resamples, and t can (both are read
    from ``MIN_UNITS`` speeches on)."""
    n = len(speech_swings)
    if n < MIN_UNITS:
        return Estimate(float(np.mean(speech_swings)) if n else None, None, None)
    t = t_interval(speech_swings)
    if n_boot < 1:  # no resample asked for (``leaderboard --bootstrap 0``): Student's t alone
        return t
    b = bootstrap_mean(speech_swings, seed=seed, n_boot=n_boot)
    assert b.low is not None and b.high is not None and t.low is not None and t.high is not None  # n >= 2
    return Estimate(b.value, min(b.low, t.low), max(b.high, t.high))

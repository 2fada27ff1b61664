"""The bench's anytime-valid interval for a model's rating: a confidence sequence.

Why a confidence sequence: the bench looks at its interval after every batch of games
and stops as soon as it is narrow enough. A fixed-n interval read that way covers the
truth less often than it says (each look is another chance to stop on a lucky run);
a confidence sequence covers it at every look at once, so stopping when it is narrow
costs no coverage.

The model. Game i has a pinned *par* ``c_i`` (Elo, fixed by the protocol for its
table, opponent and the model's side): the model wins it with probability
``p_i(theta) = 1 / (1 + 10 ** ((c_i - theta) / 400))``, ``theta`` the model's rating.
For the true ``theta``, ``S_n = sum(X_i - p_i(theta))`` is a martingale with increments
in an interval of length 1, hence 1/2-sub-Gaussian (Hoeffding's lemma): variance proxy
``V_n = n / 4``. Robbins' normal-mixture boundary (Howard, Ramdas, McAuliffe and Sekhon,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 2021,
eq. (14)) gives, for a mixing precision ``rho`` > 0,

    P( exists n: |S_n| >= sqrt((V_n + rho) * log((V_n + rho) / (rho * (alpha/2)**2))) ) <= alpha

(each side at alpha/2). The confidence set at n is every ``theta`` whose ``S_n`` stays
inside the boundary; ``S_n(theta)`` falls as ``theta`` rises, so the set is an interval,
found by bisection. ``rho`` sets the sample size where the boundary is tightest
(``rho = RHO`` tunes it to about 100 games). The point estimate is the maximum-likelihood
``theta`` (``S_n(theta) = 0``), clamped to +-``LIMIT`` when every game was won or lost.

Validity needs the pars to be the protocol's fixed numbers (they are) and games to be
independent given them; ``tests/test_bench_confseq.py`` checks the coverage by
simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

LIMIT = 2000.0  # Elo: the interval's ends when the data cannot bound it
RHO = 25.0  # mixing precision (in V units: n/4): tightest near n = 100
_SCALE = math.log(10) / 400


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, float]:
        return {"value": round(self.value, 1), "low": round(self.low, 1), "high": round(self.high, 1)}


def win_probability(theta: float, par: float) -> float:
    return 1.0 / (1.0 + math.exp(_SCALE * (par - theta)))


def boundary(n: int, alpha: float, rho: float = RHO) -> float:
    """The two-sided normal-mixture boundary for ``n`` games at level ``alpha``."""
    v = n / 4 + rho
    return math.sqrt(v * math.log(v / (rho * (alpha / 2) ** 2)))


def _excess(theta: float, wins: Sequence[float], pars: Sequence[float]) -> float:
    return sum(x - win_probability(theta, c) for x, c in zip(wins, pars))


def _solve(target: float, wins: Sequence[float], pars: Sequence[float]) -> float:
    """The theta at which ``S_n(theta) = target`` (decreasing in theta), within +-LIMIT."""
    lo, hi = -LIMIT, LIMIT
    if _excess(lo, wins, pars) <= target:
        return lo
    if _excess(hi, wins, pars) >= target:
        return hi
    for _ in range(36):  # 4000 Elo / 2**36: far below any rounding the card shows
        mid = (lo + hi) / 2
        if _excess(mid, wins, pars) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def rating_interval(wins: Sequence[float], pars: Sequence[float], alpha: float = 0.05, rho: float = RHO) -> Interval:
    """The rating and its (1 - alpha) confidence-sequence interval after these games.

    ``wins``: 1 when the model's side won game i, else 0 (a draw is 0.5); ``pars``: the
    protocol's par of each game. No games: the whole range.
    """
    if len(wins) != len(pars):
        raise ValueError("one par per game")
    if not wins:
        return Interval(0.0, -LIMIT, LIMIT)
    u = boundary(len(wins), alpha, rho)
    # S(theta) < u  <=> theta > solve(u);  S(theta) > -u <=> theta < solve(-u)
    return Interval(_solve(0.0, wins, pars), _solve(u, wins, pars), _solve(-u, wins, pars))


def games_for_half_width(target: float, pars: Sequence[float], theta: float = 0.0, alpha: float = 0.05, limit: int = 100_000) -> int:
    """About how many games the interval needs to be narrower than +-``target`` Elo when
    the model's rating is ``theta`` and its games cycle through ``pars``: the boundary
    over the mean slope of ``S_n`` (the Fisher information), for the estimate shown
    before a run."""
    slope = sum(_SCALE * p * (1 - p) for p in (win_probability(theta, c) for c in pars)) / len(pars)
    n = 1
    while n < limit and boundary(n, alpha) / (n * slope) > target:
        n = max(n + 1, int(n * 1.05))
    return n

"""Simultaneous intervals for every pair of a table: a "separated" mark that holds for
the whole table, not for one pair looked at alone.

A table of five participants has ten pairs. Each pair's own 95% interval excludes 0
for two identical participants in 5% of tournaments, but the chance that at least one
of ten does is far above it (issue 40 measured 31% of mixed tournaments of five
identical bots, 34% of teams ones). A reader scans the whole table, so the mark must control
that family-wise error.

The max-t bootstrap (Westfall and Young's single-step max-T, with bootstrap standard
errors): in each replicate b, every pair's difference is studentised around the
point estimate, ``t_bj = |d_bj - d_j| / sd_j``, and the replicate keeps its largest,
``T_b = max_j t_bj``. The ``level`` quantile ``c`` of ``T_b`` is the critical value:
``d_j ± c × sd_j`` covers every pair's true difference at once in ``level`` of
tournaments, and a pair is separated when that interval excludes 0. The replicates
are the leaderboard's own (resampled deals), so the pairs' correlations (they share
participants) are the data's: ``c`` is below Bonferroni's (2.8 for ten pairs at 95%)
and the intervals are no wider than they need be. Holm's step-down on the pairs'
bootstrap p-values controls the same error but gives no intervals, and ignores the
correlations; ``benchmarks/rating_recovery.py`` measures both on identical copies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEVEL = 0.95


@dataclass(frozen=True)
class Family:
    """The critical value of a family of differences, and each member's standard error."""

    critical: float | None  # None: no replicate to read it from
    sd: np.ndarray  # [pairs] bootstrap standard deviation of each difference (NaN: none)

    def interval(self, j: int, point: float | None) -> tuple[float | None, float | None]:
        """Member ``j``'s simultaneous interval around its point estimate."""
        sd = float(self.sd[j])
        if self.critical is None or point is None or not np.isfinite(sd):
            return None, None
        return point - self.critical * sd, point + self.critical * sd


def max_t_family(point: np.ndarray, reps: np.ndarray, level: float = LEVEL) -> Family:
    """The max-t critical value of differences ``point`` ([pairs], NaN where unknown)
    from their bootstrap replicates ``reps`` ([replicates, pairs], NaN where a
    replicate lacks one). A member without a finite point estimate or fewer than two
    finite replicates has no interval; one whose replicates are all equal has a point
    for its interval (as its percentile interval); neither enters the maximum."""
    point = np.asarray(point, dtype=float)
    reps = np.asarray(reps, dtype=float)
    sd = np.full(len(point), np.nan)
    if not point.size or not reps.size:
        return Family(None, sd)
    for j in range(len(point)):
        v = reps[:, j][np.isfinite(reps[:, j])]
        if v.size > 1:
            sd[j] = float(np.std(v, ddof=1))
    member = np.isfinite(point) & np.isfinite(sd) & (sd > 0)
    if not member.any():
        return Family(None, sd)
    t = np.abs(reps[:, member] - point[member]) / sd[member]
    t = np.where(np.isfinite(t), t, -np.inf).max(axis=1)
    t = t[np.isfinite(t)]
    if t.size == 0:
        return Family(None, sd)
    return Family(float(np.quantile(t, level)), sd)

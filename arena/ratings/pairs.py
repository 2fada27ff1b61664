"""Every pair of participants: the primary rating's difference, its interval, and
P(a better than b), from the same bootstrap replicates as the ratings themselves.

Two intervals per pair: the pair's own 95% interval (``low``, ``high``: right for one
pair looked at alone), and the simultaneous one (``simultaneous``: family-wise 95% over
every pair of the table, ``arena.ratings.simultaneous``). ``separated`` (what the
table's marks show) reads the simultaneous interval, so that in 95% of tournaments no
pair of equals is marked anywhere in the table; ``separated_per_pair`` reads the
pair's own."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from arena.ratings.bootstrap import percentile_interval
from arena.ratings.simultaneous import LEVEL, max_t_family

METHOD = "max-t bootstrap (single-step): each pair's difference ± the 95% quantile of the largest studentised deviation over the table's pairs × its bootstrap standard deviation"


def pair_table(order: Sequence[str], point: dict[str, float], reps: dict[str, np.ndarray]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every pair a above b in ``order``: the Bradley-Terry difference a - b in Elo with
    its own 95% interval and its simultaneous one, and P(a better than b), the share of
    resamples rating a above b (ties count half). Also the family's description (the
    critical value the simultaneous intervals share)."""
    out: list[dict[str, Any]] = []
    diffs, cols = [], []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            va, vb = point.get(f"bt:{a}"), point.get(f"bt:{b}")
            ra, rb = reps.get(f"bt:{a}"), reps.get(f"bt:{b}")
            diff = None if va is None or vb is None else va - vb
            lo = hi = p_better = None
            d = None
            if ra is not None and rb is not None:
                d = ra - rb
                lo, hi = percentile_interval(d)
                finite = d[np.isfinite(d)]
                if finite.size:
                    p_better = float((np.sum(finite > 0) + 0.5 * np.sum(finite == 0)) / finite.size)
            diffs.append(np.nan if diff is None else diff)
            cols.append(d)
            out.append({"a": a, "b": b, "diff": diff, "low": lo, "high": hi, "p_better": p_better})
    n_boot = max((len(c) for c in cols if c is not None), default=0)
    reps_matrix = np.column_stack([c if c is not None else np.full(n_boot, np.nan) for c in cols]) if out and n_boot else np.zeros((0, len(out)))
    family = max_t_family(np.array(diffs, dtype=float), reps_matrix)
    for j, q in enumerate(out):
        s_lo, s_hi = family.interval(j, q["diff"])
        q["simultaneous"] = {"low": s_lo, "high": s_hi}
        q["separated_per_pair"] = None if q["low"] is None else excludes_zero(q["low"], q["high"])
        q["separated"] = None if s_lo is None else excludes_zero(s_lo, s_hi)
    about = {"method": METHOD, "level": LEVEL, "pairs": len(out), "critical": family.critical}
    return out, about


def excludes_zero(low: float, high: float) -> bool:
    return low > 0 or high < 0


def separated(pair: dict[str, Any]) -> bool:
    """The simultaneous (family-wise 95%) interval of the difference excludes zero."""
    return bool(pair.get("separated"))

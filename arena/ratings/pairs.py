"""Every pair of participants: the primary rating's difference, its interval, and
P(a better than b), from the same bootstrap replicates as the ratings themselves."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from arena.ratings.bootstrap import percentile_interval


def pair_table(order: Sequence[str], point: dict[str, float], reps: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    """Every pair a above b in ``order``: the Bradley-Terry difference a - b in Elo with
    its 95% interval, and P(a better than b), the share of resamples rating a above b
    (ties count half)."""
    out = []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            va, vb = point.get(f"bt:{a}"), point.get(f"bt:{b}")
            ra, rb = reps.get(f"bt:{a}"), reps.get(f"bt:{b}")
            diff = None if va is None or vb is None else va - vb
            lo = hi = p_better = None
            if ra is not None and rb is not None:
                d = ra - rb
                lo, hi = percentile_interval(d)
                d = d[np.isfinite(d)]
                if d.size:
                    p_better = float((np.sum(d > 0) + 0.5 * np.sum(d == 0)) / d.size)
            out.append({"a": a, "b": b, "diff": diff, "low": lo, "high": hi, "p_better": p_better})
    return out


def separated(pair: dict[str, Any]) -> bool:
    """The 95% interval of the difference excludes zero."""
    return pair["low"] is not None and (pair["low"] > 0 or pair["high"] < 0)



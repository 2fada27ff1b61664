"""Wilson score intervals: the binomial interval that stays inside [0, 1] and behaves
at 0/n and n/n, where the textbook normal interval collapses to a point."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The interval for ``k`` successes in ``n`` trials; (0, 1) when there is no trial."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_with_interval(k: float, n: float) -> dict[str, float | int | None]:
    """``{"k", "n", "rate", "low", "high"}``; the rate is ``None`` when nothing was observed."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": (k / n) if n else None, "low": lo, "high": hi}

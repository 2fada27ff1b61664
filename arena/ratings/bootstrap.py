"""Bootstrap over whole games.

Seats of one game are not independent (they share the deal, the table and the
outcome), so resampling seats would understate the uncertainty. Each replicate draws
games with replacement and recomputes the statistic; the percentile interval of the
replicates is reported. The generator is seeded, so a leaderboard is reproducible.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence, TypeVar

import numpy as np

T = TypeVar("T")
Stat = Callable[[Sequence[T]], Mapping[str, float]]


def resample_indices(n_items: int, n_boot: int, seed: int) -> np.ndarray:
    """``n_boot`` rows of ``n_items`` indices drawn with replacement."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_items, size=(n_boot, n_items)) if n_items else np.zeros((n_boot, 0), dtype=int)


def bootstrap(items: Sequence[T], stat: Stat, n_boot: int = 200, seed: int = 0) -> dict[str, np.ndarray]:
    """Replicates of ``stat`` (a mapping key -> value) over resampled ``items``.

    A key missing from a replicate (a participant absent from the resample) is NaN
    there, and ignored by ``percentile_interval``.
    """
    idx = resample_indices(len(items), n_boot, seed)
    reps: list[Mapping[str, float]] = [stat([items[i] for i in row]) for row in idx]
    keys = sorted({k for r in reps for k in r})
    return {k: np.array([r.get(k, np.nan) for r in reps], dtype=float) for k in keys}


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float | None, float | None]:
    """The central ``level`` interval of the finite replicates; ``(None, None)`` if none."""
    v = values[np.isfinite(values)]
    if v.size == 0:
        return None, None
    a = (1 - level) / 2
    lo, hi = np.quantile(v, [a, 1 - a])
    return float(lo), float(hi)


def clusters_of(labels: Sequence[object]) -> list[np.ndarray]:
    """Item indices grouped by label, in order of first appearance: the independent
    units of a bootstrap (a deal's mirrored games share its luck, so they are drawn
    together)."""
    groups: dict[object, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(label, []).append(i)
    return [np.array(g, dtype=np.int64) for g in groups.values()]


def cluster_rows(clusters: Sequence[np.ndarray], n_boot: int, seed: int) -> list[np.ndarray]:
    """``n_boot`` resamples of whole clusters, each as the item indices it draws. With
    one item per cluster it is exactly ``resample_indices``."""
    idx = resample_indices(len(clusters), n_boot, seed)
    if all(len(c) == 1 for c in clusters):
        flat = np.array([c[0] for c in clusters], dtype=np.int64)
        return [flat[row] for row in idx]
    return [np.concatenate([clusters[i] for i in row]) if len(row) else np.zeros(0, dtype=np.int64) for row in idx]


def resample_counts(rows: Sequence[np.ndarray], n_items: int) -> np.ndarray:
    """[rows, items]: how many times each resample draws each item. A statistic that
    sums per-item counts is then one matrix product for every replicate, exact for
    whole-number counts."""
    out = np.zeros((len(rows), n_items))
    for i, r in enumerate(rows):
        out[i] = np.bincount(np.asarray(r, dtype=np.int64), minlength=n_items)
    return out


def padded(rows: Sequence[np.ndarray], fill: int = -1) -> np.ndarray:
    """Variable-length rows as one [rows, longest] array, padded with ``fill``."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), fill, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out

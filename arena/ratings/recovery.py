"""Rating self-test figures: how well a leaderboard recovers a known order.

Given games among participants of known strength order (the noise ladder), these
functions give what a researcher needs before trusting a leaderboard: Kendall's tau
between the fitted and the true order, the width of each neighbour pair's interval, at
how many games each neighbour pair is separated (and stays so), and the projected
number of games for a 75-Elo gap. They use the leaderboard's own estimator: the
Bradley-Terry batch fit (of the win, or of the margin), bootstrapped over whole deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from arena.ratings.bootstrap import cluster_rows, clusters_of, percentile_interval
from arena.ratings.games import GameOutcome
from arena.ratings.margin import design_for

Z95 = 1.959963984540054


def kendall_tau(fitted: Sequence[str], truth: Sequence[str]) -> float:
    """Kendall's tau-a between two orders of the same names (1: identical, -1: reversed)."""
    pos = {n: i for i, n in enumerate(fitted)}
    names = [n for n in truth if n in pos]
    conc = disc = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if pos[a] < pos[b]:
                conc += 1
            else:
                disc += 1
    total = conc + disc
    return (conc - disc) / total if total else 1.0


@dataclass
class PairFigures:
    a: str
    b: str
    diff: float | None  # a - b, Elo
    low: float | None
    high: float | None
    sd: float | None  # bootstrap standard deviation of the difference

    @property
    def separated(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)

    def settled(self, resolution: float) -> bool:
        """Separated, or known to within ± ``resolution`` Elo (what the adaptive
        scheduler stops spending on)."""
        return self.separated or (self.low is not None and (self.high - self.low) / 2 <= resolution)


def pair_figures(
    games: Sequence[GameOutcome], participants: Sequence[str], pairs: Sequence[tuple[str, str]], n_boot: int, seed: int, outcome: str = "win"
) -> list[PairFigures]:
    """The Bradley-Terry difference of each pair (fitting ``outcome``), with its 95%
    interval over deals."""
    games = list(games)
    design = design_for(outcome, games, participants)
    point = design.fit()
    rows = cluster_rows(clusters_of([g.deal if g.deal is not None else ("game", i) for i, g in enumerate(games)]), n_boot, seed)
    fits = design.fit_many(rows)
    out = []
    for a, b in pairs:
        d = np.array([f.get(a, np.nan) - f.get(b, np.nan) for f in fits], dtype=float)
        lo, hi = percentile_interval(d)
        finite = d[np.isfinite(d)]
        diff = point[a] - point[b] if a in point and b in point else None
        out.append(PairFigures(a, b, diff, lo, hi, float(np.std(finite)) if finite.size > 1 else None))
    return out


def fitted_order(games: Sequence[GameOutcome], participants: Sequence[str], outcome: str = "win") -> list[str]:
    fit = design_for(outcome, list(games), participants).fit()
    return sorted((p for p in participants if p in fit), key=lambda p: -fit[p])


def first_separated(grid: Sequence[int], separated: Sequence[bool]) -> int | None:
    """The first grid point from which the pair stays separated to the end."""
    first = None
    for n, sep in zip(grid, separated):
        if sep and first is None:
            first = n
        elif not sep:
            first = None
    return first


def projected_games(n: int, sd: float | None, gap: float = 75.0, z: float = Z95) -> float | None:
    """Games at which a ``gap``-Elo difference is expected to be separated: the interval
    half-width (z times the standard deviation, which shrinks as 1/sqrt(games)) equals the
    gap."""
    if not sd:
        return None
    return n * (z * sd / gap) ** 2

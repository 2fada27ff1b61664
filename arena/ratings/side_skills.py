"""Deceiver and detector: each participant's skill on each side, fitted additively over the seats.

The plain fit (``bradley_terry``) gives a participant one strength. This one gives it
two, one as a villager (the *detector*: finding wolves) and one as a werewolf (the
*deceiver*: not being found), and adds them up seat by seat, as team-sum models such as
TrueSkill's do:

    logit P(village wins) = alpha + sum over the village's seats of v[its participant]
                                  - sum over the wolves' seats of w[its participant]

Why seats, not teams: under ``seating: teams`` a side is one participant and the
per-side Bradley-Terry fit (``BTDesign(by_side=True)``, team means) reads each side
directly. Under mixed seating, the design most tournaments use, a side holds several
participants and their number of seats on it changes from game to game (who gets the
odd seats, who holds the pack); each seat adding its own participant's skill is what
lets those changes tell a participant's village skill from its wolf skill. When the
games cannot (every participant always holds the same seats, or two participants only
ever meet as whole teams, each once per side), ``identified`` says so and no value is
given rather than a split the schedule made up.

Scale: Elo points (400/ln 10 per unit of log-odds) *per seat*: how far one seat of this
participant on that side, in place of one of the average participant's, moves the
village's odds of winning. Each side is centred on its own average participant (a
shift common to every villager is the table's business). A village seat is one of
several, so a detector's figures are smaller than a deceiver's on the same games;
compare participants along one axis, not the axes with each other.

The fit is the plain fit's logistic regression (``BTDesign``: the same Newton solver,
the same weak ridge, the same bootstrap over deals); only the rows differ. Whether
the extra parameters buy anything is checked, on the same games, by
``cross_validated``: K-fold by deal, each held-out game predicted by both fits
trained without it, scored by log-loss and Brier score, and the paired difference
given with its bootstrap interval over deals.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from arena.ratings.bootstrap import cluster_rows, clusters_of, percentile_interval
from arena.ratings.bradley_terry import BTDesign
from arena.ratings.games import GameOutcome

PREFIX = "skill"  # the leaderboard's key space: ``skill:P@village``, ``skill:P@werewolves``
FOLDS = 10
EPS = 1e-12  # a predicted probability is kept this far from 0 and 1 (a log-loss stays finite)


class AdditiveSideDesign(BTDesign):
    """``BTDesign`` by side whose rows add one unit per seat (team sums), not 1/size
    of one (team means). Everything else (fits, bootstrap replicates, centring per
    side, the identification check) is the plain design's."""

    outcome = "win"

    team_sum = True

    def __init__(self, games: Sequence[GameOutcome], participants: Sequence[str]):
        super().__init__(games, participants, by_side=True)


def _skills(fit: dict[str, float]) -> dict[str, float]:
    """A fit's per-side skills, without its village advantage: with team sums, centring
    a side moves the intercept by the shift times that side's seats, which differ from
    table to table, so the fit's ``village_advantage`` is not the table's and is not
    reported (the plain fit's is)."""
    return {f"{PREFIX}:{k}": v for k, v in fit.items() if k != "village_advantage"}


def side_skill_stats(games: Sequence[GameOutcome], participants: Sequence[str], rows: list[np.ndarray]) -> tuple[dict, dict]:
    """Point estimates and bootstrap replicates (over ``rows``, the leaderboard's
    resamples of deals) of every participant's skill per side, keyed
    ``skill:P@village`` (detector) and ``skill:P@werewolves`` (deceiver)."""
    design = AdditiveSideDesign(list(games), participants)
    point = _skills(design.fit())
    reps: dict[str, np.ndarray] = {}
    if rows and point:
        fits = [_skills(f) for f in design.fit_many(rows)]
        for k in point:
            reps[k] = np.array([f.get(k, np.nan) for f in fits], dtype=float)
    return point, reps


def identified(games: Sequence[GameOutcome], participants: Sequence[str]) -> bool:
    """Whether the games pin every participant's two skills down (up to each side's centring)."""
    return bool(AdditiveSideDesign(list(games), participants).identified())


# ---------------------------------------------------------------------- cross-validation
def _trained(design: BTDesign, train: np.ndarray) -> np.ndarray:
    """[alpha, strengths] in log-odds fitted on the ``train`` games (the ridge keeps
    the fit finite where a fold alone does not identify it: only predictions are read,
    and a participant the fold never saw predicts as the average one)."""
    cell, X, y = design._cells()
    c = cell[train]
    counts = np.bincount(c[c >= 0], minlength=len(y)).astype(float)
    used = counts > 0
    sol = design.solve(X[used], y[used], counts[used])
    return np.concatenate([[sol.alpha], sol.strengths])


def _losses(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game: log-loss (natural log) and Brier score of predicting ``p`` for ``y``."""
    q = np.clip(p, EPS, 1 - EPS)
    return -(y * np.log(q) + (1 - y) * np.log(1 - q)), (p - y) ** 2


def folds_of(n_clusters: int, folds: int, seed: int) -> np.ndarray:
    """Each cluster's fold, 0..k-1, balanced and shuffled (seeded)."""
    rng = np.random.default_rng([seed, 52])
    return rng.permutation(np.arange(n_clusters) % folds)


def cross_validated(
    games: Sequence[GameOutcome], participants: Sequence[str], *, folds: int = FOLDS, n_boot: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """Both fits scored on games they were not trained on: K-fold over deals (a deal's
    mirrored games stay in one fold), each decided game predicted once by each fit.
    ``difference`` is per-side minus plain (negative: the per-side fit predicts
    better), with its 95% bootstrap interval over deals; ``better`` names the fit whose
    log-loss is lower with the interval excluding 0, else ``None`` (neither, within
    the noise). ``None`` altogether when fewer than two deals are decided."""
    games = list(games)
    plain, additive = BTDesign(games, participants), AdditiveSideDesign(games, participants)
    decided = plain.decided
    clusters = [c for c in clusters_of([g.deal if g.deal is not None else ("game", i) for i, g in enumerate(games)]) if decided[c].any()]
    if len(clusters) < 2:
        return {"available": False, "why": "fewer than two decided deals: nothing to hold out", "folds": 0, "games": int(decided.sum())}
    k = min(folds, len(clusters))
    fold = folds_of(len(clusters), k, seed)
    pred = {name: np.full(len(games), np.nan) for name in ("plain", "additive")}
    for f in range(k):
        test = np.concatenate([c for c, ff in zip(clusters, fold) if ff == f])
        train = np.concatenate([c for c, ff in zip(clusters, fold) if ff != f])
        for name, design in (("plain", plain), ("additive", additive)):
            theta = _trained(design, train)
            pred[name][test] = 1.0 / (1.0 + np.exp(-(design.X[test] @ theta)))
    y = plain.y
    scored = np.flatnonzero(decided)
    loss = {name: _losses(pred[name][scored], y[scored]) for name in pred}
    diff_ll = loss["additive"][0] - loss["plain"][0]
    diff_br = loss["additive"][1] - loss["plain"][1]
    position = {g: i for i, g in enumerate(scored)}
    units = [np.array([position[i] for i in c if i in position], dtype=np.int64) for c in clusters]
    rows = cluster_rows(units, n_boot, seed) if n_boot else []

    def est(d: np.ndarray) -> dict[str, float | None]:
        reps = np.array([d[r].mean() if len(r) else np.nan for r in rows]) if rows else np.array([])
        lo, hi = percentile_interval(reps) if rows else (None, None)
        return {"value": float(d.mean()), "low": lo, "high": hi}

    ll, br = est(diff_ll), est(diff_br)
    better = None
    if ll["low"] is not None and ll["high"] is not None:
        better = "additive" if ll["high"] < 0 else "plain" if ll["low"] > 0 else None
    return {
        "available": True,
        "folds": k,
        "games": int(scored.size),
        "unit": "deal" if any(len(c) > 1 for c in clusters) else "game",
        "plain": {"log_loss": float(loss["plain"][0].mean()), "brier": float(loss["plain"][1].mean())},
        "additive": {"log_loss": float(loss["additive"][0].mean()), "brier": float(loss["additive"][1].mean())},
        "chance": {"log_loss": math.log(2.0), "brier": 0.25},
        "difference": {"log_loss": ll, "brier": br},
        "better": better,
    }


def summary(games: Sequence[GameOutcome], participants: Sequence[str], *, n_boot: int, seed: int) -> dict[str, Any]:
    """The leaderboard's ``side_skills``: what the fit is, whether the games identify
    it, and how it predicts held-out games against the plain fit."""
    ok = bool(participants) and identified(games, participants)
    return {
        "model": "additive per-side Bradley-Terry: each village seat adds its participant's detector skill, each wolf "
        "seat its deceiver skill (team sums)",
        "scale": "Elo per seat, each side relative to its average participant",
        "identified": ok,
        "why": "the games separate each participant's village skill from its wolf skill"
        if ok
        else "the games do not separate a participant's village skill from its wolf skill (they always hold the same "
        "seats, or meet only as whole teams once per side): no per-side skill is given",
        "cross_validation": cross_validated(games, participants, n_boot=n_boot, seed=seed),
    }

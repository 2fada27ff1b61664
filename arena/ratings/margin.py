"""Bradley-Terry on the margin of victory: more than one bit from every game.

A win or a loss is one bit, and a bit caps what a game can tell: with one outcome per
game, separating neighbours 75 Elo apart takes about 350 well-placed games whatever
the schedule (docs/RATINGS.md). How far the winner's way a game went tells more: a
village that wins with most of its seats alive beat its wolves more clearly than one
that wins with a single survivor. This fit reads that without changing what a rating
means: strengths stay in Elo points of the log-odds of *winning*.

The outcome is ordered: the game's winner first, then its margin (``GameOutcome.margin``:
the share of village seats alive at the end minus the share of wolf seats alive),
cut into at most ``BINS`` categories per winner at the margin's quantiles among the
games rated. Each cut k of that order ("the village did at least this well") is a
comparison of the same two teams:

    logit P(outcome >= k) = t_k + g_k * (mean strength of the village seats
                                         - mean strength of the werewolf seats)

with its own threshold ``t_k`` and sensitivity ``g_k``. The cut between the wolves'
wins and the village's is the win itself, whose sensitivity is fixed at 1: that is
what keeps the scale the win-only fit's. The other sensitivities are fitted (on the
noise ladder: about 0.3 for how many wolves survive a wolf win, 1.2 to 2.4 for how
many villagers survive a village win), so a cut counts by how much skill moves it. A
single proportional-odds model (every ``g_k`` = 1) was tried first and refused: it
rated on a scale 0.8 to 1.2 times the win's, depending on where the cuts fell.

The cuts of one game are not independent, so the fit maximises a composite
likelihood (every cut's logistic log-likelihood summed); the leaderboard's intervals
come from the bootstrap over whole deals, which does not rely on the likelihood's
curvature, and ``Solution.strength_cov`` gives the sandwich (what the adaptive
scheduler reads). A weak N(1, 2^2) prior on each sensitivity keeps it defined when
participants do not differ (identical copies). Fisher scoring with step halving,
started from the win-only fit. A category absent from a bootstrap resample is
dropped from that fit. ``benchmarks/rating_recovery.py`` compares the two fits on
the same games: differences, interval widths, and identical copies told apart.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from arena.ratings.bradley_terry import RIDGE, BTDesign, Solution, fit_logistic
from arena.ratings.games import GameOutcome

OUTCOMES = {
    "win": "one comparison per decided game: did the village win",
    "margin": "the winner and how far the game went its way (survivors on each side), each cut of that order a "
    "comparison with its own fitted sensitivity, the win's fixed at 1: Elo of winning, from more of each game",
}
BINS = 4  # categories per winner: 3 and 4 measured alike at 8 seats, 4 narrower at 12 and under mixed seating
THRESHOLD_RIDGE = 1e-6  # keeps a threshold finite in a resample where one side never won
# A N(1, 2^2) prior on each cut's sensitivity: with few games, or participants who do
# not differ, a cut counts like the win (a sensitivity is then not identified). A
# tighter one (N(1, 1)) inflated the ratings by about 7% at 300 games (the steep cuts,
# held near 1, pulled the strengths up); this one by about 2%.
SENSITIVITY_PRIOR = 0.25


def quantile_bins(values: np.ndarray, bins: int) -> np.ndarray:
    """Category 0..k-1 (k <= ``bins``) of each value: distinct values in order, cut at
    the boundaries between them whose running shares come closest to 1/bins, 2/bins,
    ... Equal values share a category, and no category is empty."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int64)
    distinct, counts = np.unique(values, return_counts=True)
    share = np.cumsum(counts)[:-1] / counts.sum()  # after each distinct value but the last
    cuts = set()
    if share.size:
        for j in range(1, bins):
            cuts.add(int(np.argmin(np.abs(share - j / bins))))
    labels = np.zeros(len(distinct), dtype=np.int64)
    for c in sorted(cuts):
        labels[c + 1 :] += 1
    return labels[np.searchsorted(distinct, values)]


def margin_categories(games: Sequence[GameOutcome], bins: int = BINS) -> tuple[np.ndarray, int]:
    """Each game's ordered category (-1: no margin, not rated by this fit) and the index
    of the village's first category: categories below it are wolf wins."""
    margins = [g.margin for g in games]
    won = [g.village_won for g in games]
    cats = np.full(len(games), -1, dtype=np.int64)
    base = 0
    split = 0
    for side in (0.0, 1.0):
        idx = np.array([i for i, (m, w) in enumerate(zip(margins, won)) if m is not None and w == side], dtype=np.int64)
        if idx.size:
            labels = quantile_bins(np.round(np.array([margins[i] for i in idx]), 9), bins)
            cats[idx] = labels + base
            base += int(labels.max()) + 1
        if side == 0.0:
            split = base
    return cats, split


def design_for(outcome: str, games: Sequence[GameOutcome], participants: Sequence[str], by_side: bool = False) -> BTDesign:
    """The Bradley-Terry design that fits ``outcome`` (a key of ``OUTCOMES``)."""
    if outcome == "margin":
        return MarginDesign(games, participants, by_side)
    if outcome == "win":
        return BTDesign(games, participants, by_side)
    raise ValueError(f"unknown rating outcome '{outcome}' (one of: {', '.join(OUTCOMES)})")


class MarginDesign(BTDesign):
    """``BTDesign`` whose outcome is the ordered margin category instead of the win."""

    outcome = "margin"

    def __init__(self, games: Sequence[GameOutcome], participants: Sequence[str], by_side: bool = False, bins: int = BINS):
        games = list(games)
        missing = sum(1 for g in games if g.rated and g.village_won is not None and g.margin is None)
        if missing:
            raise ValueError(f"the margin outcome needs every seat's survival at the end, and {missing} decided game(s) lack it")
        super().__init__(games, participants, by_side)
        self.category, self.split = margin_categories(games, bins)
        self.decided &= self.category >= 0

    def response(self) -> np.ndarray:
        return self.category

    def solve(self, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> Solution:
        cats = y.astype(np.int64)
        present = np.unique(cats)
        y = np.searchsorted(present, cats)  # categories absent from these rows are dropped
        split = int(np.searchsorted(present, self.split))  # first village category among those present
        t, gam, b, info, meat = fit_cuts(X[:, 1:], y, len(present), split, RIDGE, weights=w)
        cut = split - 1  # index of the win's cut among the thresholds
        alpha = float(t[cut]) if 0 <= cut < len(t) else 0.0  # logit P(village wins) between average teams
        nuisance = len(info) - len(b)
        return Solution(alpha, b, info, t, meat=meat, sensitivity=gam, nuisance_count=nuisance)

    def expected_information(self, eta: np.ndarray, sol: Solution) -> np.ndarray:
        """Information one game carries about its linear predictor, counting each
        cut by its sensitivity (as if the cuts were independent: an upper bound, which
        only the scheduler's choice between pairs reads)."""
        eta = np.asarray(eta, dtype=float)
        gam = sol.sensitivity if sol.sensitivity is not None else np.ones(len(sol.nuisance))
        p = _sig(sol.nuisance[None, :] + gam[None, :] * eta[:, None])
        return np.sum(gam[None, :] ** 2 * p * (1 - p), axis=1)


def _sig(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def _penalised_loglik(eta: np.ndarray, Y: np.ndarray, w: np.ndarray, theta: np.ndarray, prior: np.ndarray, centre: np.ndarray) -> float:
    """The composite log-likelihood (every cut a logistic comparison) minus the priors."""
    ll = Y * eta - np.logaddexp(0.0, eta)
    return float(w @ ll.sum(axis=1) - 0.5 * np.sum(prior * (theta - centre) ** 2))


def fit_cuts(
    X: np.ndarray, y: np.ndarray, K: int, split: int, ridge: float, weights: np.ndarray | None = None,
    iters: int = 100, tol: float = 1e-7,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The scaled-cut fit of categories ``y`` (0..K-1, higher is better for the
    village) on rows ``X`` (row i counted ``weights[i]`` times); the cut at category
    ``split`` (the win) has sensitivity 1.

    Returns (thresholds, sensitivities of every cut, strengths, information, meat):
    the penalised information and the sum of per-game score products, over
    [thresholds, free sensitivities, strengths], for a sandwich covariance (the cuts
    of one game are not independent, so the composite likelihood's own curvature
    would understate the variance; the leaderboard's bootstrap does not rely on it).
    Fisher scoring with step halving, from the win-only fit.
    """
    n, p = X.shape
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    cuts = np.arange(1, K)
    C = len(cuts)
    Y = (y[:, None] >= cuts[None, :]).astype(float)  # [n, C]
    free = np.array([k != split for k in cuts])  # cuts whose sensitivity is fitted
    F = int(free.sum())
    total = w.sum()
    share = np.clip((w @ Y) / max(total, 1e-12), 0.5 / max(total, 1), 1 - 0.5 / max(total, 1))
    t = np.log(share / (1 - share))
    b = np.zeros(p)
    if split in cuts:  # start from the win-only fit
        j = int(np.flatnonzero(cuts == split)[0])
        start = fit_logistic(np.column_stack([np.ones(n), X]), Y[:, j], np.r_[0.0, np.full(p, ridge)], weights=w)
        t[j], b = start[0], start[1:]
    g = np.ones(F)
    theta = np.concatenate([t, g, b])
    prior = np.concatenate([np.full(C, THRESHOLD_RIDGE), np.full(F, SENSITIVITY_PRIOR), np.full(p, ridge)])
    centre = np.concatenate([np.zeros(C), np.ones(F), np.zeros(p)])

    def unpack(th):
        gam = np.ones(C)
        gam[free] = th[C : C + F]
        return th[:C], gam, th[C + F :]

    def predictor(th):
        tt, gam, bb = unpack(th)
        return tt[None, :] + gam[None, :] * (X @ bb)[:, None]

    def jacobian(th):
        """[n, C, params]: d predictor / d parameter."""
        _, gam, bb = unpack(th)
        J = np.zeros((n, C, len(th)))
        J[:, np.arange(C), np.arange(C)] = 1.0
        xb = X @ bb
        for col, k in enumerate(np.flatnonzero(free)):
            J[:, k, C + col] = xb
        J[:, :, C + F :] = gam[None, :, None] * X[:, None, :]
        return J

    def curvature(th):
        """(P, J flattened over rows and cuts, information)."""
        P = _sig(predictor(th))
        J = jacobian(th).reshape(n * C, len(th))
        W = (w[:, None] * P * (1 - P)).ravel()
        return P, J, (J * W[:, None]).T @ J + np.diag(prior)

    current = _penalised_loglik(predictor(theta), Y, w, theta, prior, centre)
    for _ in range(iters):
        P, J, info = curvature(theta)
        grad = J.T @ (w[:, None] * (Y - P)).ravel() - prior * (theta - centre)
        step = np.linalg.solve(info + 1e-12 * np.eye(len(theta)), grad)
        lam = 1.0
        while lam > 1e-8:
            new_theta = theta + lam * step
            new = _penalised_loglik(predictor(new_theta), Y, w, new_theta, prior, centre)
            if new >= current - 1e-12:
                break
            lam /= 2
        else:
            break
        theta, current = new_theta, new
        if np.max(np.abs(lam * step)) < tol:
            break
    P, J, info = curvature(theta)
    score = ((Y - P).ravel()[:, None] * J).reshape(n, C, len(theta)).sum(axis=1)  # one game of each row
    meat = (score * w[:, None]).T @ score
    tt, gam, bb = unpack(theta)
    return tt, gam, bb, info, meat

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
noise ladder's teams games: -0.5 to 0.3 for how many wolves survive a wolf win, 0.9
to 2.4 for how many villagers survive a village win), so a cut counts by how much skill moves it. A
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
        self.n_categories = int(self.category.max()) + 1 if self.decided.any() else 0
        self._warm: tuple[int, int, np.ndarray] | None = None

    def response(self) -> np.ndarray:
        return self.category

    def solve(self, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> Solution:
        cats = y.astype(np.int64)
        present = np.unique(cats)
        y = np.searchsorted(present, cats)  # categories absent from these rows are dropped
        split = int(np.searchsorted(present, self.split))  # first village category among those present
        warm = self._warm if self._warm is not None and len(present) == self._warm[0] and split == self._warm[1] else None
        t, gam, b, info, meat, theta = fit_cuts(X[:, 1:], y, len(present), split, RIDGE, weights=w, start=None if warm is None else warm[2])
        if self._warm is None and len(present) == self.n_categories:
            self._warm = (len(present), split, theta)  # the first fit with every category: where the others start
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
    iters: int = 100, tol: float = 1e-6, start: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The scaled-cut fit of categories ``y`` (0..K-1, higher is better for the
    village) on rows ``X`` (row i counted ``weights[i]`` times); the cut at category
    ``split`` (the win) has sensitivity 1.

    Returns (thresholds, sensitivities of every cut, strengths, information, meat,
    parameters): the penalised information and the sum of per-game score products,
    over the parameters [thresholds, free sensitivities, strengths], for a sandwich
    covariance (the cuts of one game are not independent, so the composite
    likelihood's own curvature would understate the variance; the leaderboard's
    bootstrap does not rely on it). Newton's method with step halving, from ``start``
    (the parameters of a fit on similar rows: a bootstrap replicate starts from the
    fit of all games) or from the win-only fit.
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
    g = np.ones(F)
    if start is None and split in cuts:  # start from the win-only fit, each other cut fitted on its predictor
        j = int(np.flatnonzero(cuts == split)[0])
        first = fit_logistic(np.column_stack([np.ones(n), X]), Y[:, j], np.r_[0.0, np.full(p, ridge)], weights=w)
        t[j], b = first[0], first[1:]
        xb = np.column_stack([np.ones(n), X @ b])
        for col, k in enumerate(np.flatnonzero(free)):
            t[k], g[col] = fit_logistic(xb, Y[:, k], np.array([THRESHOLD_RIDGE, SENSITIVITY_PRIOR]), weights=w, iters=25)
    theta = np.concatenate([t, g, b]) if start is None else np.array(start, dtype=float)
    prior = np.concatenate([np.full(C, THRESHOLD_RIDGE), np.full(F, SENSITIVITY_PRIOR), np.full(p, ridge)])
    centre = np.concatenate([np.zeros(C), np.ones(F), np.zeros(p)])

    def unpack(th):
        gam = np.ones(C)
        gam[free] = th[C : C + F]
        return th[:C], gam, th[C + F :]

    def predictor(th):
        tt, gam, bb = unpack(th)
        return tt[None, :] + gam[None, :] * (X @ bb)[:, None]

    free_cuts = np.flatnonzero(free)
    J3 = np.zeros((n, C, C + F + p))  # filled in place by ``jacobian``
    J3[:, np.arange(C), np.arange(C)] = 1.0

    def jacobian(th):
        """[n, C, params]: d predictor / d parameter (the thresholds' part is fixed)."""
        _, gam, bb = unpack(th)
        xb = X @ bb
        J3[:, free_cuts, C + np.arange(F)] = xb[:, None]
        J3[:, :, C + F :] = gam[None, :, None] * X[:, None, :]
        return J3

    def curvature(th):
        """(P, J flattened over rows and cuts, information)."""
        P = _sig(predictor(th))
        J = jacobian(th).reshape(n * C, len(th))
        W = (w[:, None] * P * (1 - P)).ravel()
        return P, J, (J * W[:, None]).T @ J + np.diag(prior)

    def newton_step(P, J, info, grad):
        """Newton's step on the observed curvature (quadratic convergence: Fisher
        scoring alone converges only linearly here, a sensitivity and the strengths
        multiplying each other); Fisher scoring's where that is not positive definite
        (far from the optimum)."""
        resid = w[:, None] * (Y - P)  # [n, C]
        cross = resid[:, free_cuts].T @ X  # d2 loglik / d g_k d b = sum of residual * x
        observed = info.copy()
        observed[C : C + F, C + F :] -= cross
        observed[C + F :, C : C + F] -= cross.T
        try:
            np.linalg.cholesky(observed)
            return np.linalg.solve(observed, grad)
        except np.linalg.LinAlgError:
            return np.linalg.solve(info + 1e-12 * np.eye(len(grad)), grad)

    current = _penalised_loglik(predictor(theta), Y, w, theta, prior, centre)
    for _ in range(iters):
        P, J, info = curvature(theta)
        grad = J.T @ (w[:, None] * (Y - P)).ravel() - prior * (theta - centre)
        step = newton_step(P, J, info, grad)
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
    return tt, gam, bb, info, meat, theta

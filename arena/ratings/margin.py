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
from arena.ratings.board import OUTCOMES
from arena.ratings.games import GameOutcome

BINS = 4  # categories per winner: 3 and 4 measured alike at 8 seats, 4 narrower at 12 and under mixed seating
THRESHOLD_RIDGE = 1e-6  # keeps a threshold finite in a resample where one side never won
# A N(1, 2^2) prior on each cut's sensitivity: with few games, or participants who do
# not differ, a cut counts like the win (a sensitivity is then not identified). A
# tighter one (N(1, 1)) inflated the ratings by about 7% at 300 games (the steep cuts,
# held near 1, pulled the strengths up); this one by about 2%.
SENSITIVITY_PRIOR = 0.25
BATCH = 500  # bootstrap replicates solved together (each holds [cells, cuts] arrays: tens of kB at 600 games)


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

    def fit_many(self, rows: Sequence[np.ndarray]) -> list[dict[str, float]]:
        """``fit(row)`` for every row (a bootstrap's replicates). Replicates that hold
        every category and every participant, with the strengths identified (nearly
        all of them), start where ``fit`` would (the fit of all games) and are solved
        together: one Newton's method over [replicates, cells] arrays, each stopping
        when its own step does. The others go through ``fit``."""
        if self._warm is None or not rows:  # no fit of all games to start from yet
            return [self.fit(r) for r in rows]
        X, y, counts, ready = self._replicate_cells(rows)
        cats = np.zeros((len(y), self.n_categories))
        cats[np.arange(len(y)), y.astype(np.int64)] = 1.0
        every = ((counts > 0).astype(float) @ cats).min(axis=1) > 0  # every category: the start's parameters fit
        batch = np.flatnonzero(every & ready & (self._warm[:2] == (self.n_categories, self.split)))
        out: list[dict[str, float] | None] = [None] * len(rows)
        if batch.size:
            model, _ = cuts_model(X[:, 1:], y.astype(np.int64), self.n_categories, self.split, RIDGE)
            # In chunks: a step holds [replicates, cells, cuts] arrays, and --bootstrap
            # allows 100,000 replicates. Each replicate's arithmetic is its own either way.
            theta = np.concatenate([
                model.newton(np.tile(self._warm[2], (len(part), 1)), counts[part], 100, 1e-6)
                for part in np.array_split(batch, -(-len(batch) // BATCH))
            ])  # fmt: skip
            t, _, b = model.unpack(theta)
            cut = self.split - 1  # the win's cut
            alpha = t[:, cut] if 0 <= cut < t.shape[1] else np.zeros(len(batch))
            present = np.ones(len(self.keys), dtype=bool)
            for i, a, bb in zip(batch, alpha, b):
                out[i] = self._centred_elo(np.concatenate([[a], bb]), present)
        return [o if o is not None else self.fit(r) for o, r in zip(out, rows)]

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


class _Cuts:
    """The scaled-cut model on one set of rows (``X``: [rows, strengths], ``Y``: [rows,
    cuts], 1 where the row's category reaches the cut), evaluated for many parameter
    vectors and row weightings at once (a bootstrap's replicates: [fits, ...] arrays).

    Parameters are [thresholds (C), free sensitivities (F), strengths (p)]. The
    information is built block by block from the predictor's derivatives
    (d eta[i,k] / d t_j = [j = k], / d g_f = [k = cut f] * xb_i, / d b = g_k * x_i)
    rather than from the [rows, cuts, parameters] Jacobian, which for a thousand
    replicates would not fit in memory."""

    def __init__(self, X: np.ndarray, Y: np.ndarray, free: np.ndarray, prior: np.ndarray, centre: np.ndarray):
        self.X, self.Y = X, Y
        self.C = Y.shape[1]
        self.free = np.flatnonzero(free)  # cuts whose sensitivity is fitted
        self.F = len(self.free)
        self.prior, self.centre = prior, centre

    def unpack(self, th: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[fits, params] -> thresholds [fits, C], sensitivities of every cut [fits, C], strengths."""
        C, F = self.C, self.F
        gam = np.ones((len(th), C))
        gam[:, self.free] = th[:, C : C + F]
        return th[:, :C], gam, th[:, C + F :]

    def predictor(self, th: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(eta [fits, rows, cuts], xb [fits, rows], gam [fits, cuts])."""
        t, gam, b = self.unpack(th)
        xb = b @ self.X.T
        return t[:, None, :] + gam[:, None, :] * xb[:, :, None], xb, gam

    def loglik(self, th: np.ndarray, W: np.ndarray) -> np.ndarray:
        """The composite log-likelihood (every cut a logistic comparison) minus the priors, per fit."""
        eta, _, _ = self.predictor(th)
        ll = (self.Y * eta - np.logaddexp(0.0, eta)).sum(axis=2)
        return np.einsum("bn,bn->b", W, ll) - 0.5 * ((self.prior * (th - self.centre) ** 2).sum(axis=1))

    def derivatives(self, th: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(penalised information [fits, params, params], gradient [fits, params], the
        cross term d2 loglik / d g d b [fits, F, p] of the observed curvature, P)."""
        X, C, F, free = self.X, self.C, self.F, self.free
        eta, xb, gam = self.predictor(th)
        P = _sig(eta)
        V = W[:, :, None] * P * (1 - P)  # [fits, rows, cuts]
        R = W[:, :, None] * (self.Y - P)
        n_fit, n_par = len(th), C + F + X.shape[1]
        info = np.zeros((n_fit, n_par, n_par))
        cut = np.arange(C)
        info[:, cut, cut] = V.sum(axis=1)
        tb = gam[:, :, None] * (V.transpose(0, 2, 1) @ X)
        info[:, :C, C + F :] = tb
        info[:, C + F :, :C] = tb.transpose(0, 2, 1)
        Vf = V[:, :, free] * xb[:, :, None]  # [fits, rows, F]
        g = C + np.arange(F)
        info[:, free, g] = info[:, g, free] = Vf.sum(axis=1)
        info[:, g, g] = (Vf * xb[:, :, None]).sum(axis=1)
        gb = gam[:, free, None] * (Vf.transpose(0, 2, 1) @ X)
        info[:, C : C + F, C + F :] = gb
        info[:, C + F :, C : C + F] = gb.transpose(0, 2, 1)
        info[:, C + F :, C + F :] = ((V * gam[:, None, :] ** 2).sum(axis=2)[:, :, None] * X).transpose(0, 2, 1) @ X
        info += np.diag(self.prior)
        grad = np.concatenate(
            [R.sum(axis=1), (R[:, :, free] * xb[:, :, None]).sum(axis=1), np.einsum("bnc,bc->bn", R, gam) @ X], axis=1
        ) - self.prior * (th - self.centre)
        cross = R[:, :, free].transpose(0, 2, 1) @ X
        return info, grad, cross, P

    def newton(self, theta: np.ndarray, W: np.ndarray, iters: int, tol: float) -> np.ndarray:
        """Newton's method with step halving for every fit at once, each stopping when
        its own step is below ``tol`` (or no step improves it), as one fit alone would."""
        C, F = self.C, self.F
        theta = np.array(theta, dtype=float)
        current = self.loglik(theta, W)
        active = np.arange(len(theta))
        for _ in range(iters):
            if not active.size:
                break
            th, w = theta[active], W[active]
            info, grad, cross, _ = self.derivatives(th, w)
            # Newton's step on the observed curvature (quadratic convergence: Fisher
            # scoring alone converges only linearly here, a sensitivity and the
            # strengths multiplying each other); Fisher scoring's where that is not
            # positive definite (far from the optimum).
            observed = info.copy()
            observed[:, C : C + F, C + F :] -= cross
            observed[:, C + F :, C : C + F] -= cross.transpose(0, 2, 1)
            for i in _not_positive_definite(observed):
                observed[i] = info[i] + 1e-12 * np.eye(info.shape[1])
            step = np.linalg.solve(observed, grad[:, :, None])[:, :, 0]
            lam = np.ones(len(th))
            new_theta = th.copy()
            new = current[active].copy()
            pending = np.arange(len(th))
            while pending.size:
                cand = th[pending] + lam[pending, None] * step[pending]
                value = self.loglik(cand, w[pending])
                ok = value >= current[active[pending]] - 1e-12
                new_theta[pending[ok]], new[pending[ok]] = cand[ok], value[ok]
                pending = pending[~ok]
                lam[pending] /= 2
                pending = pending[lam[pending] > 1e-8]
            moved = lam > 1e-8  # a fit no step improved stops where it is
            theta[active[moved]], current[active[moved]] = new_theta[moved], new[moved]
            done = ~moved | (np.max(np.abs(lam[:, None] * step), axis=1) < tol)
            active = active[~done]
        return theta


def _not_positive_definite(m: np.ndarray, offset: int = 0) -> list[int]:
    """The matrices of the stack ``m`` that have no Cholesky factor, found by halves
    (a few, and only in the first steps, far from the optimum)."""
    try:
        np.linalg.cholesky(m)
        return []
    except np.linalg.LinAlgError:
        if len(m) == 1:
            return [offset]
        half = len(m) // 2
        return _not_positive_definite(m[:half], offset) + _not_positive_definite(m[half:], offset + half)


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
    model, Y = cuts_model(X, y, K, split, ridge)
    theta = start_of(model, X, Y, w, split, ridge) if start is None else np.array(start, dtype=float)
    theta = model.newton(theta[None, :], w[None, :], iters, tol)
    info, _, _, P = model.derivatives(theta, w[None, :])
    info = info[0]
    t, gam, b = (a[0] for a in model.unpack(theta))
    xb = X @ b
    E = Y - P[0]  # [n, C]
    score = np.concatenate([E, E[:, model.free] * xb[:, None], (E @ gam)[:, None] * X], axis=1)  # one game of each row
    meat = (score * w[:, None]).T @ score
    return t, gam, b, info, meat, theta[0]


def cuts_model(X: np.ndarray, y: np.ndarray, K: int, split: int, ridge: float) -> tuple[_Cuts, np.ndarray]:
    """The model of categories ``y`` (0..K-1) on rows ``X``, the win's cut at ``split``, and its [rows, cuts] outcomes."""
    cuts = np.arange(1, K)
    Y = (y[:, None] >= cuts[None, :]).astype(float)  # [n, C]
    free = cuts != split  # cuts whose sensitivity is fitted
    C, F, p = len(cuts), int(free.sum()), X.shape[1]
    prior = np.concatenate([np.full(C, THRESHOLD_RIDGE), np.full(F, SENSITIVITY_PRIOR), np.full(p, ridge)])
    centre = np.concatenate([np.zeros(C), np.ones(F), np.zeros(p)])
    return _Cuts(X, Y, free, prior, centre), Y


def start_of(model: _Cuts, X: np.ndarray, Y: np.ndarray, w: np.ndarray, split: int, ridge: float) -> np.ndarray:
    """Where a fit with no similar fit to start from begins: the win-only fit, each
    other cut fitted on its predictor."""
    n, p = X.shape
    cuts = np.arange(1, model.C + 1)
    total = w.sum()
    share = np.clip((w @ Y) / max(total, 1e-12), 0.5 / max(total, 1), 1 - 0.5 / max(total, 1))
    t = np.log(share / (1 - share))
    b = np.zeros(p)
    g = np.ones(model.F)
    if split in cuts:
        j = int(np.flatnonzero(cuts == split)[0])
        first = fit_logistic(np.column_stack([np.ones(n), X]), Y[:, j], np.r_[0.0, np.full(p, ridge)], weights=w)
        t[j], b = first[0], first[1:]
        xb = np.column_stack([np.ones(n), X @ b])
        for col, k in enumerate(model.free):
            t[k], g[col] = fit_logistic(xb, Y[:, k], np.array([THRESHOLD_RIDGE, SENSITIVITY_PRIOR]), weights=w, iters=25)
    return np.concatenate([t, g, b])

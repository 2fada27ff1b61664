"""A Bradley-Terry fit of side against side.

Each decided game is one comparison between the village team and the werewolf team:

    logit P(village wins) = alpha + mean strength of the village seats
                                  - mean strength of the werewolf seats

``alpha`` is the table's built-in advantage of the village (the deal is not fair to
both sides), so a participant is not rewarded for the side the schedule gave it. In
the overall model a participant has one strength; in the side model it has one as a
villager and one as a werewolf. Team means (not sums) keep strengths comparable across
table sizes.

The fit is a logistic regression solved by Newton's method (iteratively reweighted
least squares) with a weak ridge on the strengths: it keeps the fit finite when a
resample separates perfectly, and it picks, among the equivalent solutions (adding a
constant to every strength changes nothing), the one whose strengths sum to zero.
Strengths are reported in Elo points (400/ln 10 per unit of log-odds) relative to the
average participant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from arena.ratings.games import VILLAGE, WOLVES, GameOutcome

ELO = 400.0 / math.log(10.0)
RIDGE = 0.1  # a N(0, 1/0.1) prior on log-odds strengths: weak next to a few dozen games


def fit_logistic(
    X: np.ndarray, y: np.ndarray, penalty: np.ndarray, iters: int = 100, tol: float = 1e-9,
    with_hessian: bool = False, weights: np.ndarray | None = None,
):  # fmt: skip
    """Maximum penalised likelihood; ``penalty`` is the ridge weight of each column,
    ``weights`` how many times each row counts. With ``with_hessian``, also the
    penalised information matrix at the optimum."""
    theta = np.zeros(X.shape[1])
    P = np.diag(penalty)
    n = np.ones(len(y)) if weights is None else weights
    for _ in range(iters):
        eta = X @ theta
        p = 1.0 / (1.0 + np.exp(-eta))
        w = n * p * (1 - p)
        grad = X.T @ (n * (y - p)) - P @ theta
        hess = (X * w[:, None]).T @ X + P
        step = np.linalg.solve(hess + 1e-12 * np.eye(len(theta)), grad)
        theta += step
        if np.max(np.abs(step)) < tol:
            break
    if with_hessian:
        p = 1.0 / (1.0 + np.exp(-(X @ theta)))
        return theta, (X * (n * p * (1 - p))[:, None]).T @ X + P
    return theta


def fit_logistic_many(
    X: np.ndarray, y: np.ndarray, penalty: np.ndarray, weights: np.ndarray, iters: int = 100, tol: float = 1e-9
) -> np.ndarray:
    """``fit_logistic`` of the same rows under many weightings at once (``weights``:
    [fits, rows], a bootstrap replicate's counts): [fits, columns]. Each fit takes the
    Newton steps ``fit_logistic`` would and stops when its own step is below ``tol``."""
    theta = np.zeros((len(weights), X.shape[1]))
    ridge = np.diag(penalty) + 1e-12 * np.eye(X.shape[1])
    active = np.arange(len(weights))
    for _ in range(iters):
        if not active.size:
            break
        th, n = theta[active], weights[active]
        p = 1.0 / (1.0 + np.exp(-(th @ X.T)))  # [fits, rows]
        grad = (n * (y - p)) @ X - th * penalty
        hess = np.einsum("fr,ri,rj->fij", n * p * (1 - p), X, X) + ridge
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        theta[active] = th + step
        active = active[np.max(np.abs(step), axis=1) >= tol]
    return theta


@dataclass
class Solution:
    """One fit, in log-odds: the village advantage, the strengths (not centred), the
    penalised information matrix of [nuisance, strengths] and the nuisance parameters
    (the village advantage here; the margin fit's thresholds)."""

    alpha: float
    strengths: np.ndarray
    info: np.ndarray
    nuisance: np.ndarray
    meat: np.ndarray | None = None  # a composite likelihood's score products: the sandwich's filling
    sensitivity: np.ndarray | None = None  # the margin fit's per-cut sensitivities
    nuisance_count: int | None = None  # parameters before the strengths in ``info`` (default: len(nuisance))

    def strength_cov(self) -> np.ndarray:
        """The strengths' block of the inverse information (the nuisance profiled out),
        or of the sandwich when the fit is a composite likelihood."""
        k = len(self.nuisance) if self.nuisance_count is None else self.nuisance_count
        bread = np.linalg.pinv(self.info)
        full = bread if self.meat is None else bread @ self.meat @ bread
        return full[k:, k:]


class BTDesign:
    """The regression's rows for a list of games, built once so that a bootstrap
    replicate is a row selection and a refit, not a rebuild."""

    outcome = "win"

    # A seat's weight in its team's row: 1/size, a team's mean (the plain fit);
    # ``arena.ratings.side_skills`` sums its seats instead (1).
    team_sum = False

    def __init__(self, games: Sequence[GameOutcome], participants: Sequence[str], by_side: bool = False):
        self.by_side = by_side
        self.keys = [f"{p}@{side}" for p in participants for side in (VILLAGE, WOLVES)] if by_side else list(participants)
        columns = {k: i + 1 for i, k in enumerate(self.keys)}
        n = len(games)
        self.X = np.zeros((n, 1 + len(self.keys)))
        self.y = np.zeros(n)
        self.decided = np.zeros(n, dtype=bool)
        self.X[:, 0] = 1.0  # alpha: the village's advantage
        for i, g in enumerate(games):
            if not g.rated or g.village_won is None:
                continue
            self.decided[i] = True
            self.y[i] = g.village_won
            for side, sign in ((VILLAGE, 1.0), (WOLVES, -1.0)):
                team = g.team(side)
                weight = sign if self.team_sum else sign / len(team)
                for s in team:
                    key = f"{s.participant}@{side}" if by_side else s.participant
                    self.X[i, columns[key]] += weight

    def fit(self, rows: np.ndarray | None = None) -> dict[str, float]:
        """Strengths in Elo points plus ``village_advantage``, on ``rows`` (game indices,
        repeats allowed) or on all games. A participant (or participant-side) without
        information in those rows is left out."""
        solved = self._solved(rows)
        if solved is None:
            return {}
        present, sol = solved
        return self._centred_elo(np.concatenate([[sol.alpha], sol.strengths]), present)

    def fit_many(self, rows: Sequence[np.ndarray]) -> list[dict[str, float]]:
        """``fit(row)`` for every row (a bootstrap's replicates). Replicates in which
        every participant has information and the strengths are identified (nearly
        all of them) are solved together: one Newton's method over [replicates,
        cells] arrays, each replicate stopping when its own step does, as ``fit``'s
        would. The others, and the fits of other outcomes, go through ``fit``."""
        if type(self).solve is not BTDesign.solve or not rows:
            return [self.fit(r) for r in rows]
        X, y, counts, ready = self._replicate_cells(rows)
        batch = np.flatnonzero(ready)
        out: list[dict[str, float] | None] = [None] * len(rows)
        if batch.size:
            penalty = np.full(X.shape[1], RIDGE)
            penalty[0] = 0.0
            theta = fit_logistic_many(X, y, penalty, counts[batch])
            for i, th in zip(batch, theta):
                out[i] = self._centred_elo(th, np.ones(len(self.keys), dtype=bool))
        return [o if o is not None else self.fit(r) for o, r in zip(out, rows)]

    def _replicate_cells(self, rows: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(cells' rows, cells' outcomes, [replicates, cells] counts, whether each
        replicate can be solved with the others: every participant has information in
        it and the strengths are identified)."""
        cell, X, y = self._cells()
        counts = np.zeros((len(rows), len(y)))
        for i, r in enumerate(rows):
            c = cell[np.asarray(r, dtype=np.int64)]
            counts[i] = np.bincount(c[c >= 0], minlength=len(y))
        used = counts > 0
        full = (used.astype(float) @ (np.abs(X[:, 1:]) > 1e-12)).min(axis=1) > 0 if len(y) else np.zeros(len(rows), dtype=bool)
        return X, y, counts, full & self._identified_many(X, used)

    def _identified_many(self, X: np.ndarray, used: np.ndarray) -> np.ndarray:
        """``identified`` with every column present, for each row's set of cells at once
        (the rank of the cells it uses, with ``numpy.linalg.matrix_rank``'s tolerance)."""
        n_used = used.sum(axis=1)
        s = np.linalg.svd(used[:, :, None] * X[None, :, :], compute_uv=False)
        tol = s.max(axis=1) * np.maximum(n_used, X.shape[1]) * np.finfo(float).eps
        groups = 2 if self.by_side else 1
        return (n_used > 0) & ((s > tol[:, None]).sum(axis=1) >= X.shape[1] - groups)

    def _centred_elo(self, theta: np.ndarray, present: np.ndarray) -> dict[str, float]:
        """A fit's [alpha, strengths] in Elo, each group centred among those present."""
        theta = np.array(theta, dtype=float)
        alpha = float(theta[0])
        groups = [[k for k in self.keys if k.endswith("@" + side)] for side in (VILLAGE, WOLVES)] if self.by_side else [self.keys]
        for gi, group in enumerate(groups):
            # Centre each group among those present: a shift common to all villagers (or
            # all wolves) is the village advantage's business, not any participant's.
            cols = [self.keys.index(k) + 1 for k in group if present[self.keys.index(k)]]
            if cols:
                mean = float(np.mean(theta[cols]))
                theta[cols] -= mean
                if self.by_side:
                    alpha += mean if gi == 0 else -mean
        out = {"village_advantage": alpha * ELO}
        for i, k in enumerate(self.keys):
            if present[i]:
                out[k] = float(theta[i + 1] * ELO)
        return out

    def wald(self, rows: np.ndarray | None = None) -> "Solution | None":
        """The fit with its curvature (log-odds, strengths not centred): what the
        adaptive scheduler reads, where a bootstrap would cost hundreds of fits per
        choice. ``None`` when the games do not pin the strengths down."""
        solved = self._solved(rows)
        return None if solved is None else solved[1]

    def response(self) -> np.ndarray:
        """What the fit explains, per game: the village's win (1 or 0)."""
        return self.y

    def _cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Games with the same row and outcome are one cell counted several times: a
        bootstrap replicate is then a vector of counts over a few hundred cells at
        most (teams seating has one row per ordered pair), which makes each refit
        cost the same whatever the number of games. (cell of each game, -1 when not
        fitted; each cell's row; each cell's outcome.)"""
        cached = getattr(self, "_cell_cache", None)
        if cached is None:
            y = self.response()
            keys = np.column_stack([np.round(self.X, 12), y])
            cell = np.full(len(y), -1, dtype=np.int64)
            if self.decided.any():
                uniq, inverse = np.unique(keys[self.decided], axis=0, return_inverse=True)
                cell[self.decided] = inverse.ravel()
                cached = (cell, uniq[:, :-1], uniq[:, -1])
            else:
                cached = (cell, np.zeros((0, self.X.shape[1])), np.zeros(0))
            self._cell_cache = cached
        return cached

    def _solved(self, rows):
        cell, X_cells, y_cells = self._cells()
        idx = np.arange(len(cell)) if rows is None else np.asarray(rows, dtype=np.int64)
        idx = idx[cell[idx] >= 0]
        if idx.size == 0:
            return None
        counts = np.bincount(cell[idx], minlength=len(y_cells)).astype(float)
        used = counts > 0
        X, y, w = X_cells[used], y_cells[used], counts[used]
        # A column that is zero in every game carries no information (the participant did
        # not play, or always sat on both sides in equal shares): it gets no strength.
        present = np.abs(X[:, 1:]).sum(axis=0) > 1e-12
        if not self.identified(X, present):
            return None
        return present, self.solve(X, y, w)

    def solve(self, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> "Solution":
        """The penalised fit of outcomes ``y`` on rows ``X``, row i counted ``w[i]``
        times. Subclasses fit other outcomes of the same games."""
        penalty = np.full(self.X.shape[1], RIDGE)
        penalty[0] = 0.0
        theta, info = fit_logistic(X, y, penalty, with_hessian=True, weights=w)
        return Solution(float(theta[0]), theta[1:], info, theta[:1])

    def expected_information(self, eta: np.ndarray, sol: "Solution") -> np.ndarray:
        """Fisher information one game carries about its linear predictor ``eta`` (the
        village's strength minus the wolves', log-odds), for the scheduler's choice."""
        p = 1.0 / (1.0 + np.exp(-(sol.alpha + eta)))
        return p * (1 - p)

    def identified(self, X: np.ndarray | None = None, present: np.ndarray | None = None) -> bool:
        """Whether the games pin the strengths down (up to the centring). Two
        participants who only ever meet as whole teams, each once per side, leave the
        per-side model with one equation per pairing: village skill and wolf skill are
        then confounded, and a fit would only split their sum evenly."""
        if X is None:
            X = self.X[self.decided]
            present = np.abs(X[:, 1:]).sum(axis=0) > 1e-12
        cols = [0] + [i + 1 for i in range(len(self.keys)) if present[i]]
        groups = 2 if self.by_side else 1
        if self.by_side:
            groups = sum(1 for side in (VILLAGE, WOLVES) if any(present[i] and k.endswith("@" + side) for i, k in enumerate(self.keys)))
        expected = len(cols) - groups  # one constant per group is absorbed by alpha
        return bool(X.shape[0]) and np.linalg.matrix_rank(X[:, cols]) >= expected


def bradley_terry(games: Sequence[GameOutcome], participants: Sequence[str], by_side: bool = False) -> dict[str, float]:
    """Strengths in Elo points plus ``village_advantage`` (see ``BTDesign.fit``)."""
    return BTDesign(games, participants, by_side).fit()

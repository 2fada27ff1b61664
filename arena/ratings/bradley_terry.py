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
from typing import Sequence

import numpy as np

from arena.ratings.games import VILLAGE, WOLVES, GameOutcome

ELO = 400.0 / math.log(10.0)
RIDGE = 0.1  # a N(0, 1/0.1) prior on log-odds strengths: weak next to a few dozen games


def fit_logistic(X: np.ndarray, y: np.ndarray, penalty: np.ndarray, iters: int = 100, tol: float = 1e-9) -> np.ndarray:
    """Maximum penalised likelihood; ``penalty`` is the ridge weight of each column."""
    theta = np.zeros(X.shape[1])
    P = np.diag(penalty)
    for _ in range(iters):
        eta = X @ theta
        p = 1.0 / (1.0 + np.exp(-eta))
        w = p * (1 - p)
        grad = X.T @ (y - p) - P @ theta
        hess = (X * w[:, None]).T @ X + P
        step = np.linalg.solve(hess + 1e-12 * np.eye(len(theta)), grad)
        theta += step
        if np.max(np.abs(step)) < tol:
            break
    return theta


class BTDesign:
    """The regression's rows for a list of games, built once so that a bootstrap
    replicate is a row selection and a refit, not a rebuild."""

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
                for s in team:
                    key = f"{s.participant}@{side}" if by_side else s.participant
                    self.X[i, columns[key]] += sign / len(team)

    def fit(self, rows: np.ndarray | None = None) -> dict[str, float]:
        """Strengths in Elo points plus ``village_advantage``, on ``rows`` (game indices,
        repeats allowed) or on all games. A participant (or participant-side) without
        information in those rows is left out."""
        idx = np.arange(len(self.y)) if rows is None else np.asarray(rows)
        idx = idx[self.decided[idx]]
        if idx.size == 0:
            return {}
        X, y = self.X[idx], self.y[idx]
        # A column that is zero in every game carries no information (the participant did
        # not play, or always sat on both sides in equal shares): it gets no strength.
        present = np.abs(X[:, 1:]).sum(axis=0) > 1e-12
        if not self.identified(X, present):
            return {}
        penalty = np.full(X.shape[1], RIDGE)
        penalty[0] = 0.0
        theta = fit_logistic(X, y, penalty)
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

"""OpenSkill's Plackett-Luce model over the two sides of each game.

A game is one match between two teams: the village side's seats and the werewolves'
seats (a team's strength is the sum of its members', so a participant holding three
seats weighs three times). A participant can sit on both sides of one game (self-play
tables); each seat is then rated as its own entry and the participant's rating moves
by the sum of its seats' updates, its uncertainty shrinking once per seat. Neither main
side winning (the day limit, a solo camp) is a draw between the two.

``identity`` decides what a rating belongs to: the participant (overall) or the
participant on one side (``name@village``), which separates being good at deceiving
from being good at detecting.

OpenSkill rates sequentially, so the order of the games moves the result, and a
leaderboard refits it hundreds of times (bootstrap). ``TeamRater`` rates through the
``openskill`` library itself; ``replicate_mu`` is the same update for two teams,
vectorised over many orderings at once with numpy, using the library's own model
constants. The test suite holds the two to the same numbers (1e-9); the fast one is
what the leaderboard uses.

The model is the library's default except ``tau = 0``: tau adds uncertainty before
every game so that a rating can follow a player who improves, but an agent does not
change during a tournament (a model's weights are fixed), and with tau the final
rating would mostly reflect the last few dozen games.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import numpy as np
from openskill.models import PlackettLuce

from arena.ratings.games import SIDES, GameOutcome, SeatResult

Identity = Callable[[SeatResult], str]


def default_model() -> PlackettLuce:
    return PlackettLuce(tau=0.0)


def overall_identity(seat: SeatResult) -> str:
    return seat.participant


def side_identity(seat: SeatResult) -> str:
    return f"{seat.participant}@{seat.side}"


class TeamRater:
    """Sequential OpenSkill updates through the library, one per game, in order."""

    def __init__(self, identity: Identity = overall_identity, model: PlackettLuce | None = None):
        self.model = model or default_model()
        self.identity = identity
        self.mu: dict[str, float] = {}
        self.sigma: dict[str, float] = {}

    def _get(self, key: str) -> tuple[float, float]:
        if key not in self.mu:
            self.mu[key] = self.model.mu
            self.sigma[key] = self.model.sigma
        return self.mu[key], self.sigma[key]

    def update(self, game: GameOutcome) -> None:
        if not game.rated:
            return
        teams_keys = [[self.identity(s) for s in game.team(side)] for side in SIDES]
        teams = [[self.model.rating(*self._get(k)) for k in keys] for keys in teams_keys]
        before = [[(r.mu, r.sigma) for r in team] for team in teams]
        won = game.village_won
        ranks = [1, 1] if won is None else ([1, 2] if won else [2, 1])
        new = self.model.rate(teams, ranks=ranks)
        d_mu: dict[str, float] = {}
        shrink: dict[str, float] = {}
        for keys, old_team, new_team in zip(teams_keys, before, new):
            for k, (mu0, sigma0), nr in zip(keys, old_team, new_team):
                d_mu[k] = d_mu.get(k, 0.0) + (nr.mu - mu0)
                shrink[k] = shrink.get(k, 1.0) * (nr.sigma / sigma0) ** 2
        for k, d in d_mu.items():
            self.mu[k] += d
            self.sigma[k] *= shrink[k] ** 0.5

    def fit(self, games: Iterable[GameOutcome]) -> dict[str, float]:
        for g in games:
            self.update(g)
        return dict(self.mu)


def openskill_mu(games: Iterable[GameOutcome], identity: Identity = overall_identity) -> dict[str, float]:
    """Each identity's mean skill after rating ``games`` in order (through the library)."""
    return TeamRater(identity).fit(games)


class _Encoded:
    """Games as dense counts: how many seats each identity holds on each team of each
    rated game, and what the winner scores. Seats of one identity on one team have the
    same mean and variance, so the update treats them as one entry counted that many
    times."""

    def __init__(self, games: Sequence[GameOutcome], identity: Identity):
        rated = [g for g in games if g.rated]
        self.keys: list[str] = []
        index: dict[str, int] = {}
        entries: list[tuple[int, int, int]] = []  # (game, team, identity) per seat
        for gi, g in enumerate(rated):
            for side, name in enumerate(SIDES):
                for s in g.team(name):
                    k = identity(s)
                    if k not in index:
                        index[k] = len(self.keys)
                        self.keys.append(k)
                    entries.append((gi, side, index[k]))
        n = len(rated)
        counts = np.zeros((2, len(self.keys), n), dtype=np.int64)  # [team, identity, game]: columns gathered per step
        if entries:
            gi, side, k = np.array(entries).T
            np.add.at(counts, (side, k, gi), 1)
        self.village, self.wolves = counts
        self.net = self.village - self.wolves
        self.most = int(counts.max()) if counts.size else 0  # the most seats one identity holds on a team
        # The village's score: 1 for its win, 0 for its loss, 1/2 for a draw (both ranked first).
        self.score = np.array([0.5 if g.village_won is None else g.village_won for g in rated], dtype=float)
        self.rated_of = [i for i, g in enumerate(games) if g.rated]  # position in ``games`` of each rated game


def replicate_mu(
    games: Sequence[GameOutcome], orders: np.ndarray, identity: Identity = overall_identity, model: PlackettLuce | None = None
) -> tuple[list[str], np.ndarray]:
    """Ratings after each replicate's sequence of games.

    ``orders`` is [replicates, steps] of indices into ``games`` (a bootstrap resample,
    a permutation, or both); -1 is padding (a shorter replicate) and rates nothing. Returns the identity keys and [replicates, keys] means;
    an identity that never played in a replicate is NaN there.

    One step updates every replicate at once. With two teams, Plackett-Luce's update
    (openskill's ``PlackettLuce._compute``) reduces to closed forms: with ``P`` the
    village's modelled chance, ``sigmoid((mu_village - mu_wolves) / c)``, and ``s``
    its score (1, 0, or 1/2 for a draw), a seat's mean moves by
    ``sigma^2 / c * (s - P)`` (the wolves' by the opposite) and its variance is
    multiplied by ``max(1 - sigma^2 * P(1-P) * sigma_team / c^3, kappa)``, where
    ``c^2`` is both teams' variance plus ``2 beta^2`` and ``sigma_team`` the seat's
    team's standard deviation. An identity's seats on a team add their moves and
    multiply their ratios, as ``TeamRater`` does seat by seat.
    """
    m = model or default_model()
    enc = _Encoded(games, identity)
    R = orders.shape[0]
    K = len(enc.keys)
    # [identities, replicates]: every step's sums run over the short first axis.
    mu = np.full((K, R), m.mu)
    s2 = np.full((K, R), m.sigma**2)
    if K == 0:
        return enc.keys, mu.T
    pos = np.full(len(games) + 1, -1, dtype=np.int64)  # the last entry: padding (-1 in ``orders``)
    pos[enc.rated_of] = np.arange(len(enc.rated_of))
    tau2 = m.tau**2
    beta2 = m.beta**2
    # An identity is seen in a replicate that draws any game it played: counted once for
    # all steps (whole numbers, exact), not per step.
    width = len(enc.rated_of) + 1  # the last column: padding and unrated games (-1 in ``pos``)
    cells = (np.arange(R)[:, None] * width + pos[orders] % width).ravel()
    drawn = np.bincount(cells, minlength=R * width).reshape(R, width).astype(float)
    seen = (((enc.village + enc.wolves) > 0) @ drawn[:, :-1].T) > 0  # [K, R]
    stacked = np.stack([enc.village, enc.wolves, enc.net])  # [3, K, games]: one gather per step
    for t in range(orders.shape[1]):
        g = pos[orders[:, t]]
        live = g >= 0
        rows: slice | np.ndarray = ALL
        if not live.all():
            if not live.any():
                continue
            rows = np.nonzero(live)[0]
            g = g[live]
        village, wolves, net = np.take(stacked, g, axis=2)  # [K, r] each
        mu_r, s2_r = (mu, s2) if rows is ALL else (mu[:, rows], s2[:, rows])
        s2e = s2_r + tau2
        s2_v = (village * s2e).sum(axis=0)  # each team's variance
        s2_w = (wolves * s2e).sum(axis=0)
        c = np.sqrt(s2_v + s2_w + 2 * beta2)
        p = 1.0 / (1.0 + np.exp(-(net * mu_r).sum(axis=0) / c))
        new_mu = mu_r + s2e * ((enc.score[g] - p) / c) * net
        k = s2e * (p * (1 - p) / c**3)
        # The new variance is (s2 + tau^2) * shrink per seat; a ratio per seat to the
        # old variance, raised to the identity's seats on each team.
        grow = s2e / s2_r
        ratio_v = _power(grow * np.maximum(1 - k * np.sqrt(s2_v), m.kappa), village, enc.most)
        ratio_w = _power(grow * np.maximum(1 - k * np.sqrt(s2_w), m.kappa), wolves, enc.most)
        new_s2 = s2_r * ratio_v * ratio_w
        if rows is ALL:
            mu, s2 = new_mu, new_s2
        else:
            mu[:, rows], s2[:, rows] = new_mu, new_s2
    out = np.where(seen, mu, np.nan)
    return enc.keys, out.T


ALL = slice(None)  # every replicate of a step


def _power(base: np.ndarray, exponent: np.ndarray, most: int) -> np.ndarray:
    """``base ** exponent`` for integer exponents up to ``most``, by squaring: a few
    multiplications instead of ``pow`` on every element (the update's costliest step)."""
    out = np.ones_like(base)
    bit = 1
    while bit <= most:
        out = np.where((exponent & bit) > 0, out * base, out)
        bit <<= 1
        if bit <= most:
            base = base * base
    return out

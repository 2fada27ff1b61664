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
    """Games as padded index arrays: entries of each team, a mask, and the ranks."""

    def __init__(self, games: Sequence[GameOutcome], identity: Identity):
        rated = [g for g in games if g.rated]
        self.keys: list[str] = []
        index: dict[str, int] = {}
        teams = []
        for g in rated:
            pair = []
            for side in SIDES:
                ids = []
                for s in g.team(side):
                    k = identity(s)
                    if k not in index:
                        index[k] = len(self.keys)
                        self.keys.append(k)
                    ids.append(index[k])
                pair.append(ids)
            teams.append(pair)
        width = max((len(t) for pair in teams for t in pair), default=1)
        n = len(rated)
        self.idx = np.zeros((n, 2, width), dtype=np.int64)
        self.mask = np.zeros((n, 2, width), dtype=bool)
        for i, pair in enumerate(teams):
            for side, ids in enumerate(pair):
                self.idx[i, side, : len(ids)] = ids
                self.mask[i, side, : len(ids)] = True
        # ranks: [village, wolves]
        self.ranks = np.ones((n, 2), dtype=np.int64)
        for i, g in enumerate(rated):
            won = g.village_won
            if won == 1.0:
                self.ranks[i, 1] = 2
            elif won == 0.0:
                self.ranks[i, 0] = 2
        self.game_pos = {g.id: i for i, g in enumerate(rated)}
        self.rated_of = [i for i, g in enumerate(games) if g.rated]  # position in ``games`` of each rated game


def replicate_mu(
    games: Sequence[GameOutcome], orders: np.ndarray, identity: Identity = overall_identity, model: PlackettLuce | None = None
) -> tuple[list[str], np.ndarray]:
    """Ratings after each replicate's sequence of games.

    ``orders`` is [replicates, steps] of indices into ``games`` (a bootstrap resample,
    a permutation, or both); -1 is padding (a shorter replicate) and rates nothing. Returns the identity keys and [replicates, keys] means;
    an identity that never played in a replicate is NaN there.
    """
    m = model or default_model()
    enc = _Encoded(games, identity)
    R = orders.shape[0]
    K = len(enc.keys)
    mu = np.full((R, K), m.mu)
    s2 = np.full((R, K), m.sigma**2)
    seen = np.zeros((R, K), dtype=bool)
    if K == 0:
        return enc.keys, mu
    pos = np.full(len(games) + 1, -1, dtype=np.int64)  # the last entry: padding (-1 in ``orders``)
    pos[enc.rated_of] = np.arange(len(enc.rated_of))
    tau2 = m.tau**2
    beta2 = m.beta**2
    for t in range(orders.shape[1]):
        g = pos[orders[:, t]]
        live = g >= 0
        if not live.any():
            continue
        r_live = np.nonzero(live)[0]
        g = g[live]
        idx = enc.idx[g]  # [r, 2, w]
        mask = enc.mask[g]
        ranks = enc.ranks[g]  # [r, 2]
        rr = r_live[:, None, None]
        s2_ent = np.where(mask, s2[rr, idx] + tau2, 0.0)
        mu_ent = np.where(mask, mu[rr, idx], 0.0)
        team_mu = mu_ent.sum(axis=2)  # [r, 2]
        team_s2 = s2_ent.sum(axis=2)
        c = np.sqrt(team_s2.sum(axis=1) + 2 * beta2)  # [r]
        e = np.exp(team_mu / c[:, None])
        # sum_q[q] = sum of e_i over teams ranked at or below q; a[q] = teams sharing q's rank
        ge = ranks[:, :, None] >= ranks[:, None, :]  # [r, i, q]: rank_i >= rank_q
        sum_q = np.einsum("ri,riq->rq", e, ge)
        a = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=1)  # [r, q]
        omega = np.zeros_like(team_mu)
        delta = np.zeros_like(team_mu)
        for i in range(2):
            for q in range(2):
                applies = ranks[:, q] <= ranks[:, i]
                p = e[:, i] / sum_q[:, q]
                delta[:, i] += np.where(applies, p * (1 - p) / a[:, q], 0.0)
                omega[:, i] += np.where(applies, ((1 - p) if q == i else -p) / a[:, q], 0.0)
        omega *= team_s2 / c[:, None]
        delta *= team_s2 / c[:, None] ** 2
        delta *= np.sqrt(team_s2) / c[:, None]
        frac = s2_ent / team_s2[:, :, None]
        d_mu = np.where(mask, frac * omega[:, :, None], 0.0)
        shrink = np.where(mask, np.maximum(1 - frac * delta[:, :, None], m.kappa), 1.0)
        # Each entry's new variance is (s2 + tau^2) * shrink; the seats of one identity
        # add their moves of the mean and multiply their variance ratios (as TeamRater).
        flat_r = np.broadcast_to(rr, idx.shape)[mask]
        flat_k = idx[mask]
        ratio = np.ones_like(s2)
        np.multiply.at(ratio, (flat_r, flat_k), (s2_ent * shrink)[mask] / s2[flat_r, flat_k])
        np.add.at(mu, (flat_r, flat_k), d_mu[mask])
        s2 *= ratio
        seen[flat_r, flat_k] = True
    out = np.where(seen, mu, np.nan)
    return enc.keys, out

"""The leaderboard: every participant's ratings and win rates, each with its interval.

Figures (all per participant):

- win rate over all its seats, with a bootstrap interval over games;
- win rate per side and per role dealt, with Wilson intervals; the unit is one game
  (a participant's seats on one side of one game share one outcome, so counting them
  separately would fake precision);
- OpenSkill (Plackett-Luce over the two sides) overall and per side, mean skill
  averaged over random orders of the games, with a bootstrap interval;
- Bradley-Terry strength overall and per side in Elo points, with a bootstrap
  interval, and the table's village advantage.

Bootstrap replicates resample whole games, seeded, and refit everything; a leaderboard
is therefore reproducible given the games, ``n_boot`` and ``seed``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from arena.ratings.bootstrap import percentile_interval, resample_indices
from arena.ratings.bradley_terry import BTDesign
from arena.ratings.games import SIDES, GameOutcome, participants_of
from arena.ratings.plackett_luce import overall_identity, replicate_mu, side_identity
from arena.ratings.wilson import rate_with_interval

DEFAULT_BOOT = 200


def estimate(value: float | None, reps: np.ndarray | None) -> dict[str, float | None]:
    lo, hi = percentile_interval(reps) if reps is not None else (None, None)
    return {"value": value, "low": lo, "high": hi}


ORDERS = 20  # random orders OpenSkill's point estimate is averaged over


def openskill_stats(games: Sequence[GameOutcome], n_boot: int, seed: int) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """OpenSkill means, overall (``os:P``) and per side (``os_side:P@side``).

    OpenSkill is sequential, so the order of the games moves it. The point estimate is
    the mean over ``ORDERS`` random orders of all games; each bootstrap replicate is a
    resample drawn in random order, so the interval covers the order's arbitrariness.
    """
    n = len(games)
    rng = np.random.default_rng([seed, 1])
    perms = np.stack([rng.permutation(n) for _ in range(ORDERS)]) if n else np.zeros((ORDERS, 0), dtype=int)
    boot = resample_indices(n, n_boot, seed)
    point: dict[str, float] = {}
    reps: dict[str, np.ndarray] = {}
    for prefix, ident in (("os", overall_identity), ("os_side", side_identity)):
        keys, mu = replicate_mu(games, perms, ident)
        mu = _centred(keys, mu)
        for i, k in enumerate(keys):
            point[f"{prefix}:{k}"] = float(np.nanmean(mu[:, i]))
        if n_boot:
            keys, mu = replicate_mu(games, boot, ident)
            mu = _centred(keys, mu)
            for i, k in enumerate(keys):
                reps[f"{prefix}:{k}"] = mu[:, i]
    return point, reps


def _centred(keys: list[str], mu: np.ndarray) -> np.ndarray:
    """Means relative to the average identity of the same group (per side for side
    identities). Two-team OpenSkill does not conserve the sum of means when the sides
    differ in size and strength (every seat of the losing side moves down), so only
    differences within a group mean anything; centring says so in the numbers."""
    out = mu.copy()
    groups: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(k.rpartition("@")[2] if "@" in k else "", []).append(i)
    for cols in groups.values():
        with np.errstate(invalid="ignore"):
            centre = np.nanmean(mu[:, cols], axis=1, keepdims=True) if mu.size else 0.0
        out[:, cols] = mu[:, cols] - centre
    return out


def win_stats(games: Sequence[GameOutcome], participants: Sequence[str], n_boot: int, seed: int) -> tuple[dict, dict]:
    """Seat-weighted win rate per participant; resampled by game."""
    col = {p: i for i, p in enumerate(participants)}
    seats = np.zeros((len(games), len(participants)))
    wins = np.zeros_like(seats)
    for gi, g in enumerate(games):
        for s in g.seats:
            seats[gi, col[s.participant]] += 1
            wins[gi, col[s.participant]] += s.won
    with np.errstate(invalid="ignore", divide="ignore"):
        point = {f"win:{p}": float(wins[:, i].sum() / seats[:, i].sum()) for p, i in col.items() if seats[:, i].sum()}
        reps: dict[str, np.ndarray] = {}
        if n_boot and len(games):
            idx = resample_indices(len(games), n_boot, seed)
            s_tot = seats[idx].sum(axis=1)  # [boot, participants]
            w_tot = wins[idx].sum(axis=1)
            rate = np.where(s_tot > 0, w_tot / np.where(s_tot > 0, s_tot, 1), np.nan)
            reps = {f"win:{p}": rate[:, i] for p, i in col.items()}
    return point, reps


def all_stats(games: Sequence[GameOutcome], participants: Sequence[str], n_boot: int, seed: int) -> tuple[dict, dict]:
    """Point estimates and bootstrap replicates of every figure (one flat key space)."""
    games = list(games)
    point, reps = openskill_stats(games, n_boot, seed)
    idx = resample_indices(len(games), n_boot, seed) if n_boot and games else None
    for prefix, by_side in (("bt", False), ("bt_side", True)):
        design = BTDesign(games, participants, by_side)
        point.update({f"{prefix}:{k}": v for k, v in design.fit().items()})
        if idx is not None:
            fits = [design.fit(row) for row in idx]
            for k in {k for f in fits for k in f}:
                reps[f"{prefix}:{k}"] = np.array([f.get(k, np.nan) for f in fits], dtype=float)
    wp, wr = win_stats(games, participants, n_boot, seed)
    point.update(wp)
    reps.update(wr)
    return point, reps


@dataclass
class Leaderboard:
    games: int
    decided: int
    n_boot: int
    seed: int
    winners: dict[str, dict[str, Any]]
    village_advantage: dict[str, float | None]
    rows: list[dict[str, Any]] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decided_games": self.decided,
            "bootstrap": {"resamples": self.n_boot, "seed": self.seed, "level": 0.95, "unit": "game"},
            "scales": {
                "openskill": "Plackett-Luce mean skill (mu) relative to the average participant (per side: of that side)",
                "bradley_terry": "Elo points relative to the average participant (400 per factor 10 in odds)",
            },
            "winners": self.winners,
            "village_advantage_elo": self.village_advantage,
            "participants": self.rows,
        }


def compute(
    games: Sequence[GameOutcome],
    agents: dict[str, str] | None = None,
    behaviour: dict[str, dict[str, Any]] | None = None,
    n_boot: int = DEFAULT_BOOT,
    seed: int = 0,
) -> Leaderboard:
    games = list(games)
    participants = participants_of(games)
    point, reps = all_stats(games, participants, n_boot, seed)
    winners: dict[str, int] = defaultdict(int)
    for g in games:
        winners[g.winner] += 1
    rows = []
    roles_seen: set[str] = set()
    for p in participants:
        side_units: dict[str, list[int]] = {s: [0, 0] for s in SIDES}
        role_units: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        seats = 0
        game_count = 0
        for g in games:
            mine = [s for s in g.seats if s.participant == p]
            if not mine:
                continue
            game_count += 1
            seats += len(mine)
            for side in {s.side for s in mine}:
                if side in side_units:
                    side_units[side][0] += int(any(s.won for s in mine if s.side == side))
                    side_units[side][1] += 1
            for role in {s.role for s in mine}:
                role_units[role][0] += int(any(s.won for s in mine if s.role == role))
                role_units[role][1] += 1
                roles_seen.add(role)

        def est(key: str) -> dict[str, float | None]:
            return estimate(point.get(key), reps.get(key))

        rows.append(
            {
                "participant": p,
                "agent": (agents or {}).get(p),
                "games": game_count,
                "seats": seats,
                "win_rate": est(f"win:{p}"),
                "win_rate_by_side": {s: rate_with_interval(*side_units[s]) for s in SIDES},
                "win_rate_by_role": {r: rate_with_interval(*role_units[r]) for r in sorted(role_units)},
                "openskill": est(f"os:{p}"),
                "openskill_by_side": {s: est(f"os_side:{p}@{s}") for s in SIDES},
                "bradley_terry": est(f"bt:{p}"),
                "bradley_terry_by_side": {s: est(f"bt_side:{p}@{s}") for s in SIDES},
                "behaviour": (behaviour or {}).get(p),
            }
        )
    rows.sort(key=lambda r: -(r["openskill"]["value"] if r["openskill"]["value"] is not None else -1e9))
    n = len(games)
    return Leaderboard(
        games=n,
        decided=sum(1 for g in games if g.village_won is not None),
        n_boot=n_boot,
        seed=seed,
        winners={w: rate_with_interval(k, n) for w, k in sorted(winners.items())},
        village_advantage=estimate(point.get("bt:village_advantage"), reps.get("bt:village_advantage")),
        rows=rows,
        roles=sorted(roles_seen),
    )

"""The leaderboard: every participant's ratings and win rates, each with its interval.

Figures (all per participant):

- win rate over all its seats, with a bootstrap interval over games;
- win rate per side and per role dealt, with Wilson intervals; the unit is one game
  (a participant's seats on one side of one game share one outcome, so counting them
  separately would fake precision);
- Bradley-Terry strength in Elo points, with a bootstrap interval: the **primary**
  rating and the sort key. It is a batch fit of a fixed set of games, so the same games
  give the same rating whatever their order; the table's village advantage beside it;
- every pair's Bradley-Terry difference with its interval and P(a better than b), the
  share of resamples rating a above b;
- OpenSkill (Plackett-Luce over the two sides), mean skill averaged over random orders
  of the games, with a bootstrap interval: **secondary**, a sequential update whose
  result depends on the order of the games;
- ratings per side only where the design identifies them (``side_design``): with mixed
  seating one participant holds the whole pack in most games, and a village-side
  rating's interval is then the schedule's, not the participant's.

Games in which a participant's own agent decided less than ``min_decided`` of its
decisions (a model whose calls failed, played by the heuristic bot) are left out of
every figure, and counted.

Bootstrap replicates resample whole deals (a deal and its mirrors share their luck; a
deal is one game unless the tournament mirrors), seeded, and refit everything; a
leaderboard is therefore reproducible given the games, ``n_boot`` and ``seed``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

import numpy as np

from arena.ratings.board import OUTCOMES, Leaderboard
from arena.ratings.bootstrap import cluster_rows, clusters_of, padded, percentile_interval, resample_counts
from arena.ratings.fallbacks import MIN_DECIDED, keep_decided
from arena.ratings.games import SIDES, GameOutcome, participants_of
from arena.ratings.margin import design_for
from arena.ratings.pairs import pair_table, separated
from arena.ratings.sides import side_design, side_win_stats
from arena.ratings.plackett_luce import overall_identity, replicate_mu, side_identity
from arena.ratings.wilson import rate_with_interval

DEFAULT_BOOT = 200


def estimate(value: float | None, reps: np.ndarray | None) -> dict[str, float | None]:
    lo, hi = percentile_interval(reps) if reps is not None else (None, None)
    return {"value": value, "low": lo, "high": hi}


ORDERS = 20  # random orders OpenSkill's point estimate is averaged over


def openskill_stats(games: Sequence[GameOutcome], rows: list[np.ndarray], seed: int, by_side: bool) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """OpenSkill means, overall (``os:P``) and, when ``by_side``, per side (``os_side:P@side``).

    OpenSkill is sequential, so the order of the games moves it. The point estimate is
    the mean over ``ORDERS`` random orders of all games; each bootstrap replicate is a
    resample drawn in random order, so the interval covers the order's arbitrariness.
    """
    n = len(games)
    rng = np.random.default_rng([seed, 1])
    perms = np.stack([rng.permutation(n) for _ in range(ORDERS)]) if n else np.zeros((ORDERS, 0), dtype=int)
    boot = padded([rng.permutation(r) for r in rows]) if rows else np.zeros((0, 0), dtype=np.int64)
    # The orders and the resamples are rated in one pass (one step of the sequential
    # update serves every row at once), padded to the longer of the two.
    width = max(perms.shape[1], boot.shape[1])
    orders = np.full((ORDERS + len(boot), width), -1, dtype=np.int64)
    orders[:ORDERS, : perms.shape[1]] = perms
    orders[ORDERS:, : boot.shape[1]] = boot
    point: dict[str, float] = {}
    reps: dict[str, np.ndarray] = {}
    idents = [("os", overall_identity)] + ([("os_side", side_identity)] if by_side else [])
    for prefix, ident in idents:
        keys, mu = replicate_mu(games, orders, ident)
        mu = _centred(keys, mu)
        for i, k in enumerate(keys):
            point[f"{prefix}:{k}"] = float(np.nanmean(mu[:ORDERS, i]))
            if rows:
                reps[f"{prefix}:{k}"] = mu[ORDERS:, i]
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


def win_stats(
    games: Sequence[GameOutcome], participants: Sequence[str], rows: list[np.ndarray], counts: np.ndarray | None = None
) -> tuple[dict, dict]:
    """Seat-weighted win rate per participant; resampled by deal (``counts``: the rows'
    ``resample_counts``, when the caller has them already)."""
    col = {p: i for i, p in enumerate(participants)}
    seats = np.zeros((len(games), len(participants)))
    wins = np.zeros_like(seats)
    for gi, g in enumerate(games):
        for s in g.seats:
            seats[gi, col[s.participant]] += 1
            wins[gi, col[s.participant]] += s.won
    point = {f"win:{p}": float(wins[:, i].sum() / seats[:, i].sum()) for p, i in col.items() if seats[:, i].sum()}
    reps: dict[str, np.ndarray] = {}
    if rows:
        counts = resample_counts(rows, len(games)) if counts is None else counts
        s_tot, w_tot = counts @ seats, counts @ wins  # [boot, participants]; whole numbers, exact
        rate = np.where(s_tot > 0, w_tot / np.where(s_tot > 0, s_tot, 1), np.nan)
        reps = {f"win:{p}": rate[:, i] for p, i in col.items()}
    return point, reps


def all_stats(
    games: Sequence[GameOutcome], participants: Sequence[str], n_boot: int, seed: int, by_side: bool, outcome: str = "win"
) -> tuple[dict, dict]:
    """Point estimates and bootstrap replicates of every figure (one flat key space).
    ``bt`` and ``bt_side`` fit ``outcome``; with the margin, ``bt_win`` is the win-only
    fit of the same games, shown beside it."""
    games = list(games)
    rows = cluster_rows(clusters_of([g.deal if g.deal is not None else ("game", i) for i, g in enumerate(games)]), n_boot, seed) if n_boot and games else []
    point, reps = openskill_stats(games, rows, seed, by_side)
    fits = [("bt", False, outcome), ("bt_side", True, outcome)] + ([("bt_win", False, "win")] if outcome != "win" else [])
    for prefix, side, what in fits:
        if side and not by_side:
            continue
        design = design_for(what, games, participants, side)
        point.update({f"{prefix}:{k}": v for k, v in design.fit().items()})
        if rows:
            fits = design.fit_many(rows)
            for k in {k for f in fits for k in f}:
                reps[f"{prefix}:{k}"] = np.array([f.get(k, np.nan) for f in fits], dtype=float)
    counts = resample_counts(rows, len(games)) if rows else None  # both win rates' replicates read them
    for stats in (win_stats, side_win_stats):
        p, r = stats(games, participants, rows, counts)
        point.update(p)
        reps.update(r)
    return point, reps


def persuasion_of(
    participant: str, games: Sequence[GameOutcome], measured: dict[str, list[tuple[str, float]]] | None, n_boot: int, seed: int
) -> dict[str, Any]:
    """``persuasion``: the mean swing of the participant's measured speeches in the rated
    games, with its 95% interval by bootstrap over the speeches (``arena.persuasion``),
    and ``persuasion_speeches``: how many."""
    from arena.persuasion.stats import group_estimate

    swings = [swing for g in games for who, swing in (measured or {}).get(g.id, ()) if who == participant]
    return {"persuasion": group_estimate(swings, seed=seed, n_boot=n_boot).to_json(), "persuasion_speeches": len(swings)}


def compute(
    games: Sequence[GameOutcome],
    agents: dict[str, str] | None = None,
    behaviour: dict[str, dict[str, Any]] | None = None,
    n_boot: int = DEFAULT_BOOT,
    seed: int = 0,
    min_decided: float = MIN_DECIDED,
    outcome: str = "win",
    persuasion: dict[str, list[tuple[str, float]]] | None = None,
) -> Leaderboard:
    """``persuasion``: per game, (participant, swing) of each speech measured
    (``arena.ratings.from_db.load_persuasion``)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown rating outcome '{outcome}' (one of: {', '.join(OUTCOMES)})")
    everyone = participants_of(list(games))
    games, excluded = keep_decided(games, min_decided)
    participants = [p for p in everyone if any(s.participant == p for g in games for s in g.seats)]
    sides = side_design(games)
    point, reps = all_stats(games, participants, n_boot, seed, by_side=sides["identified"], outcome=outcome)
    winners: dict[str, int] = defaultdict(int)
    for g in games:
        winners[g.winner] += 1
    rows = []
    roles_seen: set[str] = set()

    def est(key: str) -> dict[str, float | None]:
        return estimate(point.get(key), reps.get(key))

    for p in everyone:
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
        bt = est(f"bt:{p}")
        rows.append(
            {
                "participant": p,
                "agent": (agents or {}).get(p),
                "rating": dict(bt),
                "games": game_count,
                "excluded_games": excluded["by_participant"].get(p, 0),
                "seats": seats,
                "win_rate": est(f"win:{p}"),
                "win_rate_by_side": {s: rate_with_interval(*side_units[s]) for s in SIDES},
                "win_rate_vs_field": {s: est(f"vs_field:{p}@{s}") for s in SIDES},
                "win_rate_by_role": {r: rate_with_interval(*role_units[r]) for r in sorted(role_units)},
                "bradley_terry": bt,
                **({"bradley_terry_win": est(f"bt_win:{p}")} if outcome != "win" else {}),
                "openskill": est(f"os:{p}"),
                "openskill_by_side": {s: est(f"os_side:{p}@{s}") for s in SIDES},
                "bradley_terry_by_side": {s: est(f"bt_side:{p}@{s}") for s in SIDES},
                "behaviour": (behaviour or {}).get(p),
                **persuasion_of(p, games, persuasion, n_boot, seed),
            }
        )
    rows.sort(key=lambda r: -(r["rating"]["value"] if r["rating"]["value"] is not None else -1e9))
    order = [r["participant"] for r in rows]
    pairs = pair_table(order, point, reps)
    for r, nxt in zip(rows, rows[1:] + [None]):
        pair = next((q for q in pairs if q["a"] == r["participant"] and nxt and q["b"] == nxt["participant"]), None)
        r["separated_from_next"] = None if pair is None or pair["low"] is None else separated(pair)
    n = len(games)
    field_rates = {}
    for side in SIDES:
        sided = [g for g in games if g.team(side)]
        field_rates[side] = (sum(1 for g in sided if any(s.won for s in g.team(side))) / len(sided)) if sided else None
    multi = any(len(c) > 1 for c in clusters_of([g.deal if g.deal is not None else ("game", i) for i, g in enumerate(games)]))
    return Leaderboard(
        games=n,
        decided=sum(1 for g in games if g.village_won is not None),
        n_boot=n_boot,
        seed=seed,
        winners={w: rate_with_interval(k, n) for w, k in sorted(winners.items())},
        village_advantage=estimate(point.get("bt:village_advantage"), reps.get("bt:village_advantage")),
        rows=rows,
        roles=sorted(roles_seen),
        pairs=pairs,
        sides=sides,
        excluded=excluded,
        unit="deal" if multi else "game",
        field_rates=field_rates,
        outcome=outcome,
    )

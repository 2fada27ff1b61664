"""The table's biases: do votes and survival depend on when a seat speaks, or on its name?

Published work measures both on small engines (Mini-Mafia a last-speaker advantage,
Mini-Mafia and Kaggle a name bias). Here they are read from finished transcripts, so
any folder of games (a tournament's included) can be checked.

The unit is a *seat-day*: a player who spoke in a day's discussion and could be voted
for that day. Its speaking position is its place among that day's discussion speakers
in the order they first spoke (campaign speeches and last words are not the day's
order; a ``parallel`` discussion, where a round speaks at once, has none and is
skipped). What is read of it:

- ``vote_share``: the share of the day's first-round ballots (abstentions left out)
  that named it. The first round, because a revote is among the leaders only; ballots,
  not the count, because a Sheriff's doubled vote is the Sheriff's weight, not the
  table's opinion.
- ``voted_out``: whether that day's vote eliminated it.
- by name, also ``survived``: whether the seat was alive at the end (per seat, not per
  day).

Positions are binned as ``first``, ``early`` (before the middle), ``late`` (from the
middle on) and ``last``, so that tables of different sizes pool; ``slope`` is the
least-squares change of the excess from the first speaker (0) to the last (1) over
every seat-day.
The effects are read *within* a day: ``*_excess`` is a seat-day's figure minus the
mean of that day's speakers (a seat's survival minus its game's), averaged over the
group, so 0 when position or name does not matter. Raw means mislead: a day with few
players left gives each a larger share, and such a day holds one first and one last
speaker but few middle ones (measured on 300 heuristic games: raw shares 0.22 first,
0.16 early, 0.18 late, 0.21 last, a "bias" made of the days' sizes alone).

What it assumes: that positions and names are assigned independently of who plays and
of the cards (a tournament places seats by a seeded balance and draws names per game,
``names: shuffled``; a rotating ``speaking_order`` rotates the positions). Intervals:
95% bootstrap over games (a game's seat-days share its luck), 1,000 resamples by
default; each group's figures are ratios of sums, so a resample is one matrix product.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from arena.metrics.load import GameRecord, payload_is
from arena.ratings.bootstrap import percentile_interval
from engine.flow.voting import Eliminated, VoteResult
from engine.speech import Speech

POSITIONS = ("first", "early", "late", "last")
N_BOOT = 1000
# Per group and game, the sums a resample adds up: seat-days, vote share, voted out,
# seats, survived (the last two per seat: a name's game counts once).
N, SHARE, OUT, SHARE_X, OUT_X, SEATS, ALIVE, ALIVE_X = range(8)
WIDTH = 8


@dataclass(frozen=True)
class SeatDay:
    """One player on one day: where it spoke and what the vote did to it."""

    name: str
    day: int
    position: int  # 0 for the first speaker
    speakers: int
    vote_share: float
    voted_out: bool
    share_excess: float  # vote_share minus the mean of that day's speakers
    out_excess: float  # voted_out minus the mean of that day's speakers

    @property
    def relative(self) -> float:
        """0 for the first speaker, 1 for the last."""
        return self.position / (self.speakers - 1) if self.speakers > 1 else 0.0

    @property
    def bin(self) -> str:
        if self.position == 0:
            return "first"
        if self.position == self.speakers - 1:
            return "last"
        return "early" if self.relative < 0.5 else "late"


def seat_days(g: GameRecord) -> list[SeatDay]:
    """Every seat-day of ``g`` (see the module docstring); none for a ``parallel`` discussion."""
    if (g.header.get("options") or {}).get("discussion") == "parallel":
        return []
    order: dict[int, list[str]] = {}
    first_round: dict[int, VoteResult] = {}
    out: dict[int, str] = {}
    for e, data in g.of((Speech, VoteResult, Eliminated)):
        day = int(e.day)
        if payload_is(data, Speech):
            if e.phase == "discussion" and not data.last_words:
                spoken = order.setdefault(day, [])
                if data.speaker not in spoken:
                    spoken.append(data.speaker)
        elif payload_is(data, VoteResult):
            if e.phase == "vote" and (day not in first_round or data.round < first_round[day].round):
                first_round[day] = data
        elif payload_is(data, Eliminated) and e.phase == "vote":
            out.setdefault(day, data.player)
    rows: list[SeatDay] = []
    for day, speakers in order.items():
        vote = first_round.get(day)
        if vote is None:
            continue
        picks = [p for p in (vote.votes or {}).values() if p is not None]
        if not picks:
            continue
        shares = [sum(1 for p in picks if p == name) / len(picks) for name in speakers]
        outs = [float(out.get(day) == name) for name in speakers]
        mean_share, mean_out = sum(shares) / len(shares), sum(outs) / len(outs)
        for i, name in enumerate(speakers):
            rows.append(SeatDay(name, day, i, len(speakers), shares[i], bool(outs[i]), shares[i] - mean_share, outs[i] - mean_out))
    return rows


@dataclass
class GameBias:
    """One game's sums, per position bin and per name, and the slope's sums."""

    position: dict[str, list[float]] = field(default_factory=dict)
    name: dict[str, list[float]] = field(default_factory=dict)
    slope: list[float] = field(default_factory=lambda: [0.0] * 7)  # n, Σx, Σxx, Σ share, Σ x·share, Σ out, Σ x·out

    @classmethod
    def of(cls, g: GameRecord) -> "GameBias":
        b = cls()
        b.add(seat_days(g), {d.player for d in g.deaths()})
        return b

    def add(self, rows: Iterable[SeatDay], died: set[str]) -> None:
        """A game's seat-days, and who died in it (once per game: a name's seats count its games)."""
        b = self
        for s in rows:
            for table, key in ((b.position, s.bin), (b.name, s.name)):
                sums = table.setdefault(key, [0.0] * WIDTH)
                sums[N] += 1
                sums[SHARE] += s.vote_share
                sums[OUT] += s.voted_out
                sums[SHARE_X] += s.share_excess
                sums[OUT_X] += s.out_excess
            x = s.relative
            for i, v in enumerate((1.0, x, x * x, s.share_excess, x * s.share_excess, s.out_excess, x * s.out_excess)):
                b.slope[i] += v
        if b.name:
            alive_mean = sum(name not in died for name in b.name) / len(b.name)
            for name, sums in b.name.items():
                sums[SEATS] += 1
                sums[ALIVE] += name not in died
                sums[ALIVE_X] += (name not in died) - alive_mean


def _estimate(point: float | None, reps: np.ndarray) -> dict[str, float | None]:
    lo, hi = percentile_interval(reps) if reps.size else (None, None)
    return {"value": point, "low": lo, "high": hi}


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _resampled(sums: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """[resamples, ...]: ``sums`` ([games, ...]) added up over resamples of the games
    with replacement, drawn in chunks (a resample is a vector of counts: one
    ``bincount`` of the draws for a whole chunk)."""
    games = sums.shape[0]
    rng = np.random.default_rng([seed, 52, 2])
    flat = sums.reshape(games, -1)
    out = []
    for start in range(0, n_boot, 100):
        k = min(100, n_boot - start)
        draws = rng.integers(0, games, size=(k, games)) + games * np.arange(k)[:, None]
        counts = np.bincount(draws.ravel(), minlength=k * games).reshape(k, games).astype(float)
        out.append(counts @ flat)
    return np.concatenate(out).reshape((n_boot, *sums.shape[1:]))


def _groups(keys: list[str], games: list[dict[str, list[float]]], n_boot: int, seed: int, per_seat: bool) -> list[dict[str, Any]]:
    """Each group's means: as seen (``vote_share``, ``voted_out``, ``survived``) and
    against the same day's (or game's) other seats (``*_excess``: 0 without a bias)."""
    arr = np.zeros((len(games), len(keys), WIDTH))
    index = {k: i for i, k in enumerate(keys)}
    for gi, g in enumerate(games):
        for k, sums in g.items():
            arr[gi, index[k]] = sums
    total = arr.sum(axis=0)
    reps = _resampled(arr, n_boot, seed) if n_boot else np.zeros((0, len(keys), WIDTH))
    measures = [("vote_share", SHARE, N), ("vote_share_excess", SHARE_X, N), ("voted_out", OUT, N), ("voted_out_excess", OUT_X, N)]
    if per_seat:
        measures += [("survived", ALIVE, SEATS), ("survived_excess", ALIVE_X, SEATS)]
    rows = []
    for i in range(len(keys)):
        row: dict[str, Any] = {"seat_days": int(total[i, N])} | ({"seats": int(total[i, SEATS])} if per_seat else {})
        for label, num, den in measures:
            row[label] = _estimate(_finite(_ratio(total[i, num], total[i, den])), _ratio(reps[:, i, num], reps[:, i, den]))
        rows.append(row)
    return rows


def _finite(x: Any) -> float | None:
    v = float(x)
    return v if np.isfinite(v) else None


def _slopes(sums: np.ndarray) -> np.ndarray:
    """[..., 2]: the least-squares slope of vote share and of voted out on the relative position."""
    n, sx, sxx = sums[..., 0], sums[..., 1], sums[..., 2]
    var = n * sxx - sx * sx
    return np.stack([_ratio(n * sums[..., 4] - sx * sums[..., 3], var), _ratio(n * sums[..., 6] - sx * sums[..., 5], var)], axis=-1)


NAME_MEASURES = (("vote_share_excess", SHARE_X, N), ("voted_out_excess", OUT_X, N), ("survived_excess", ALIVE_X, SEATS))
PERMUTATIONS = 1000


def _between(rows: np.ndarray, groups: np.ndarray, k: int) -> np.ndarray:
    """[labellings, measures]: the between-names sum of squares, Σ over names of
    (Σ excess)² / n, for each row of ``groups`` ([labellings, seats]: each seat's name)."""
    m = groups.shape[0]
    flat = (groups + k * np.arange(m)[:, None]).ravel()
    out = []
    for _, num, den in NAME_MEASURES:
        s = np.bincount(flat, weights=np.tile(rows[:, num], m), minlength=m * k).reshape(m, k)
        n = np.bincount(flat, weights=np.tile(rows[:, den], m), minlength=m * k).reshape(m, k)
        out.append(np.where(n > 0, s * s / np.where(n > 0, n, 1), 0.0).sum(axis=1))
    return np.stack(out, axis=1)


def name_effect(kept: list[GameBias], names: list[str], permutations: int, seed: int) -> dict[str, Any]:
    """Whether names matter at all, in one number per measure: a permutation test.

    With many names, some per-name intervals exclude 0 by chance alone (and with a few
    dozen seats per name a percentile interval covers less than it says: on 200
    unbiased heuristic games, 11 of 90 excluded 0). Under no name effect, the names of
    a game are exchangeable among its seats; so the between-names sum of squares of the
    excesses is compared with its distribution when each game's names are shuffled
    among its seats. ``p_value``: the share of shuffles at least as spread as the
    games (with the games themselves counted as one)."""
    index = {n: i for i, n in enumerate(names)}
    rows = np.array([sums for g in kept for sums in g.name.values()])
    group = np.array([index[n] for g in kept for n in g.name], dtype=np.int64)
    game = np.repeat(np.arange(len(kept)), [len(g.name) for g in kept])
    observed = _between(rows, group[None, :], len(names))[0]
    rng = np.random.default_rng([seed, 52, 3])
    base = np.argsort(game, kind="stable")
    hits = np.zeros(len(NAME_MEASURES))
    for start in range(0, permutations, 50):
        m = min(50, permutations - start)
        order = np.argsort(game[None, :] + rng.random((m, len(game))), axis=1)  # each game's seats in a random order
        shuffled = np.empty((m, len(game)), dtype=np.int64)
        shuffled[:, base] = group[order]
        hits += (_between(rows, shuffled, len(names)) >= observed - 1e-12).sum(axis=0)
    return {
        "test": "permutation of names among each game's seats",
        "permutations": permutations,
        **{label: {"between_ss": float(o), "p_value": float((h + 1) / (permutations + 1))}
           for (label, _, _), o, h in zip(NAME_MEASURES, observed, hits)},
    }  # fmt: skip


def bias_report(games: Iterable[GameBias], *, n_boot: int = N_BOOT, seed: int = 0, permutations: int = PERMUTATIONS) -> dict[str, Any] | None:
    """The report over ``games`` (``GameBias.of`` each finished game), or None when no
    game has a seat-day (no discussion followed by a vote)."""
    kept = [g for g in games if g.position]
    if not kept:
        return None
    names = sorted({k for g in kept for k in g.name})
    slope_sums = np.array([g.slope for g in kept])
    point = _slopes(slope_sums.sum(axis=0))
    reps = _slopes(_resampled(slope_sums, n_boot, seed)) if n_boot else np.zeros((0, 2))
    by_position = _groups(list(POSITIONS), [g.position for g in kept], n_boot, seed, per_seat=False)
    by_name = _groups(names, [g.name for g in kept], n_boot, seed, per_seat=True)
    return {
        "unit": "game",
        "games": len(kept),
        "seat_days": int(slope_sums[:, 0].sum()),
        "n_boot": n_boot,
        "by_position": [{"position": p} | row for p, row in zip(POSITIONS, by_position)],
        "slope": {"vote_share": _estimate(_finite(point[0]), reps[:, 0]), "voted_out": _estimate(_finite(point[1]), reps[:, 1])},
        "by_name": [{"name": n} | row for n, row in zip(names, by_name)],
        "name_effect": name_effect(kept, names, permutations, seed),
    }

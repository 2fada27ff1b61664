"""Rating recovery on the noise ladder: how well the leaderboard orders and separates
five participants of known order, for every design and game count, over independent
seeds, with its calibration (issue 40's table).

The ladder: the heuristic bot, the same bot with ``noise`` 0.25, 0.5 and 0.75, and the
random bot (strengths in that order by construction), at ``examples/tournaments/
ladder.yaml``'s table (8 seats). Each design's tournaments are played in memory
(``arena.ratings.selftest``: the tournament's own schedule and tables, no transcripts)
for the largest game count, and every smaller count is the same tournament's first
games (a plan's first games are a shorter plan's, adaptive ones included). Each is
rated as the leaderboard rates it: the Bradley-Terry fit of the winner (``win``) or of
the winner and the margin (``margin``), bootstrapped over whole deals, each pair with
its own 95% interval and the simultaneous one (``arena.ratings.pairs``).

Printed per design, fit and game count, over the seeds:

- Kendall's tau between the fitted order and the true one (mean, and how many seeds
  got it exactly);
- neighbours separated (of 4, mean): the true neighbour pairs whose interval excludes
  0, by the pair's own interval and by the simultaneous one (what the table's marks
  read), and how many pairs of the whole table were separated the wrong way round;
- the neighbour pairs' mean 95% interval width (Elo), own and simultaneous;
- calibration against the truth: the share of neighbour pairs whose own interval
  covers the true difference, and the share of tournaments whose simultaneous
  intervals cover all ten true differences at once (both should be about 95%). The
  truth is the win fit of one long tournament of the same design (``--truth-games``;
  the adaptive design's is teams seating's, whose games it chooses among).

And, on five identical copies of the heuristic bot (``--copies-seeds`` tournaments per
design): the share of pairs separated (each pair's own interval: about 5% expected)
and the share of tournaments with at least one pair separated, by the pair's own
intervals, by the simultaneous ones (max-t), and by Holm's step-down on the pairs'
bootstrap p-values (the goal: at most 5%).

Played tournaments and their figures are cached in ``--cache`` (keyed by the
settings; ``--fresh`` ignores it), so a second run, or one with more seeds, only
computes what is new.

    python benchmarks/rating_recovery.py                       # the full table: 10 seeds of 150, 300 and 1,000 games
    python benchmarks/rating_recovery.py --quick               # 3 seeds, 300 games, 200 resamples, 30 copies tournaments

Figures are printed, never asserted; docs/RATINGS.md quotes a run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import pickle
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from arena.ratings.bootstrap import cluster_rows, clusters_of, percentile_interval  # noqa: E402
from arena.ratings.margin import design_for  # noqa: E402
from arena.ratings.recovery import kendall_tau  # noqa: E402
from arena.ratings.selftest import LADDER, ladder_config, play_games  # noqa: E402
from arena.ratings.simultaneous import max_t_family  # noqa: E402

DESIGNS: dict[str, dict[str, Any]] = {  # name -> tournament keys; games per deal
    "mixed": {"seating": "mixed"},
    "teams": {"seating": "teams"},
    "duplicate": {"seating": "duplicate"},
    "adaptive": {"seating": "teams", "adaptive": {"resolution": 75.0}},  # teams seating, the margin fit, adaptive: (lever 3)
}
FITS = ("win", "margin")
TRUE_ORDER = [n for n, _, _ in LADDER]
COPIES = tuple((f"H{i}", "heuristic", None) for i in range(1, 6))
SCHEDULER_FIT = "margin"  # what an adaptive plan's choices fit (ladder.yaml's rating.outcome)


def per_deal(design: str, participants: int) -> int:
    return participants - 1 if DESIGNS[design]["seating"] == "duplicate" else 1


def config(design: str, games: int, seed: int, field=LADDER, players: int = 8):
    keys = DESIGNS[design]
    return ladder_config(
        max(1, games // per_deal(design, len(field))), players, seed, seating=keys["seating"], participants=field,
        adaptive=keys.get("adaptive"), outcome=SCHEDULER_FIT,
    )  # fmt: skip


class Cache:
    """Pickles under a folder, keyed by a digest of what made them."""

    def __init__(self, folder: Path, fresh: bool):
        self.folder = folder
        self.fresh = fresh
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, *key: Any) -> Path:
        return self.folder / (hashlib.sha256(json.dumps(key, default=str).encode()).hexdigest()[:20] + ".pkl")

    def get(self, *key: Any) -> Any:
        p = self.path(*key)
        if self.fresh or not p.exists():
            return None
        return pickle.loads(p.read_bytes())

    def put(self, value: Any, *key: Any) -> Any:
        p = self.path(*key)
        tmp = p.with_suffix(".part")
        tmp.write_bytes(pickle.dumps(value))
        tmp.replace(p)
        return value


def whole_deals(games: list, n: int) -> list:
    """The first ``n`` games, cut back to a whole number of deals."""
    if n >= len(games):
        return list(games)
    cut = n
    while 0 < cut < len(games) and games[cut].deal == games[cut - 1].deal:
        cut -= 1
    return games[:cut]


def played(cache: Cache, design: str, games: int, seed: int, field=LADDER) -> list:
    key = ("games", design, games, seed, [f[0] for f in field], SCHEDULER_FIT)
    hit = cache.get(*key)
    return hit if hit is not None else cache.put(list(play_games(config(design, games, seed, field))), *key)


@dataclass
class Pairs:
    """Every pair (a before b in ``names``): the point difference, its bootstrap
    replicates, own intervals, and the simultaneous family."""

    names: list[str]
    fit: dict[str, float]
    pairs: list[tuple[str, str]]
    diff: np.ndarray
    low: np.ndarray
    high: np.ndarray
    s_low: np.ndarray
    s_high: np.ndarray
    p_value: np.ndarray  # two-sided bootstrap p-value of each difference (2 × the smaller tail)
    critical: float


def rate(games: list, names: Sequence[str], fit: str, n_boot: int, seed: int) -> Pairs:
    design = design_for(fit, games, names)
    point = design.fit()
    rows = cluster_rows(clusters_of([g.deal if g.deal is not None else ("game", i) for i, g in enumerate(games)]), n_boot, seed)
    reps = design.fit_many(rows)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    diff = np.array([point.get(a, np.nan) - point.get(b, np.nan) for a, b in pairs])
    D = np.array([[r.get(a, np.nan) - r.get(b, np.nan) for a, b in pairs] for r in reps])
    fam = max_t_family(diff, D)
    low, high, s_low, s_high, p = (np.full(len(pairs), np.nan) for _ in range(5))
    for j in range(len(pairs)):
        lo, hi = percentile_interval(D[:, j])
        low[j], high[j] = (np.nan if lo is None else lo), (np.nan if hi is None else hi)
        s_low[j], s_high[j] = (np.nan if x is None else x for x in fam.interval(j, float(diff[j])))
        v = D[:, j][np.isfinite(D[:, j])]
        if v.size:
            above = (np.sum(v > 0) + 0.5 * np.sum(v == 0)) / v.size
            p[j] = min(1.0, 2 * min(above, 1 - above))
    return Pairs(list(names), point, pairs, diff, low, high, s_low, s_high, p, fam.critical if fam.critical is not None else math.nan)


def holm(p: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Holm's step-down: which hypotheses are rejected at family-wise ``alpha``."""
    order = np.argsort(p)
    out = np.zeros(len(p), dtype=bool)
    for k, j in enumerate(order):
        if not p[j] <= alpha / (len(p) - k):
            break
        out[j] = True
    return out


def ladder_figures(r: Pairs, truth: dict[str, float]) -> dict[str, Any]:
    """One rated ladder tournament's figures (pairs in true order: a is the stronger)."""
    idx = {p: j for j, p in enumerate(r.pairs)}
    nb = [idx[(a, b)] for a, b in zip(TRUE_ORDER, TRUE_ORDER[1:])]
    true = np.array([truth[a] - truth[b] for a, b in r.pairs])
    fitted = sorted(TRUE_ORDER, key=lambda p: -r.fit.get(p, -1e9))
    cover = (r.low <= true) & (true <= r.high)
    return {
        "tau": kendall_tau(fitted, TRUE_ORDER),
        "sep": int(np.sum(r.low[nb] > 0)), "sep_sim": int(np.sum(r.s_low[nb] > 0)),
        "wrong": int(np.sum(r.high < 0)), "wrong_sim": int(np.sum(r.s_high < 0)),
        "width": float(np.mean(r.high[nb] - r.low[nb])), "width_sim": float(np.mean(r.s_high[nb] - r.s_low[nb])),
        "cover": float(np.mean(cover[nb])), "cover_all_sim": bool(np.all((r.s_low <= true) & (true <= r.s_high))),
        "diff": [float(r.diff[j]) for j in nb], "critical": r.critical,
    }  # fmt: skip


def copies_figures(r: Pairs) -> dict[str, Any]:
    own = (r.low > 0) | (r.high < 0)
    sim = (r.s_low > 0) | (r.s_high < 0)
    return {"pairs": len(r.pairs), "own": int(own.sum()), "any_own": bool(own.any()), "any_sim": bool(sim.any()),
            "any_holm": bool(holm(r.p_value).any()), "critical": r.critical}  # fmt: skip


def truth_of(cache: Cache, design: str, games: int) -> dict[str, float]:
    design = "teams" if DESIGNS[design].get("adaptive") else design
    key = ("truth", design, games)
    hit = cache.get(*key)
    if hit is None:
        g = played(cache, design, games, 424242)
        hit = cache.put({fit: design_for(fit, g, TRUE_ORDER).fit() for fit in FITS}, *key)
    return hit


def ladder_task(args: tuple) -> list[tuple]:
    """(design, seed, counts, fits, n_boot, cache folder, fresh, truth games): the
    figures of one seed's tournament at every count and fit."""
    design, seed, counts, fits, n_boot, folder, fresh, truth_games = args
    cache = Cache(Path(folder), fresh)
    truth = truth_of(cache, design, truth_games)["win"]
    out = []
    games = None
    for n in counts:
        for fit in fits:
            key = ("ladder", design, seed, n, fit, n_boot, SCHEDULER_FIT)
            fig = cache.get(*key)
            if fig is None:
                games = games if games is not None else played(cache, design, max(counts), seed)
                fig = cache.put(ladder_figures(rate(whole_deals(games, n), TRUE_ORDER, fit, n_boot, seed), truth), *key)
            out.append((design, fit, n, seed, fig))
    return out


def copies_task(args: tuple) -> list[tuple]:
    design, seed, n, fits, n_boot, folder, fresh = args
    cache = Cache(Path(folder), fresh)
    out = []
    games = None
    names = [c[0] for c in COPIES]
    for fit in fits:
        key = ("copies", design, seed, n, fit, n_boot, SCHEDULER_FIT)
        fig = cache.get(*key)
        if fig is None:
            games = games if games is not None else played(cache, design, n, 10_000 + seed, COPIES)
            fig = cache.put(copies_figures(rate(games, names, fit, n_boot, seed)), *key)
        out.append((design, fit, n, seed, fig))
    return out


def run(tasks: list[tuple], fn, processes: int) -> list[tuple]:
    out: list[tuple] = []
    t0 = time.perf_counter()
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            for i, part in enumerate(pool.map(fn, tasks), start=1):
                out += part
                print(f"  {i}/{len(tasks)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    else:
        for i, t in enumerate(tasks, start=1):
            out += fn(t)
            print(f"  {i}/{len(tasks)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    return out


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else math.nan


def ladder_table(results: list[tuple], designs, fits, counts, seeds: int) -> None:
    print(f"| design | fit | games | Kendall tau (mean) | tau = 1 (of {seeds}) | neighbours separated, own (of 4, mean) | "
          "simultaneous (of 4, mean) | wrong way, own / simultaneous (of 10, total) | mean 95% width, own / simultaneous (Elo) | "
          "own intervals covering the truth | simultaneous covering all 10 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for design in designs:
        for n in counts:
            for fit in fits:
                f = [x[4] for x in results if x[:3] == (design, fit, n)]
                if not f:
                    continue
                print(f"| {design} | {fit} | {n} | {mean(x['tau'] for x in f):.2f} | {sum(x['tau'] == 1 for x in f)} | "
                      f"{mean(x['sep'] for x in f):.1f} | {mean(x['sep_sim'] for x in f):.1f} | "
                      f"{sum(x['wrong'] for x in f)} / {sum(x['wrong_sim'] for x in f)} | "
                      f"{mean(x['width'] for x in f):.0f} / {mean(x['width_sim'] for x in f):.0f} | "
                      f"{100 * mean(x['cover'] for x in f):.0f}% | {100 * mean(x['cover_all_sim'] for x in f):.0f}% |")  # fmt: skip


def copies_table(results: list[tuple], designs, fits, n: int) -> None:
    print("| design | fit | games | tournaments | pairs separated, own intervals | tournaments with a pair separated: own | "
          "simultaneous (max-t) | Holm | mean critical value |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for design in designs:
        for fit in fits:
            f = [x[4] for x in results if x[:3] == (design, fit, n)]
            if not f:
                continue
            pairs = sum(x["pairs"] for x in f)
            print(f"| {design} | {fit} | {n} | {len(f)} | {100 * sum(x['own'] for x in f) / pairs:.1f}% | "
                  f"{100 * mean(x['any_own'] for x in f):.0f}% | {100 * mean(x['any_sim'] for x in f):.1f}% | "
                  f"{100 * mean(x['any_holm'] for x in f):.1f}% | {mean(x['critical'] for x in f):.2f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 seeds of 300 games, 200 resamples, 30 copies tournaments")
    ap.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS))
    ap.add_argument("--fits", nargs="+", default=list(FITS), choices=list(FITS))
    ap.add_argument("--games", type=int, nargs="+", help="game counts (default 150 300 1000)")
    ap.add_argument("--seeds", type=int, help="independent tournaments per design (default 10)")
    ap.add_argument("--bootstrap", type=int, help="resamples of deals (default 1000, the leaderboard's)")
    ap.add_argument("--copies-seeds", type=int, help="identical-copies tournaments per design (default 200; 0: none)")
    ap.add_argument("--copies-games", type=int, default=300, help="games per identical-copies tournament (default 300)")
    ap.add_argument("--truth-games", type=int, default=20_000, help="games of the long tournament that gives each design's truth")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "werewolf-rating-recovery"), help="where played tournaments and figures are kept")
    ap.add_argument("--fresh", action="store_true", help="ignore the cache (and overwrite it)")
    ap.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    args = ap.parse_args(argv)
    counts = sorted(args.games or ([300] if args.quick else [150, 300, 1000]))
    seeds = args.seeds or (3 if args.quick else 10)
    n_boot = args.bootstrap or (200 if args.quick else 1000)
    copies = args.copies_seeds if args.copies_seeds is not None else (30 if args.quick else 200)

    cache = Cache(Path(args.cache), args.fresh)
    print(f"noise ladder {' > '.join(TRUE_ORDER)}, 8 seats; {seeds} seeds per point; {n_boot} resamples of deals; cache {args.cache}")
    print()
    print(f"truth: the win fit of one {args.truth_games}-game tournament per design (margin fit of the same games beside it); neighbour differences, Elo")
    for design in dict.fromkeys("teams" if DESIGNS[d].get("adaptive") else d for d in args.designs):
        t = truth_of(cache, design, args.truth_games)
        cells = "; ".join(f"{a}-{b} {t['win'][a] - t['win'][b]:.0f} ({t['margin'][a] - t['margin'][b]:.0f})" for a, b in zip(TRUE_ORDER, TRUE_ORDER[1:]))
        print(f"  {design}: {cells}")
    tasks = [(d, s, counts, args.fits, n_boot, args.cache, args.fresh, args.truth_games) for d in args.designs for s in range(1, seeds + 1)]
    results = run(tasks, ladder_task, args.processes)
    print()
    ladder_table(results, args.designs, args.fits, counts, seeds)
    if copies:
        tasks = [(d, s, args.copies_games, args.fits, n_boot, args.cache, args.fresh) for d in args.designs for s in range(copies)]
        results = run(tasks, copies_task, args.processes)
        print()
        print(f"calibration: five identical copies of the heuristic bot, {copies} tournaments of {args.copies_games} games per design")
        copies_table(results, args.designs, args.fits, args.copies_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

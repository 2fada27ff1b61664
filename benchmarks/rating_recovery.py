"""Rating self-test: does the leaderboard recover a ladder of known strengths, and how
many games does it take?

Plays the noise ladder (the heuristic bot, the same bot with noise 0.25, 0.5, 0.75, and
the random bot: strengths in that order by construction) under each tournament design,
at 8 and 12 seats, in memory (``arena.ratings.selftest``: the tournament's schedule and
tables, no transcripts), and prints with the leaderboard's own estimator (Bradley-Terry,
bootstrapped over whole deals):

- Kendall's tau between the fitted and the true order, after all games;
- each neighbour pair's difference and 95% interval width (Elo) after 300 games and
  after all games;
- games-to-separation: the first multiple of the step from which the neighbour pair's
  interval excludes zero to the end ("-" if never within the run), and the projected
  games at which a 75-Elo gap is expected to be separated (the interval's half-width,
  shrinking as 1/sqrt(games), equals 75 Elo), from the mean neighbour interval;
- before and after: how many neighbour pairs the leaderboard told apart after all
  games, by the old sort key (OpenSkill: the two participants' 95% intervals do not
  overlap) and by the new one (Bradley-Terry: the difference's 95% interval excludes 0);
- calibration: over independent seeds, how often two identical copies of the
  heuristic bot are declared different at the 95% level (should be about 5%).

    python benchmarks/rating_recovery.py --quick     # a few minutes
    python benchmarks/rating_recovery.py             # the full run (~20-30 minutes)

Figures are printed, never asserted; docs/RATINGS.md quotes a run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ratings.leaderboard import compute  # noqa: E402
from arena.ratings.recovery import first_separated, fitted_order, kendall_tau, pair_figures, projected_games  # noqa: E402
from arena.ratings.selftest import LADDER, ladder_config, play_games  # noqa: E402

DESIGNS = {  # name -> (seating, mirror, games per deal)
    "mixed": ("mixed", False, 1),
    "mixed+mirror": ("mixed", True, 5),
    "teams": ("teams", False, 1),
    "teams+mirror": ("teams", True, 2),
    "duplicate": ("duplicate", False, 4),
}
TRUE_ORDER = [n for n, _, _ in LADDER]
NEIGHBOURS = list(zip(TRUE_ORDER, TRUE_ORDER[1:]))


def whole_deals(games, n):
    """The first ``n`` games, cut back to a whole number of deals."""
    if n >= len(games):
        return list(games)
    cut = n
    while 0 < cut < len(games) and games[cut].deal == games[cut - 1].deal:
        cut -= 1
    return games[:cut]


def recovery(design: str, players: int, games: int, step: int, n_boot: int, seed: int) -> dict:
    seating, mirror, per_deal = DESIGNS[design]
    cfg = ladder_config(max(1, games // per_deal), players, seed, seating=seating, mirror=mirror)
    t0 = time.perf_counter()
    played = list(play_games(cfg))
    seconds = time.perf_counter() - t0
    grid = list(range(step, len(played) + 1, step))
    if not grid or grid[-1] != len(played):
        grid.append(len(played))
    seps = {p: [] for p in NEIGHBOURS}
    at300 = None
    for n in grid:
        sub = whole_deals(played, n)
        figs = pair_figures(sub, TRUE_ORDER, NEIGHBOURS, n_boot, seed)
        for f in figs:
            seps[(f.a, f.b)].append(f.separated)
        if at300 is None and n >= 300:
            at300 = figs
    final = pair_figures(played, TRUE_ORDER, NEIGHBOURS, n_boot, seed)
    lb = {r["participant"]: r for r in compute(played, n_boot=n_boot, seed=seed).rows}
    os_apart = sum(1 for a, b in NEIGHBOURS if _apart(lb[a]["openskill"], lb[b]["openskill"]))
    sds = [f.sd for f in final if f.sd]
    mean_sd = sum(sds) / len(sds) if sds else None
    return {
        "design": design, "players": players, "games": len(played), "seconds": seconds,
        "tau": kendall_tau(fitted_order(played, TRUE_ORDER), TRUE_ORDER),
        "at300": at300, "final": final,
        "separation": {p: first_separated(grid, s) for p, s in seps.items()},
        "n75": projected_games(len(played), mean_sd),
        "os_apart": os_apart, "bt_apart": sum(f.separated for f in final),
    }  # fmt: skip


def _apart(x: dict, y: dict) -> bool:
    """Two participants' intervals do not overlap (how the old table read)."""
    if x.get("low") is None or y.get("low") is None:
        return False
    return x["low"] > y["high"] or y["low"] > x["high"]


def calibration(design: str, players: int, games: int, seeds: int, n_boot: int) -> tuple[int, int]:
    """(declared different, seeds): two copies of the heuristic bot, with H50 and R."""
    seating, mirror, per_deal = DESIGNS[design]
    field = (("H", "heuristic", None), ("H-copy", "heuristic", None), ("H50", "heuristic", {"noise": 0.5}), ("R", "random", None))
    wrong = 0
    for s in range(seeds):
        cfg = ladder_config(max(1, games // per_deal), players, 1000 + s, seating=seating, mirror=mirror, participants=field)
        played = list(play_games(cfg))
        (f,) = pair_figures(played, [n for n, _, _ in field], [("H", "H-copy")], n_boot, s)
        wrong += f.separated
    return wrong, seeds


def fmt_pair(f) -> str:
    if f.diff is None or f.low is None:
        return "—"
    return f"{f.diff:+.0f}±{(f.high - f.low) / 2:.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="400 games per design, fewer resamples and calibration seeds (a few minutes)")
    ap.add_argument("--games", type=int, help="games per design and table size (default 1500; --quick 400)")
    ap.add_argument("--players", type=int, nargs="+", default=[8, 12])
    ap.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS))
    ap.add_argument("--bootstrap", type=int, help="bootstrap resamples (default 300; --quick 100)")
    ap.add_argument("--calibration-seeds", type=int, help="seeds for the identical-copies check (default 40; --quick 8)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    games = args.games or (400 if args.quick else 1500)
    n_boot = args.bootstrap or (100 if args.quick else 300)
    cal_seeds = args.calibration_seeds if args.calibration_seeds is not None else (8 if args.quick else 40)
    step = 100

    print(f"noise ladder {' > '.join(TRUE_ORDER)}; {games} games per design and size; {n_boot} bootstrap resamples of deals")
    print("neighbour pairs: difference ± half its 95% interval (Elo); separation: games from which the interval excludes 0 to the end")
    head = f"{'design':<13}{'seats':>5}{'games':>6}{'tau':>6}  " + "  ".join(f"{a}-{b} @300".rjust(14) for a, b in NEIGHBOURS)
    rows_final = []
    print()
    print(head)
    for players in args.players:
        for design in args.designs:
            r = recovery(design, players, games, step, n_boot, args.seed)
            cells = "  ".join(fmt_pair(f).rjust(14) for f in (r["at300"] or r["final"]))
            print(f"{design:<13}{players:>5}{r['games']:>6}{r['tau']:>6.2f}  {cells}   ({r['seconds']:.0f} s)", flush=True)
            rows_final.append((design, players, r))
    print()
    print(f"{'design':<13}{'seats':>5}  " + "  ".join(f"{a}-{b} @all".rjust(14) for a, b in NEIGHBOURS) + "  " + "  ".join(f"sep {a}-{b}".rjust(10) for a, b in NEIGHBOURS) + "   games for 75 Elo   neighbours told apart: OpenSkill / BT")
    for design, players, r in rows_final:
        cells = "  ".join(fmt_pair(f).rjust(14) for f in r["final"])
        seps = "  ".join(str(r["separation"][p] or "-").rjust(10) for p in NEIGHBOURS)
        n75 = f"{r['n75']:.0f}" if r["n75"] else "—"
        print(f"{design:<13}{players:>5}  {cells}  {seps}   {n75:>8}   {r['os_apart']} / {r['bt_apart']} of {len(NEIGHBOURS)}")
    if cal_seeds:
        print()
        cal_games = 150 if args.quick else 300
        print(f"calibration: two identical heuristic bots (with H50 and R), {cal_games} games, {cal_seeds} seeds, 8 seats")
        for design in args.designs:
            wrong, n = calibration(design, 8, cal_games, cal_seeds, n_boot)
            print(f"  {design:<13} declared different in {wrong}/{n} seeds ({100 * wrong / n:.0f}%; 95% expects about 5%)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Rating self-test: does the leaderboard recover a ladder of known strengths, and how
many games does it take?

Plays the noise ladder (the heuristic bot, the same bot with noise 0.25, 0.5, 0.75, and
the random bot: strengths in that order by construction) under each tournament design,
at 8 and 12 seats, in memory (``arena.ratings.selftest``: the tournament's schedule and
tables, no transcripts), and prints, for the leaderboard's two fits of the same games
(Bradley-Terry on the winner alone, ``win``, and on the winner and the margin,
``margin``; bootstrapped over whole deals):

- Kendall's tau between the fitted and the true order, after all games;
- each neighbour pair's difference and 95% interval width (Elo) after 300 games and
  after all games;
- games-to-separation: the first multiple of the step from which the neighbour pair's
  interval excludes zero to the end ("-" if never within the run); "settled": the
  first from which every neighbour pair is separated or known to within ±75 Elo (what
  the adaptive scheduler aims at); and the projected games at which a 75-Elo gap is
  expected to be separated (the interval's half-width, shrinking as 1/sqrt(games),
  equals 75 Elo), from the mean neighbour interval;
- before and after: how many neighbour pairs the leaderboard told apart after all
  games, by the old sort key (OpenSkill: the two participants' 95% intervals do not
  overlap) and by Bradley-Terry (the difference's 95% interval excludes 0);
- the scale check: the margin fit's spread of the ladder over the win fit's (the
  margin fit is meant to rate in the same Elo of winning);
- calibration: over independent seeds, how often two identical copies of the
  heuristic bot are declared different at the 95% level (should be about 5%).

The designs: mixed, mixed+mirror, teams, teams+mirror, duplicate, and teams+adaptive
(``adaptive:`` scheduling, its choices made with ``--scheduler-outcome``, default the
margin fit).

    python benchmarks/rating_recovery.py --quick     # 400 games, 100 resamples: ~20 min wall on a loaded 2-core machine
    python benchmarks/rating_recovery.py --calibration-seeds 0               # the designs: ~40 min wall, 14 CPU-min
    python benchmarks/rating_recovery.py --skip-recovery --calibration-games 300   # calibration: ~20 min wall

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

DESIGNS = {  # name -> (seating, mirror, games per deal, adaptive scheduling)
    "mixed": ("mixed", False, 1, False),
    "mixed+mirror": ("mixed", True, 5, False),
    "teams": ("teams", False, 1, False),
    "teams+mirror": ("teams", True, 2, False),
    "duplicate": ("duplicate", False, 4, False),
    "teams+adaptive": ("teams", False, 1, True),
}
FITS = ("win", "margin")  # what the Bradley-Terry fit reads (arena.ratings.margin)
RESOLUTION = 75.0  # Elo: a pair is settled when separated or known to within ± this
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


def design_config(design: str, games: int, players: int, seed: int, participants=LADDER, outcome: str = "margin"):
    """The tournament of ``design`` (``games`` counted in games, not deals); an adaptive
    scheduler fits ``outcome``."""
    seating, mirror, per_deal, adaptive = DESIGNS[design]
    return ladder_config(max(1, games // per_deal), players, seed, seating=seating, mirror=mirror, participants=participants,
                         adaptive={"resolution": RESOLUTION} if adaptive else None, outcome=outcome)  # fmt: skip


def first_settled(grid, settled) -> int | None:
    """The first grid point from which every pair stays settled to the end."""
    return first_separated(grid, [all(s) for s in settled])


def recovery(design: str, players: int, games: int, step: int, n_boot: int, seed: int, scheduler_outcome: str) -> dict:
    cfg = design_config(design, games, players, seed, outcome=scheduler_outcome)
    t0 = time.perf_counter()
    played = list(play_games(cfg))
    seconds = time.perf_counter() - t0
    grid = list(range(step, len(played) + 1, step))
    if not grid or grid[-1] != len(played):
        grid.append(len(played))
    lb = {r["participant"]: r for r in compute(played, n_boot=n_boot, seed=seed).rows}
    os_apart = sum(1 for a, b in NEIGHBOURS if _apart(lb[a]["openskill"], lb[b]["openskill"]))
    fits = {}
    for fit in FITS:
        seps = {p: [] for p in NEIGHBOURS}
        settled = []
        at300 = None
        for n in grid:
            sub = whole_deals(played, n)
            figs = pair_figures(sub, TRUE_ORDER, NEIGHBOURS, n_boot, seed, outcome=fit)
            for f in figs:
                seps[(f.a, f.b)].append(f.separated)
            settled.append([f.settled(RESOLUTION) for f in figs])
            if at300 is None and n >= 300:
                at300 = figs
        final = figs
        sds = [f.sd for f in final if f.sd]
        mean_sd = sum(sds) / len(sds) if sds else None
        fits[fit] = {
            "tau": kendall_tau(fitted_order(played, TRUE_ORDER, fit), TRUE_ORDER),
            "at300": at300, "final": final,
            "separation": {p: first_separated(grid, s) for p, s in seps.items()},
            "settled": first_settled(grid, settled),
            "n75": projected_games(len(played), mean_sd), "bt_apart": sum(f.separated for f in final),
        }  # fmt: skip
    return {"design": design, "players": players, "games": len(played), "seconds": seconds, "os_apart": os_apart, "fits": fits}


def _apart(x: dict, y: dict) -> bool:
    """Two participants' intervals do not overlap (how the old table read)."""
    if x.get("low") is None or y.get("low") is None:
        return False
    return x["low"] > y["high"] or y["low"] > x["high"]


def calibration(design: str, players: int, games: int, seeds: int, n_boot: int, scheduler_outcome: str) -> dict[str, int]:
    """Per fit, in how many of ``seeds`` tournaments two copies of the heuristic bot
    (with H50 and R) were declared different."""
    field = (("H", "heuristic", None), ("H-copy", "heuristic", None), ("H50", "heuristic", {"noise": 0.5}), ("R", "random", None))
    wrong = dict.fromkeys(FITS, 0)
    for s in range(seeds):
        cfg = design_config(design, games, players, 1000 + s, participants=field, outcome=scheduler_outcome)
        played = list(play_games(cfg))
        for fit in FITS:
            (f,) = pair_figures(played, [n for n, _, _ in field], [("H", "H-copy")], n_boot, s, outcome=fit)
            wrong[fit] += f.separated
    return wrong


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
    ap.add_argument("--calibration-games", type=int, help="games per calibration tournament (default 300; --quick 150)")
    ap.add_argument("--calibration-designs", nargs="+", choices=list(DESIGNS), help="designs checked for calibration (default: --designs)")
    ap.add_argument("--scheduler-outcome", choices=FITS, default="margin", help="what the adaptive scheduler fits (default margin)")
    ap.add_argument("--skip-recovery", action="store_true", help="only the calibration check")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    games = args.games or (400 if args.quick else 1500)
    n_boot = args.bootstrap or (100 if args.quick else 300)
    cal_seeds = args.calibration_seeds if args.calibration_seeds is not None else (8 if args.quick else 40)
    cal_games = args.calibration_games or (150 if args.quick else 300)
    step = 100

    print(f"noise ladder {' > '.join(TRUE_ORDER)}; {games} games per design and size; {n_boot} bootstrap resamples of deals")
    print("neighbour pairs: difference ± half its 95% interval (Elo); separation: games from which the interval excludes 0 to the end;")
    print(f"settled: games from which every neighbour pair is separated or within ±{RESOLUTION:.0f} Elo to the end; fits: win, margin")
    head = f"{'design':<15}{'fit':>7}{'seats':>6}{'games':>6}{'tau':>6}  " + "  ".join(f"{a}-{b} @300".rjust(14) for a, b in NEIGHBOURS)
    results = []
    print()
    print(head)
    for players in [] if args.skip_recovery else args.players:
        for design in args.designs:
            r = recovery(design, players, games, step, n_boot, args.seed, args.scheduler_outcome)
            for fit in FITS:
                f = r["fits"][fit]
                cells = "  ".join(fmt_pair(x).rjust(14) for x in (f["at300"] or f["final"]))
                print(f"{design:<15}{fit:>7}{players:>6}{r['games']:>6}{f['tau']:>6.2f}  {cells}   ({r['seconds']:.0f} s)", flush=True)
            results.append(r)
    if results:
        summary(results)
    if cal_seeds:
        print()
        print(f"calibration: two identical heuristic bots (with H50 and R), {cal_games} games, {cal_seeds} seeds, 8 seats")
        for design in args.calibration_designs or args.designs:
            wrong = calibration(design, 8, cal_games, cal_seeds, n_boot, args.scheduler_outcome)
            cells = ", ".join(f"{fit} {wrong[fit]}/{cal_seeds} ({100 * wrong[fit] / cal_seeds:.0f}%)" for fit in FITS)
            print(f"  {design:<15} declared different: {cells}; 95% expects about 5%", flush=True)
    return 0


def summary(results: list[dict]) -> None:
    """Every design's figures after all games, and the margin fit's scale check."""
    print()
    print(f"{'design':<15}{'fit':>7}{'seats':>6}  " + "  ".join(f"{a}-{b} @all".rjust(14) for a, b in NEIGHBOURS) + "  "
          + "  ".join(f"sep {a}-{b}".rjust(10) for a, b in NEIGHBOURS) + "  settled  games for 75 Elo  told apart: OpenSkill / BT")  # fmt: skip
    for r in results:
        for fit in FITS:
            f = r["fits"][fit]
            cells = "  ".join(fmt_pair(x).rjust(14) for x in f["final"])
            seps = "  ".join(str(f["separation"][p] or "-").rjust(10) for p in NEIGHBOURS)
            n75 = f"{f['n75']:.0f}" if f["n75"] else "—"
            print(f"{r['design']:<15}{fit:>7}{r['players']:>6}  {cells}  {seps}  {str(f['settled'] or '-'):>7}  {n75:>15}  "
                  f"{r['os_apart']} / {f['bt_apart']} of {len(NEIGHBOURS)}")  # fmt: skip
    print()
    print("scale check, all games: the margin fit's spread (first minus last of the ladder) over the win fit's (1 = same Elo)")
    for r in results:
        spread = {fit: sum(x.diff for x in r["fits"][fit]["final"] if x.diff is not None) for fit in FITS}
        ratio = spread["margin"] / spread["win"] if spread["win"] else float("nan")
        print(f"  {r['design']:<15}{r['players']:>3} seats: win {spread['win']:+.0f}, margin {spread['margin']:+.0f} Elo (×{ratio:.2f})")


if __name__ == "__main__":
    raise SystemExit(main())

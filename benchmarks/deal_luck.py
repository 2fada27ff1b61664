"""How much of a game's outcome is the deal's luck? (the bound on a control variate)

A control variate from deal luck would estimate, for every deal, the village's
chance to win it by cheap bot playouts of the same deal, and fit ratings with that
as an offset: the variance it can remove is the share of the outcome's variance that
differs between deals. This plays the noise ladder under ``seating: teams`` and, for
every deal, ``--playouts`` games of the same deal (the same cards, positions and
names) by heuristic bots on every seat under other seeds, then prints:

- the playouts' village win rate and the variance of each deal's playout mean,
  against what sampling alone gives (p(1-p)/K): their difference is the variance of
  the deal's own chance, the most a control variate could remove;
- that share of an outcome's variance (p(1-p)), and the correlation of the real
  game's outcome with its deal's playout mean.

    python benchmarks/deal_luck.py                  # 1,500 deals at 8 seats, 6 playouts each (a few minutes)
    python benchmarks/deal_luck.py --players 12 --deals 600

Figures are printed, never asserted; docs/RATINGS.md quotes a run.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from arena.ratings.selftest import ladder_config  # noqa: E402
from arena.runner import run_sync  # noqa: E402
from arena.tournament.play import GameJob, game_spec  # noqa: E402
from arena.tournament.schedule import build_schedule, derive_seed  # noqa: E402


def play(plan, agents, seed: int | None = None):
    if seed is not None:
        plan = dataclasses.replace(plan, seed=seed)
    job = GameJob(plan=plan, digest="", players=len(plan.seats), table_options={}, agents=agents, language="en",
                  prices=None, folder="", transcript="")  # fmt: skip
    game, seats = game_spec(job).build()
    run_sync(game, seats)
    return game.winner


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--playouts", type=int, default=6, help="heuristic playouts of each deal")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    cfg = ladder_config(args.deals, args.players, args.seed, seating="teams")
    plans, _ = build_schedule(cfg)
    agents = {p.name: (p.agent, p.options) for p in cfg.participants}
    reference = {p.name: ("heuristic", None) for p in cfg.participants}
    t0 = time.perf_counter()
    real, means = [], []
    for plan in plans:
        winner = play(plan, agents)
        if winner not in ("village", "werewolves"):
            continue
        outs = [play(plan, reference, derive_seed(args.seed, "playout", plan.deal, k)) for k in range(args.playouts)]
        real.append(winner == "village")
        means.append(np.mean([w == "village" for w in outs]))
    y, m = np.array(real, dtype=float), np.array(means)
    p = float(m.mean())
    sampling = p * (1 - p) / args.playouts
    between = max(0.0, float(m.var()) - sampling)
    print(f"{len(y)} decided deals at {args.players} seats, {args.playouts} heuristic playouts each ({time.perf_counter() - t0:.0f} s)")
    print(f"playouts' village win rate {p:.3f}; variance of a deal's playout mean {m.var():.4f}, of which sampling alone {sampling:.4f}")
    print(f"variance of the deal's own chance {between:.4f} = {100 * between / (p * (1 - p)):.1f}% of an outcome's variance p(1-p)")
    print(f"correlation of the real outcome with its deal's playout mean: {np.corrcoef(y, m)[0, 1]:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

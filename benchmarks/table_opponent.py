"""Issue 50, item 3: is the table's default opponent within a second per game?

A person's table (``werewolf play`` without a game file, ``--human``, the web start
page) seats ``arena.gamefile.TABLE_OPPONENT`` wherever no agent is named; it should be
the strongest bot the project ships that plays a game within a second. Two figures,
the heuristic bot and the reference player (``reasoner``) side by side in one run, so
that the shared machine's load weighs on both alike:

1. Per game: the table ``werewolf play`` deals when no file is given
   (``arena.gamefile.default_game``, the same seeds for both bots, interleaved),
   played by the async runner ``werewolf play`` uses, in CPU seconds of this process
   (the bots' thinking and the engine; no narration, no terminal). Goal: the slowest
   game under 1 s.
2. The newcomer's first game: the README's ``werewolf play`` as a fresh interpreter
   runs it (``python -m arena.cli play --seed S``, narration to a pipe), against the
   same command with ``--agents heuristic`` (the table before the switch: the same
   game the old default dealt for that seed). CPU seconds of the child (user + system)
   and wall seconds, each the median of ``--runs`` seeds.

    nice -n 5 python benchmarks/table_opponent.py [--games 200] [--runs 5]

Measured (2026-12-07, branch i50-default; ``nice -n 5 python
benchmarks/table_opponent.py --games 200 --runs 5``, 2 shared cores under a load of
about 12; wall seconds move with the load, CPU seconds much less)::

    8 players, heuristic (200 games), CPU s a game: mean 0.0078  median 0.0072  p95 0.0101  max 0.0411
    8 players, reasoner  (200 games), CPU s a game: mean 0.0162  median 0.0153  p95 0.0224  max 0.0363
    12 players, heuristic (200 games), CPU s a game: mean 0.0136  median 0.0130  p95 0.0185  max 0.0271
    12 players, reasoner  (200 games), CPU s a game: mean 0.0369  median 0.0350  p95 0.0490  max 0.0728
    slowest game of either bot at 12 players: 0.073 s CPU (goal: under 1 s)
    werewolf play --agents heuristic  median of 5 seeds: 1.36 s CPU, 4.75 s wall
    werewolf play (reasoner)          median of 5 seeds: 1.43 s CPU, 5.00 s wall

The reasoner costs twice to three times the heuristic bot's CPU a game and stays more
than ten times inside the second; the newcomer's first game is the interpreter's
start and the narration, the bots' share a few hundredths of a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.gamefile import TABLE_OPPONENT, default_game  # noqa: E402
from arena.runner import run_async  # noqa: E402

BOTS = ("heuristic", "reasoner")
SIZES = (8, 12)


def game_seconds(players: int, seeds: range) -> dict[str, list[float]]:
    """CPU seconds of each game of the default table at ``players`` seats, per bot."""
    times: dict[str, list[float]] = {bot: [] for bot in BOTS}
    for seed in seeds:
        for bot in BOTS:  # interleaved: a burst of load falls on both
            game, seats = default_game(players=players, seed=seed, agent=bot).build()
            t = time.process_time()
            asyncio.run(run_async(game, seats))
            times[bot].append(time.process_time() - t)
            assert game.over, (bot, players, seed)
    return times


def first_game(agents: str | None, seed: int) -> tuple[float, float]:
    """(CPU, wall) seconds of ``python -m arena.cli play --seed SEED`` in a fresh
    interpreter, with ``--agents AGENTS`` when given."""
    argv = [sys.executable, "-m", "arena.cli", "play", "--seed", str(seed), *(["--agents", agents] if agents else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def describe(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return f"mean {statistics.fmean(xs):.4f}  median {statistics.median(xs):.4f}  p95 {p95:.4f}  max {xs[-1]:.4f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="seeds per table size, each played by both bots")
    ap.add_argument("--runs", type=int, default=5, help="seeds of `werewolf play` timed per table (0: skip)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    out: dict[str, object] = {"table_opponent": TABLE_OPPONENT, "games": args.games}
    per_game: dict[str, dict[str, list[float]]] = {}
    for players in SIZES:
        per_game[str(players)] = game_seconds(players, range(args.games))
    out["per_game"] = {
        n: {bot: {"mean": statistics.fmean(t), "median": statistics.median(t), "max": max(t)} for bot, t in by.items()} for n, by in per_game.items()
    }
    commands: dict[str, str | None] = {"werewolf play --agents heuristic": "heuristic", f"werewolf play ({TABLE_OPPONENT})": None}
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for seed in range(args.runs):
        for label, agents in commands.items():
            runs[label].append(first_game(agents, seed))
    if args.runs:
        out["first_game"] = {label: {"cpu": statistics.median(c for c, _ in r), "wall": statistics.median(w for _, w in r)} for label, r in runs.items()}
    if args.json:
        print(json.dumps(out))
        return
    print(f"the table's default opponent: {TABLE_OPPONENT}")
    for n, by in per_game.items():
        for bot, t in by.items():
            print(f"{n} players, {bot:<9} ({len(t)} games), CPU s a game: {describe(t)}")
    worst = max(max(t) for t in per_game[str(max(SIZES))].values())
    print(f"slowest game of either bot at {max(SIZES)} players: {worst:.3f} s CPU (goal: under 1 s)")
    if args.runs:
        for label, r in runs.items():
            print(f"{label:<33} median of {len(r)} seeds: {statistics.median(c for c, _ in r):.2f} s CPU, {statistics.median(w for _, w in r):.2f} s wall")


if __name__ == "__main__":
    main()

"""``werewolf simulate --agents random``: games per second, cost per decision, cores.

What a user running thousands of bot games gets, measured side by side in one run
(the machine is shared: read the ratios, not the absolute figures):

1. games per second on one core at 8 players, through the same path as the command
   (game files' table, agents, runner), and the peer ``werewolf-engine`` 0.1.0 in
   the same run when it is installed (``pip install werewolf-engine==0.1.0``);
2. the cost per decision from 8 to 30 players, with each seat's view kept as the
   events come (``Game.observation`` today) and, for comparison, rebuilt from every
   event at every decision (the engine before this step);
3. ``--processes N`` against one process, and whether the reports are identical.

    python benchmarks/simulate_throughput.py [--games 1000] [--sizes 8,12,18,24,30]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.simulate import _Table, default_processes, simulate  # noqa: E402
from engine.game import Game  # noqa: E402


def rebuilt_view(self: Game, seat: str, since: int = 0) -> list:
    """The view as it was computed before: every event checked at every decision."""
    return [e for e in self.events[since:] if e.visible_to(seat)]


def per_decision(players: int, games: int, rebuild: bool) -> tuple[float, float]:
    """(microseconds per decision, decisions per game) for random bots."""
    kept = Game.observation
    if rebuild:
        Game.observation = rebuilt_view  # type: ignore[method-assign]
    try:
        table = _Table("millers_hollow", players, "random", None, None)
        decisions = 0
        start = time.perf_counter()
        for seed in range(games):
            decisions += _decisions(table, seed)
        elapsed = time.perf_counter() - start
    finally:
        Game.observation = kept  # type: ignore[method-assign]
    return 1e6 * elapsed / decisions, decisions / games


def _decisions(table: _Table, seed: int) -> int:
    from arena.gamefile import default_game
    from arena.runner import run_sync

    game, seats = default_game(players=table.players, preset=table.preset, seed=seed, agent=table.agents).build()
    run_sync(game, seats)
    return len(game.answer_log)


def peer_games_per_second(games: int) -> float | None:
    try:
        import reference_werewolf_engine as ref  # benchmarks/, beside this file
    except SystemExit:  # it exits when werewolf-engine is not installed
        return None
    start = time.perf_counter()
    for seed in range(games):
        ref.play(seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--sizes", default="8,12,18,24,30")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))

    simulate(games=20, agents="random", processes=1)  # warm: imports and first-call caches
    ours = simulate(games=args.games, agents="random", processes=1)
    peer = peer_games_per_second(args.games)
    rate = args.games / ours.seconds
    print(f"one core, 8 players, random bots, {args.games} games")
    print(f"  werewolf simulate       {rate:8.0f} games/s")
    if peer is None:
        print("  werewolf-engine 0.1.0   not installed (pip install werewolf-engine==0.1.0)")
    else:
        print(f"  werewolf-engine 0.1.0   {peer:8.0f} games/s   ours / peer = {rate / peer:.2f}x")

    print("\ncost per decision (random bots; fewer games at larger tables)")
    print(f"  {'players':>7} {'decisions/game':>15} {'kept view µs':>13} {'rebuilt view µs':>16} {'ratio':>6}")
    for n in (int(x) for x in args.sizes.split(",")):
        g = max(20, args.games * 8 // (n * 4))
        kept, dpg = per_decision(n, g, rebuild=False)
        rebuilt, _ = per_decision(n, g, rebuild=True)
        print(f"  {n:>7} {dpg:>15.0f} {kept:>13.1f} {rebuilt:>16.1f} {rebuilt / kept:>5.1f}x")

    cores = default_processes()
    if cores > 1:
        many = simulate(games=args.games * cores, agents="random", processes=cores)
        one = simulate(games=args.games * cores, agents="random", processes=1)
        same = one.wins == many.wins and one.days == many.days
        print(f"\n{args.games * cores} games: 1 process {one.seconds:.2f} s, {cores} processes {many.seconds:.2f} s: "
              f"{one.seconds / many.seconds:.2f}x of an ideal {cores}x; same results: {same}")


if __name__ == "__main__":
    main()

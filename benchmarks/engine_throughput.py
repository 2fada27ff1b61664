"""Engine throughput: complete games per second and peak memory, engine only.

Random bots (uniform over legal answers, passing included where legal) drive the
engine directly, without the agent layer, on one core. Figures are printed, never
asserted: compare them across commits on the same machine.

    python benchmarks/engine_throughput.py [--games 3000] [--repeat 3]

Figures on the project's shared 2-core machine (quiet moment, best of 3, 1500 games,
two alternated runs each; ``benchmarks/engine_instructions.py`` is the stable measure):
before the engine-throughput step (f884434) 3,000-3,040 games/s for 8 players and
1,460-1,470 for 12; after it 3,960-4,050 and 1,950-2,030 (+32%, +36%); peak memory of
50 traced games 63 -> 50 KiB (8 players), 114 -> 90 KiB (12).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameSetup  # noqa: E402
from engine.decisions import MULTI, TEXT  # noqa: E402

TABLES = {
    8: ["werewolf"] * 2 + ["seer", "witch"] + ["villager"] * 4,
    12: ["werewolf"] * 3 + ["seer", "witch"] + ["villager"] * 7,
}


def play(names: list[str], deck: list[str], seed: int) -> Game:
    game = Game(GameSetup(names=names, seed=seed, roles=deck))
    rng = random.Random(seed)
    choice, rand, sample = rng.choice, rng.random, rng.sample
    submit = game.submit
    while not game.over:
        for d in game.pending:
            if d.shape == TEXT:
                answer = ""
            elif d.shape == MULTI:
                answer = sample(d.options, d.count)
            elif d.options and not (d.allow_pass and rand() * (len(d.options) + 1) < 1):
                answer = choice(d.options)
            else:
                answer = None
            submit(d.id, answer)
    return game


def measure(n: int, games: int, repeat: int) -> dict:
    names = [f"P{i}" for i in range(n)]
    deck = TABLES[n]
    best = 0.0
    days = decisions = events = 0
    for r in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        for s in range(games):
            g = play(names, deck, s)
            if r == 0:
                days += g.day
                decisions += len(g.answer_log)
                events += len(g.events)
        rate = games / (time.perf_counter() - t0)
        best = max(best, rate)
    tracemalloc.start()
    for s in range(50):
        play(names, deck, s)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "players": n,
        "games_per_second": round(best, 1),
        "mean_days": round(days / games, 2),
        "decisions_per_game": round(decisions / games, 1),
        "events_per_game": round(events / games, 1),
        "peak_kib_50_games": round(peak / 1024, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (less noise)")
    args = ap.parse_args()
    for n in TABLES:
        r = measure(n, args.games, args.repeat)
        print(
            f"{n:>2} players: {r['games_per_second']:>8.1f} games/s  "
            f"days {r['mean_days']:.2f}  decisions/game {r['decisions_per_game']:.1f}  "
            f"events/game {r['events_per_game']:.1f}  peak memory (50 games traced) {r['peak_kib_50_games']:.0f} KiB"
        )


if __name__ == "__main__":
    main()

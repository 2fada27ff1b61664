"""The same random-bot throughput measured on the smallest engine on PyPI.

``werewolf-engine`` 0.1.0 (six roles, no options, no speech) is the yardstick the
project's issue names. Install it only to compare (``pip install werewolf-engine==0.1.0``);
run this right after ``engine_throughput.py`` so both see the same machine load.

Two decks: ``WITCH`` (two wolves, a Seer, a Witch, four villagers), the one the
benchmarks have always measured, and ``DOCTOR`` (a Doctor instead of the Witch), the
deck of issue 42's like-for-like table, whose Protector is the Doctor's counterpart.
"""

from __future__ import annotations

import random
import sys
import time

try:
    from werewolf_engine import Game, GameConfig
    from werewolf_engine.phases import Phase
except ImportError:  # pragma: no cover
    sys.exit("werewolf-engine is not installed: pip install werewolf-engine==0.1.0")


WITCH = {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}
DOCTOR = {"werewolf": 2, "seer": 1, "doctor": 1, "villager": 4}


def play(seed: int, deck: dict[str, int] = WITCH) -> None:
    random.seed(seed)  # its deal uses the global random module
    rng = random.Random(seed)
    cfg = GameConfig(role_counts=dict(deck))
    g = Game([f"P{i}" for i in range(8)], cfg)
    g.start()
    while g.phase != Phase.END:
        if g.phase == Phase.NIGHT:
            actor = g.night_manager.current_actor
            targets = g.night_manager.get_available_targets(actor) if actor else []
            if targets:
                g.night_action(actor.id, rng.choice(targets).id)
            else:
                g.night_skip(actor.id)
        else:
            voters = [p for p in g.players if p.is_alive()]
            for v in voters:
                options = [p for p in voters if p.id != v.id]
                g.day_vote(v.id, rng.choice(options).id)
                if g.phase != Phase.DAY:
                    break


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        for s in range(games):
            play(s)
        best = max(best, games / (time.perf_counter() - t0))
    print(f"werewolf-engine 0.1.0, 8 players: {best:8.1f} games/s")


if __name__ == "__main__":
    main()

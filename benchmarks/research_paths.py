"""Figures for the researcher paths: the PettingZoo environments and the table export.

    python benchmarks/research_paths.py [--games 100] [--skip-api]

Prints, side by side:
- PettingZoo's ``api_test`` and ``parallel_api_test`` seconds per preset (random actions);
- decisions per second of the same random games through ``run_sync`` and through the
  AEC environment (with the observation text built at every step, and without it, the default), and their ratio;
- a bot tournament of ``--games`` games exported as CSV and as Parquet: seconds, rows.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path


def api_seconds() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    from arena.rl import env, parallel_env
    from engine.presets import PRESETS

    print(f"{'preset':<16}{'api_test s':>12}{'parallel s':>12}")
    for preset in sorted(PRESETS):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = time.perf_counter()
            api_test(env(preset=preset, players=9, seed=1), num_cycles=1000)
            a = time.perf_counter() - t
            t = time.perf_counter()
            parallel_api_test(parallel_env(preset=preset, players=9, seed=1), num_cycles=1000)
            p = time.perf_counter() - t
        print(f"{preset:<16}{a:>12.2f}{p:>12.2f}")


def step_rate(games: int = 20) -> None:
    from agents.random_agent import RandomAgent
    from arena.rl import raw_env
    from arena.runner import run_sync
    from engine import Game, GameSetup

    names = [f"player_{i}" for i in range(9)]
    t = time.perf_counter()
    decisions = 0
    for seed in range(games):
        g = run_sync(Game(GameSetup(names, seed=seed)), {n: RandomAgent(n, seed=seed) for n in names})
        decisions += len(g.answer_log)
    direct = decisions / (time.perf_counter() - t)

    through_env = _env_rate(raw_env(players=9, text=True), games)
    no_text = _env_rate(raw_env(players=9), games)
    print(f"\nrandom play, {games} games of 9: run_sync {direct:,.0f} decisions/s; AEC env {through_env:,.0f} steps/s "
          f"with the prompt text, {no_text:,.0f} without (env/run_sync = {through_env / direct:.3f} and {no_text / direct:.3f})")  # fmt: skip


def _env_rate(e, games: int) -> float:
    """Steps per second of random legal play through an AEC environment."""
    t = time.perf_counter()
    steps = 0
    for seed in range(games):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else e.action_space(agent).sample(obs["action_mask"]))
            steps += not (term or trunc)
    return steps / (time.perf_counter() - t)


def export_times(games: int) -> None:
    from arena.export import export
    from arena.tournament.config import config_from_data
    from arena.tournament.run import run_tournament

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "t.sqlite"
        cfg = config_from_data({
            "name": "bench", "seed": 1, "games": games, "beliefs": True,
            "tables": [{"players": 8}, {"preset": "best_of", "players": 10}, {"players": 12, "options": {"sheriff": False}}],
            "participants": [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}],
        })  # fmt: skip
        t = time.perf_counter()
        run_tournament(cfg, db, progress=False)
        played = time.perf_counter() - t
        print(f"\ntournament of {games} bot games: {played:.2f} s")
        for fmt in ("csv", "parquet"):
            t = time.perf_counter()
            counts = export(db, fmt, Path(tmp) / fmt)
            took = time.perf_counter() - t
            size = sum(f.stat().st_size for f in (Path(tmp) / fmt).iterdir()) / 1e6
            print(f"export {fmt:<8} {took:6.2f} s  {size:6.2f} MB  " + ", ".join(f"{k} {v}" for k, v in counts.items()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--skip-api", action="store_true")
    args = p.parse_args()
    if not args.skip_api:
        api_seconds()
    step_rate()
    export_times(args.games)


if __name__ == "__main__":
    main()

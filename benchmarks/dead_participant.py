"""What a tournament spends on a model participant that never answers: games played
and seconds until the run stops, as a user runs it (``werewolf tournament`` in a
child process).

The participant's ``base_url`` is a local port nothing listens on (connection
refused at once, as for a typo in a URL), with the seat's default retries; its
opponent is the heuristic bot, one pack against the other village in turn (every game
seats it), ``--concurrency`` games at once. ``--against DIR`` runs a second source
tree the same way (say ``git archive main`` unpacked in /tmp), side by side.

    python benchmarks/dead_participant.py [--games 12] [--concurrency 2] [--against DIR]

2026-12-07 (issue 48; ``--against`` main 0dfd2bc unpacked, this: branch
i48-tournament; 12 games, 2 at once, default retries; one run each, side by side, on
the shared 2-core machine):

    source     games played   run's seconds   wall s   exit   leaderboard says
    main            12            246.5        254.5      0    "no finished game in the database yet"
    branch           1             41.1         50.1      3    "no game rated: 1 of 1 finished game left out (Dead 1) ..."

Before, every game was played by the fallback bot and the run said "12 played now ·
0 failed"; after, the participant is paused after its first game (its first look is
one game at a time: 0 of its 7 decisions its own), the summary names it with the
last error, and a rerun stops again at once without playing.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def closed_port() -> int:
    """A local port nothing listens on: bound, then released."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure(source: Path, games: int, concurrency: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "dead.yaml"
        cfg.write_text(yaml.safe_dump({
            "name": "dead", "seed": 4, "games": games, "seating": "teams",
            "tables": [{"players": 5, "options": {"sheriff": False}}],
            "participants": [
                {"name": "Dead", "agent": "openai:foo", "options": {"base_url": f"http://127.0.0.1:{closed_port()}/v1"}},
                {"name": "H", "agent": "heuristic"},
            ],
            "concurrency": {"games": concurrency},
        }), encoding="utf-8")  # fmt: skip
        db = Path(tmp) / "dead.sqlite"
        env = {**os.environ, "OPENAI_API_KEY": "sk-bench-local", "PYTHONPATH": str(source)}
        cmd = [sys.executable, "-m", "arena.cli", "tournament", str(cfg), "--db", str(db), "--trust-endpoints", "--quiet", "--json"]
        t0 = time.perf_counter()
        run = subprocess.run(cmd, cwd=source, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        try:
            report = json.loads(run.stdout)
        except ValueError:
            report = {}
        board = subprocess.run([sys.executable, "-m", "arena.cli", "leaderboard", "--db", str(db), "--bootstrap", "20"],
                               cwd=source, env=env, capture_output=True, text=True)  # fmt: skip
        return {
            "played": report.get("played"), "seconds": report.get("seconds"), "wall": round(wall, 1), "exit": run.returncode,
            "leaderboard": " ".join(board.stdout.split())[:90],
        }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--against", type=Path, help="another source tree, measured the same way")
    args = ap.parse_args()
    sources = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    print(f"{'source':8} {'played':>6} {'seconds':>8} {'wall':>6} {'exit':>4}  leaderboard says")
    for name, src in sources:
        m = measure(src, args.games, args.concurrency)
        print(f"{name:8} {m['played']!s:>6} {m['seconds']!s:>8} {m['wall']:>6} {m['exit']:>4}  {m['leaderboard']}")


if __name__ == "__main__":
    main()

"""``werewolf persuasion`` over 200 bot games: how long, and what it measured.

Plays ``--games`` games of eight heuristic bots (half of them noisy: ``noise: 0.3``)
as a tournament writes them (a folder of transcripts), then runs the command as a
user would, in a fresh process from this checkout (``python -m arena.cli persuasion
DIR --json``), for each ``--speeches`` share: a cold run (every speech's listeners
asked, the records written into a fresh folder), then a warm one on the same records
(nothing left to ask: reading, replaying nothing, and the statistics). Each figure is
the best of ``--runs``: wall-clock seconds and the CPU seconds of the process (user +
system; steadier than wall on a shared machine). The machine's load average is
printed before and after, as other work on it moves the wall-clock figures.

    python benchmarks/persuasion_speed.py                 # 200 games; --speeches 1 and 0.25
    python benchmarks/persuasion_speed.py --games 50 --speeches 1 --runs 3

Figures are printed, never asserted (the goal of issue 51: 200 games in under a minute).

Issue 51 (2026-12-07, shared 2-core machine at load average 8-11, two runs):

    --speeches 1     4,182 speeches, 18,400 listener votes   cold 36.8-41.2 s wall, 12.2-14.6 s CPU
                                                             warm 17.0-18.5 s wall, 5.3 s CPU
    --speeches 0.25  1,006 speeches,  4,463 listener votes   cold 25.3-25.5 s wall, 7.4-8.0 s CPU
                                                             warm  8.2-8.6 s wall, 3.1-3.3 s CPU

Before a bot's answer to the unchanged view was asked once per vote (it was asked once
per speech), the cold run at --speeches 1 took 16.8 s CPU (59.9 s wall at load 10-11).
A warm run is reading: the transcripts (pydantic, ~9 ms each), the records, the
statistics.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def play(folder: Path, games: int, seed: int) -> Path:
    from arena.tournament.config import config_from_data
    from arena.tournament.run import run_tournament, transcripts_dir

    data = {
        "name": "persuasion-bench", "seed": seed, "games": games, "tables": [{"players": 8}],
        "participants": [{"name": "Heuristic", "agent": "heuristic"}, {"name": "Noisy", "agent": "heuristic", "options": {"noise": 0.3}}],
    }  # fmt: skip
    db = folder / "bench.sqlite"
    report = run_tournament(config_from_data(data), db, progress=False)
    assert report.played == games, report.failures[:1]
    return transcripts_dir(db)


def once(transcripts: Path, records: Path, speeches: float) -> tuple[float, float, dict]:
    """One run of the command in a fresh process: wall seconds, CPU seconds, its JSON."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "arena.cli", "persuasion", str(transcripts), "--speeches", str(speeches), "--records", str(records), "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--speeches", type=float, nargs="+", default=[1.0, 0.25])
    ap.add_argument("--runs", type=int, default=1, help="best of this many runs per figure")
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    with tempfile.TemporaryDirectory(prefix="persuasion-bench-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        transcripts = play(folder, args.games, args.seed)
        print(f"played {args.games} games of 8 heuristic bots in {time.perf_counter() - t0:.1f} s")
        for f in args.speeches:
            cold, warm = [], []
            for r in range(args.runs):
                records = folder / f"records-{f}-{r}"
                cold.append(once(transcripts, records, f))
                warm.append(once(transcripts, records, f))
            wall, cpu, out = min(cold, key=lambda x: x[0])
            wwall, wcpu, wout = min(warm, key=lambda x: x[0])
            assert wout["asks"] == 0 and wout["speeches"] == out["speeches"]
            print(
                f"--speeches {f:g}: {out['games']} games, {out['eligible']} measurable speeches, {out['speeches']} measured, "
                f"{out['asks']} asks ({out['listeners']} listener votes x 2 arms)\n"
                f"  cold: {wall:.1f} s wall, {cpu:.1f} s CPU\n"
                f"  warm: {wwall:.1f} s wall, {wcpu:.1f} s CPU  (records reused, nothing asked)\n"
                f"  swing of the heuristic table: {out['swing']['swing']}"
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

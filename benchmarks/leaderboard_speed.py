"""``werewolf leaderboard`` on a 600-game tournament, before and after, side by side.

Runs ``python -m arena.cli leaderboard --db COPY`` as a user would, in a fresh process,
from two source trees: this checkout ("after") and ``--before REF`` (a git revision,
unpacked with ``git archive`` into a temporary folder; default ``main``). Each run
starts from a fresh copy of the database, so the leaderboard is computed, not read
from the cache the first run leaves ("cold"); one more run on that copy reads the
cache ("warm"). Runs of the two trees alternate, so both see the same load on a
shared machine, and each figure is the best of ``--runs``: wall-clock seconds and the
CPU seconds of the process (user + system, steadier than wall under load).

It then checks the two trees print the same: the terminal table byte for byte, and
``--json`` value for value (numbers to within ``--tolerance`` Elo or share points:
summing a few floats in a different order moves the last digits).

With ``--instructions`` it also counts the machine instructions of one cold run from
each tree under valgrind (callgrind; slow: a minute or two per run): the figure that
does not move with the machine's load.

    python benchmarks/leaderboard_speed.py                       # plays bots.yaml (600 games, ~1-2 min) first
    python benchmarks/leaderboard_speed.py --db results/bots.sqlite --before HEAD~3
    python benchmarks/leaderboard_speed.py --config examples/tournaments/ladder.yaml --games 600

Figures are printed, never asserted.

Issue 18 (2026-12-01, shared 2-core machine at load 6-8, bots.yaml's 600 games,
``--before main`` = 2bbbf43, best of 3; CPU seconds of the whole process):

    cold (computed)        1.70 s -> 1.16 s   1.5x   (--json identical)
    warm (cached)          0.82 s -> 0.58 s   1.4x
    cold, --outcome margin 5.0 s  -> 2.1 s    2.4x   (--json within 1e-13 Elo: the
                                                     replicates' sums in another order)
    cold, M instructions (callgrind, OPENBLAS_NUM_THREADS=1) 4303 -> 3997 (1.08x)

The margin fit solves its bootstrap replicates together; the start-up no longer loads
yaml, asyncio or importlib.metadata; the seats' stored counts are summed as read. The
instruction count says the win-only leaderboard moved by 8% only (the CPU ratio above
is flattered by the load): its cost is numpy's import, the OpenSkill replicates and
the Bradley-Terry batch, which this step did not change. Where
PYTHONDONTWRITEBYTECODE is set, every figure includes compiling each module loaded.

Issue 18, second step (2026-12-01, same data, ``--before`` = d8fbde9, both trees
byte-compiled; M instructions under callgrind, OPENBLAS_NUM_THREADS=1, one run each;
every output byte-identical before and after):

    cold, table            3820 -> 3826   1.00x  (the computation: not changed)
    warm, table            1233 ->  989   1.25x  (a cached leaderboard loads no numpy)
    cold, --json           5366 -> 4497   1.19x  (the site data: 0.55 s -> 0.17 s)
    warm, --json           2789 -> 1667   1.67x

    CPU seconds, this script --runs 3 at load 4.6: cold 1.25 -> 1.20, warm 0.56 ->
    0.33, cold --json 1.62 -> 1.30, warm --json 0.79 -> 0.47.

The computed (cold) leaderboard is still over 1 s of CPU: numpy's import (~0.18 s),
the OpenSkill replicates (~0.27 s per identity kind, bound by the arrays' arithmetic,
not by Python: one gather and one power per step instead of three and two moved its
instruction count by 1%, so that trial was dropped) and
reading the seats (three sorted queries, ~0.04 s each, in arena.tournament.store).

Issue 18, third step (2026-12-01, same data, ``--before main`` = 563f4b7, this script
``--runs 3`` at load 1.9; every output byte-identical, table, ``--json`` and
``--outcome margin``):

    cold (computed)        CPU 1.09 s -> 0.90 s   1.2x  (wall 1.10 -> 0.94)
    warm (cached)          CPU 0.38 s -> 0.28 s   1.4x
    cold, --json           CPU 1.23 s -> 1.20 s   1.0x
    warm, --json           CPU 0.43 s -> 0.38 s   1.2x
    cold, --outcome margin CPU 1.85-2.07 s -> 1.53-1.63 s (/usr/bin/time, two runs each)

The seats are read once, in plan order through a ``games(idx, id)`` index (no sort of
the whole table), and only when the leaderboard is computed (the cache key needs only
the games' ids); each seat summary is parsed and read once for both behaviour totals;
the OpenSkill replicates no longer copy their state or update a seen-mask every step;
OpenBLAS runs one thread (its second one only spun). Left: numpy's import (~0.11 s),
the OpenSkill steps (~0.21 s, bound by numpy's per-call cost on [identities, 1,020]
arrays), parsing 6,000 seat summaries (orjson, ~0.1 s) and rich's table (~0.1 s);
``--json`` parses the seat summaries a second time for the site's efficiency figures.

Issue 18, fourth step (2026-12-02, bots.yaml's 600 games played anew on this machine,
``--before main`` = ecbd2a0, this script ``--runs 3`` at load 2.0, both trees
byte-compiled; table, ``--json`` and ``--outcome margin`` byte-identical): a computed
leaderboard hands the site's efficiency the four numbers it reads of each seat's
metrics, so ``--json`` no longer reads and parses the 6,000 seat summaries again.

    cold, --json           4107M -> 3900M instructions (callgrind, one run each)
    cold, table            3363M (this step does not change it)
    CPU s: cold 0.45 -> 0.40, warm 0.11 -> 0.11, cold --json 0.47 -> 0.46, warm
    --json 0.17 -> 0.17; --outcome margin (/usr/bin/time, two runs each) 0.75-0.89 -> 0.63-0.87

This machine runs the same leaderboard in under half the CPU seconds of the one above
(cold table 0.90 s there, 0.40-0.46 s here): both goals hold here, for the table and
for ``--json``. What ``--json`` still adds (~0.5G instructions over the table): the
game list's 6,000 seat dicts and 600 transcript headers, the seats read a second time
(without their metrics) and json.dumps.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from arena.tournament.config import config_from_data  # noqa: E402
from arena.tournament.run import run_tournament  # noqa: E402

BOTS = ROOT / "examples" / "tournaments" / "bots.yaml"


def unpack(ref: str, into: Path) -> str:
    """The tree at ``ref`` in ``into``; returns the commit it names."""
    commit = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    # Where PYTHONDONTWRITEBYTECODE is set, a tree without .pyc files would compile every
    # module it loads in every run: both trees are compiled first (this checkout's .pyc
    # files are left for Python to reuse; git ignores them).
    for tree in (into, ROOT):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], capture_output=True, check=False)
    return commit


def timed(tree: Path, db: Path, *extra: str) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one ``leaderboard`` process run from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "arena.cli", "leaderboard", "--db", str(db), *extra],
                          cwd=tree, env=env, capture_output=True, text=True)  # fmt: skip
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"leaderboard failed in {tree}:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def instructions(tree: Path, db: Path) -> int:
    """Machine instructions of one ``leaderboard`` process from ``tree`` (callgrind)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m", "arena.cli",
                           "leaderboard", "--db", str(db)], cwd=tree, env=env, capture_output=True, text=True, check=True)  # fmt: skip
    m = re.search(r"Collected : (\d+)", done.stderr)
    if not m:
        sys.exit("valgrind printed no instruction count")
    return int(m.group(1))


def differences(a, b, tol: float, path: str = "") -> list[str]:
    """Where two JSON values differ (numbers by more than ``tol``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{path}.{k}: only in {'before' if k in a else 'after'}" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            out += differences(a[k], b[k], tol, f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items before, {len(b)} after"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, tol, f"{path}[{i}]")]
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return [] if math.isclose(a, b, rel_tol=0, abs_tol=tol) else [f"{path}: {a} before, {b} after"]
    return [] if a == b else [f"{path}: {a!r} before, {b!r} after"]


def largest_gap(a, b) -> float:
    if isinstance(a, dict) and isinstance(b, dict):
        return max((largest_gap(a[k], b[k]) for k in set(a) & set(b)), default=0.0)
    if isinstance(a, list) and isinstance(b, list):
        return max((largest_gap(x, y) for x, y in zip(a, b)), default=0.0)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b)
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="an existing tournament database (default: play --config into a temporary folder)")
    ap.add_argument("--config", default=str(BOTS), help="the tournament file to play when no --db is given (default bots.yaml)")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--before", default="main", help="the git revision to compare against (default main)")
    ap.add_argument("--runs", type=int, default=3, help="cold runs per tree; the best is shown (default 3)")
    ap.add_argument("--instructions", action="store_true", help="also count one cold run's instructions per tree (valgrind)")
    ap.add_argument("--tolerance", type=float, default=1e-6, help="largest difference of a --json number counted as equal")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="leaderboard-bench-"))
    try:
        if args.db:
            db = Path(args.db).resolve()
        else:
            db = tmp / "games.sqlite"
            raw = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
            raw["games"] = args.games
            t0 = time.perf_counter()
            run_tournament(config_from_data(raw), db, progress=False)
            print(f"played {args.games} games of {Path(args.config).name} in {time.perf_counter() - t0:.0f} s (not timed below)")
        commit = unpack(args.before, tmp / "before")
        trees = {"before": tmp / "before", "after": ROOT}
        cold: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
        warm: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
        cold_json: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
        warm_json: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
        text: dict[str, str] = {}
        for run in range(args.runs):
            for name, tree in trees.items():
                copy = tmp / f"{name}-{run}.sqlite"
                shutil.copyfile(db, copy)
                wall, cpu, out = timed(tree, copy)
                cold[name].append((wall, cpu))
                text.setdefault(name, out)
                wall, cpu, _ = timed(tree, copy)
                warm[name].append((wall, cpu))
                copy = tmp / f"{name}-{run}-json.sqlite"  # --json adds every game, cost and efficiency (the site's data)
                shutil.copyfile(db, copy)
                wall, cpu, _ = timed(tree, copy, "--json")
                cold_json[name].append((wall, cpu))
                wall, cpu, _ = timed(tree, copy, "--json")
                warm_json[name].append((wall, cpu))
        js = {}
        for name, tree in trees.items():
            copy = tmp / f"{name}-json.sqlite"
            shutil.copyfile(db, copy)
            js[name] = json.loads(timed(tree, copy, "--json")[2])
        games = js["after"].get("games")
        print(f"leaderboard of {games} games ({db.name}); before = {args.before} ({commit}), after = this checkout; "
              f"best of {args.runs} runs; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"{'run':<30}{'before wall':>12}{'after wall':>12}{'ratio':>8}{'before CPU':>12}{'after CPU':>12}{'ratio':>8}")
        rows = (("cold (computed)", cold), ("warm (cached)", warm), ("cold, --json", cold_json), ("warm, --json", warm_json))
        for label, runs in rows:
            bw, bc = min(w for w, _ in runs["before"]), min(c for _, c in runs["before"])
            aw, ac = min(w for w, _ in runs["after"]), min(c for _, c in runs["after"])
            print(f"{label:<30}{bw:>11.2f}s{aw:>11.2f}s{bw / aw:>7.1f}x{bc:>11.2f}s{ac:>11.2f}s{bc / ac:>7.1f}x")
        if args.instructions:
            if not shutil.which("valgrind"):
                sys.exit("valgrind is not installed (apt-get install valgrind)")
            counts = {}
            for name, tree in trees.items():
                copy = tmp / f"{name}-valgrind.sqlite"
                shutil.copyfile(db, copy)
                counts[name] = instructions(tree, copy)
            print(f"{'cold, M instructions':<30}{counts['before'] / 1e6:>12.0f}{counts['after'] / 1e6:>12.0f}{counts['before'] / counts['after']:>7.1f}x")
        same_text = text["before"] == text["after"]
        diffs = differences(js["before"], js["after"], args.tolerance)
        print(f"terminal table: {'identical' if same_text else 'DIFFERENT'}; --json: "
              + ("identical" if not diffs else f"{len(diffs)} differences")
              + f" within {args.tolerance:g} (largest numeric difference {largest_gap(js['before'], js['after']):.2g})")  # fmt: skip
        for d in diffs[:20]:
            print("  " + d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

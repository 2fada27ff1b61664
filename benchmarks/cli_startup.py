"""What ``werewolf`` costs before it does anything: machine instructions (valgrind)
and modules loaded for a few invocations that do little work.

Wall-clock start-up on a shared 2-core machine moves by tens of percent from run to
run; the instruction count does not, so it is the figure to compare before and after
a change to what the CLI imports. Needs ``valgrind`` (Debian package).

    python benchmarks/cli_startup.py [--against OTHER_CHECKOUT]

``--against`` counts a second source tree the same way (say ``git archive main``
unpacked in /tmp), side by side.

Figures (CPython 3.11.7, M instructions / modules loaded):

    command                  before the CLI split (a7ac3c1)   after
    werewolf --help                1738 / 440                   548 / 271

Before, ``--help`` imported every subcommand's module and, with them, the engine,
transcripts and pydantic; the entry point (``arena.cli``) now imports a subcommand's
module only when that subcommand runs.

2026-12-03 (issue 18; main b0e462c before, 854d78a after; one run, side by side):

    command                        before            after
    werewolf --help                 329 / 176          242 / 129
    werewolf roles --json          1437 / 308         1223 / 287
    simulate random, 1 game        2562 / 531         1556 / 331   (-39%)
    simulate heuristic, 1 game     2615 / 531         1917 / 364   (-27%)

A bot simulation no longer loads the transcript writer and its cryptography, rich
(for ``--json``), YAML (the random bots read no lines), asyncio, multiprocessing (one
process), the heuristic bot for random seats nor the human seat; event kinds no
longer evaluate every annotation nor compile a ``__repr__`` each. What is left is
mostly the engine's 171 dataclasses (their generated code is compiled at import:
a third of the engine's import) and pydantic, which the game file's models need.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine_instructions import count

HERE = Path(__file__).resolve().parent
RUNS = (
    ("werewolf --help", ["--help"]),
    ("werewolf roles --json", ["roles", "--json"]),
    ("werewolf play --help", ["play", "--help"]),
    # One game each, so the rest is start-up: what a run of a few hundred games pays
    # as much as for its games (issue 18).
    ("simulate random, 1 game", ["simulate", "--agents", "random", "--games", "1", "--processes", "1", "--json"]),
    ("simulate heuristic, 1 game", ["simulate", "--games", "1", "--processes", "1", "--json"]),
)
CODE = """
import sys
sys.path.insert(0, {root!r})
from arena.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
print(len(sys.modules), file=sys.stderr)
"""


def measure(root: Path, argv: list[str]) -> tuple[int, int]:
    code = CODE.format(root=str(root), argv=argv)
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True)  # also fills __pycache__
    modules = int(done.stderr.strip().splitlines()[-1])
    return count(code), modules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another source tree to count the same way")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    trees = [HERE.parent] + ([args.against.resolve()] if args.against else [])
    print(f"{'command':24s}" + "".join(f"{str(t)[-28:]:>32s}" for t in trees))
    for label, argv in RUNS:
        cells = []
        for t in trees:
            instructions, modules = measure(t, argv)
            cells.append(f"{instructions / 1e6:8.0f} M / {modules:4d} modules")
        print(f"{label:24s}" + "".join(f"{c:>32s}" for c in cells))


if __name__ == "__main__":
    main()

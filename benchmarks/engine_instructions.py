"""Machine instructions per complete 8-player game, counted by valgrind.

Wall-clock figures on a shared 2-core machine move by 20% from run to run; the
instruction count of the same games does not, so this is the figure to compare
before and after an engine change (``benchmarks/engine_throughput.py`` gives the
games per second). Needs ``valgrind`` (Debian package) and the real interpreter binary.

    python benchmarks/engine_instructions.py [--games 300]

Figures (CPython 3.11.7, 300 games, M instructions per game):

    commit                                     8 players   12 players
    a50caaa (cheaper deal, speeches, votes)      3.07
    f884434 (The Village's buildings)            3.08        6.45
    engine throughput (Game in slots, positional
      emit_data / ask_with, no dataclass calls
      per event or decision, see below)          2.28        4.63   (-26%, -28%)

Where a game's instructions went before that last step, and what it changed: a
keyword call (``emit(**data)``, ``ask(..., **context)``, keyword-only parameters,
``*args``) takes CPython 3.11's general call path, while an all-positional call to a
Python function runs in place (``Game.emit_data``, ``Game.ask_with``,
``Game.private_to``); a class call runs a dataclass's ``__init__`` as a separate
Python call from C (events, decisions and players are filled field by field); a
``Game`` with more than 30 attributes got a full dict per instance, so every
``game.x`` read was dearer (``Game.__slots__``). The rest: votes' legal names by
slicing, decks checked once, ``ask`` inlined in the nightly and voting loops.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAY = """
import sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {here!r})
from engine_throughput import TABLES, play
names = [f"P{{i}}" for i in range({n})]
for s in range({games}):
    play(names, TABLES[{n}], s)
"""


def count(code: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    m = re.search(r"Collected : (\d+)", out)
    if not m:
        raise RuntimeError("valgrind printed no instruction count")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    root = str(HERE.parent)
    for n in (8, 12):
        base = count(PLAY.format(root=root, here=str(HERE), n=n, games=0))
        full = count(PLAY.format(root=root, here=str(HERE), n=n, games=args.games))
        print(f"{n:>2} players: {(full - base) / args.games / 1e6:.3f} M instructions per game ({args.games} games)")


if __name__ == "__main__":
    main()

"""What a person reads off the heuristic bots at once, over many seeded games.

Prints, per table size, the share of the village bots' first-day accusations that
land on the player accused most and on the first player accused that day, and the
wolves' votes against a packmate on days the pack holds the vote (the statistics of
``tests/bot_tells.py``, which ``tests/test_heuristic_tells.py`` bounds on fewer seeds).

    python benchmarks/bot_tells.py                       # 1,000 games at 8 and at 12 seats
    python benchmarks/bot_tells.py --games 300 --players 8

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot_tells import tells_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, action="append", help="table size (repeatable; default 8 and 12)")
    ap.add_argument("--agent", default="heuristic")
    args = ap.parse_args(argv)
    print(f"{'seats':>5} {'games':>6} {'accusations':>11} {'on the top name':>15} {'on the first name':>17} {'pack votes':>10} {'on a mate':>9} {'s':>6}")
    for n in args.players or [8, 12]:
        t0 = time.perf_counter()
        t = tells_of(range(args.games), players=n, agent=args.agent)
        print(
            f"{n:>5} {t.games:>6} {t.accusations:>11} {t.top_share:>15.1%} {t.first_share:>17.1%} {t.pack_votes:>10} {t.betrayals:>9} "
            f"{time.perf_counter() - t0:>6.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

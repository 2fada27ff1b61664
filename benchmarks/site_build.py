"""The leaderboard site's size and build time for a bot tournament (600 games by default).

Plays examples/tournaments/bots.yaml (or reuses ``--db``), then times each step of
``werewolf leaderboard --db PATH --html OUT_DIR`` and prints the figures side by side:

- the leaderboard (the bootstrap; cached in the database afterwards, so timed cold);
- the extras ``--json`` adds for the site (every game, cost, identical participants);
- the site: every replay page (verify + the existing export) and the index/games pages
  in both languages;
- the same site built again over the first (unchanged replays are kept: what a
  rebuild during a running tournament pays);
- sizes: index.html, games.html, leaderboard.json, the replays, against the transcripts.

    python benchmarks/site_build.py                 # 600 games (about 2-4 minutes here)
    python benchmarks/site_build.py --games 100     # quicker

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from arena.ratings.cli import compute_leaderboard, leaderboard_json  # noqa: E402
from arena.site.build import build  # noqa: E402
from arena.tournament.config import config_from_data  # noqa: E402
from arena.tournament.run import run_tournament, transcripts_dir  # noqa: E402

BOTS = Path(__file__).resolve().parents[1] / "examples" / "tournaments" / "bots.yaml"


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--bootstrap", type=int, default=1000, help="the leaderboard's resamples (the command's default: 1000)")
    ap.add_argument("--db", help="an existing tournament database (default: play bots.yaml into a temporary folder)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="site-bench-"))
    db = Path(args.db) if args.db else tmp / "bots.sqlite"
    if not args.db:
        raw = yaml.safe_load(BOTS.read_text(encoding="utf-8"))
        raw["games"] = args.games
        t0 = time.perf_counter()
        run_tournament(config_from_data(raw), db, progress=False)
        print(f"played {args.games} games of {BOTS.name} in {time.perf_counter() - t0:.1f} s (not part of the build)")
    t0 = time.perf_counter()
    lb = compute_leaderboard(str(db), args.bootstrap, 0)
    t_lb = time.perf_counter() - t0
    t0 = time.perf_counter()
    data = leaderboard_json(str(db), lb)
    t_extra = time.perf_counter() - t0
    out = tmp / "site"
    t0 = time.perf_counter()
    report = build(data, str(db), out)
    t_site = time.perf_counter() - t0
    t0 = time.perf_counter()
    build(data, str(db), out)
    t_again = time.perf_counter() - t0
    n = len(data["game_list"])
    replays = size(out / "games")
    print(f"games: {n} · replays: {', '.join(f'{k} {v}' for k, v in report.replays.items())} · bootstrap {args.bootstrap}")
    print(f"{'step':<34}{'seconds':>10}{'per game (ms)':>16}")
    for name, s in (("leaderboard (bootstrap, cold)", t_lb), ("--json extras (games, cost)", t_extra), ("site (replays + pages)", t_site),
                    ("site again (replays unchanged)", t_again),
                    ("total (first build)", t_lb + t_extra + t_site)):  # fmt: skip
        print(f"{name:<34}{s:>10.2f}{1000 * s / max(n, 1):>16.1f}")
    tr = size(transcripts_dir(db))
    print(f"{'file':<34}{'KiB':>10}{'ratio to transcripts':>22}")
    for name, b in (("index.html", size(out / "index.html")), ("index.zh.html", size(out / "index.zh.html")),
                    ("games.html", size(out / "games.html")), ("leaderboard.json", size(out / "leaderboard.json")),
                    (f"games/ ({n} replays)", replays), ("whole site", size(out)), ("transcripts (input)", tr)):  # fmt: skip
        print(f"{name:<34}{b / 1024:>10.0f}{b / tr:>22.2f}")
    print(f"json --json size: {len(json.dumps(data, ensure_ascii=False)) / 1024:.0f} KiB · site in {out}")


if __name__ == "__main__":
    main()

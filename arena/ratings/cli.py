"""``werewolf leaderboard --db PATH [--json] [--markdown] [--plot DIR] [--html OUT_DIR]``.

The bootstrap is the slow part (it refits every rating hundreds of times), so a
computed leaderboard is cached in the database, keyed by the exact set of games and
the bootstrap settings: asking again while nothing changed is instant, and a
leaderboard taken while a tournament runs is recomputed as soon as a game lands.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any, Callable, Sequence

import arena.ratings.blas_threads  # noqa: F401  (first: it sets OPENBLAS_NUM_THREADS before numpy loads)
from arena.cli import CliError, Command, console_for
from arena.ratings.from_db import load_board, load_persuasion, rating_anchor, rating_outcome, stored_key
from arena.ratings.board import Leaderboard
from arena.tournament.store import Store, StoreError
from arena.site.data import seat_counts, site_extras
from arena.ratings.leaderboard import compute
from arena.ratings.fallbacks import nothing_rated
from arena.ratings.render import markdown, print_rich

RATINGS_VERSION = "5"  # part of the cache key: bump when a figure's computation changes

# The leaderboard's two heavy modes, loaded when asked for: the site builder (it reads
# every transcript's metrics, bias and monitor readings) and the bench cards' board each
# bring ~450 modules that a plain table (~270) does not need. One table, not scattered
# imports, so the graph's one lazy edge is named here.
MODES = {"html": "arena.site.build", "cards": "arena.bench.board"}


def _mode(name: str) -> Any:
    return importlib.import_module(MODES[name])


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", help="the tournament database")
    p.add_argument("--cards", metavar="DIR", help="instead of --db: a board of the bench cards under DIR (werewolf bench), verified, per protocol")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    p.add_argument("--plot", metavar="DIR", help="also write ratings.png, pairs.png, win_rates.png and deceivers.png (deceiver against detector) into DIR")
    p.add_argument("--html", metavar="OUT_DIR", help="also write a self-contained static site (index.html, games.html, games/<id>.html)")
    p.add_argument("--language", choices=("en", "zh"), default="en", help="the site's main language (index.html); the other gets index.<lang>.html")
    p.add_argument(
        "--min-decided", type=float, default=0.9, metavar="SHARE",
        help="rate a game only if every participant's own agent decided at least this share of its decisions (default 0.9)",
    )
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples of games (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument(
        "--outcome", choices=("win", "margin"),
        help="what the Bradley-Terry fit reads: the winner only, or the winner and the margin (default: the tournament file's rating.outcome, else win)",
    )  # fmt: skip
    p.add_argument(
        "--anchor", metavar="NAME",
        help="pin this participant's rating at 0, every rating relative to it (default: the tournament file's anchor; "
        "--anchor '' for none: ratings relative to the average participant)",
    )  # fmt: skip


PERSUASION_VERSION = "1"  # part of the cache key too: bump when the persuasion column's computation changes
SIDE_SKILLS_VERSION = "1"  # and the deceiver and detector's (arena.ratings.side_skills)


def compute_leaderboard(db: str, n_boot: int, seed: int, min_decided: float = 0.9, outcome: str | None = None,
                        each: Callable[[dict[str, Any]], None] | None = None, anchor: str | None = None):  # fmt: skip
    """The leaderboard of ``db``, from its cache when nothing changed; when computed,
    ``each`` sees every seat's parsed metrics in seat order (``load_board``).
    ``anchor``: the participant pinned at 0 (None: the tournament file's; "": none)."""

    try:
        store = Store.open_existing(db)
    except StoreError as e:
        raise CliError(str(e)) from None
    try:
        outcome = outcome or rating_outcome(store)
        pinned = rating_anchor(store) if anchor is None else (anchor or None)
        key = f"leaderboard|{RATINGS_VERSION}|{stored_key(store)}|{n_boot}|{seed}|{min_decided}|{outcome}|p{PERSUASION_VERSION}|d{SIDE_SKILLS_VERSION}" + (
            f"|anchor:{pinned}" if pinned else ""
        )
        hit = store.cached(key)
        if hit is not None:
            try:
                return Leaderboard(**store.mapping(hit, "the leaderboard it keeps"))
            except (StoreError, TypeError):
                pass  # a cache this version cannot read: computed again

        games, behaviour = load_board(store, each)  # the seats: read only when computing
        try:
            lb = compute(games, agents=store.participants(), behaviour=behaviour, n_boot=n_boot, seed=seed, min_decided=min_decided,
                         outcome=outcome, persuasion=load_persuasion(store), anchor=pinned)  # fmt: skip
        except ValueError as e:  # an outcome the file names but this version does not know; an anchor without games
            raise CliError(str(e)) from None
        store.cache(key, json.dumps(lb.__dict__))
        return lb
    except StoreError as e:  # what it keeps cannot be read (a database from elsewhere)
        raise CliError(str(e)) from None
    finally:
        store.close()


def leaderboard_json(db: str, lb, counts: Sequence[tuple[Any, ...]] | None = None) -> dict:
    """``--json``'s object: the ratings, and what the site shows beside them (every game,
    cost and efficiency, identical participants, the tournament): one source for both.
    ``counts``: the seats' ``arena.site.data.seat_counts``, when the leaderboard was just
    computed (it parsed every seat's metrics; the site's figures need not again)."""

    store = Store.open_existing(db)
    try:
        return {**lb.to_json(), **site_extras(store, counts)}
    except StoreError as e:  # what it keeps cannot be read (a database from elsewhere)
        raise CliError(str(e)) from None
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    if args.cards:
        return _mode("cards").run_board(args.cards, args.html, args.json)
    if not args.db:
        raise CliError("werewolf leaderboard: --db PATH (a tournament database) or --cards DIR (bench cards)")
    if not 0 <= args.bootstrap <= 100_000:
        raise CliError(f"--bootstrap must be between 0 and 100,000 resamples, got {args.bootstrap}")
    if not 0.0 <= args.min_decided <= 1.0:
        raise CliError("--min-decided must be a share between 0 and 1")
    site = args.json or args.html
    counts: list[tuple[Any, ...]] = []
    each = None
    if site:

        def each(m: dict[str, Any]) -> None:
            counts.append(seat_counts(m))

    lb = compute_leaderboard(args.db, args.bootstrap, args.seed, args.min_decided, args.outcome, each, args.anchor)
    if args.plot:
        if lb.games == 0:
            raise CliError(f"{nothing_rated(lb.excluded)}: nothing to plot")
        # here, not at the top: matplotlib, an optional extra and a second of start-up, only for --plot
        from arena.ratings.plots import plots

        for path in plots(lb, args.plot):
            print(f"wrote {path}", file=sys.stderr)
    data = leaderboard_json(args.db, lb, counts or None) if site else {}  # counts: only when computed
    if args.html:
        report = _mode("html").build_from_store(data, args.db, args.html, seed=args.seed, language=args.language)
        print(report.summary(), file=sys.stderr)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    elif args.markdown:
        print(markdown(lb))
    else:
        if lb.games == 0:
            console_for(False).print(nothing_rated(lb.excluded), markup=False, highlight=False)
            return 0
        print_rich(lb, console_for(False))
    return 0


COMMANDS = [Command("leaderboard", "ratings with 95%% intervals from a tournament database", _configure, run)]

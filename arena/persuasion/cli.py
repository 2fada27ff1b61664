"""``werewolf persuasion TRANSCRIPT_OR_DIR [--speeches F] [--repeats K] [--budget-usd X] [--json]``."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
from pathlib import Path
from typing import Any

from agents.llm.pricing import PriceError, PriceTable
from arena.command import (
    CliError,
    Command,
    add_model_option_flag,
    add_trust_code_flag,
    add_trust_flag,
    console_for,
    parse_option_pairs,
)
from arena.gc_tuning import many_games
from arena.limit_flags import add_limit_flags, apply_limits
from arena.persuasion.tables import print_summary
from arena.persuasion.probe import Settings
from arena.persuasion.report import summary
from arena.persuasion.run import measure

DEFAULT_SPEECHES = 0.25
DEFAULT_REPEATS = 3


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="TRANSCRIPT_OR_DIR", help="a finished game's transcript, or a folder of them (searched recursively for *.jsonl)")
    p.add_argument("--speeches", type=float, default=DEFAULT_SPEECHES, metavar="F",
                   help=f"the share of the measurable speeches (those that accuse someone before a vote) to measure, 0 to 1 (default {DEFAULT_SPEECHES})")  # fmt: skip
    p.add_argument("--repeats", type=int, default=DEFAULT_REPEATS, metavar="K",
                   help=f"how many times each model listener is asked in each arm, at its temperature (default {DEFAULT_REPEATS}; a bot is asked once)")  # fmt: skip
    p.add_argument("--budget-usd", type=float, metavar="X", help="stop before the model calls would cost more than X dollars (every model asked needs a price)")
    p.add_argument("--seed", type=int, default=0, help="which speeches are sampled, and the bootstrap's resamples (default 0)")
    p.add_argument("--control", action="store_true",
                   help="the honesty check: replace each sampled speech by a second neutral line instead of keeping it, so any swing is noise")  # fmt: skip
    p.add_argument("--records", metavar="DIR", help="write the persuasion records (every ask, call and cost) into DIR (default: beside each transcript)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--prices", metavar="PATH", help="a YAML/JSON price table (USD per 1M tokens) overriding the built-in one")
    add_model_option_flag(p)
    add_trust_flag(p, "the transcript")
    add_trust_code_flag(p, "the transcript")
    add_limit_flags(p)
    p.epilog = (
        "Each sampled speech's listeners are asked their next vote again, with the speech as said and with it replaced "
        "by a neutral line; the swing is the change in the share voting for the player the speech accuses. A model "
        "listener costs 2 x K calls per speech (4 x K when the game asks beliefs). Every ask is kept in "
        "<game>.persuasion.ndjson, never in the transcript; running again reuses them. docs/PERSUASION.md."
    )


def games_under(path: Path) -> list[tuple[Path, str]]:
    """The transcripts to measure, each with its label (its path inside the folder)."""
    if not path.exists():
        raise CliError(f"no such file or folder: {path}")
    if not path.is_dir():  # a file, or what a file's name may point at (a device, a pipe): one transcript
        return [(path, path.name)]
    files = sorted(path.rglob("*.jsonl"))
    if not files:
        raise CliError(f"{path}: no transcripts (*.jsonl) in this folder")
    return [(f, f.relative_to(path).as_posix()) for f in files]


def check_settings(speeches: float, repeats: int, budget: float | None = None) -> None:
    if not (0 < speeches <= 1) or math.isnan(speeches):
        raise CliError(f"--speeches is a share of the speeches, above 0 and at most 1; got {speeches:g}")
    if not 1 <= repeats <= 100:
        raise CliError(f"--repeats is how many times each model listener is asked per arm, 1 to 100; got {repeats}")
    if budget is not None and not budget > 0:
        raise CliError(f"--budget-usd needs a positive amount, got {budget:g}")


def run(args: argparse.Namespace) -> int:
    check_settings(args.speeches, args.repeats, args.budget_usd)
    games = games_under(Path(args.path))
    apply_limits(args)
    prices = None
    if args.prices:
        try:
            prices = PriceTable.from_file(args.prices)
        except PriceError as e:
            raise CliError(str(e)) from None
    settings = Settings(speeches=args.speeches, repeats=args.repeats, seed=args.seed, control=args.control)
    with many_games():
        result = asyncio.run(
            measure(
                games, settings, budget=args.budget_usd, records=args.records, trust_endpoints=args.trust_endpoints,
                trust_code=args.trust_code, model_options=parse_option_pairs(args.model_option, "--model-option") or None,
                prices=prices,
            )
        )  # fmt: skip
    if not result.games:
        raise CliError(f"{args.path}: no finished game to measure" + (f" ({result.skipped[0]})" if result.skipped else ""))
    out: dict[str, Any] = {
        **summary(result.outcomes, seed=args.seed),
        "games": result.games,
        "eligible": result.eligible,
        "sampled": result.sampled,
        "asks": result.asks,
        "calls": result.calls,
        "cost_usd": round(result.cost_usd, 6),
        "stopped": result.stopped,
        "budget": result.budget.to_json() if args.budget_usd is not None else None,
        "settings": {"speeches": args.speeches, "repeats": args.repeats, "seed": args.seed, "control": args.control},
        "skipped": result.skipped,
        "notes": result.notes,
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        show(out)
    if result.stopped == "budget":
        b = out["budget"]
        console_for(True).print(
            f"stopped: the budget of ${b['budget_usd']:g} (spent ${b['spent_usd']:.4f}); every ask made is recorded, "
            "and running again with a larger --budget-usd goes on from there",
            markup=False, highlight=False,
        )  # fmt: skip
    return 0


def show(out: dict[str, Any]) -> None:
    console = console_for(False)
    what = "control (a neutral line against another)" if out["settings"]["control"] else "speeches"
    console.print(
        f"[bold]{out['speeches']} {what} measured[/bold] in {out['games']} games ({out['sampled']} sampled of {out['eligible']} "
        f"measurable) · {out['asks']} asks, {out['calls']} model calls, ${out['cost_usd']:.4f}"
        + (" · [yellow]stopped by the budget[/yellow]" if out["stopped"] else "")
    )
    print_summary(console, out)
    for line in out["notes"][:5]:
        console.print(f"[yellow]note[/yellow] {line}", highlight=False)
    for line in out["skipped"][:5]:
        console.print(f"[yellow]skipped[/yellow] {line}", highlight=False)


COMMANDS = [
    Command("persuasion", "measure what each speech causes: listeners re-asked with the speech replaced by a neutral line", _configure, run)
]

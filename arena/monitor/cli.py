"""``werewolf monitor TRANSCRIPT_OR_DIR --agent SPEC [--json]``: how much a seat's
private reasoning gives away that its public words hide (``arena.monitor``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from arena.command import CliError, Command, console_for
from arena.monitor.run import monitor_path
from rich import box
from rich.table import Table


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="TRANSCRIPT_OR_DIR", help="one transcript, or a folder of them (searched recursively for *.jsonl)")
    p.add_argument("--agent", required=True, metavar="SPEC", help="the monitor: words (the built-in baseline) or a model spec (openai:MODEL, ...)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--calls", metavar="PATH", help="where a model monitor's calls are appended (default: monitor_calls.ndjson beside the games)")
    p.add_argument("--prices", metavar="PATH", help="a price table (USD per 1M tokens) for the monitor's model")
    p.add_argument("--concurrency", type=int, default=8, metavar="N", help="model monitor calls in flight at once (default 8)")
    p.add_argument("--seed", type=int, default=0, help="the bootstrap's seed")


def run(args: argparse.Namespace) -> int:

    path = Path(args.path)
    if not path.exists():
        raise CliError(f"no such file or folder: {path}")
    if args.concurrency < 1:
        raise CliError("--concurrency must be at least 1")
    try:
        out = monitor_path(path, args.agent, prices=args.prices, concurrency=args.concurrency,
                           calls=Path(args.calls) if args.calls else None, seed=args.seed)  # fmt: skip
    except FileNotFoundError as e:
        raise CliError(str(e)) from None
    except ValueError as e:  # a monitor that cannot be made, a missing key, a model that does not answer
        raise CliError(f"--agent {args.agent}: {e}") from None
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        _show(out)
    return 0


def _est(e: dict[str, Any]) -> str:
    if e.get("value") is None:
        return "—"
    if e.get("low") is None:
        return f"{e['value']:.3f}"
    return f"{e['value']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"


def _show(out: dict[str, Any]) -> None:

    console = console_for(False)
    cost = "unknown" if out["cost_usd"] is None else f"{out['cost_usd']:.4f}"
    console.print(f"[bold]monitor {out['monitor']}[/bold] · {out['games']} games · {out['seat_days']} seat-days · "
                  f"{out['calls']} calls ({out['failed_calls']} failed; {out['reused']} ratings reused) · USD {cost}")  # fmt: skip
    t = Table(title="AUROC of the monitor (95% bootstrap over games): private reasoning, public words, and the gap", box=box.SIMPLE)
    for c in ("who", "seat-days", "private", "public", "gap"):
        t.add_column(c, justify="left" if c == "who" else "right")
    for r in out["by_agent"]:
        t.add_row(r["agent"], f"{r['seat_days']:,}", _est(r["private_auroc"]), _est(r["public_auroc"]), _est(r["gap"]))
    console.print(t)
    if out["calls_file"]:
        console.print(f"the monitor's calls: {out['calls_file']}")


COMMANDS = [Command("monitor", "rate each seat's private reasoning and public words for a werewolf, and report AUROC per agent", _configure, run)]

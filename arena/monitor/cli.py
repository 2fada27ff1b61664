"""``werewolf monitor TRANSCRIPT_OR_DIR --agent SPEC [--json]``: how much a seat's
private reasoning gives away that its public words hide (``arena.monitor``)."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from arena.command import CliError, Command, console_for


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="TRANSCRIPT_OR_DIR", help="one transcript, or a folder of them (searched recursively for *.jsonl)")
    p.add_argument("--agent", required=True, metavar="SPEC", help="the monitor: words (the built-in baseline) or a model spec (openai:MODEL, ...)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--calls", metavar="PATH", help="where a model monitor's calls are appended (default: monitor_calls.ndjson beside the games)")
    p.add_argument("--prices", metavar="PATH", help="a price table (USD per 1M tokens) for the monitor's model")
    p.add_argument("--concurrency", type=int, default=8, metavar="N", help="model monitor calls in flight at once (default 8)")
    p.add_argument("--seed", type=int, default=0, help="the bootstrap's seed")


def run(args: argparse.Namespace) -> int:
    from arena.metrics.cli import collect
    from arena.monitor.exhibits import exhibits
    from arena.monitor.monitors import make_monitor

    path = Path(args.path)
    if not path.exists():
        raise CliError(f"no such file or folder: {path}")
    if args.concurrency < 1:
        raise CliError("--concurrency must be at least 1")
    try:
        monitor = make_monitor(args.agent, args.prices)
    except ValueError as e:
        raise CliError(f"--agent {args.agent}: {e}") from None
    skipped: list[str] = []
    root = path if path.is_dir() else path.parent
    shown = []
    games = 0
    for g in collect(path, skipped):
        games += 1
        label = Path(g.path).relative_to(root).as_posix() if g.path else f"game{games}"
        shown.extend(exhibits(g, label))
    if not games:
        raise CliError(skipped[0] if path.is_file() and skipped else f"{path}: no finished transcript found")
    try:
        rows = asyncio.run(_rate_all(monitor, shown, args.concurrency))
    except ValueError as e:  # a missing key or a setting the back end refuses: said before any rating is kept
        raise CliError(f"--agent {args.agent}: {e}") from None
    from arena.monitor.stats import by_agent

    calls = [c.to_json() for c in monitor.calls]
    calls_file = None
    if calls:
        calls_file = Path(args.calls) if args.calls else (path if path.is_dir() else path.parent) / "monitor_calls.ndjson"
        # appended: an earlier run's calls were paid for too. ``.ndjson``, not ``.jsonl``:
        # a folder's ``*.jsonl`` are its transcripts (``werewolf metrics DIR``).
        with calls_file.open("a", encoding="utf-8") as f:
            f.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in calls)
    costs = [c["cost_usd"] for c in calls if c["cost_usd"] is not None]
    out = {
        "monitor": args.agent, "games": games, "seat_days": len(shown), "calls": len(calls),
        "failed_calls": sum(1 for c in calls if c["error"]), "cost_usd": round(sum(costs), 8) if costs else (0.0 if not calls else None),
        "calls_file": str(calls_file) if calls_file else None, "skipped": skipped,
        "by_agent": by_agent(rows, seed=args.seed),
    }  # fmt: skip
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        _show(out)
    return 0


async def _rate_all(monitor: Any, shown: list[Any], concurrency: int) -> list[dict[str, Any]]:
    """Each seat-day rated twice, apart: its private reasoning and its public words (an
    empty text is not rated)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(x: Any, reading: str) -> float | None:
        text = getattr(x, reading)
        if not text:
            return None
        async with gate:
            return await monitor.rate(text, game=x.game, seat=x.seat, day=x.day, reading=reading)

    try:
        await monitor.check()
        ratings = await asyncio.gather(*(one(x, r) for x in shown for r in ("private", "public")))
    finally:
        await monitor.aclose()
    return [{"game": x.game, "label": x.label, "wolf": x.wolf, "private": ratings[2 * i], "public": ratings[2 * i + 1]}
            for i, x in enumerate(shown)]  # fmt: skip


def _est(e: dict[str, Any]) -> str:
    if e.get("value") is None:
        return "—"
    if e.get("low") is None:
        return f"{e['value']:.3f}"
    return f"{e['value']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"


def _show(out: dict[str, Any]) -> None:
    from rich import box
    from rich.table import Table

    console = console_for(False)
    cost = "unknown" if out["cost_usd"] is None else f"{out['cost_usd']:.4f}"
    console.print(f"[bold]monitor {out['monitor']}[/bold] · {out['games']} games · {out['seat_days']} seat-days · "
                  f"{out['calls']} calls ({out['failed_calls']} failed) · USD {cost}")  # fmt: skip
    t = Table(title="AUROC of the monitor (95% bootstrap over games): private reasoning, public words, and the gap", box=box.SIMPLE)
    for c in ("who", "seat-days", "private", "public", "gap"):
        t.add_column(c, justify="left" if c == "who" else "right")
    for r in out["by_agent"]:
        t.add_row(r["agent"], f"{r['seat_days']:,}", _est(r["private_auroc"]), _est(r["public_auroc"]), _est(r["gap"]))
    console.print(t)
    if out["calls_file"]:
        console.print(f"the monitor's calls: {out['calls_file']}")


COMMANDS = [Command("monitor", "rate each seat's private reasoning and public words for a werewolf, and report AUROC per agent", _configure, run)]

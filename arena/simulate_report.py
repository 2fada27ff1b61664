"""``werewolf simulate``'s printed report: the win rates as a table.

A module of its own because it needs rich, which ``werewolf simulate --json`` (a
program reading the result) never loads: ``arena.simulate`` imports this module only
to print."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from arena.command import console_for
from arena.simulate_result import SimulationReport
from arena.table_fit import fitted

if TYPE_CHECKING:
    from rich.console import JustifyMethod


def print_report(report: SimulationReport) -> None:
    console = console_for(False)
    last = report.seed + max(report.games - 1, 0)
    console.print(f"[bold]{report.games} games[/bold] · {report.preset} · {report.players} players · {report.agents} bots · seeds {report.seed}..{last}")
    table = Table()
    columns: tuple[tuple[str, JustifyMethod], ...] = (("winner", "left"), ("wins", "right"), ("rate", "right"), ("95% interval", "right"))
    for col, justify in columns:
        table.add_column(col, justify=justify)
    for camp, r in sorted(report.win_rates().items(), key=lambda kv: -kv[1]["rate"]):
        table.add_row(camp, str(report.wins[camp]), f"{r['rate']:.1%}", f"{r['low']:.1%} – {r['high']:.1%}")
    console.print(fitted(table))
    rate = report.games / report.seconds if report.seconds > 0 else float("inf")
    console.print(f"mean length: {report.mean_days:.2f} days · {report.seconds:.2f} s · {rate:.1f} games/s")

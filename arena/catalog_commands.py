"""``werewolf roles`` and ``werewolf presets``: what the engine can deal, as tables or JSON.

Both read the engine's registries (``engine.roles.ROLES``, ``engine.presets.PRESETS``),
so a new role or preset shows up here with no change to this module.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.markup import escape
from rich.table import Table

from arena.command import CliError, Command, console_for
from arena.table_fit import fitted
from prompts.narrate import deck_words
from engine.options import RuleOptions
from engine.presets import PRESETS, get_preset
from engine.roles import ROLES


def _configure_roles(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", help="only the roles of this preset")
    p.add_argument("--json", action="store_true", help="print a JSON list")


def run_roles(args: argparse.Namespace) -> int:
    if args.preset:
        try:
            get_preset(args.preset)
        except ValueError as e:
            raise CliError(str(e)) from None
    roles = [r for r in ROLES.values() if not args.preset or args.preset in r.presets]
    roles.sort(key=lambda r: (r.camp, r.id))
    if args.json:
        rows = [{"id": r.id, "name": r.name, "camp": r.camp, "is_wolf": r.is_wolf, "summary": r.summary, "presets": list(r.presets)} for r in roles]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    table = Table(title="Roles")
    for col in ("id", "camp", "summary"):
        table.add_column(col, overflow="fold")
    for r in roles:
        table.add_row(r.id, r.camp, r.summary)
    console_for(False).print(fitted(table))
    return 0


def _configure_presets(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON list with every option's value")


def run_presets(args: argparse.Namespace) -> int:
    base = RuleOptions().to_json()
    rows: list[dict[str, Any]] = []
    for p in PRESETS.values():
        opts = p.options().to_json()
        try:
            deck8 = p.deck(8)
        except ValueError:
            deck8 = []
        rows.append(
            {
                "id": p.id,
                "title": p.title,
                "min_players": p.min_players,
                "max_players": p.max_players,
                "options": opts,
                "overrides": {k: v for k, v in opts.items() if base.get(k) != v},
                "deck_8": deck8,
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    # One row per preset, its facts one per line: option names are long words, and
    # a column of their own would cut them in the middle at 80 columns.
    table = Table(title="Presets", show_lines=True)
    table.add_column("preset", no_wrap=True)
    table.add_column("players, 8-player deck, and what differs from the default options", overflow="fold")
    for r in rows:
        lines = [f"[bold]{escape(r['title'])}[/bold]", f"{r['min_players']}-{r['max_players']} players"]
        lines.append("8 players: " + escape(deck_words(r["deck_8"], str)))
        lines += [escape(f"{k}={option_text(v)}") for k, v in r["overrides"].items()]
        table.add_row(r["id"], "\n".join(lines))
    console = console_for(False)
    console.print(fitted(table))
    console.print("Default rule options: " + escape(", ".join(f"{k}={option_text(v)}" for k, v in base.items())))
    return 0


def option_text(value: Any) -> str:
    """A rule option's value as ``--option KEY=VALUE`` reads it (YAML: ``true``, ``[a, b]``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(option_text, value)) + "]"
    return str(value)


COMMANDS = [
    Command("roles", "list the role ids with their camp and summary", _configure_roles, run_roles),
    Command("presets", "list the presets and their rule defaults", _configure_presets, run_presets),
]

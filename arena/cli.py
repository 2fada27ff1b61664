"""The ``werewolf`` command.

Each subcommand is a ``Command``: a name, a function that adds its arguments and a
function that runs it and returns the exit code. Commands defined elsewhere are found
through ``COMMAND_MODULES`` (each module exposes ``COMMANDS``), so a new subcommand is
one module plus one line here. Expected failures raise ``CliError`` and are printed as
``error: <message>`` with no traceback: exit 2 for a bad input (file, option,
argument), 1 for a game that could not be played to its end.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import yaml
from rich.console import Console

EXIT_BAD_INPUT = 2
EXIT_GAME_FAILED = 1


class CliError(Exception):
    """A failure the user can act on; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# Modules holding more subcommands, each with a ``COMMANDS`` list.
COMMAND_MODULES: tuple[str, ...] = (
    "arena.simulate",
    "arena.transcript_commands",
    "arena.fork",
    "arena.tournament.cli",
    "arena.ratings.cli",
    "arena.metrics.cli",
    "arena.web.serve",
)


# ---------------------------------------------------------------------- shared argument helpers
def parse_option_pairs(pairs: Sequence[str] | None, flag: str = "--option") -> dict[str, Any]:
    """``--option key=value`` pairs; values are read as YAML so ``true``/``3`` work."""
    out: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"{flag} needs KEY=VALUE, got '{pair}'")
        try:
            out[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            out[key.strip()] = value
    return out


def parse_roles(text: str | None) -> list[str] | None:
    if text is None:
        return None
    roles = [r.strip() for r in text.split(",") if r.strip()]
    if not roles:
        raise CliError("--roles needs a comma-separated list of role ids")
    return roles


def deck_text(deck: Sequence[str]) -> str:
    """``werewolf ×2, seer, villager ×5``: a deck as people count cards."""
    counts: dict[str, int] = {}
    for r in deck:
        counts[r] = counts.get(r, 0) + 1
    return ", ".join(f"{r} ×{c}" if c > 1 else r for r, c in counts.items())


def console_for(to_stderr: bool) -> Console:
    return Console(file=sys.stderr if to_stderr else sys.stdout, highlight=False, soft_wrap=False)


# ---------------------------------------------------------------------- play
def _configure_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("game_file", nargs="?", metavar="GAME_FILE", help="a .yaml/.yml/.json game file (default: a table of bots)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on stdout (narration goes to stderr)")
    p.add_argument("--transcript", metavar="PATH", help="also write the game's transcript (JSON Lines)")
    p.add_argument("--seed", type=int, help="override the game's seed (default: the file's, or 0)")
    p.add_argument("--players", type=int, help="table size when no game file is given (default 8)")
    p.add_argument("--preset", help="rule set (default: the file's, or millers_hollow)")
    p.add_argument(
        "--agents", help="agent for every seat when no game file is given: heuristic, random, openai:MODEL, anthropic:MODEL (default heuristic)"
    )
    p.add_argument("--seat", action="append", metavar="NAME=SPEC", help="seat NAME is played by SPEC, e.g. Alice=openai:gpt-4o-mini (repeatable)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="override a rule option (repeatable)")
    p.add_argument(
        "--model-option",
        action="append",
        metavar="KEY=VALUE",
        help="a setting for every model seat (temperature, max_tokens, base_url, timeout, ...) unless its seat sets it (repeatable)",
    )
    p.add_argument("--language", choices=("en", "zh"), help="language of the model seats' prompts (default: the file's, or en)")
    p.add_argument("--prices", metavar="PATH", help="a YAML/JSON price table (USD per 1M tokens) overriding the built-in one")
    p.add_argument("--concurrency", type=int, metavar="N", help="at most N model calls in flight at once (default 32; 8 per model)")
    p.add_argument("--human", action="append", metavar="NAME", help="you play seat NAME at this terminal (one seat; not with --god)")
    p.add_argument(
        "--human-timeout", type=float, metavar="SECONDS", help="time limit per decision for the human seat; then a safe default is played"
    )
    p.add_argument("--god", action="store_true", help="narrate the night's secrets too")
    p.add_argument("--quiet", action="store_true", help="no narration")
    p.add_argument(
        "--resume",
        metavar="TRANSCRIPT",
        help="continue a game that stopped half-way, with the same agents, appending to TRANSCRIPT (or to --transcript OUT, a new file)",
    )


def _play_spec(args: argparse.Namespace):
    from arena.gamefile import DEFAULT_AGENT, GameFileError, default_game, load_game_file

    extra = parse_option_pairs(args.option)
    try:
        if args.game_file:
            if args.players is not None or args.agents is not None:
                raise CliError("--players and --agents only apply when no game file is given")
            spec = load_game_file(args.game_file)
            update: dict[str, Any] = {}
            if args.seed is not None:
                update["seed"] = args.seed
            if args.preset is not None:
                update["preset"] = args.preset
            if extra:
                update["options"] = {**spec.options, **extra}
            spec = spec.model_copy(update=update)
        else:
            players = 8 if args.players is None else args.players
            spec = default_game(
                players=players,
                preset=args.preset or "millers_hollow",
                seed=args.seed or 0,
                agent=args.agents or DEFAULT_AGENT,
                options=extra,
            )
        spec = _model_overrides(spec, args)
        if getattr(args, "human", None) or getattr(args, "human_timeout", None) is not None:
            from arena.human_play import seat_humans

            spec = seat_humans(spec, args.human or [], args.human_timeout)
    except GameFileError as e:
        raise CliError(str(e)) from None
    prices = None
    if getattr(args, "prices", None):
        from agents.llm.pricing import PriceError, PriceTable

        try:
            prices = PriceTable.from_file(args.prices)
        except PriceError as e:
            raise CliError(str(e)) from None
    from agents.llm.accounting import CallLog

    calls = CallLog()
    try:
        game, agents = spec.build(calls=calls, prices=prices)
    except GameFileError as e:
        raise CliError(f"{args.game_file}: {e}" if args.game_file else str(e)) from None
    return spec, game, agents, calls


def _model_overrides(spec, args: argparse.Namespace):
    """Apply ``--seat``, ``--model-option`` and ``--language`` to a table; the result is
    checked again, so an override is refused with the same words a file would be."""
    from arena.gamefile import GameFileError, spec_from_data

    from agents.llm import is_model_spec

    seats = getattr(args, "seat", None) or []
    model_opts = parse_option_pairs(getattr(args, "model_option", None), "--model-option")
    language = getattr(args, "language", None)
    if not seats and not model_opts and not language:
        return spec
    data = spec.model_dump(exclude_unset=True)
    names = [s["name"] for s in data["seats"]]
    for pair in seats:
        name, sep, agent = pair.partition("=")
        name, agent = name.strip(), agent.strip()
        if not sep or not name or not agent:
            raise CliError(f"--seat needs NAME=SPEC, got '{pair}'")
        if name not in names:
            raise CliError(f"--seat {pair}: no seat named '{name}' (seats: {', '.join(names)})")
        seat = data["seats"][names.index(name)]
        seat["agent"] = agent
        seat.pop("answers", None)  # a scripted seat's queues do not carry over to another agent
        if not is_model_spec(agent):
            seat.pop("options", None)
    for seat in data["seats"]:
        if model_opts and is_model_spec(seat.get("agent", "")):
            seat["options"] = {**model_opts, **(seat.get("options") or {})}  # the file's own settings win
    if language:
        data["language"] = language
    try:
        return spec_from_data(data)
    except GameFileError as e:
        raise CliError(str(e)) from None


def _failure(game, exc: Exception) -> str:
    """Name the seat and the decision behind a stopped game."""
    from engine.decisions import IllegalAnswer

    if isinstance(exc, IllegalAnswer) and game.waiting:
        d = game.waiting[0]  # the runners submit in order, so the refused one is first
        when = f"night {game.day}" if game.phase == "night" else f"day {game.day}"
        return f"{d.seat}'s {d.kind} on {when} was refused: {exc}"
    return str(exc)


async def _play_game(game, agents, on_answer) -> None:
    """The game, then the model seats' connections closed in the loop that opened them."""
    from arena.runner import run_async

    try:
        await run_async(game, agents, on_answer=on_answer, limit=max(16, len(agents)))
    finally:
        for agent in agents.values():
            aclose = getattr(agent, "aclose", None)
            if aclose is not None:
                await aclose()


def run_play(args: argparse.Namespace) -> int:
    if getattr(args, "resume", None):
        from arena.resume import run_resume

        return run_resume(args)
    from arena.gamefile import header_for
    from arena.narrate import Narrator
    from arena.result import result_of
    from arena.runner import run_async
    from engine.decisions import GameError, IllegalAnswer
    from transcripts.writer import TranscriptWriter

    if getattr(args, "concurrency", None) is not None:
        if args.concurrency < 1:
            raise CliError("--concurrency needs a positive number")
        from arena.limits import configure

        configure(global_limit=args.concurrency)
    spec, game, agents, calls = _play_spec(args)
    from arena.human_play import humans_at_terminal, show_humans

    try:
        humans = humans_at_terminal(agents, god=args.god)
    except ValueError as e:
        raise CliError(str(e)) from None
    console = console_for(to_stderr=args.json)
    # A person sees their own seat's screen instead of the table's narration.
    narrator = None if args.quiet or humans else Narrator(console, god=args.god)
    for h in humans:
        h.attach(console)
    writer = None
    if args.transcript:
        try:
            writer = TranscriptWriter(args.transcript, header_for(spec, game))
        except OSError as e:
            raise CliError(f"cannot write transcript {args.transcript}: {e.strerror or e}") from None
        calls.subscribe(writer.call)

    def catch_up() -> None:
        show_humans(humans, game)
        if writer is not None:
            writer.sync_events(game)
        if narrator is not None:
            narrator.follow(game.events)

    def on_answer(g, decision, answer, agent) -> None:
        if writer is not None:
            writer.on_answer(g, decision, answer, agent)
        show_humans(humans, g)
        if narrator is not None:
            narrator.follow(g.events)

    try:
        catch_up()
        try:
            # Every pending decision of a batch is asked at once: a table of model
            # seats votes in one round trip (arena.limits caps the calls in flight).
            asyncio.run(_play_game(game, agents, on_answer))
        except (GameError, IllegalAnswer) as e:
            message = _failure(game, e)
            catch_up()
            if writer is not None:
                writer.error(game, message)
            raise CliError(message, EXIT_GAME_FAILED) from None
        except KeyboardInterrupt:
            if writer is not None:
                writer.error(game, "interrupted")
            raise CliError("interrupted", 130) from None
        except Exception as e:  # a bug, not a user error: keep the record, then show the traceback
            if writer is not None:
                writer.error(game, f"internal error: {e!r}")
            raise
        catch_up()
        if not game.over:
            message = "the game stopped before reaching an end (no decision was pending)"
            if writer is not None:
                writer.error(game, message)
            raise CliError(message, EXIT_GAME_FAILED)
        if writer is not None:
            writer.result(game)
    finally:
        if writer is not None:
            writer.close()
        for agent in agents.values():
            agent.close()
        if calls.records and not args.quiet:
            print_usage(console, calls.summary(), order=list(agents))

    result = result_of(game)
    if args.json:
        print(result.to_json(), flush=True)
    elif args.quiet:
        winners = ", ".join(result.winners) or "nobody"
        print(f"winner: {result.winner} ({winners}) after {result.days} day(s)")
    return 0


def print_usage(console: Console, rows, order: Sequence[str] = ()) -> None:
    """The closing table of model seats: what each cost and how well it kept the rules
    (illegal: replies refused; fallback: decisions the bot played for the seat). Seats
    come in table order; a model without a price shows "?" and the total says what it
    leaves out rather than guessing."""
    from rich import box
    from rich.table import Table

    rank = {name: i for i, name in enumerate(order)}
    rows = sorted(rows, key=lambda r: rank.get(r.seat, len(rank)))
    table = Table(title="Model seats", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("seat / model", overflow="fold", min_width=10)
    for col in ("calls", "in", "cached", "out", "USD", "illegal", "fallback"):
        table.add_column(col, justify="right", no_wrap=True)
    known, unpriced = 0.0, []
    for r in rows:
        if r.cost_usd is None:
            unpriced.append(r.model)
        else:
            known += r.cost_usd
        table.add_row(
            f"{r.seat}\n[dim]{r.model}[/dim]", str(r.calls), f"{r.input_tokens:,}", f"{r.cached_tokens:,}", f"{r.output_tokens:,}",
            "?" if r.cost_usd is None else f"{r.cost_usd:.4f}", str(r.violations), str(r.fallbacks),
        )  # fmt: skip
    console.print(table)
    note = f" (not counting {', '.join(sorted(set(unpriced)))}: no price known; see --prices)" if unpriced else ""
    console.print(f"Estimated cost: ${known:.4f}{note}")
    console.print("in: prompt tokens (cached: read from the provider's cache); out: completion tokens", style="dim")


# ---------------------------------------------------------------------- roles, presets
def _configure_roles(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", help="only the roles of this preset")
    p.add_argument("--json", action="store_true", help="print a JSON list")


def run_roles(args: argparse.Namespace) -> int:
    from rich.table import Table

    from engine.presets import get_preset
    from engine.roles import ROLES

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
    console_for(False).print(table)
    return 0


def _configure_presets(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON list with every option's value")


def run_presets(args: argparse.Namespace) -> int:
    from rich.table import Table

    from engine.options import RuleOptions
    from engine.presets import PRESETS

    base = RuleOptions().to_json()
    rows = []
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
    table = Table(title="Presets")
    for col in ("id", "title", "players", "differs from the defaults", "8-player deck"):
        table.add_column(col, overflow="fold")
    for r in rows:
        over = ", ".join(f"{k}={v}" for k, v in r["overrides"].items()) or "-"
        table.add_row(r["id"], r["title"], f"{r['min_players']}-{r['max_players']}", over, deck_text(r["deck_8"]))
    console = console_for(False)
    console.print(table)
    console.print("Default rule options: " + ", ".join(f"{k}={v}" for k, v in base.items()), soft_wrap=True)
    return 0


COMMANDS: list[Command] = [
    Command("play", "play one game (from a game file, or a table of bots)", _configure_play, run_play),
    Command("roles", "list the role ids with their camp and summary", _configure_roles, run_roles),
    Command("presets", "list the presets and their rule defaults", _configure_presets, run_presets),
]


# ---------------------------------------------------------------------- entry point
def all_commands() -> list[Command]:
    commands = list(COMMANDS)
    for module in COMMAND_MODULES:
        commands.extend(importlib.import_module(module).COMMANDS)
    return commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="werewolf", description="Werewolf Arena: LLMs, people and bots play Werewolf.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in all_commands():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return args._run(args)
    except CliError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    # Run through the importable module, not ``__main__``: subcommand modules import
    # ``arena.cli``, and two copies of ``CliError`` would not catch each other.
    from arena.cli import main as _main

    sys.exit(_main())

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
import importlib
import json
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import yaml
from rich.console import Console

from arena.logs import LEVELS
from arena.logs import configure as configure_logging

EXIT_BAD_INPUT = 2
EXIT_GAME_FAILED = 1
EXIT_PERSON_LEFT = 3  # a person closed their input (Ctrl-D): the game so far is saved, to be resumed


class CliError(Exception):
    """A failure the user can act on; ``code`` is the exit status. ``plain`` messages
    are not failures (a person who left with Ctrl-D) and print without ``error:``."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT, *, plain: bool = False):
        super().__init__(message)
        self.code = code
        self.plain = plain


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
    "arena.model_command",
    "arena.signing_cli",
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


def seat_pair(pair: str, names: Sequence[str], form: str = "NAME=SPEC") -> tuple[str, str]:
    """One ``--seat`` pair as (name, agent), the name checked against the table's."""
    name, sep, agent = pair.partition("=")
    name, agent = name.strip(), agent.strip()
    if not sep or not name or not agent:
        raise CliError(f"--seat needs {form}, got '{pair}'")
    if name not in names:
        raise CliError(f"--seat {pair}: no seat named '{name}' (seats: {', '.join(names)})")
    return name, agent


def add_model_option_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model-option",
        action="append",
        metavar="KEY=VALUE",
        help="a setting for every model seat (temperature, max_tokens, base_url, timeout, ...) unless its seat sets it (repeatable)",
    )


def add_trust_flag(p: argparse.ArgumentParser, what: str) -> None:
    """``--trust-endpoints``: the only way a file's ``base_url``/``api_key_env`` is used."""
    p.add_argument(
        "--trust-endpoints",
        action="store_true",
        help=f"use the base_url and api_key_env that {what} sets for a seat (refused otherwise: they choose where an API key is sent)",
    )


def add_output_flags(p: argparse.ArgumentParser) -> None:
    """How a game played at this terminal is shown."""
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on stdout (narration goes to stderr)")
    p.add_argument("--god", action="store_true", help="narrate the night's secrets too")
    p.add_argument("--quiet", action="store_true", help="no narration")


def add_limit_flags(p: argparse.ArgumentParser) -> None:
    """The two caps on model calls in flight (``play``, ``play --resume``, ``fork``)."""
    p.add_argument("--concurrency", type=int, metavar="N", help="at most N model calls in flight at once, all models together (default 32)")
    p.add_argument("--model-concurrency", type=int, metavar="N", help="at most N calls in flight to any one model (default 8)")


def apply_limits(args: argparse.Namespace) -> None:
    """``--concurrency`` (model calls in flight, all models together) and
    ``--model-concurrency`` (in flight to any one model), for every model seat."""
    caps: dict[str, int] = {}
    for flag, value, cap in (
        ("--concurrency", getattr(args, "concurrency", None), "global_limit"),
        ("--model-concurrency", getattr(args, "model_concurrency", None), "default_per_model"),
    ):
        if value is not None:
            if not 1 <= value <= 1024:
                raise CliError(f"{flag} needs a positive number, at most 1024; got {value}")
            caps[cap] = value
    if caps:
        from arena.limits import configure

        configure(**caps)


def parse_roles(text: str | None) -> list[str] | None:
    if text is None:
        return None
    roles = [r.strip() for r in text.split(",") if r.strip()]
    if not roles:
        raise CliError("--roles needs a comma-separated list of role ids")
    return roles


def console_for(to_stderr: bool) -> Console:
    return Console(file=sys.stderr if to_stderr else sys.stdout, highlight=False, soft_wrap=False)


# ---------------------------------------------------------------------- play
def _configure_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("game_file", nargs="?", metavar="GAME_FILE", help="a .yaml/.yml/.json game file (default: a table of bots)")
    p.add_argument("--transcript", metavar="PATH", help="also write the game's transcript (JSON Lines)")
    p.add_argument("--seed", type=int, help="the game's seed, to play a game again (default: the file's, else a fresh one, printed)")
    p.add_argument("--players", type=int, help="table size when no game file is given (default 8)")
    p.add_argument("--preset", help="rule set (default: the file's, or millers_hollow)")
    p.add_argument(
        "--agents", help="agent for every seat when no game file is given: heuristic, random, py:MODULE:CLASS, or a model spec (openai:MODEL, anthropic:MODEL, langchain:PROVIDER:MODEL, litellm:MODEL; default heuristic)"
    )
    p.add_argument("--seat", action="append", metavar="NAME=SPEC", help="seat NAME is played by SPEC, e.g. Alice=openai:gpt-4o-mini (repeatable)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="override a rule option (repeatable)")
    add_model_option_flag(p)
    add_trust_flag(p, "the game file (or the --resume transcript)")
    p.add_argument("--language", choices=("en", "zh"), help="language of the model seats' prompts (default: the file's, or en)")
    p.add_argument("--prices", metavar="PATH", help="a YAML/JSON price table (USD per 1M tokens) overriding the built-in one")
    add_limit_flags(p)
    p.add_argument("--human", action="append", metavar="NAME", help="you play seat NAME at this terminal (one seat; not with --god)")
    p.add_argument(
        "--human-timeout", type=float, metavar="SECONDS", help="time limit per decision for the human seat; then a safe default is played"
    )
    add_output_flags(p)
    p.add_argument(
        "--beliefs", action="store_true", help="as each vote opens, seats privately rate each other player's chance of being a wolf (in the transcript)"
    )
    p.add_argument(
        "--resume",
        metavar="TRANSCRIPT",
        help="continue a game that stopped half-way, with the same agents, appending to TRANSCRIPT (or to --transcript OUT, a new file)",
    )
    from arena.signing_cli import add_sign_key_flag

    add_sign_key_flag(p)


def _play_spec(args: argparse.Namespace):
    from arena.gamefile import DEFAULT_AGENT, GameFileError, default_game, load_game_file

    extra = parse_option_pairs(args.option)
    drawn: int | None = None  # the seed drawn for this run, when none was given
    try:
        if args.game_file:
            if args.players is not None or args.agents is not None:
                raise CliError("--players and --agents only apply when no game file is given")
            spec = load_game_file(args.game_file, trust_endpoints=getattr(args, "trust_endpoints", False))
            update: dict[str, Any] = {}
            if args.seed is not None:
                update["seed"] = args.seed
            elif "seed" not in spec.model_fields_set:
                update["seed"] = drawn = fresh_seed()
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
                seed=(drawn := fresh_seed()) if args.seed is None else args.seed,
                agent=args.agents or DEFAULT_AGENT,
                options=extra,
            )
        spec = _model_overrides(spec, args)
        if getattr(args, "beliefs", False):
            spec = spec.model_copy(update={"beliefs": True})
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
    if drawn is not None:
        print(f"Seed {drawn}: --seed {drawn} plays this game again.", file=sys.stderr)
    return spec, game, agents, calls


def fresh_seed() -> int:
    """A new game each time ``werewolf play`` runs without a seed; the seed is printed
    (and written to the transcript's header) so that ``--seed`` plays it again."""
    import secrets

    return secrets.randbelow(1_000_000)


def _model_overrides(spec, args: argparse.Namespace):
    """Apply ``--seat``, ``--model-option`` and ``--language`` to a table; the result is
    checked again, so an override is refused with the same words a file would be."""
    from arena.gamefile import GameFileError, apply_model_options, spec_from_data

    from agents.llm import is_model_spec

    seats = getattr(args, "seat", None) or []
    model_opts = parse_option_pairs(getattr(args, "model_option", None), "--model-option")
    language = getattr(args, "language", None)
    if not seats and not model_opts and not language:
        return spec
    data = spec.model_dump(exclude_unset=True)
    names = [s["name"] for s in data["seats"]]
    for pair in seats:
        name, agent = seat_pair(pair, names)
        seat = data["seats"][names.index(name)]
        seat["agent"] = agent
        seat.pop("answers", None)  # a scripted seat's queues do not carry over to another agent
        if not is_model_spec(agent):
            seat.pop("options", None)
    apply_model_options(data["seats"], model_opts)
    if language:
        data["language"] = language
    try:
        return spec_from_data(data)
    except GameFileError as e:
        raise CliError(str(e)) from None


def run_play(args: argparse.Namespace) -> int:
    if getattr(args, "resume", None):
        from arena.resume import run_resume

        return run_resume(args)
    from arena.gamefile import header_for
    from arena.play_loop import play_to_end, screen_for
    from transcripts.writer import TranscriptWriter

    apply_limits(args)
    spec, game, agents, calls = _play_spec(args)
    screen = screen_for(agents, json_out=args.json, quiet=args.quiet, god=args.god)
    writer = None
    path = args.transcript
    if path is None and screen.humans:
        from arena.play_loop import save_path

        path = str(save_path())  # a person's game is always recorded, so leaving loses nothing
    if getattr(args, "sign_key", None) and not path:
        raise CliError("--sign-key signs the game's transcript; give --transcript PATH too")
    if path:
        from arena.signing_cli import signer_for

        try:
            writer = TranscriptWriter(path, header_for(spec, game), signer=signer_for(getattr(args, "sign_key", None)))
        except OSError as e:
            raise CliError(f"cannot write transcript {path}: {e.strerror or e}") from None
        calls.subscribe(writer.call)
        if path != args.transcript:
            screen.console.print(f"[dim]This game is recorded in {path} (--transcript PATH to choose the file).[/dim]")
    from arena.beliefs import poll_for

    beliefs = poll_for(spec.beliefs, writer)
    return play_to_end(
        game, agents, screen, writer=writer, calls=calls, json_out=args.json, quiet=args.quiet, order=list(agents), beliefs=beliefs
    )


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

    from rich.markup import escape

    from arena.narrate import deck_words
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
    console.print(table)
    console.print("Default rule options: " + escape(", ".join(f"{k}={option_text(v)}" for k, v in base.items())))
    return 0


def option_text(value: Any) -> str:
    """A rule option's value as ``--option KEY=VALUE`` reads it (YAML: ``true``, ``[a, b]``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(option_text, value)) + "]"
    return str(value)


COMMANDS: list[Command] = [
    Command("play", "play one game (from a game file, or a table of bots)", _configure_play, run_play),
    Command("roles", "list the role ids with their camp and summary", _configure_roles, run_roles),
    Command("presets", "list the presets and their rule defaults", _configure_presets, run_presets),
]


# ---------------------------------------------------------------------- entry point
def package_version() -> str:
    """The installed distribution's version (pyproject.toml's), for ``--version``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("werewolf-arena")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def all_commands() -> list[Command]:
    commands = list(COMMANDS)
    for module in COMMAND_MODULES:
        commands.extend(importlib.import_module(module).COMMANDS)
    return commands


class Parser(argparse.ArgumentParser):
    """argparse with a bad argument as one line (``error: ...``, exit 2), as every other
    bad input is, instead of the usage block followed by the message."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"error: {self.prog}: {' '.join(message.split())} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="werewolf", description="Werewolf Arena: LLMs, people and bots play Werewolf.")
    parser.add_argument("--version", action="version", version=f"werewolf-arena {package_version()}")
    parser.add_argument(
        "--log-level", choices=LEVELS, type=str.lower, help="this program's log lines on stderr (default warning; never a key or a hidden fact)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in all_commands():
        # ``help`` goes through %-formatting (so "95%%"), a description is printed as is.
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help.replace("%%", "%"))
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, or a bad argument (already printed as one line): a code, not an exit
        return e.code if isinstance(e.code, int) else EXIT_BAD_INPUT
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    configure_logging(args.log_level)
    try:
        return args._run(args)
    except CliError as e:
        print(str(e) if e.plain else f"error: {e}", file=sys.stderr)
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

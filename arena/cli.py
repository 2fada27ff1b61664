"""The ``werewolf`` command: its parser and its dispatch, nothing else.

Each subcommand is a ``Command`` (``arena.command``) in the ``COMMANDS`` list of
its module. ``ENTRIES`` names every subcommand with its module and the line
``werewolf --help`` lists it with, so a new subcommand is one module plus one line
here. A module is imported only for the subcommand that runs (``werewolf play``
loads the game machinery, not the web server or the ratings), and ``werewolf
--help`` imports none: the subcommand modules import what they use at their top,
and the entry point stays fast.

The subcommand modules and the pieces they share (``CliError``, the exit codes, the
common flags) are libraries; this module is the entry point that ties them together,
and no library imports it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from typing import Any, Iterable, NoReturn, Sequence

from arena.command import EXIT_BAD_INPUT, CliError, Command
from arena.command import console_for as console_for  # arena/ratings/cli.py imports it from here, until it imports arena.command
from arena.logs import LEVELS
from arena.logs import configure as configure_logging


@dataclass(frozen=True)
class Entry:
    """A subcommand as ``werewolf --help`` lists it; ``module`` holds its ``Command``
    (whose ``help`` is this line too: ``tests/test_cli.py`` holds them equal)."""

    name: str
    module: str
    help: str

    def command(self) -> Command:
        module = importlib.import_module(self.module)
        return next(c for c in module.COMMANDS if c.name == self.name)


# In the order ``werewolf --help`` lists them.
ENTRIES: tuple[Entry, ...] = (
    Entry("play", "arena.play_command", "play one game (from a game file, or a table of bots)"),
    Entry("roles", "arena.catalog_commands", "list the role ids with their camp and summary"),
    Entry("presets", "arena.catalog_commands", "list the presets and their rule defaults"),
    Entry("simulate", "arena.simulate", "play many bot games and report win rates"),
    Entry("verify", "arena.transcript_commands", "re-play a transcript through the engine and report the first difference"),
    Entry("replay", "arena.transcript_commands", "narrate a recorded game (publicly, --as a seat, or --god)"),
    Entry("export", "arena.transcript_commands", "write a recorded game as an HTML page, or games as tidy CSV/Parquet tables"),
    Entry("fork", "arena.fork", "replay a recorded game to the start of day N, then play on with other agents"),
    Entry("tournament", "arena.tournament.cli", "run or resume a tournament (results in SQLite)"),
    Entry("bench", "arena.bench.cli", "bench a model on a fixed, versioned protocol: one number on a shared scale, and a signed card"),
    Entry("leaderboard", "arena.ratings.cli", "ratings with 95%% intervals from a tournament database"),
    Entry("metrics", "arena.metrics.cli", "measure votes, powers, deception, beliefs, rule-following and cost from transcripts"),
    Entry("persuasion", "arena.persuasion.cli", "measure what each speech causes: listeners re-asked with the speech replaced by a neutral line"),
    Entry("monitor", "arena.monitor.cli", "rate each seat's private reasoning and public words for a werewolf, and report AUROC per agent"),
    Entry("serve", "arena.web.serve", "play in the browser: a local web server for a person among bots and models"),
    Entry("model", "arena.model_command", "fetch or serve the small model that ships with the arena (a real LLM on this machine)"),
    Entry("a2a", "arena.a2a.command", "the arena over the A2A protocol (a2a serve: games and tournaments as tasks for other agents)"),
    Entry("keygen", "arena.signing_cli", "make an Ed25519 key pair for signing transcripts"),
)


def package_version() -> str:
    """The installed distribution's version (pyproject.toml's), for ``--version``."""
    # importlib.metadata costs a tenth of a second at every start; only --version reads it
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("werewolf-arena")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class VersionAction(argparse.Action):
    """``--version``, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the program's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        print(f"werewolf-arena {package_version()}")
        parser.exit()


def all_commands() -> list[Command]:
    """Every subcommand, its module imported (for the tests and the docs)."""
    return [entry.command() for entry in ENTRIES]


class Parser(argparse.ArgumentParser):
    """argparse with a bad argument as one line (``error: ...``, exit 2), as every other
    bad input is, instead of the usage block followed by the message."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {self.prog}: {' '.join(message.split())} (see {self.prog} --help)\n")


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the arguments of the subcommands named in ``commands`` (default:
    all); the others are only listed, their modules not imported."""
    chosen = None if commands is None else set(commands)
    parser = Parser(prog="werewolf", description="Werewolf Arena: LLMs, people and bots play Werewolf.")
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument(
        "--log-level", choices=LEVELS, type=str.lower, help="this program's log lines on stderr (default warning; never a key or a hidden fact)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for entry in ENTRIES:
        if chosen is not None and entry.name not in chosen:
            # Listed only: its arguments (``-h`` among them) wait for the second pass.
            sub.add_parser(entry.name, help=entry.help, add_help=False)
            continue
        cmd = entry.command()
        # ``help`` goes through %-formatting (so "95%%"), a description is printed as is.
        p = sub.add_parser(cmd.name, help=entry.help, description=cmd.help.replace("%%", "%"))
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def parse(argv: Sequence[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """Two passes: the first finds the subcommand with argparse's own rules (so
    ``--log-level debug play`` and ``werewolf --help`` work as they always did), the
    second parses its arguments with only its module imported. ``SystemExit`` for
    ``--help`` and a bad argument, as argparse does."""
    args = sys.argv[1:] if argv is None else list(argv)
    listing = build_parser(commands=())
    first, _ = listing.parse_known_args(args)
    if first.command is None:  # nothing to run: argparse's own complaints (an unknown flag), else the help
        return listing, listing.parse_args(args)
    parser = build_parser(commands=[first.command])
    return parser, parser.parse_args(args)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser, args = parse(argv)
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
    sys.exit(main())

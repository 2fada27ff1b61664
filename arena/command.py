"""What every ``werewolf`` subcommand is made of, apart from the entry point.

A subcommand is a ``Command``: a name, a function that adds its arguments and a
function that runs it and returns the exit code. Expected failures raise ``CliError``
and ``arena.cli.main`` prints them as ``error: <message>`` with no traceback: exit 2
for a bad input (file, option, argument), 1 for a game that could not be played to
its end. The flags and option parsing that several subcommands share live here too.

This module is the library half of the command line: subcommand modules import it,
and it imports none of them, so ``arena.cli`` (the entry point, which imports every
subcommand module) can stay out of their imports.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from rich.console import Console

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


# ---------------------------------------------------------------------- shared argument helpers
def parse_option_pairs(pairs: Sequence[str] | None, flag: str = "--option") -> dict[str, Any]:
    """``--option key=value`` pairs; values are read as YAML so ``true``/``3`` work."""
    if not pairs:
        return {}
    # here, not at the top: every subcommand's module, and ``werewolf --help``, imports this
    # module; the bounded reader (json, uuid, the YAML parser on first use) only this function needs
    import transcripts.bounded as bounded

    out: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"{flag} needs KEY=VALUE, got '{pair}'")
        try:
            out[key.strip()] = bounded.loads_yaml(value)
        except bounded.InputError as e:
            if not e.syntax:  # YAML, but nested too deep or a number too long
                raise CliError(f"{flag} {key.strip()}=...: {e.problem}") from None
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
    """``--trust-endpoints``: the only way a file's ``base_url``/``api_key_env``, or a
    remote seat off this machine or with a ``token_env``, is used (``arena.endpoints``)."""
    p.add_argument(
        "--trust-endpoints",
        action="store_true",
        help=f"use the base_url and api_key_env that {what} sets for a seat, and the remote agents (a2a:URL) it seats off this "
        "machine or with a token_env (refused otherwise: they choose where an API key or a seat's view is sent)",
    )


def add_fallbacks_flag(p: argparse.ArgumentParser, what: str = "the game") -> None:
    """``--allow-fallbacks``: play on when a model does not answer the check made before
    the first decision (``arena.preflight``)."""
    p.add_argument(
        "--allow-fallbacks",
        action="store_true",
        help=f"start {what} even when a model seat's endpoint does not answer the check made before it (exit 2 otherwise); "
        "the fallback bot then plays for that seat",
    )


def add_trust_code_flag(p: argparse.ArgumentParser, what: str) -> None:
    """``--trust-code``: the only way a transcript's ``py:MODULE:CLASS`` seat is seated."""
    p.add_argument(
        "--trust-code",
        action="store_true",
        help=f"seat the py:MODULE:CLASS agents {what} names (refused otherwise: seating one imports that module, which runs its code)",
    )


def add_output_flags(p: argparse.ArgumentParser) -> None:
    """How a game played at this terminal is shown."""
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on stdout (narration goes to stderr)")
    p.add_argument("--god", action="store_true", help="narrate the night's secrets too")
    p.add_argument("--quiet", action="store_true", help="no narration")


def parse_roles(text: str | None) -> list[str] | None:
    if text is None:
        return None
    roles = [r.strip() for r in text.split(",") if r.strip()]
    if not roles:
        raise CliError("--roles needs a comma-separated list of role ids")
    return roles


def console_for(to_stderr: bool) -> Console:
    """The command's console; rich is imported by the first command that prints
    through it (a ``--json`` run never does)."""
    from rich.console import Console  # see the docstring: a --json run never loads rich

    return Console(file=sys.stderr if to_stderr else sys.stdout, highlight=False, soft_wrap=False)

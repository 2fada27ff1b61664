"""``werewolf play``: one game at this terminal, from a game file or a table of bots.

The table is the game file's (or a default table of bots), changed by the command's
flags (``--seat``, ``--option``, ``--model-option``, ``--language``, ``--human``); the
result is checked again as a whole, so a flag is refused with the same words a file
would be. ``--resume`` hands over to ``arena.resume``.
"""

from __future__ import annotations

import argparse
import secrets
import sqlite3
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from agents.base import Agent
from agents.llm import is_model_spec
from agents.llm.accounting import CallLog
from agents.llm.pricing import PriceError, PriceTable
from arena.beliefs import poll_for
from arena.command import (
    CliError,
    Command,
    add_fallbacks_flag,
    add_model_option_flag,
    add_output_flags,
    add_trust_code_flag,
    add_trust_flag,
    parse_option_pairs,
    seat_pair,
)
from arena.gamefile import (
    TABLE_OPPONENT,
    GameFileError,
    GameSpec,
    apply_model_options,
    default_game,
    header_for,
    load_game_file,
    spec_from_data,
)
from arena.human_play import humans_at_terminal, seat_humans
from arena.play_loop import play_to_end, save_path, screen_for
from arena.preflight import before_play
from arena.resume import run_resume
from arena.limit_flags import add_limit_flags, apply_limits
from arena.signing_cli import add_sign_key_flag, signer_for
from engine.game import Game
from transcripts.writer import TranscriptWriter
from engine.presets import get_preset
from arena.gamefile import HUMAN
from arena.against_models import against_models
from arena.tournament.store import StoreError

def _configure_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("game_file", nargs="?", metavar="GAME_FILE", help="a .yaml/.yml/.json game file (default: a table of bots)")
    p.add_argument("--transcript", metavar="PATH", help="also write the game's transcript (JSON Lines)")
    p.add_argument("--seed", type=int, help="the game's seed, to play a game again (default: the file's, else a fresh one, printed)")
    p.add_argument("--players", type=int, help="table size when no game file is given (default 8)")
    p.add_argument("--preset", help="rule set (default: the file's, or millers_hollow)")
    p.add_argument(
        "--agents", help="agent for every seat when no game file is given: heuristic, reasoner, random, py:MODULE:CLASS, or a model spec (openai:MODEL, anthropic:MODEL, langchain:PROVIDER:MODEL, litellm:MODEL; default " + TABLE_OPPONENT + ")"
    )
    p.add_argument("--seat", action="append", metavar="NAME=SPEC", help="seat NAME is played by SPEC, e.g. Alice=openai:gpt-5.4-mini (repeatable)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="override a rule option (repeatable)")
    add_model_option_flag(p)
    add_fallbacks_flag(p)
    add_trust_flag(p, "the game file (or the --resume transcript)")
    add_trust_code_flag(p, "the --resume transcript")
    p.add_argument("--language", choices=("en", "zh"), help="language of the model seats' prompts (default: the file's, or en)")
    p.add_argument("--prices", metavar="PATH", help="a YAML/JSON price table (USD per 1M tokens) overriding the built-in one")
    add_limit_flags(p)
    p.add_argument("--human", action="append", metavar="NAME", help="you play seat NAME at this terminal (one seat; not with --god)")
    p.add_argument(
        "--models",
        action="append",
        metavar="SPEC",
        help="with --human NAME and no game file: half the other seats played by this model (repeatable: in turn), "
        "the rest by the reference bot; the cost is shown at the end",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        help="with --human: record the game in this tournament database, rated with the models by werewolf leaderboard "
        "--db PATH (a game left before its end is kept as abandoned, never rated); the person's card follows their rotation",
    )
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
    add_sign_key_flag(p)


def _play_spec(args: argparse.Namespace) -> tuple[GameSpec, Game, dict[str, Agent], CallLog]:
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
                agent=args.agents or TABLE_OPPONENT,
                options=extra,
            )
        if getattr(args, "models", None):
            spec = _against_models(spec, args)
        spec = _model_overrides(spec, args)
        if getattr(args, "beliefs", False):
            spec = spec.model_copy(update={"beliefs": True})
        if getattr(args, "human", None) or getattr(args, "human_timeout", None) is not None:
            spec = seat_humans(spec, args.human or [], args.human_timeout)
        if getattr(args, "db", None):
            spec = _people_rotation(spec, args.db)
    except GameFileError as e:
        raise CliError(str(e)) from None
    prices = None
    if getattr(args, "prices", None):
        try:
            prices = PriceTable.from_file(args.prices)
        except PriceError as e:
            raise CliError(str(e)) from None
    calls = CallLog()
    try:
        game, agents = spec.build(calls=calls, prices=prices)
    except GameFileError as e:
        raise CliError(f"{args.game_file}: {e}" if args.game_file else str(e)) from None
    try:
        humans_at_terminal(agents, god=args.god)  # refused before the seed line of a game never played
    except ValueError as e:
        raise CliError(str(e)) from None
    if drawn is not None:
        print(f"Seed {drawn}: --seed {drawn} plays this game again.", file=sys.stderr)
    return spec, game, agents, calls


def _people_games() -> ModuleType:
    """``arena.people_games``, for a person's game recorded for the ratings (``--db``)."""
    # here, not at the top: it loads the tournament's store, schedule and ratings (numpy),
    # which no other game of ``werewolf play`` (nor its --help) needs
    import arena.people_games as people_games

    return people_games


def _against_models(spec: GameSpec, args: argparse.Namespace) -> GameSpec:
    """``--human NAME --models SPEC``: the person and the models at a table of bots."""
    if args.game_file or args.agents is not None:
        raise CliError("--models builds the table around --human NAME: give no game file and no --agents (a file seats models itself)")
    if len(args.human or []) != 1:
        raise CliError("--models needs exactly one --human NAME: the person the models play against")
    return against_models(spec, args.human[0], args.models)


def _people_rotation(spec: GameSpec, db: str) -> GameSpec:
    """``--db``: the person's card the next of their rotation (``arena.people_games``)."""
    if not any(s.agent == HUMAN for s in spec.seats):
        raise CliError("--db records a person's game for the ratings: give --human NAME too")
    try:
        deck = list(spec.roles or get_preset(spec.preset).deck(len(spec.seats)))
        return _people_games().rotate_roles(db, spec, deck)
    except StoreError as e:
        raise CliError(f"--db {db}: {e}") from None


def fresh_seed() -> int:
    """A new game each time ``werewolf play`` runs without a seed; the seed is printed
    (and written to the transcript's header) so that ``--seed`` plays it again."""
    return secrets.randbelow(1_000_000)


def _model_overrides(spec: GameSpec, args: argparse.Namespace) -> GameSpec:
    """Apply ``--seat``, ``--model-option`` and ``--language`` to a table; the result is
    checked again, so an override is refused with the same words a file would be."""
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
        return run_resume(args)
    if getattr(args, "trust_code", False):
        raise CliError("--trust-code is for --resume: the py:MODULE:CLASS seats of a game file or of --seat are seated anyway (they are yours)")
    apply_limits(args)
    spec, game, agents, calls = _play_spec(args)
    before_play(agents, allow_fallbacks=args.allow_fallbacks)  # before anything is written or shown
    screen = screen_for(agents, json_out=args.json, quiet=args.quiet, god=args.god, language=spec.language)
    writer = None
    path = args.transcript
    if path is None and screen.humans:
        path = str(save_path())  # a person's game is always recorded, so leaving loses nothing
    if getattr(args, "sign_key", None) and not path:
        raise CliError("--sign-key signs the game's transcript; give --transcript PATH too")
    if path:
        try:
            writer = TranscriptWriter(path, header_for(spec, game), signer=signer_for(getattr(args, "sign_key", None)))
        except OSError as e:
            raise CliError(f"cannot write transcript {path}: {e.strerror or e}") from None
        calls.subscribe(writer.call)
        if path != args.transcript:
            screen.console.print(f"[dim]This game is recorded in {path} (--transcript PATH to choose the file).[/dim]")
    beliefs = poll_for(spec.beliefs, writer)
    started, clock = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.monotonic()
    try:
        code = play_to_end(
            game, agents, screen, writer=writer, calls=calls, json_out=args.json, quiet=args.quiet, order=list(agents), beliefs=beliefs
        )
    except CliError as e:
        if getattr(args, "db", None) and path:
            why = str(e)
            _to_people_db(args.db, lambda: _people_games().record_abandoned(args.db, spec, Path(path), why), screen)
        raise
    if getattr(args, "db", None) and path:
        _to_people_db(
            args.db, lambda: _people_games().record_finished(args.db, spec, game, Path(path), started=started, seconds=time.monotonic() - clock), screen
        )
    return code


def _to_people_db(db: str, record: Any, screen: Any) -> None:
    """Record the person's game in ``db``; a failure is said, never loses the game
    (its transcript is whole)."""
    try:
        record()
    except (StoreError, OSError, sqlite3.Error) as e:
        screen.console.print(f"[yellow]warning: the game could not be recorded in {db}: {e}[/yellow]")
    else:
        screen.console.print(f"[dim]Recorded in {db}: werewolf leaderboard --db {db} rates it.[/dim]")


COMMANDS = [Command("play", "play one game (from a game file, or a table of bots)", _configure_play, run_play)]

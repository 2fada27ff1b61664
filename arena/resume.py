"""``werewolf play --resume``: a game killed half-way, played on as if it never stopped.

The transcript is verified first (nothing is resumed from a file the rules disagree
with), then the engine and the bots are caught up with it (``arena.catchup``). By
default the rest of the game is appended to the same file, so a tournament that
re-runs after a kill finds one whole transcript per game: a line cut off mid-write is
dropped first, and an ``interrupted`` notice stays where it was, as history.
``--transcript OUT`` writes the whole game to a new file instead and leaves the old
one as it was. A fork stopped before its fork point is forked again from its source.

A person's time limit is the recorded one (the header's, or the last ``time_limit``
record's); ``--human-timeout SECONDS`` replaces it from the resume on, and the change
is written as a ``time_limit`` record, so the record says which limit each part of the
game was played under and a later resume keeps the new one.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from agents.llm.accounting import CallLog
from agents.llm.config import endpoint_fields
from arena.catchup import TRUST_CODE_HINT, Continuation, catch_up, play_on, seat_table, set_time_limit, verified
from arena.command import EXIT_BAD_INPUT, CliError
from arena.endpoints import endpoint_refusal, trusted
from arena.limit_flags import apply_limits
from arena.fork import prepare_fork
from arena.gamefile import GameFileError
from arena.own_code import refuse_code
from arena.signing_cli import signer_for
from transcripts.schema import Transcript, TranscriptError, read_transcript
from transcripts.signing import SigningKeyError, require_same_signer
from transcripts.verify import Status, Verification, verify_file
from transcripts.writer import TranscriptWriter


# ---------------------------------------------------------------------- resume
def checked_for_resume(path: str) -> Verification:
    v = verified(path, "resume")
    if v.status is Status.OK:
        game = v.game
        raise CliError(f"{path}: the game already ended ({game.winner} won after day {game.day}); nothing to resume", EXIT_BAD_INPUT)
    return v


def cut_partial_line(path: Path) -> None:
    """Drop a last line cut off mid-write, so appended lines start on their own. Reads
    the file backwards from its end to its last line break, never the whole of it."""
    with path.open("r+b") as f:
        size = pos = f.seek(0, os.SEEK_END)
        end = 0
        while pos > 0:
            step = min(64 * 1024, pos)
            pos -= step
            f.seek(pos)
            found = f.read(step).rfind(b"\n")
            if found >= 0:
                end = pos + found + 1
                break
        if end < size:
            f.truncate(end)
            f.flush()
            os.fsync(f.fileno())


def last_digest(t: Transcript) -> str | None:
    return t.records[-1].digest if t.records else t.header.digest


def prepare_resume(
    path: str, out: str | None = None, signer: Any = None, *, trust_endpoints: bool = False, trust_code: bool = False
) -> Continuation:
    """The game of ``path`` caught up with its record, writing to ``out`` or back to
    ``path``; ``signer`` signs the file's new end (appending to a signed file needs its key);
    a seat's recorded ``base_url``/``api_key_env`` only with ``trust_endpoints``, a
    recorded ``py:MODULE:CLASS`` seat (its module imported) only with ``trust_code``."""
    v = checked_for_resume(path)
    t = v.transcript
    assert t is not None
    header = t.header
    fork = header.fork
    if fork is not None and len(t.answers) < fork.answers:
        return refork(path, out, t, signer, trust_endpoints=trust_endpoints, trust_code=trust_code)
    calls = CallLog()
    _, game, agents = seat_table(
        header, agent_seed=fork.agent_seed if fork is not None else None, calls=calls, source=path,
        trust_endpoints=trust_endpoints, trust_code=trust_code,
    )  # fmt: skip
    try:
        if out is None or Path(out).resolve() == Path(path).resolve():
            require_same_signer(path, header.signer, signer)
            cut_partial_line(Path(path))
            caught = catch_up(game, agents, t.records)
            writer = TranscriptWriter.appending(path, events_written=len(t.events), last_digest=last_digest(t), signer=signer)
        else:
            writer = TranscriptWriter(out, header.model_copy(update={"digest": None}), signer=signer)
            caught = catch_up(game, agents, t.records, writer=writer)
    except OSError as e:
        raise CliError(f"cannot write transcript {out or path}: {e.strerror or e}") from None
    except SigningKeyError as e:
        raise CliError(str(e)) from None
    calls.subscribe(writer.call)
    return Continuation(game, agents, writer, calls, caught, v)


def refork(
    path: str, out: str | None, t: Transcript, signer: Any = None, *, trust_endpoints: bool = False, trust_code: bool = False
) -> Continuation:
    """A fork stopped before its fork point: nothing was played by the new agents yet,
    and the bots replaying the source must be the source's, so the fork is made again
    (from the source transcript, which must still be there and unchanged)."""
    fork = t.header.fork
    assert fork is not None
    source = _find_source(fork.transcript, Path(path).parent)
    v = verify_file(source, allow_unchained=True) if source is not None else None
    if v is None or v.transcript is None or v.status in (Status.UNREADABLE, Status.MISMATCH):
        raise CliError(
            f"cannot resume {path}: it stopped before its fork point, and its source {fork.transcript} "
            + ("cannot be found" if source is None else "does not verify")
            + "; run werewolf fork again",
            EXIT_BAD_INPUT,
        )
    if v.transcript.header.digest != fork.source_digest:
        raise CliError(f"cannot resume {path}: its source {fork.transcript} changed since the fork; run werewolf fork again")
    before = {s.name: s.agent for s in v.transcript.header.seats}
    swaps = {s.name: s.agent for s in t.header.seats if s.agent != before.get(s.name)}
    recorded = endpoint_fields(fork.model_options)
    try:
        refused = bool(recorded) and not trust_endpoints and not trusted(fork.model_options)
    except GameFileError as e:
        raise CliError(str(e)) from None
    if refused:  # the fork's --model-option, as recorded: the file's word now
        raise CliError(endpoint_refusal(path, "its fork record", f"model option {recorded[0]}"))
    if not trust_code:  # the fork's --seat, as recorded: the file's word now too
        try:
            refuse_code(t.header.seats, path, TRUST_CODE_HINT, skip=set(t.header.names) - set(swaps))
        except GameFileError as e:
            raise CliError(str(e)) from None
    return prepare_fork(
        str(source), fork.day, swaps, out or path, fork.agent_seed, label=fork.transcript, model_options=fork.model_options,
        signer=signer, trust_endpoints=trust_endpoints, trust_code=trust_code,
    )  # fmt: skip


def _find_source(name: str, beside: Path) -> Path | None:
    for candidate in (Path(name), beside / name, beside / Path(name).name):
        if candidate.is_file():
            return candidate
    return None


def run_resume(args: argparse.Namespace) -> int:
    """``werewolf play --resume TRANSCRIPT``."""
    clashing = [flag for flag, value in (
        ("GAME_FILE", args.game_file), ("--seed", args.seed), ("--players", args.players), ("--preset", args.preset),
        ("--agents", args.agents), ("--option", args.option), ("--seat", getattr(args, "seat", None)),
        ("--human", getattr(args, "human", None)), ("--model-option", getattr(args, "model_option", None)),
        ("--language", getattr(args, "language", None)), ("--beliefs", getattr(args, "beliefs", False)),
    ) if value]  # fmt: skip
    if clashing:
        raise CliError(
            f"--resume continues a recorded game at its own table; it takes no {', '.join(clashing)} "
            "(werewolf fork plays a recorded game on with other agents)"
        )
    timeout = getattr(args, "human_timeout", None)
    if timeout is not None and not timeout > 0:
        raise CliError(f"--human-timeout needs a positive number of seconds, got {timeout:g}")
    if timeout is not None:
        _needs_a_person(args.resume)
    apply_limits(args)
    cont = prepare_resume(
        args.resume, args.transcript, signer_for(getattr(args, "sign_key", None)),
        trust_endpoints=args.trust_endpoints, trust_code=getattr(args, "trust_code", False),
    )  # fmt: skip
    where = args.transcript or args.resume
    banner = (
        f"Resuming {args.resume} on day {cont.game.day} after {cont.caught.answers} recorded answers "
        f"({cont.caught.asked} put to their bots again); writing to {where}"
    )
    if timeout is not None:
        banner += "; " + set_time_limit(cont, timeout)
    return play_on(cont, json_out=args.json, quiet=args.quiet, god=args.god, banner=banner, allow_fallbacks=args.allow_fallbacks)


def _needs_a_person(path: str) -> None:
    """``--human-timeout`` on a resume is refused, before anything is written, when the
    recorded table seats nobody (a file that cannot be read is left to the resume)."""
    try:
        seats = read_transcript(path).header.seats
    except (TranscriptError, OSError, ValueError):
        return
    if not any(s.agent == "human" for s in seats):
        raise CliError(f"--human-timeout needs a human seat, and the game of {path} has none")

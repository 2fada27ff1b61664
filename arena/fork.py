"""``werewolf fork``: the same table, a different player in one chair.

A fork replays a recorded game up to the start of day N, then plays on with other
agents in some seats. "Day N" is the engine's numbering, in which night N opens day N
(a death during night N has day N): the fork point is the moment night N falls, after
everything of day N-1 (its vote, a Hunter's shot) and before the first decision of
night N. So ``--day 1`` keeps only the deal, and ``--day 2`` keeps night 1 and day 1.

The fork's transcript is a whole game: its header names the new agents and where it
branched off (``fork``), and it holds the replayed part with each answer still
credited to the agent that gave it, so ``werewolf verify`` checks it from the deal.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agents.llm.accounting import CallLog
from arena.catchup import Continuation, catch_up, play_on, seat_table, set_time_limit, verified
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
from arena.gamefile import header_for
from arena.play_loop import save_path
from arena.limit_flags import add_limit_flags, apply_limits
from arena.signing_cli import add_sign_key_flag, signer_for
from transcripts.schema import AnswerRecord, EventRecord, ForkRecord, Transcript, TranscriptError, read_transcript
from transcripts.writer import TranscriptWriter


def parse_seats(pairs: list[str] | None, names: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or ():
        name, agent = seat_pair(pair, names, "NAME=AGENT")
        if agent == "scripted":
            raise CliError(f"--seat {pair}: a scripted seat needs its answers; write a game file instead")
        if name in out:
            raise CliError(f"--seat names {name} twice")
        out[name] = agent
    return out


def fork_point(t: Transcript, day: int) -> int:
    """How many records come before night ``day`` falls: the part replayed."""
    last = max((e.day for e in t.events), default=0)
    if day < 1 or day > last:
        raise CliError(f"--day {day}: the recorded game has days 1 to {last}" if last else "--day: the game never reached day 1")
    for i, r in enumerate(t.records):
        if isinstance(r, EventRecord) and r.day >= day:
            return i
    return len(t.records)  # unreachable: day <= last


def earlier_agents(prefix: list[Any], seats: dict[str, str]) -> dict[str, list[str]]:
    """Per seat, the agents the replayed answers are credited to, besides its new one."""
    out: dict[str, set[str]] = {}
    for r in prefix:
        if isinstance(r, AnswerRecord) and r.agent != seats.get(r.seat):
            out.setdefault(r.seat, set()).add(r.agent)
    return {k: sorted(v) for k, v in out.items()}


def prepare_fork(
    path: str,
    day: int,
    swaps: dict[str, str],
    out: str | None,
    agent_seed: int | None,
    *,
    label: str | None = None,
    model_options: dict[str, Any] | None = None,
    signer: Any = None,
    trust_endpoints: bool = False,
    trust_code: bool = False,
) -> Continuation:
    """The forked game caught up to its fork point; ``label`` names the source in the
    header (the path as the user gave it, when ``path`` was found another way);
    ``model_options`` (the user's own) go to every model seat that does not set its own;
    a kept seat's recorded ``base_url``/``api_key_env`` only with ``trust_endpoints``,
    its recorded ``py:MODULE:CLASS`` agent (the module imported) only with ``trust_code``."""
    v = verified(path, "fork")
    t = v.transcript
    assert t is not None
    unknown = [n for n in swaps if n not in t.header.names]
    if unknown:
        raise CliError(f"--seat: no seat named '{unknown[0]}' (seats: {', '.join(t.header.names)})")
    cut = fork_point(t, day)
    prefix = t.records[:cut]
    calls = CallLog()
    spec, game, agents = seat_table(
        t.header, swaps, agent_seed=agent_seed, calls=calls, model_options=model_options,
        source=label or str(path), trust_endpoints=trust_endpoints, hint="give that seat another agent with --seat NAME=AGENT",
        trust_code=trust_code, code_hint="give that seat its agent with --seat NAME=AGENT, or pass --trust-code if you know that module",
    )  # fmt: skip
    header = header_for(spec, game)
    header.fork = ForkRecord(
        transcript=label or str(path),
        source_digest=t.header.digest,
        day=day,
        answers=sum(isinstance(r, AnswerRecord) for r in prefix),
        earlier_agents=earlier_agents(prefix, {s.name: s.agent for s in header.seats}),
        agent_seed=agent_seed,
        model_options=model_options or None,
    )
    writer = None
    if out is not None:
        if Path(out).resolve() == Path(path).resolve():
            raise CliError("--transcript must name a new file; the fork never overwrites its source")
        try:
            writer = TranscriptWriter(out, header, signer=signer)
        except OSError as e:
            raise CliError(f"cannot write transcript {out}: {e.strerror or e}") from None
        calls.subscribe(writer.call)
    caught = catch_up(game, agents, prefix, writer=writer)
    return Continuation(game, agents, writer, calls, caught, v)


# ---------------------------------------------------------------------- command
def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("transcript", metavar="TRANSCRIPT", help="the recorded game to branch off")
    p.add_argument("--day", type=int, required=True, metavar="N",
                   help="replay up to the moment night N falls (night N opens day N), then play on; --day 1 keeps only the deal")  # fmt: skip
    p.add_argument("--seat", action="append", metavar="NAME=AGENT",
                   help="seat NAME is played by AGENT from the fork on (heuristic, random, human, openai:MODEL, anthropic:MODEL); repeatable; other seats keep their recorded agent")  # fmt: skip
    p.add_argument("--transcript", dest="transcript_out", metavar="OUT", help="write the forked game's transcript (the replayed part included)")
    p.add_argument("--seed", type=int, help="seed the bots with S from the fork on (default: the recorded game's, so unchanged bots play on as before)")
    p.add_argument("--human-timeout", type=float, metavar="SECONDS",
                   help="time limit per decision for every human seat from the fork on (recorded in the new transcript); then a safe default is played")  # fmt: skip
    add_model_option_flag(p)
    add_fallbacks_flag(p, "the fork")
    add_sign_key_flag(p)
    add_trust_flag(p, "the recorded transcript")
    add_trust_code_flag(p, "the recorded transcript")
    add_limit_flags(p)
    add_output_flags(p)
    p.epilog = (
        "The fork point: night N opens day N (a death during night N has day N), so --day N replays "
        "everything before night N falls (day N-1's vote and its consequences included) and the given "
        "agents play from night N's first decision on. Seats not named keep their recorded agent; their "
        "bots are put the recorded decisions again, so they play on exactly as they would have. The new "
        "transcript holds the replayed part too and names its source in its header."
    )


def run(args: argparse.Namespace) -> int:
    try:
        header = read_transcript(args.transcript).header
    except TranscriptError as e:
        raise CliError(f"cannot fork: {e}") from None
    names = header.names
    swaps = parse_seats(args.seat, names)
    model_options = parse_option_pairs(args.model_option, "--model-option")
    timeout = args.human_timeout
    if timeout is not None:
        if not timeout > 0:
            raise CliError(f"--human-timeout needs a positive number of seconds, got {timeout:g}")
        if not any(swaps.get(s.name, s.agent) == "human" for s in header.seats):
            raise CliError("--human-timeout needs a human seat in the fork (--seat NAME=human, or one recorded)")
    apply_limits(args)
    out = args.transcript_out
    if out is None and any(swaps.get(s.name, s.agent) == "human" for s in header.seats):
        out = str(save_path())  # a person's game is always recorded, so leaving loses nothing
    if args.sign_key and out is None:
        raise CliError("--sign-key signs the fork's transcript; give --transcript OUT too")
    signer = signer_for(args.sign_key) if out is not None else None
    cont = prepare_fork(
        args.transcript, args.day, swaps, out, args.seed, model_options=model_options, signer=signer,
        trust_endpoints=args.trust_endpoints, trust_code=args.trust_code,
    )  # fmt: skip
    dead = [n for n in swaps if not cont.game.by_name[n].alive]
    changed = ", ".join(f"{n} → {a}" for n, a in swaps.items()) or "no seat changed"
    banner = f"Forked {args.transcript} as night {args.day} falls ({cont.caught.answers} recorded answers replayed): {changed}"
    if dead:
        banner += f"; {', '.join(dead)} is already dead by then"
    if out != args.transcript_out:
        banner += f"; recorded in {out}"
    if timeout is not None:
        banner += "; " + set_time_limit(cont, timeout)
    return play_on(cont, json_out=args.json, quiet=args.quiet, god=args.god, banner=banner, allow_fallbacks=args.allow_fallbacks)


COMMANDS = [Command("fork", "replay a recorded game to the start of day N, then play on with other agents", _configure, run)]

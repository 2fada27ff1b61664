"""Catching a new engine up with a recorded game, then playing on.

A game is its setup plus its answers, so continuing one (``play --resume``, ``fork``)
is re-submitting the recorded answers to a fresh engine and then asking agents again.
Bots carry state from decision to decision (the heuristic bot's memory, every bot's
random stream, a scripted seat's queues), so each recorded decision is put to its bot
again and the reply discarded ("ask and discard"): after the catch-up every bot is
exactly where it was, and the continuation is the game that would have been played.
Models and people are never asked again: a model seat rebuilds its context from the
seat's events, and a person would not want to re-answer. A model seat's fallback bot
(the heuristic bot that answers when the model fails) is a bot like any other: each
recorded decision its seat's call records say it answered is put to it again, and it
reads the seat's events, so after the catch-up it remembers what it would have. A bot
sitting where another agent played (after a fork) is not asked either: it never made
those decisions.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from rich.console import Console

from agents.base import Agent, SeatView
from agents.llm.accounting import CallLog
from agents.random_agent import RandomAgent, random_answer
from arena.beliefs import poll_for
from arena.command import EXIT_BAD_INPUT, EXIT_GAME_FAILED, CliError
from arena.endpoints import refuse_endpoints
from arena.gamefile import HUMAN, RANDOM, GameFileError, GameSpec, apply_model_options, spec_from_data
from arena.own_code import refuse_code
from arena.play_loop import play_to_end, screen_for
from arena.preflight import before_play
from engine.decisions import IllegalAnswer
from engine.game import Game
from transcripts.schema import AnswerRecord, HeaderRecord, TimeLimitRecord
from transcripts.values import jsonish
from transcripts.verify import Status, Verification, build_game, verify_file
from transcripts.writer import TranscriptWriter

# Agents whose next answer depends only on their seed and the decisions put to them.
REPLAYABLE = frozenset({"heuristic", "reasoner", "random", "scripted"})
TRUST_CODE_HINT = "pass --trust-code if you know that module (your own game, say)"


# ---------------------------------------------------------------------- the table again
def verified(path: str, verb: str) -> Verification:
    """The transcript to ``verb`` (resume, fork), verified: a file that cannot be read
    (exit 2) or that the rules disagree with (exit 1) is not played on."""
    v = verify_file(path, allow_unchained=True)  # a file written before chains goes on as it is
    if v.status is Status.UNREADABLE:
        raise CliError(f"cannot {verb}: {v.summary()}", EXIT_BAD_INPUT)
    if v.status is Status.MISMATCH:
        raise CliError(f"cannot {verb} a transcript that does not verify: {v.summary()}", EXIT_GAME_FAILED)
    return v


def spec_from_header(
    header: HeaderRecord, agents: Mapping[str, str] | None = None, model_options: dict[str, Any] | None = None
) -> GameSpec:
    """The table a transcript was played at, with ``agents`` (name -> spec) swapped in
    and ``model_options`` given to every model seat that does not set its own.

    A seat given a new agent loses what belonged to the old one (a scripted queue, a
    model's settings, a person's time limit). A transcript names its agents as a
    record: a ``py:MODULE:CLASS`` seat's module is not imported here (``seat_table``
    says who may seat one, ``arena.own_code``).
    """
    agents = dict(agents or {})
    seats = []
    for s in header.seats:
        seat: dict[str, Any] = {"name": s.name, "agent": agents.get(s.name, s.agent)}
        if s.role is not None:
            seat["role"] = s.role
        if s.name not in agents or agents[s.name] == s.agent:
            if s.answers is not None:
                seat["answers"] = s.answers
            if s.options is not None:
                seat["options"] = s.options
            if s.timeout is not None:
                seat["timeout"] = s.timeout
        seats.append(seat)
    apply_model_options(seats, model_options)
    data: dict[str, Any] = {
        "preset": header.preset,
        "seed": header.seed,
        "options": dict(header.options),
        "seats": seats,
        "language": header.language,
    }
    if header.beliefs:
        data["beliefs"] = True
    if header.roles is not None:
        data["roles"] = list(header.roles)
    if header.center is not None:
        data["center"] = list(header.center)
    try:
        return spec_from_data(data, import_classes=False)
    except GameFileError as e:
        settings = " with these --model-option settings" if model_options else ""
        raise CliError(f"the transcript's table cannot be seated again{settings}: {e}") from None


def seat_table(
    header: HeaderRecord,
    agents: Mapping[str, str] | None = None,
    agent_seed: int | None = None,
    calls: CallLog | None = None,
    model_options: dict[str, Any] | None = None,
    *,
    source: str = "the transcript",
    trust_endpoints: bool = False,
    trust_code: bool = False,
    hint: str = "",
    code_hint: str = "",
) -> tuple[GameSpec, Game, dict[str, Agent]]:
    """The table's spec, a fresh engine dealt from the header, and the table's agents
    (seeded by ``agent_seed``, else by the game's seed as ``werewolf play`` seeds them).

    A recorded seat that keeps its agent keeps its recorded settings, so a transcript
    (``source``, perhaps someone else's) that sets ``base_url``/``api_key_env`` is
    refused unless ``trust_endpoints``, and one whose seat is played by a
    ``py:MODULE:CLASS`` agent (seating it would import that module: run its code) unless
    ``trust_code`` (``code_hint`` says the way out); ``agents`` and ``model_options`` are
    the user's own."""
    swapped = {s.name for s in header.seats if (agents or {}).get(s.name, s.agent) != s.agent}
    try:
        if not trust_endpoints:
            refuse_endpoints(header.seats, source, hint, skip=swapped)
        if not trust_code:  # a seat the user names (--seat), even with the recorded agent, is theirs
            refuse_code(header.seats, source, code_hint or TRUST_CODE_HINT, skip=set(agents or {}))
    except GameFileError as e:
        raise CliError(str(e)) from None
    spec = spec_from_header(header, agents, model_options)
    seating = spec if agent_seed is None else spec.model_copy(update={"seed": agent_seed})
    try:
        _, seated = seating.build(calls=calls)
    except GameFileError as e:
        raise CliError(f"the transcript's table cannot be seated again: {e}") from None
    return spec, build_game(header), seated


# ---------------------------------------------------------------------- catching up
@dataclass
class CatchUp:
    """What re-submitting the record did."""

    answers: int = 0
    asked: int = 0  # of those, how many were put to their bot again
    drift: list[str] = field(default_factory=list)  # bots that would now answer otherwise
    beliefs: set[tuple[int, str]] = field(default_factory=set)  # (day, seat) of the beliefs in the record: not asked again


def catch_up(
    game: Any,
    agents: Mapping[str, Agent],
    records: list[Any],
    *,
    writer: Any = None,
    on_replayed: Callable[[Any], None] | None = None,
    before: Callable[[Any, AnswerRecord], None] | None = None,
) -> CatchUp:
    """Re-submit the answers among ``records`` (already verified) in order.

    With a ``writer``, the replayed part is written again as it goes (a fork, or a
    resume into a new file): each answer with the agent that gave it, the events it
    caused, and the model calls made for it, in their places. ``before`` sees each
    recorded decision (the engine's, pending) with its answer before its agent is put
    it again: the moment its seat was asked (``arena.persuasion`` asks twins there).
    """
    done = CatchUp()
    calls: list[Any] = []  # model calls wait for their batch's answers, as when played
    fell_back: set[tuple[str, int]] = set()  # (seat, decision) a model seat's fallback bot answered
    drifted: set[str] = set()
    random_seats = next((a.rng for a in agents.values() if isinstance(a, RandomAgent)), None)
    if writer is not None:
        writer.sync_events(game)  # what the deal told, before anyone was asked
    for r in records:
        if getattr(r, "type", None) in ("call", "belief"):  # beliefs, like calls, precede their batch's answers
            if r.type == "belief":
                done.beliefs.add((r.day, r.seat))
            elif r.fallback:
                fell_back.add((r.seat, r.decision))
            calls.append(r)
            continue
        if isinstance(r, TimeLimitRecord):
            # A person's time limit changed on an earlier resume: it holds from here on.
            seat = agents.get(r.seat)
            if seat is not None and getattr(seat, "spec", None) == HUMAN and hasattr(seat, "timeout"):
                seat.timeout = r.seconds
                if writer is not None:
                    writer.time_limit(r.seat, r.seconds)
            continue
        if not isinstance(r, AnswerRecord):
            continue
        pending = {d.id: d for d in game.waiting}
        d = pending[r.decision]
        if before is not None:
            before(d, r)
        agent = agents[r.seat]
        spec = getattr(agent, "spec", "")
        if spec in REPLAYABLE and spec == r.agent:
            try:
                reply = agent.decide(SeatView(d.seat, game.observation(d.seat)), d)
            except Exception as e:  # a scripted seat whose queues were not recorded, say
                reply = e
            done.asked += 1
            _check_drift(done, drifted, game, d, r, spec, reply)
        elif r.agent == RANDOM and random_seats is not None:
            # A random seat another agent plays now (a fork): its draws are made again on
            # the game's stream of random seats (``arena.gamefile.random_seats_stream``),
            # so the random seats still there answer as they did.
            random_answer(random_seats, d)
        elif spec == r.agent and (r.seat, r.decision) in fell_back and hasattr(agent, "fallback_agent"):
            # The model failed here and its fallback bot played: put the decision to
            # the bot again, so its random stream and plans are where they were.
            try:
                reply = getattr(agent, "_fallback_answer")(SeatView(d.seat, game.observation(d.seat)), d)  # agents.llm's model seat
            except Exception as e:
                reply = e
            done.asked += 1
            _check_drift(done, drifted, game, d, r, f"{spec}'s fallback bot", reply)
        if writer is not None:
            for c in calls:
                writer.call(c)
        calls.clear()
        game.submit_recorded(d.id, r.answer)
        done.answers += 1
        if writer is not None:
            writer.answer(game, d, r.agent)
        if on_replayed is not None:
            on_replayed(r)
    if writer is not None:
        for c in calls:  # the calls of a batch the record stops in: paid for, so kept
            writer.call(c)
    for name, agent in agents.items():  # every fallback bot reads what its seat was shown
        fallback = getattr(agent, "fallback_agent", None)
        remember = getattr(fallback, "_remember", None)
        if remember is not None and name in game.by_name:
            remember(SeatView(name, game.observation(name)))
    return done


def _check_drift(done: CatchUp, drifted: set[str], game: Any, d: Any, r: AnswerRecord, who: str, reply: Any) -> None:
    if not _same(d, reply, r.answer) and r.seat not in drifted:
        drifted.add(r.seat)
        done.drift.append(
            f"{r.seat} ({who}) now answers {reply!r} to decision {d.id} ({d.kind}, day {game.day}) where the record has "
            f"{r.answer!r}: the bot changed since the game was played, so what follows may differ from the original"
        )


def _same(decision: Any, reply: Any, recorded: Any) -> bool:
    try:
        return jsonish(decision.validate(reply)) == jsonish(recorded)
    except (IllegalAnswer, TypeError, ValueError):
        return False


# ---------------------------------------------------------------------- playing on
@dataclass
class Continuation:
    """A game caught up with its record, ready to be played on."""

    game: Game
    agents: dict[str, Agent]
    writer: TranscriptWriter | None
    calls: CallLog  # the model seats' call log
    caught: CatchUp
    verification: Verification


def play_on(cont: Continuation, *, json_out: bool, quiet: bool, god: bool, banner: str, allow_fallbacks: bool = False) -> int:
    """Play the caught-up game to its end, as ``werewolf play`` plays a new one: its
    model and remote seats checked first (``arena.preflight``)."""
    before_play(cont.agents, allow_fallbacks=allow_fallbacks, writer=cont.writer)
    game = cont.game
    record = cont.verification.transcript
    language = record.header.language if record is not None else None
    screen = screen_for(cont.agents, json_out=json_out, quiet=quiet, god=god, language=language)
    narrator = screen.narrator
    if narrator is not None:
        # Told silently, so the narrator remembers the dead and the Sheriff without
        # telling the recorded part again.
        narrator.console = Console(file=io.StringIO())
        narrator.follow(game.events)
        narrator.console = screen.console
    if not quiet:
        screen.console.print(f"[dim]{banner}[/dim]")
        for line in cont.caught.drift:
            screen.console.print(f"[yellow]warning: {line}[/yellow]")
    source = cont.verification.transcript
    beliefs = poll_for(bool(source and source.header.beliefs), cont.writer, recorded=cont.caught.beliefs)
    return play_to_end(game, cont.agents, screen, writer=cont.writer, calls=cont.calls, json_out=json_out, quiet=quiet, beliefs=beliefs)


def set_time_limit(cont: Continuation, seconds: float) -> str:
    """Give every human seat of a resumed game the time limit ``seconds`` from now on,
    recorded in its transcript; what changed, in words. ``CliError`` for a table
    without a person (the writer is closed first: nothing is played)."""
    humans = [a for a in cont.agents.values() if getattr(a, "spec", None) == "human" and hasattr(a, "timeout")]
    if not humans:
        if cont.writer is not None:
            cont.writer.close()
        raise CliError("--human-timeout needs a human seat, and this game has none")
    changed = []
    for h in humans:
        before = h.timeout
        if before != seconds:
            h.timeout = seconds
            if cont.writer is not None:
                cont.writer.time_limit(h.name, seconds)
        changed.append(f"{h.name}'s time limit is {seconds:g} s" + (f" (was {before:g} s)" if before is not None and before != seconds else ""))
    return ", ".join(changed)

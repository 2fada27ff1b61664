"""Checking a transcript against the engine: a record is trusted only once re-played.

The header rebuilds the setup; the recorded answers are submitted again, in order,
to a fresh engine; every event the engine produces must be the next event recorded,
every answer must answer a decision the engine is actually asking (same seat, kind
and legal options), and the result must be the engine's. Nothing in the file is
believed on its own word, so a hand-edited line surfaces as the first place where
the record and the rules part ways, and a cut-off file as a matching prefix of a
game that never ended.

The verdict keeps those apart because they call for different actions: a
``MISMATCH`` is a file that lies (or a changed engine), ``INCOMPLETE`` a game that
can be resumed, ``UNREADABLE`` not a transcript at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from arena.result import result_of
from engine.decisions import IllegalAnswer
from engine.flow.voting import VOTE
from engine.game import Game
from transcripts.call_counts import CallCounts, count
from transcripts.chain import first_break, forms
from transcripts.coverage import check_backing
from transcripts.schema import (
    AnswerRecord,
    ErrorRecord,
    EventRecord,
    HeaderRecord,
    ResultRecord,
    Transcript,
    TranscriptError,
    read_transcript,
)
from transcripts.signatures import check_signatures
from transcripts.values import jsonish, show
from transcripts.writer import software_version

FIRST_RECORD_LINE = 2  # line 1 is the header; records[i] is on line i + 2


class Status(Enum):
    OK = "ok"
    MISMATCH = "mismatch"
    INCOMPLETE = "incomplete"
    UNREADABLE = "unreadable"


# What ``werewolf verify`` exits with for each verdict.
EXIT_CODES = {Status.OK: 0, Status.MISMATCH: 1, Status.UNREADABLE: 2, Status.INCOMPLETE: 3}


@dataclass
class Difference:
    """The first place where the file and the engine disagree."""

    line: int
    message: str
    expected: str | None = None  # what the engine produced or asked
    found: str | None = None  # what the file holds

    def __str__(self) -> str:
        out = f"line {self.line}: {self.message}"
        if self.expected is not None:
            out += f"\n  expected: {self.expected}"
        if self.found is not None:
            out += f"\n  found:    {self.found}"
        return out


@dataclass
class Verification:
    path: str
    status: Status
    events: int = 0  # events reproduced and matched
    answers: int = 0  # answers re-submitted and accepted
    calls: int = 0  # model call records checked against the decisions asked (``usage.records``)
    usage: CallCounts = field(default_factory=CallCounts)  # what those records count (``transcripts.call_counts``)
    beliefs: int = 0  # belief records checked against the moment they were given
    difference: Difference | None = None
    reason: str = ""  # for INCOMPLETE and UNREADABLE: why, in words
    transcript: Transcript | None = None
    game: Any = None  # the engine re-run, as far as the file allowed
    notes: list[str] = field(default_factory=list)
    guarantees: dict[str, dict[str, Any]] = field(default_factory=dict)  # which hold, and why (see ``verify``)
    signer: str | None = None  # the signing key's fingerprint, when the file is signed

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def counts(self, verb: str) -> str:
        # The closing table's and the result's words: calls, fallbacks, errors.
        calls = f", {self.usage.whose()}: {self.usage.words()} ({self.calls} call records checked)" if self.calls else ""
        beliefs = f", {self.beliefs} beliefs checked" if self.beliefs else ""
        return f"{self.events} events and {self.answers} answers {verb}{calls}{beliefs}"

    def proof(self) -> str:
        """What beyond the re-play holds, in a few words (``guarantees`` in full)."""
        g = self.guarantees
        if not g:
            return ""
        parts = ["chain intact" if g["chain"]["holds"] else "no digest chain"]
        if "model answers" in g["model_calls"]["detail"] and g["model_calls"]["holds"]:
            parts.append("every model answer backed by its call")
        if g["signed"]["holds"]:
            parts.append(f"signed by {self.signer}" + (" (the trusted key)" if g["trusted_signer"]["holds"] else ""))
        else:
            parts.append("not signed")
        return ", ".join(parts)

    def summary(self) -> str:
        """One line for OK and INCOMPLETE; the difference in full for a MISMATCH."""
        if self.status is Status.OK:
            game = self.game
            end = f"{game.winner} won after day {game.day}" if game is not None else "ended"
            notes = f" ({'; '.join(self.notes)})" if self.notes else ""
            return f"OK {self.path}: {self.counts('reproduced')}; {end}; {self.proof()}{notes}"
        if self.status is Status.INCOMPLETE:
            return f"INCOMPLETE {self.path}: {self.counts('match')}, but {self.reason}"
        if self.status is Status.UNREADABLE:
            reason = self.reason.removeprefix(f"{self.path}: ")
            return f"UNREADABLE {self.path}: {reason}"
        notes = "".join(f"\nnote: {n}" for n in self.notes)
        return f"MISMATCH {self.path}: {self.difference}{notes}"


# ---------------------------------------------------------------------- showing values
def first_change(expected: Any, found: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """Where two JSON values first differ: (dotted path, expected part, found part)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in list(expected) + [k for k in found if k not in expected]:
            if key not in found:
                return (f"{path}{key}", expected[key], "(missing)")
            if key not in expected:
                return (f"{path}{key}", "(absent)", found[key])
            deeper = first_change(expected[key], found[key], f"{path}{key}.")
            if deeper is not None:
                return deeper
        return None
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for i, (a, b) in enumerate(zip(expected, found)):
            deeper = first_change(a, b, f"{path}{i}.")
            if deeper is not None:
                return deeper
        return None
    if expected == found and type(expected) is type(found):
        return None
    return (path.rstrip(".") or "value", expected, found)


def _describe_change(what: str, expected: Any, found: Any) -> Difference | None:
    change = first_change(expected, found)
    if change is None:
        return None
    where, a, b = change
    return Difference(0, f"{what} differs at {where}: expected {show(a)}, found {show(b)}", show(expected), show(found))


def event_label(ev: dict[str, Any]) -> str:
    return f"event #{ev.get('seq')} '{ev.get('kind')}' (day {ev.get('day')}, {ev.get('phase')})"


def decision_label(d: Any) -> str:
    return f"decision {d.id} ({d.seat}: {d.kind})"


# ---------------------------------------------------------------------- the re-run
class _Stop(Exception):
    def __init__(self, difference: Difference):
        self.difference = difference


def build_game(header: HeaderRecord) -> Any:
    """The engine from the header alone; raises ``TranscriptError`` for a header that
    cannot be dealt, since that is a broken file, not a difference in play."""
    try:
        return Game(header.to_setup())
    except Exception as e:  # SetupError, a bad option value, an unknown preset: all the header's fault
        raise TranscriptError(f"line 1: the header cannot be dealt: {e}") from None


class _Rerun:
    """Walks the records against a fresh engine, one line at a time."""

    def __init__(self, transcript: Transcript, game: Any):
        self.t = transcript
        self.game = game
        self.ev = 0  # engine events matched so far
        self.answers = 0
        self.asked: dict[int, Any] = {}  # every decision the engine has pended, by id
        self.calls: list[tuple[int, Any]] = []
        self.answered: list[tuple[int, AnswerRecord, Any]] = []  # (line, record, the decision it answered)
        self.belief_lines: list[tuple[int, Any]] = []
        self.beliefs = 0
        self.stopped: str | None = None  # an error record's message
        self.result_line: int | None = None
        self._note_pending()

    def _note_pending(self) -> None:
        for d in self.game.pending:
            self.asked.setdefault(d.id, d)

    # ---------------------------------------------------------------- per record
    def record(self, line: int, r: Any) -> None:
        if getattr(r, "type", None) == "signature":
            return  # checked on its own (``transcripts.signatures``): not play, and last once the game is over
        if self.result_line is not None:
            raise _Stop(Difference(line, f"a record after the result (line {self.result_line}); the game was over"))
        if isinstance(r, EventRecord):
            self.event(line, r)
        elif isinstance(r, AnswerRecord):
            self.answer(line, r)
        elif isinstance(r, ResultRecord):
            self.result(line, r)
        elif isinstance(r, ErrorRecord):
            # A stop notice (failure, interruption). A resumed game goes on after it.
            self.stopped = r.message
        elif getattr(r, "type", None) == "call":
            self.calls.append((line, r))
        elif getattr(r, "type", None) == "belief":
            self.belief(line, r)
        elif getattr(r, "type", None) == "time_limit":
            self.time_limit(line, r)
        else:  # a record type this reader does not check
            raise _Stop(Difference(line, f"unexpected record type '{getattr(r, 'type', '?')}'"))

    def event(self, line: int, r: EventRecord) -> None:
        events = self.game.events
        found = r.model_dump(mode="json", exclude={"type", "digest"})
        if self.ev >= len(events):
            raise _Stop(
                Difference(line, f"an event the engine did not produce: it is waiting for {self._waiting()}", None, show(found))
            )
        expected = jsonish(events[self.ev].to_json())
        diff = _describe_change(event_label(expected), expected, found)
        if diff is not None:
            diff.line = line
            raise _Stop(diff)
        self.ev += 1

    def belief(self, line: int, r: Any) -> None:
        """A seat's private beliefs are not re-played (nothing in play depends on them),
        but they must sit where they were given: while the day's vote is open and before
        any of its answers, from a living seat, about other players at the table."""
        game = self.game
        what = f"a belief of {r.seat} (day {r.day})"
        self._all_events_seen(line, what)
        if r.seat not in game.by_name:
            raise _Stop(Difference(line, f"{what}, but there is no seat named '{r.seat}'"))
        d = next((d for d in game.waiting if d.id == r.decision), None)
        if d is None or d.kind != VOTE or r.day != game.day:
            now = f"day {game.day}, waiting for {self._waiting()}"
            raise _Stop(Difference(line, f"{what}, given at decision {r.decision}, where no such vote is open ({now})"))
        if not game.by_name[r.seat].alive:
            raise _Stop(Difference(line, f"{what}, but {r.seat} is dead by then"))
        for name in r.probabilities or {}:
            p = game.by_name.get(name)
            if name == r.seat or p is None or not p.alive:
                raise _Stop(Difference(line, f"{what} rates '{name}', who is not another living player"))
        self.beliefs += 1
        self.belief_lines.append((line, r))

    def time_limit(self, line: int, r: Any) -> None:
        """A new time limit is a setting, not play: it must name a human seat and a
        positive number of seconds."""
        seat = next((s for s in self.t.header.seats if s.name == r.seat), None)
        if seat is None or seat.agent != "human":
            raise _Stop(Difference(line, f"a time limit for '{r.seat}', which is not a human seat of this table"))
        if not r.seconds > 0:
            raise _Stop(Difference(line, f"a time limit of {r.seconds:g} s for {r.seat}; it must be positive"))

    def answer(self, line: int, r: AnswerRecord) -> None:
        game = self.game
        self._all_events_seen(line, f"an answer to decision {r.decision} ({r.seat}: {r.kind})")
        pending = {d.id: d for d in game.waiting}
        d = pending.get(r.decision)
        if d is None:
            what = "the game is over" if game.over else f"the engine is waiting for {self._waiting()}"
            raise _Stop(
                Difference(line, f"an answer to decision {r.decision} ({r.seat}: {r.kind}), which is not pending: {what}")
            )
        asked = {"seat": d.seat, "kind": str(d.kind), "shape": str(d.shape), "options": jsonish(list(d.options)),
                 "allow_pass": d.allow_pass, "count": d.count}  # fmt: skip
        recorded = {k: jsonish(getattr(r, k)) for k in asked}
        diff = _describe_change(f"the question of {decision_label(d)}", asked, recorded)
        if diff is not None:
            diff.line = line
            raise _Stop(diff)
        self._check_agent(line, r)
        try:
            canonical = jsonish(d.validate(r.answer))
        except IllegalAnswer as e:
            raise _Stop(Difference(line, f"the rules refuse this answer to {decision_label(d)}: {e}", None, show(r.answer)))
        if canonical != jsonish(r.answer):
            raise _Stop(
                Difference(line, f"the answer to {decision_label(d)} is not as the engine records it", show(canonical), show(r.answer))
            )
        try:
            game.submit_recorded(d.id, r.answer)
        except IllegalAnswer as e:
            raise _Stop(Difference(line, f"the rules refuse this answer to {decision_label(d)}: {e}", None, show(r.answer)))
        except Exception as e:  # the engine must never crash on a re-played answer; say so instead
            raise _Stop(Difference(line, f"the engine failed on this answer to {decision_label(d)}: {e!r}"))
        self.answers += 1
        self.answered.append((line, r, d))
        self._note_pending()

    def _check_agent(self, line: int, r: AnswerRecord) -> None:
        """The answer's agent must be one the header seats there, or the record would
        credit a move to the wrong player (a bot's move to a model, say)."""
        allowed = {s.agent for s in self.t.header.seats if s.name == r.seat}
        fork = self.t.header.fork
        if fork is not None and self.answers < fork.answers:  # replayed from the source game
            allowed |= set(fork.earlier_agents.get(r.seat, ()))
        if allowed and r.agent not in allowed:
            raise _Stop(
                Difference(line, f"the answer is credited to agent '{r.agent}', but the header seats {r.seat} with "
                           + " or ".join(f"'{a}'" for a in sorted(allowed)))  # fmt: skip
            )

    def result(self, line: int, r: ResultRecord) -> None:
        game = self.game
        self._all_events_seen(line, "the result")
        if not game.over:
            raise _Stop(
                Difference(line, f"the file says the game ended ({r.winner} won), but the engine is waiting for {self._waiting()}")
            )
        expected = {**result_of(game).model_dump(), "reason": game.end_reason}
        found = r.model_dump(mode="json", exclude={"type", "digest"})
        diff = _describe_change("the result", jsonish(expected), found)
        if diff is not None:
            diff.line = line
            raise _Stop(diff)
        self.result_line = line

    def check_calls(self) -> None:
        """Model calls cannot be re-run, but each must belong to a decision that was
        asked of that seat, or it is a stray line."""
        names = set(self.t.header.names)
        for line, c in self.calls:
            if c.kind == "beliefs":  # asked alongside a vote, of any seat: not a decision
                if c.seat not in names or c.decision not in self.asked:
                    raise _Stop(Difference(line, f"a beliefs call of {c.seat} at decision {c.decision}, which the engine never asked"))
                continue
            d = self.asked.get(c.decision)
            if d is None or d.seat != c.seat or d.kind != c.kind:
                what = f"{decision_label(d)}" if d is not None else "no decision the engine asked"
                raise _Stop(Difference(line, f"a model call for decision {c.decision} ({c.seat}: {c.kind}), but that is {what}"))

    # ---------------------------------------------------------------- helpers
    def _all_events_seen(self, line: int, what: str) -> None:
        events = self.game.events
        if self.ev < len(events):
            missing = jsonish(events[self.ev].to_json())
            raise _Stop(Difference(line, f"{what}, where the engine produced {event_label(missing)} (a missing or moved line)", show(missing)))

    def _waiting(self) -> str:
        waiting = self.game.waiting
        if not waiting:
            return "nothing (the game is over)" if self.game.over else "nothing"
        shown = ", ".join(decision_label(d) for d in waiting[:4])
        return shown + (f" and {len(waiting) - 4} more" if len(waiting) > 4 else "")


def verify(transcript: Transcript, path: str = "transcript", *, allow_unchained: bool = False, trusted_key: Any = None) -> Verification:
    """Re-play ``transcript`` through the engine and say how far it holds.

    Four checks, each a guarantee of its own (``Verification.guarantees``): the re-play,
    the digest chain (a file without one fails unless ``allow_unchained``), every model
    answer backed by its call (``transcripts.coverage``) and the signatures
    (``transcripts.signatures``; with ``trusted_key``, an ``Ed25519PublicKey``, the
    signer must be that key). The verdict reports the earliest line at fault.
    """
    try:
        game = build_game(transcript.header)
    except TranscriptError as e:
        return Verification(path, Status.UNREADABLE, reason=str(e), transcript=transcript)
    run = _Rerun(transcript, game)
    out = Verification(path, Status.OK, transcript=transcript, game=game)
    faults: dict[str, Difference] = {}
    try:
        for i, record in enumerate(transcript.records):
            run.record(i + FIRST_RECORD_LINE, record)
        run.check_calls()
    except _Stop as stop:
        faults["replay"] = stop.difference
    if "replay" not in faults and run.result_line is not None and transcript.truncated:
        # a cut line after a complete game: the file was damaged after the end
        faults["replay"] = Difference(len(transcript.records) + 2, "a partial line after the result")
    out.events, out.answers, out.calls, out.beliefs = run.ev, run.answers, len(run.calls), run.beliefs
    out.usage = count(r for _, r in run.calls)
    canon = forms(transcript.header, transcript.records)  # once, for the chain and the signatures
    chain = _chain_fault(transcript, allow_unchained, out, canon)
    if chain is not None:
        faults["chain"] = chain
    backing = _backing(run, transcript, faults.get("replay"))
    if not backing.holds:
        faults["calls"] = Difference(backing.line or 0, backing.message)
    sig = check_signatures(transcript, trusted_key, canon)
    if sig.line is not None:
        faults["signature"] = Difference(sig.line, sig.message)
    out.signer = sig.signer
    out.guarantees = _guarantees(transcript, run, faults, backing, sig)
    if faults:
        out.status = Status.MISMATCH
        out.difference = _first_of(faults, out)
        now = software_version()
        if transcript.header.software != now:  # a rules change since then differs too
            out.notes.append(f"written by {transcript.header.software}, checked with {now}")
        return out
    if run.result_line is None:
        out.status = Status.INCOMPLETE
        out.reason = _why_incomplete(run, transcript, len(transcript.records) + 1)
    return out


_CHECK_NAMES = {"replay": "re-play", "chain": "digest chain", "calls": "call check", "signature": "signature check"}


def _first_of(faults: dict[str, Difference], out: Verification) -> Difference:
    """The earliest line at fault; the others (later, or at the same line) in words."""
    order = sorted(faults.items(), key=lambda kv: kv[1].line)
    _, first = order[0]
    for kind, diff in order[1:]:
        if diff.line == first.line:
            first.message += f" (and {diff.message})"
        else:
            out.notes.append(f"the {_CHECK_NAMES[kind]} first differs at {diff}")
    return first


def _chain_fault(transcript: Transcript, allow_unchained: bool, out: Verification, canon: list[str]) -> Difference | None:
    """The digest chain's verdict: where it breaks, or a file without one."""
    broken = first_break(transcript.header, transcript.records, canon)
    if broken is not None:
        return Difference(*broken)
    if transcript.header.digest is None:
        if allow_unchained:
            out.notes.append("no digest chain (written before chains, or stripped): checked by re-play alone, as --allow-unchained asks")
            return None
        return Difference(
            1,
            "the file has no digest chain, so nothing shows it was not edited (a file written before chains, or its "
            "digests stripped); --allow-unchained checks it by re-play alone",
        )
    return None


def _backing(run: _Rerun, transcript: Transcript, replay: Difference | None) -> Any:
    """Model answers against their calls, as far as the re-play got."""
    limit = replay.line if replay is not None else None

    def before(rows: list) -> list:
        return [row for row in rows if limit is None or row[0] < limit]

    seats = {s.name: s.agent for s in transcript.header.seats}
    return check_backing(before(run.calls), run.answered, before(run.belief_lines), seats)


def _guarantees(transcript: Transcript, run: _Rerun, faults: dict[str, Difference], backing: Any, sig: Any) -> dict[str, dict[str, Any]]:
    """Which guarantees hold, in words, for ``--json`` and the summary."""

    def failed(kind: str) -> str:
        return str(faults[kind])

    chained = transcript.header.digest is not None
    lines = len(transcript.records) + 1
    replayed = "replay" not in faults and run.result_line is not None
    if "replay" in faults:
        replay_detail = failed("replay")
    elif run.result_line is None:
        replay_detail = "every line matches, but the game did not end"
    else:
        replay_detail = f"{run.ev} events, {run.answers} answers and the result reproduced by the engine"
    model = backing.model_answers
    if "calls" in faults:
        calls_detail = failed("calls")
    elif model or backing.model_beliefs:
        calls_detail = f"{model} model answers and {backing.model_beliefs} model beliefs, each matched with the call that produced it"
    else:
        calls_detail = "no answer is credited to a model"
    if "calls" not in faults and backing.own_fallbacks:
        calls_detail += f"; {backing.own_fallbacks} fallbacks of agents of your own, each matched with its record"
    trusted: dict[str, Any] = {"holds": sig.trusted}
    trusted["detail"] = (
        "no trusted key given (--key PUB)" if sig.trusted is None
        else f"signed by the trusted key {sig.signer}" if sig.trusted and sig.signed
        else failed("signature") if "signature" in faults else sig.detail
    )  # fmt: skip
    return {
        "chain": {
            "holds": chained and "chain" not in faults,
            "detail": failed("chain") if "chain" in faults else (f"every one of the {lines} lines follows" if chained else "no digest chain"),
        },
        "replay": {"holds": replayed, "detail": replay_detail},
        "model_calls": {"holds": "calls" not in faults, "detail": calls_detail},
        "signed": {"holds": sig.signed, "signer": sig.signer, "detail": failed("signature") if "signature" in faults else sig.detail},
        "trusted_signer": trusted,
    }


def _why_incomplete(run: _Rerun, transcript: Transcript, last: int) -> str:
    game = run.game
    parts = []
    if transcript.truncated:
        parts.append(f"line {last + 1} was cut off mid-write")
    if run.stopped is not None:
        parts.append(f"the game stopped: {run.stopped}")
    if game.over:
        parts.append(f"the result line is missing (the engine reached the end: {game.winner} won)")
    else:
        missing = len(game.events) - run.ev
        left = f"; {missing} event(s) of the last answer are missing" if missing else ""
        parts.append(f"the game did not end: the file stops after line {last} on day {game.day}{left}")
    return "; ".join(parts)


def verify_file(path: str | Path, *, allow_unchained: bool = False, trusted_key: Any = None) -> Verification:
    """``verify`` for a file; an unreadable one is a verdict, never an exception."""
    try:
        transcript = read_transcript(path)
    except TranscriptError as e:
        return Verification(str(path), Status.UNREADABLE, reason=str(e))
    except UnicodeDecodeError as e:
        return Verification(str(path), Status.UNREADABLE, reason=f"not UTF-8 text (byte {e.start})")
    except Exception as e:  # a reader bug must not hide behind a traceback for the user
        return Verification(str(path), Status.UNREADABLE, reason=f"cannot read: {e!r}")
    return verify(transcript, str(path), allow_unchained=allow_unchained, trusted_key=trusted_key)

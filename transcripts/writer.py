"""Writing a transcript while the game is played.

Every line is written whole and flushed at once, so whatever stops the game (a
failing seat, Ctrl-C, a killed process) leaves a file whose lines all parse and hold
everything played so far (a game played again whole if it is cut off may leave its
lines in the buffer until the writer closes: ``flush=False``). Events are written as
they appear: the writer keeps a pointer into ``game.events`` and, after each accepted
answer, writes the answer and then the events that answer caused, which is the order
a replay needs.

Every line of every record type goes through ``_line``, which chains it
(``transcripts.chain``): the line digest, and the full-strength head a signature
signs. With a ``signer`` the header names its public key and ``close`` writes the
``signature`` record last, whatever ended the game (its end, an error, Ctrl-C); a
killed process leaves no signature, and ``play --resume`` signs the file's new end.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from arena.result import result_of
from engine.decisions import Decision
from engine.game import Game
from engine.words import encodable, storable
from transcripts.chain import HEAD_START, canonical_of_dump, dumps, floats_in, head, head_link, link
from transcripts.schema import (
    BeliefRecord,
    CallRecord,
    ErrorRecord,
    HeaderRecord,
    ResultRecord,
    SignatureRecord,
    TimeLimitRecord,
    read_transcript,
)
from transcripts.signing import require_same_signer


@cache
def software_version() -> str:
    """The installed release that names itself in every header. Read once a process:
    the code running is the code imported, and ``importlib.metadata`` scans the path's
    distributions at each call (~0.2 ms, with cyclic garbage left for the collector),
    which a tournament paid once a game."""
    try:
        return f"werewolf-arena {metadata.version('werewolf-arena')}"
    except metadata.PackageNotFoundError:
        return "werewolf-arena (not installed)"


class TranscriptWriter:
    """Appends records to one JSONL file; use as a context manager to close it."""

    def __init__(self, path: str | Path, header: HeaderRecord, *, signer: Any = None, flush: bool = True):
        """``signer`` (a ``transcripts.signing.Signer``) signs the file when it closes;
        the header then names its public key (any other ``signer`` it held is replaced).

        ``flush=False`` leaves the lines in the file's buffer until it fills or the
        writer closes, for a game that is played again whole if it is cut off (a
        tournament's bot games: the part file of a killed game is overwritten): a
        flush is a system call, and one a line was a ninth of such a game's time."""
        self.path = Path(path)
        self._file: IO[str] = self.path.open("w", encoding="utf-8")
        self._flush = flush
        self._written = 0  # how many of game.events are already in the file
        self._digest: str | None = None  # the last line's (``transcripts.chain``)
        self._head = HEAD_START  # the full-strength chain's, for the signature
        self._lines = 0
        self._chained = True
        self._signer = signer
        self._write(header.model_copy(update={"signer": signer.header_record() if signer is not None else None}))

    @classmethod
    def appending(
        cls, path: str | Path, *, events_written: int, last_digest: str | None, signer: Any = None
    ) -> "TranscriptWriter":
        """Go on writing a file that holds a game's beginning (``play --resume``).

        Nothing already there is rewritten: the chain goes on from ``last_digest``,
        and a file written without digests stays without them. A file whose header
        names a signer is signed again at its new end, by the same key only: raises
        ``SigningKeyError`` when ``signer`` is missing or another key, or when asked to
        sign a file that was not signed from its start.
        """
        t = read_transcript(path)
        require_same_signer(str(path), t.header.signer, signer)
        self = cls.__new__(cls)
        self.path = Path(path)
        self._file = self.path.open("a", encoding="utf-8")
        self._written = events_written
        self._digest = last_digest
        self._head = head([t.header, *t.records])
        self._lines = 1 + len(t.records)
        self._chained = last_digest is not None
        self._signer = signer
        self._flush = True
        return self

    # ------------------------------------------------------------------ records
    def sync_events(self, game: Game) -> None:
        """Write the events emitted since the last call."""
        events = game.events
        while self._written < len(events):
            body = events[self._written].to_json()
            # ``EventRecord(**body)``'s line, without building the record: ``body`` is
            # its fields in their order, and its ``type`` and an empty ``data`` are the
            # defaults the canonical form leaves out (``tests/test_chain_canonical.py``
            # compares both ways, file by file).
            form = body if body["data"] else {k: v for k, v in body.items() if k != "data"}
            self._put({"type": "event", **body}, form)
            self._written += 1

    def answer(self, game: Game, decision: Decision, agent_spec: str) -> None:
        """Record ``decision``'s accepted answer, then the events it caused.

        The engine's canonical form of the answer is recorded (``answer_log``), not
        the agent's raw reply, so re-submitting it is always accepted the same way.
        """
        value: Any = None
        for did, _, _, v in reversed(game.answer_log):
            if did == decision.id:
                value = v
                break
        # ``AnswerRecord``'s line, built as the events' are (``sync_events``): its
        # fields in their order; ``type`` and a ``count`` of 1 are defaults.
        fields = {
            "decision": decision.id, "seat": decision.seat, "kind": str(decision.kind), "shape": str(decision.shape),
            "options": list(decision.options), "allow_pass": decision.allow_pass, "count": decision.count,
            "answer": value, "agent": agent_spec,
        }  # fmt: skip
        form = fields if decision.count != 1 else {k: v for k, v in fields.items() if k != "count"}
        self._put({"type": "answer", **fields}, form)
        self.sync_events(game)

    def on_answer(self, game: Game, decision: Decision, answer: Any, agent: Any) -> None:
        """The runner's ``on_answer`` hook."""
        self.answer(game, decision, getattr(agent, "spec", type(agent).__name__))

    def call(self, record: CallRecord) -> None:
        """Record one model call. Calls are written when they end, so those of a batch
        interleave by finishing time and precede the batch's answers; readers match
        them to decisions by ``decision``, never by position."""
        if not self._file.closed:
            self._write(record)

    def belief(self, record: BeliefRecord) -> None:
        """Record one seat's private beliefs (``arena.beliefs``): written as the seat
        answers, so they come before the answers of the vote they were asked at."""
        if not self._file.closed:
            self._write(record)

    def result(self, game: Game) -> None:
        self.sync_events(game)
        res = result_of(game)
        self._write(ResultRecord(**res.model_dump(), reason=game.end_reason))

    def time_limit(self, seat: str, seconds: float) -> None:
        """A human seat's time limit per decision changes from here on."""
        self._write(TimeLimitRecord(seat=seat, seconds=seconds))

    def error(self, game: Game | None, message: str) -> None:
        if game is not None:
            self.sync_events(game)
        self._write(ErrorRecord(message=message))

    # ------------------------------------------------------------------ file
    def _write(self, record: Any) -> None:
        # One dump for the line and the canonical form (``chain.canonical_of_dump``).
        data = record.model_dump(mode="json", exclude={"digest"})
        form = canonical_of_dump(record, data) if self._chained else ""
        if data.get("signer", True) is None:
            del data["signer"]  # an unsigned header keeps the shape it had before signing existed
        self._line(data, form, floats_in(type(record)))

    def _put(self, data: dict[str, Any], fields: dict[str, Any]) -> None:
        """The line of an event or an answer, built without its model: ``data`` as its
        ``model_dump(mode="json")`` would be, ``fields`` those not at their defaults.
        Neither record type has a float field (``chain.dumps``'s ``floats``)."""
        form = f"{data['type']}:" + dumps(fields, sort_keys=True, floats=False) if self._chained else ""
        self._line(data, form, False)

    def _line(self, data: dict[str, Any], form: str, floats: bool) -> None:
        """Chain a line by its canonical ``form`` and write it whole.

        Text no UTF-8 file can hold (an unpaired surrogate) does not come this far
        from what players say (``engine.words``); should some come all the same (a
        name on the command line that was not UTF-8, a caller of one's own), the line
        is written with it replaced by U+FFFD rather than the game failing on its
        record: the record then differs from what was played, and verify says where."""
        try:
            self._chain_and_write(data, form, floats)
        except UnicodeEncodeError:
            self._chain_and_write(storable(data), encodable(form), floats)
        if self._flush:
            self._file.flush()
        self._lines += 1

    def _chain_and_write(self, data: dict[str, Any], form: str, floats: bool) -> None:
        """The chain moves on only once the line is written (a line that cannot be
        encoded leaves both as they were)."""
        if self._chained:
            digest = data["digest"] = link(self._digest, None, form)  # last, so a line still opens with its type
            head = head_link(self._head, None, form)
        self._file.write(dumps(data, floats=floats) + "\n")
        if self._chained:
            self._digest, self._head = digest, head

    def close(self) -> None:
        """Sign (with a signer) and close; closing again does nothing."""
        if self._file.closed:
            return
        try:
            if self._signer is not None and self._chained:
                sig = self._signer.sign(self._head, self._lines)
                self._write(SignatureRecord(lines=self._lines, head=self._head, fingerprint=self._signer.fingerprint, signature=sig))
        finally:
            self._file.close()

    def __enter__(self) -> "TranscriptWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

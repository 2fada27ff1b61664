"""The transcript format, version 1: one JSON object per line.

A transcript is the game's record of truth. The header holds everything needed to
rebuild the setup, and the answers are recorded in the order the engine accepted
them, so setup + answers re-run through the engine reproduce every event: that is
what ``verify`` and ``replay`` stand on. Lines are self-describing (``type``) so a
reader can skip what it does not need, and a game killed mid-way still leaves a file
whose every complete line parses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, TypeAdapter, ValidationError, model_validator

from engine.events import Event, EventData, audience_from_json
from engine.options import RuleOptions, coerce_options
from engine.setup import GameSetup
from engine.words import unencodable
from transcripts.payloads import declared_payload as declared_payload  # where it lives: readers of events alone load no pydantic

FORMAT: Final = "werewolf-transcript"
VERSION: Final = 1


class TranscriptError(ValueError):
    """A file that is not a readable transcript; the message says where and why."""


class _Record(BaseModel):
    # Unknown fields are refused: a reader of version 1 must not silently misread a
    # later version's records.
    model_config = ConfigDict(extra="forbid")


class _Line(_Record):
    # Each line chains to the one before (``transcripts.chain``): the fields verify
    # cannot re-play (model calls, who answered, the header's extras) are then still
    # covered, and a hand edit, a removed or a swapped line shows where it happened.
    # Not a signature: whoever rewrites the chain can forge it; the re-play cannot be.
    digest: str | None = None


class SeatRecord(_Record):
    name: str
    agent: str
    role: str | None = None  # the role forced by the game file, if any
    building: str | None = None  # the building token given by the game file, if any (The Village)
    options: dict[str, Any] | None = None  # a model seat's settings as given (never a key)
    answers: dict[str, list[Any]] | None = None  # a scripted seat's queues, so resume and fork can rebuild it
    timeout: float | None = None  # a human seat's time limit per decision (seconds), kept on resume


class ForkRecord(_Record):
    """Where a forked game branched off (``werewolf fork``)."""

    transcript: str  # the source transcript, as named on the command line
    source_digest: str | None = None  # the source header's digest, when it had one
    day: int  # the new agents took over at the start of night ``day``
    answers: int  # how many recorded answers were replayed before that
    earlier_agents: dict[str, list[str]] = Field(default_factory=dict)  # seat -> agents credited in the replayed part
    agent_seed: int | None = None  # the bots' seed after the fork; None: the game's seed
    model_options: dict[str, Any] | None = None  # --model-option: settings for the model seats that did not set their own


class SignerRecord(_Record):
    """Who signs the transcript (``transcripts.signing``): the public key, declared in
    the header so a file cut before its signature still says it should have one."""

    algorithm: Literal["ed25519"] = "ed25519"
    public_key: str  # base64 of the 32 raw bytes
    fingerprint: str  # ``ed25519:`` + 32 hex digits of the key's SHA-256


class HeaderRecord(_Line):
    type: Literal["header"] = "header"
    format: Literal["werewolf-transcript"] = FORMAT
    version: Literal[1] = VERSION
    preset: str
    options: dict[str, Any]  # the effective rule options (RuleOptions.to_json())
    seed: int
    seats: list[SeatRecord]
    roles: list[str] | None = None  # the deck as given, if given
    center: list[str] | None = None  # the Thief's set-aside cards as given, if given
    language: str = "en"
    software: str
    fork: ForkRecord | None = None
    beliefs: bool = False  # the ``beliefs`` game option: seats' private P(wolf), as ``belief`` records
    signer: SignerRecord | None = None  # the file is signed by this key (``signature`` records)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def to_setup(self):
        """The engine setup this game was played from (rebuilding it is a replay's first step)."""
        return GameSetup(
            names=self.names,
            preset=self.preset,
            seed=self.seed,
            options=RuleOptions().updated(coerce_options(self.options)),
            roles=list(self.roles) if self.roles is not None else None,
            forced={s.name: s.role for s in self.seats if s.role is not None},
            center=list(self.center) if self.center is not None else None,
            buildings={s.name: s.building for s in self.seats if s.building is not None},
        )


class EventRecord(_Line):
    type: Literal["event"] = "event"
    seq: int
    kind: str
    day: int
    phase: str
    audience: Union[Literal["public", "narrator"], list[str]]
    data: dict[str, Any] = Field(default_factory=dict)
    _payload: EventData = PrivateAttr()

    @model_validator(mode="after")
    def _declared(self) -> "EventRecord":
        self._payload = declared_payload(self.kind, self.data)
        return self

    @property
    def payload(self) -> EventData:
        """``data`` as its kind's declared payload class (checked when the record is read)."""
        return self._payload

    def to_event(self) -> Event:
        return Event(self.seq, self.day, self.phase, audience_from_json(self.audience), self._payload)


class AnswerRecord(_Line):
    type: Literal["answer"] = "answer"
    decision: int
    seat: str
    kind: str
    shape: str
    options: list[Any]
    allow_pass: bool
    count: int = 1
    answer: Any  # canonical form, as the engine accepted it
    agent: str


class DeathRecord(_Record):
    name: str
    day: int
    cause: str


class PlayerRecord(_Record):
    name: str
    initial_role: str
    role: str
    alive: bool


class ResultRecord(_Line):
    type: Literal["result"] = "result"
    winner: str
    winners: list[str]
    deaths: list[DeathRecord]
    players: list[PlayerRecord]
    days: int
    reason: str = ""


class CallRecord(_Line):
    """One request to a model, as sent and as answered: the raw material of every cost,
    latency and rule-following figure. Token counts follow one convention whatever the
    vendor: ``input_tokens`` is the whole prompt, cached part included; ``cached_tokens``
    the part read from the provider's prompt cache, ``cache_write_tokens`` the part
    written to it (Anthropic bills writes); ``reasoning_tokens`` the hidden reasoning
    within ``output_tokens`` (billed as output). ``None`` means the server did not say.
    Written as soon as the call ends, so a killed game keeps what it paid for.

    A decision settled without a request has one too (no ``messages``): a model seat's
    only legal answer, a seat no longer asked, and the fallbacks of an agent of one's
    own (``transcripts.call_counts.OWN_AGENT_BACKEND``)."""

    type: Literal["call"] = "call"
    seat: str
    decision: int
    kind: str
    day: int = 0
    attempt: int = 1  # 1 = first ask for this decision; 2+ = re-asks after a refused reply
    backend: str
    model: str
    display_name: str | None = None
    mode: str | None = None  # json_schema | tool | text | structured: how the answer was requested
    started: str = ""  # ISO 8601, UTC
    messages: list[dict[str, Any]] = Field(default_factory=list)
    reply: str | None = None  # the raw reply (text, or the tool's JSON arguments)
    parsed: Any = None  # the structured reply as read (reasoning included)
    accepted: bool = False  # the reply became the seat's answer
    violation: str | None = None  # why the reply was refused (malformed or illegal); on an accepted one, what was repaired in its words
    error: str | None = None  # the call failed (after its retries) or was cut off
    retries: int = 0  # transient failures retried within this call
    latency_s: float = 0.0  # from the first attempt to the reply, retries included
    input_tokens: int | None = None
    output_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost_usd: float | None = None  # None when the model has no price (see price_known)
    price_known: bool = False
    fallback: bool = False  # the decision ended in the fallback bot's answer: after refused replies (``violation``) or a failed call (``error``)
    answer: Any = None  # on the decision's last record: what the seat played


class BeliefRecord(_Line):
    """One seat's private beliefs (the ``beliefs`` game option): for each other living
    player, the probability that it is a werewolf, given as the day's vote opened
    (``decision`` is that vote's first decision, pending then). ``probabilities`` is
    ``None`` when the seat was asked and gave no readable answer (``error`` says why):
    missing, never guessed. A model's calls for it are ``call`` records of kind
    ``beliefs``. Not re-played (nothing in play depends on it), and private to its seat."""

    type: Literal["belief"] = "belief"
    day: int
    seat: str
    decision: int
    probabilities: dict[str, float] | None = None
    error: str | None = None


class TimeLimitRecord(_Line):
    """A human seat's time limit per decision, changed from this line on (``play
    --resume --human-timeout``): the header's ``timeout``, or an earlier such record,
    held until here."""

    type: Literal["time_limit"] = "time_limit"
    seat: str
    seconds: float


class SignatureRecord(_Line):
    """The signer's Ed25519 signature over the chain's head (``transcripts.chain.head``,
    full SHA-256) after the ``lines`` lines before this one: written when the writer
    closes, so it is the last line of a file nothing was added to. A resumed game
    appends after it (it then stays as a checkpoint) and signs its own end."""

    type: Literal["signature"] = "signature"
    lines: int  # the lines it covers: all those before it, header included
    head: str  # the chain's head over those lines (64 hex digits)
    fingerprint: str  # the signer's, as in the header
    signature: str  # base64


class ErrorRecord(_Line):
    """Why a game stopped before its end (a scripted seat failed, the run was interrupted)."""

    type: Literal["error"] = "error"
    message: str


_RECORD_CLASSES = (
    HeaderRecord, EventRecord, AnswerRecord, CallRecord, BeliefRecord, ResultRecord, TimeLimitRecord, SignatureRecord, ErrorRecord
)  # fmt: skip
Record = Annotated[Union[_RECORD_CLASSES], Field(discriminator="type")]  # type: ignore[valid-type]
_RECORD: TypeAdapter[Any] = TypeAdapter(Record)
# Every record type a line may hold, as the ``type`` field spells it.
RECORD_TYPES = tuple(m.model_fields["type"].default for m in _RECORD_CLASSES)


class Transcript(BaseModel):
    header: HeaderRecord
    records: list[
        Union[EventRecord, AnswerRecord, CallRecord, BeliefRecord, ResultRecord, TimeLimitRecord, SignatureRecord, ErrorRecord]
    ]
    truncated: bool = False  # the last line was cut off mid-write and was dropped

    @property
    def events(self) -> list[EventRecord]:
        return [r for r in self.records if isinstance(r, EventRecord)]

    @property
    def answers(self) -> list[AnswerRecord]:
        return [r for r in self.records if isinstance(r, AnswerRecord)]

    @property
    def calls(self) -> list[CallRecord]:
        return [r for r in self.records if isinstance(r, CallRecord)]

    @property
    def beliefs(self) -> list[BeliefRecord]:
        return [r for r in self.records if isinstance(r, BeliefRecord)]

    @property
    def signatures(self) -> list[SignatureRecord]:
        return [r for r in self.records if isinstance(r, SignatureRecord)]

    @property
    def result(self) -> ResultRecord | None:
        return next((r for r in self.records if isinstance(r, ResultRecord)), None)

    @property
    def error(self) -> ErrorRecord | None:
        return next((r for r in self.records if isinstance(r, ErrorRecord)), None)

    def time_limits(self) -> dict[str, float | None]:
        """Each seat's time limit per decision as the record ends: the header's,
        unless a ``time_limit`` record changed it."""
        limits = {s.name: s.timeout for s in self.header.seats}
        for r in self.records:
            if isinstance(r, TimeLimitRecord):
                limits[r.seat] = r.seconds
        return limits

    @property
    def complete(self) -> bool:
        return self.result is not None


def parse_record(line: str) -> Record:
    """One line to its record; raises ``TranscriptError``.

    A line whose JSON escapes an unpaired surrogate (``\\ud800``) is refused: no
    writer of this program makes one (``engine.words``), and the record could not be
    written again (a resumed game's copy, a fork, an export)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise TranscriptError(f"not JSON: {e.msg}; a transcript has one JSON record a line") from None
    if "\\ud" in line or "\\uD" in line:  # only an escape can make one: a file that is UTF-8 holds none as written
        bad = unencodable(data)
        if bad is not None:
            place, why = bad
            raise TranscriptError(f"{'.'.join(map(str, place))} {why}")
    kinds = RECORD_TYPES
    if not isinstance(data, dict) or data.get("type") not in kinds:
        what = "a JSON object" if isinstance(data, dict) else f"a JSON {type(data).__name__}"
        found = f"'type': {data.get('type')!r}" if isinstance(data, dict) and "type" in data else "no 'type'"
        raise TranscriptError(f"not a transcript record ({what} with {found}; a record's type is one of {', '.join(kinds)})")
    try:
        return _RECORD.validate_python(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise TranscriptError(f"{where}: {first['msg']}" if where else first["msg"]) from None


def read_transcript(path: str | Path) -> Transcript:
    """Read and validate a transcript, complete or partial.

    A last line without its newline is what a killed writer can leave behind; it is
    dropped (``truncated``) when it does not parse, so a partial game stays readable.
    Any other bad line is an error naming its line number.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise TranscriptError(f"cannot read {p}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise TranscriptError(f"cannot read {p}: not a transcript (not UTF-8 text at byte {e.start})") from None
    lines = text.split("\n")
    tail_cut = lines[-1] != ""  # the file does not end with a newline
    if not tail_cut:
        lines.pop()
    records: list[Any] = []
    truncated = False
    for i, line in enumerate(lines, start=1):
        try:
            records.append(parse_record(line))
        except TranscriptError as e:
            if tail_cut and i == len(lines):
                truncated = True
                break
            raise TranscriptError(f"{p}: line {i}: {e}") from None
    if not records or not isinstance(records[0], HeaderRecord):
        raise TranscriptError(f"{p}: the first line must be a header record")
    for i, r in enumerate(records[1:], start=2):
        if isinstance(r, HeaderRecord):
            raise TranscriptError(f"{p}: line {i}: a second header record")
    return Transcript(header=records[0], records=records[1:], truncated=truncated)

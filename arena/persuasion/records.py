"""The persuasion record: every re-ask of a game, in a file of its own beside its transcript.

The re-asks never enter the game, so they are not written into its transcript (which
``werewolf verify`` re-plays exactly, and which a signature may cover): they go to
``<game>.persuasion.ndjson`` beside it, one JSON object a line (newline-delimited
JSON; not ``.jsonl``, so the readers of a folder of transcripts never take it for
one). The file is appended to, never rewritten:

- ``persuasion``: a run's settings (the transcript's digest, the seed, the share of
  speeches, the repeats, the neutral lines), written at the start of each run;
- ``speech``: a measured speech (who said it, whom it accuses, the truth about both
  at the vote, its listeners), written before its first ask;
- ``ask``: one question put to one listener's twin in one arm (``said``: the speech
  as said; ``neutral``: replaced by the neutral line; ``control``: replaced by a
  second neutral line), with the answer and, when the game asks beliefs, the beliefs;
- ``call``: a model call made for an ask, with its cost (the game's ``call`` record,
  tagged with the ask it served).

A run reuses every ask the file already holds for the same transcript and neutral
lines (an interrupted or budget-stopped run goes on where it stopped; a larger
``--speeches`` or ``--repeats`` adds to a smaller one). A file made for another
version of the transcript, or with other neutral lines, is moved aside (``.old``),
never deleted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from arena.persuasion.paths import SUFFIX as SUFFIX
from arena.persuasion.paths import sidecar_for as sidecar_for
from transcripts.schema import CallRecord

FORMAT: Final = "werewolf-persuasion"
ARMS = ("said", "neutral", "control")
Arm = Literal["said", "neutral", "control"]


class PersuasionFileError(ValueError):
    """A persuasion record that cannot be read or written; the message says why."""


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunRecord(_Rec):
    type: Literal["persuasion"] = "persuasion"
    format: Literal["werewolf-persuasion"] = FORMAT
    version: Literal[1] = 1
    transcript: str
    source_sha256: str
    seed: int
    speeches: float
    repeats: int
    control: bool = False
    sampled: list[int] = Field(default_factory=list)  # the speeches this run measures (their event numbers)
    language: str = "en"
    neutral: str
    control_line: str
    software: str = ""


class HeardBy(_Rec):
    seat: str
    decision: int
    agent: str  # the listener's label: a model seat's display name, else its agent spec
    side: str
    once: bool  # asked once per arm (a bot, deterministic for its seed); else ``repeats`` times


class SpeechRecord(_Rec):
    type: Literal["speech"] = "speech"
    seq: int
    day: int
    speaker: str
    agent: str
    side: str
    wolf: bool  # the speaker, at the vote
    accused: list[str]
    accused_wolf: list[bool]  # per accused, at the vote
    listeners: list[HeardBy]


class AskRecord(_Rec):
    type: Literal["ask"] = "ask"
    speech: int
    seat: str
    arm: Arm
    repeat: int
    decision: int
    vote: Any = None
    fallback: bool = False  # a model seat's fallback bot answered: not the model's vote
    error: str | None = None  # the twin could not answer: the ask is missing
    beliefs: dict[str, float] | None = None

    @property
    def key(self) -> tuple[int, str, str, int]:
        return (self.speech, self.seat, self.arm, self.repeat)

    @property
    def usable(self) -> bool:
        return self.error is None and not self.fallback


class AskCallRecord(_Rec):
    type: Literal["call"] = "call"
    speech: int
    seat: str
    arm: Arm
    repeat: int
    call: CallRecord


Record = Annotated[Union[RunRecord, SpeechRecord, AskRecord, AskCallRecord], Field(discriminator="type")]
_RECORD: TypeAdapter[Any] = TypeAdapter(Record)


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class Recorded:
    """What a persuasion file holds: its runs, speeches, asks (by key) and calls."""

    def __init__(self) -> None:
        self.runs: list[RunRecord] = []
        self.speeches: dict[int, SpeechRecord] = {}
        self.asks: dict[tuple[int, str, str, int], AskRecord] = {}
        self.calls: list[AskCallRecord] = []

    def add(self, r: Any) -> None:
        if isinstance(r, RunRecord):
            self.runs.append(r)
        elif isinstance(r, SpeechRecord):
            self.speeches[r.seq] = r
        elif isinstance(r, AskRecord):
            self.asks[r.key] = r
        elif isinstance(r, AskCallRecord):
            self.calls.append(r)

    @property
    def last(self) -> RunRecord | None:
        return self.runs[-1] if self.runs else None


def read_records(path: str | Path) -> Recorded:
    """Every record of a persuasion file; a last line cut off mid-write is dropped,
    any other bad line is a ``PersuasionFileError`` naming it."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise PersuasionFileError(f"cannot read {p}: {getattr(e, 'strerror', None) or e}") from None
    cut = lines[-1] != ""
    if not cut:
        lines.pop()
    out = Recorded()
    for i, line in enumerate(lines, start=1):
        try:
            out.add(_RECORD.validate_json(line))
        except ValidationError as e:
            if cut and i == len(lines):
                break
            raise PersuasionFileError(f"{p}: line {i}: not a persuasion record ({e.errors()[0]['msg']})") from None
    return out


class Sidecar:
    """A transcript's persuasion file, open for a run: what it held, and an appender."""

    def __init__(self, path: Path, run: RunRecord):
        self.path = path
        self.run = run
        self.held = Recorded()
        self.moved: Path | None = None  # an earlier file that did not match, moved aside
        if path.exists():
            try:
                held = read_records(path)
            except PersuasionFileError:
                held = None
            last = held.last if held is not None else None
            if held is not None and last is not None and _same_source(last, run):
                self.held = held
            else:
                self.moved = _aside(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._f = path.open("a", encoding="utf-8")
        except OSError as e:
            raise PersuasionFileError(f"cannot write {path}: {e.strerror or e}") from None
        self.write(run)

    def write(self, record: _Rec) -> None:
        self._f.write(record.model_dump_json(exclude_none=False) + "\n")
        self._f.flush()
        self.held.add(record)

    def close(self) -> None:
        self._f.close()


def _same_source(old: RunRecord, new: RunRecord) -> bool:
    """Asks recorded under ``old`` answer the same questions as under ``new``."""
    return (old.source_sha256, old.neutral, old.control_line) == (new.source_sha256, new.neutral, new.control_line)


def _aside(path: Path) -> Path:
    n = 1
    while (target := path.with_name(f"{path.name}.{n}.old")).exists():
        n += 1
    path.rename(target)
    return target

"""Every model call, recorded: who asked what, what came back, what it cost.

``CallRecord`` is the transcript's ``call`` line (defined with the transcript format so
a reader needs no model code). ``CallLog`` collects the records of a game, passes each
to its subscribers as it ends (the transcript writer), and sums them per seat for the
closing table.

Secrets: a record holds messages, replies and error texts, and an SDK's error text
can quote a key ("Incorrect API key provided: sk-...abcd"). Every string of a record
is therefore scrubbed before it is stored: exact values of the environment's secret
variables, and anything shaped like a vendor key. And every string is made one a
transcript can store: a reply's ``\ud800`` (JSON's escape of an unpaired surrogate)
reads as a character no UTF-8 file holds, and is written as U+FFFD
(``engine.words.encodable``); the words the seat played were repaired before the
engine took them (``agents.llm.interpret``).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable

from pydantic import BaseModel

from transcripts.call_counts import CallCounts, is_own, made_request
from engine.words import encodable
from transcripts.schema import CallRecord

__all__ = ["CallLog", "CallRecord", "SeatUsage", "redact", "secret_values"]

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.I)
# sk-..., sk-ant-..., sk-proj-...: vendor keys, including SDK-masked forms ("sk-ab***cd").
_KEY_SHAPE = re.compile(r"\b(sk-[A-Za-z0-9_\-*]{6,}|sk-ant-[A-Za-z0-9_\-*]{6,}|(?:Bearer|x-api-key:?)\s+[A-Za-z0-9_\-.*]{8,})")
REDACTED = "[redacted]"


def secret_values(extra: Iterable[str] = ()) -> list[str]:
    """The values to scrub: every environment variable whose name says it is secret,
    plus ``extra`` (keys given in code). Short values are skipped: scrubbing "1" would
    mangle every record."""
    vals = {v for k, v in os.environ.items() if _SECRET_NAME.search(k) and len(v) >= 6}
    vals.update(v for v in extra if v and len(v) >= 6)
    return sorted(vals, key=len, reverse=True)


def redact(value: Any, secrets: Iterable[str] | None = None) -> Any:
    """``value`` with every secret replaced, and every string made storable
    (``engine.words.encodable``), recursively through dicts and lists."""
    secrets = secret_values() if secrets is None else list(secrets)
    return _redact(value, secrets)


def _redact(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        value = encodable(value)
        for s in secrets:
            if s in value:
                value = value.replace(s, REDACTED)
        return _KEY_SHAPE.sub(REDACTED, value)
    if isinstance(value, dict):
        return {k: _redact(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact(v, secrets) for v in value]
    return value


class SeatUsage(BaseModel):
    """One seat's totals, for the closing table and for measurement."""

    seat: str
    model: str = ""
    own: bool = False  # an agent of one's own (``py:``): its fallbacks, no calls (``agents.own_seat``)
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0  # hidden reasoning, within output_tokens (billed as output)
    cost_usd: float | None = 0.0  # None once any call had no known price
    violations: int = 0  # replies refused as malformed or illegal
    fallbacks: int = 0  # decisions the fallback bot answered
    errors: int = 0  # calls that failed after their retries, decisions that ended with no reply
    retries: int = 0
    latency_s: float = 0.0


Listener = Callable[[CallRecord], None]


class CallLog:
    """The calls of one game (or of one agent, when nobody shares a log)."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._listeners: list[Listener] = []
        self._secrets_extra: list[str] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def add_secret(self, value: str | None) -> None:
        """A key passed in code, not through the environment: scrub it too."""
        if value:
            self._secrets_extra.append(value)

    def add(self, record: CallRecord) -> CallRecord:
        clean = CallRecord.model_validate(redact(record.model_dump(), secret_values(self._secrets_extra)))
        self.records.append(clean)
        for listener in list(self._listeners):
            listener(clean)
        return clean

    def for_seat(self, seat: str) -> list[CallRecord]:
        return [r for r in self.records if r.seat == seat]

    def summary(self) -> list[SeatUsage]:
        return summarize(self.records)


def summarize(records: Iterable[CallRecord]) -> list[SeatUsage]:
    """Per-seat totals in order of first appearance. ``calls``, ``fallbacks`` and
    ``errors`` are counted by ``transcripts.call_counts`` (the words of the result,
    the closing table and ``werewolf verify``): a record that made no request (a
    decision answered without one, a seat no longer asked) counts no call, and costs
    nothing."""
    rows: dict[str, SeatUsage] = {}
    counts: dict[str, CallCounts] = {}
    for r in records:
        u = rows.setdefault(r.seat, SeatUsage(seat=r.seat, model=r.display_name or r.model, own=is_own(r)))
        counts.setdefault(r.seat, CallCounts()).add(r)
        u.input_tokens += r.input_tokens or 0
        u.output_tokens += r.output_tokens or 0
        u.cached_tokens += r.cached_tokens or 0
        u.reasoning_tokens += r.reasoning_tokens or 0
        if made_request(r) and r.input_tokens is not None:
            if r.cost_usd is None or u.cost_usd is None:
                u.cost_usd = None
            else:
                u.cost_usd = round(u.cost_usd + r.cost_usd, 8)
        u.violations += 1 if r.violation else 0
        u.retries += r.retries
        u.latency_s = round(u.latency_s + r.latency_s, 6)
    for seat, u in rows.items():
        u.calls, u.fallbacks, u.errors = counts[seat].calls, counts[seat].fallbacks, counts[seat].errors
    return list(rows.values())

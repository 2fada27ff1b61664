"""What a remote seat is sent for each decision, and how its reply is read, as plain
JSON (the A2A SDK's types stay in ``agents.a2a.transport``).

Each decision is one A2A message of two parts (docs/REMOTE_AGENTS.md):

- a text part: what a model seat in the same chair is told, in the game's language,
  as a conversation (the context's first message opens with the system part; each
  message holds the history lines new since the last and the question, with the
  answer's JSON schema), so an agent that forwards it to a language model needs
  nothing else;
- a JSON part (a text part of media type ``application/json``, see
  ``agents.a2a.transport.outgoing``), the same as structured data (``DecisionData``):
  the decision (kind, shape, legal options), the answer's JSON schema, the seat's
  events since the last message it was sent (each with the history line it reads
  as), and the seconds left for the decision.

A re-ask (the answer was refused) is a message in the same context whose text is the
reason, as a model is told, and whose data says it again under ``refused``.

The reply is a message (or a finished task's artifact) holding the answer object a
model would write (``{"action": ...}``, ``{"text": ...}``), as a data part or as JSON
text; it is read by the model seat's own reader (``agents.llm.interpret``), so it is
refused, re-asked and recorded exactly as a model's would be.

The ``TypedDict``s document the JSON; the messages are built as plain dicts, the
fastest thing to serialise.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, TypedDict

from engine.decisions import Decision
from engine.events import Event
from prompts.catalog import catalog
from prompts.history import render_event

PROTOCOL = "werewolf-arena/decision@1"


class WireEvent(TypedDict):
    """One event the seat was shown: the engine's record of it (as in a transcript,
    without its audience) and the line the seat's history reads for it."""

    seq: int
    day: int
    phase: str
    kind: str
    public: bool
    text: str
    data: dict[str, Any]


class WireDecision(TypedDict):
    id: int
    kind: str  # ``vote``, ``seer_check``... (docs/RULES.md), or ``beliefs`` for the beliefs question
    shape: str  # choice | multi | bool | text | beliefs
    options: list[Any]
    allow_pass: bool
    count: int
    context: dict[str, Any]


class DecisionData(TypedDict):
    protocol: str
    seat: str
    language: str
    decision: WireDecision
    answer_schema: dict[str, Any]
    events: list[WireEvent]
    time_left_s: float
    attempt: int
    refused: str | None


def decision_json(d: Decision) -> WireDecision:
    return {
        "id": d.id,
        "kind": str(d.kind),
        "shape": str(d.shape),
        "options": [jsonable(o) for o in d.options],
        "allow_pass": d.allow_pass,
        "count": d.count,
        "context": {str(k): jsonable(v) for k, v in d.context.items()},
    }


def events_json(events: Iterable[Event], seat: str, language: str) -> list[WireEvent]:
    """The seat's events as sent: each with the line its history reads for it (empty
    for an event its history leaves out), so the text part's history is these lines."""
    cat = catalog(language)
    return [
        {
            "seq": e.seq,
            "day": e.day,
            "phase": e.phase,
            "kind": e.kind,
            "public": e.is_public,
            "text": render_event(cat, e, seat),
            "data": e.data.to_json(),
        }
        for e in events
    ]


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it (tuples as lists, sets sorted, anything else as
    its text): a decision's options and context are the engine's own values."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    return str(value)


def whole_numbers(value: Any) -> Any:
    """A reply's data with whole floats made ints: A2A carries data as protobuf
    ``Value``s, whose numbers are all doubles, so a bid of 3 arrives as 3.0 and must be
    recorded as the 3 the engine offered."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    return value


def reply_text(texts: list[str], data: list[Any]) -> str:
    """The reply as one text, for the record and for the tolerant reader when no data
    part holds an object: the text parts, else the data parts as JSON."""
    if texts:
        return "\n".join(texts)
    if data:
        return json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False)
    return ""


def wrong_addressee(data: Any, seat: str, decision_id: int) -> str | None:
    """Why a reply that names its seat or decision is not this one's answer: an agent
    serving several seats that answers for another (or an old question) must not have
    that answer played here."""
    if not isinstance(data, dict):
        return None
    named = data.get("seat")
    if named is not None and named != seat:
        return f"this reply is for seat {json.dumps(str(named))[:60]}, but the question was put to {seat}; answer for {seat}"
    asked = data.get("decision")
    if isinstance(asked, (int, float)) and not isinstance(asked, bool) and asked != decision_id:
        return f"this reply answers decision {asked:g}, but the question is decision {decision_id}"
    return None

"""A recorded event's payload as its kind's typed class, apart from the schema.

``werewolf metrics`` reads thousands of transcripts' events and none of the records'
pydantic models; keeping this function here (``transcripts.schema`` re-exports it)
lets it load the engine's event classes without pydantic and the signing code.
"""

from __future__ import annotations

from typing import Any

from engine.events import EVENT_KINDS, EventData


def declared_payload(kind: str, data: Any) -> EventData:
    """The declared payload of a recorded event (``engine.events.EVENT_KINDS``): the
    one place a record's ``data`` becomes its kind's typed class. Raises ``ValueError``
    saying what is wrong for a kind this version does not declare or data that is not
    its kind's fields (a file of another version, a hand edit): a reader of version 1
    must not silently misread it, as it refuses unknown record fields."""
    cls = EVENT_KINDS.get(kind)
    if cls is None:
        raise ValueError(f"event kind {kind!r} is not one this version declares")
    if not isinstance(data, dict):
        raise ValueError(f"{kind}: data must be a JSON object, not {type(data).__name__}")
    return cls.from_json(data)

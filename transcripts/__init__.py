"""Game transcripts: a versioned JSON Lines record that is enough to replay a game.

The names below load with their module on first use, not with the package: a reader
of events alone (``transcripts.payloads``, what ``werewolf metrics`` uses) then loads
neither pydantic (``transcripts.schema``) nor the signing code (``transcripts.writer``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from transcripts.schema import (
        FORMAT,
        VERSION,
        AnswerRecord,
        BeliefRecord,
        ErrorRecord,
        EventRecord,
        HeaderRecord,
        ResultRecord,
        SeatRecord,
        SignatureRecord,
        SignerRecord,
        TimeLimitRecord,
        Transcript,
        TranscriptError,
        read_transcript,
    )
    from transcripts.writer import TranscriptWriter, software_version

_WHERE = {
    **dict.fromkeys(
        ("FORMAT", "VERSION", "AnswerRecord", "BeliefRecord", "ErrorRecord", "EventRecord", "HeaderRecord", "ResultRecord",
         "SeatRecord", "SignatureRecord", "SignerRecord", "TimeLimitRecord", "Transcript", "TranscriptError", "read_transcript"),
        "transcripts.schema",
    ),  # fmt: skip
    "TranscriptWriter": "transcripts.writer",
    "software_version": "transcripts.writer",
}

__all__ = [
    "FORMAT",
    "VERSION",
    "AnswerRecord",
    "BeliefRecord",
    "ErrorRecord",
    "EventRecord",
    "HeaderRecord",
    "ResultRecord",
    "SeatRecord",
    "SignatureRecord",
    "SignerRecord",
    "TimeLimitRecord",
    "Transcript",
    "TranscriptError",
    "TranscriptWriter",
    "read_transcript",
    "software_version",
]  # every name of _WHERE


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'transcripts' has no attribute {name!r}")
    return getattr(import_module(module), name)

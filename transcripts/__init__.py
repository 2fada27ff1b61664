"""Game transcripts: a versioned JSON Lines record that is enough to replay a game."""

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
]

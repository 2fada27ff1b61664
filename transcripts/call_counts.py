"""What a model seat's ``call`` records count, in the words every reader uses.

Why one definition: the closing table of ``werewolf play``, its ``--json`` result and
``werewolf verify`` once counted different things under the same word (verify said
"5 model calls checked" of a game in which the model was never reached and the
fallback bot played all 5 decisions). Each now counts through here:

- ``calls``: requests sent to the model (each re-ask is one); a decision answered
  without a request (its only legal answer, a seat no longer asked) and a request
  that could not be sent at all (nothing listening) are not calls;
- ``fallbacks``: decisions the fallback bot answered for the seat;
- ``errors``: calls that failed after their retries, and decisions that ended with
  no reply (the decision's time limit, a seat no longer asked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from transcripts.schema import CallRecord

WORDS = ("calls", "fallbacks", "errors")


def made_request(record: CallRecord) -> bool:
    """Whether ``record`` is of a request sent to the model: its messages are kept
    exactly when one was (answered, refused, or cut off in flight)."""
    return bool(record.messages)


@dataclass
class CallCounts:
    calls: int = 0
    fallbacks: int = 0
    errors: int = 0
    records: int = 0  # every call record, whatever it counts as

    def add(self, record: CallRecord) -> None:
        self.records += 1
        self.calls += made_request(record)
        self.fallbacks += record.fallback
        self.errors += bool(record.error)

    def words(self) -> str:
        """``0 calls, 5 fallbacks, 5 errors``: the table's and the result's words."""
        return ", ".join(f"{getattr(self, w)} {w}" for w in WORDS)

    def as_dict(self) -> dict[str, int]:
        return {w: getattr(self, w) for w in WORDS}


def count(records: Iterable[CallRecord]) -> CallCounts:
    """All of ``records``, every seat together."""
    total = CallCounts()
    for r in records:
        total.add(r)
    return total


def by_seat(records: Iterable[CallRecord]) -> dict[str, CallCounts]:
    """Per seat, in order of first appearance."""
    seats: dict[str, CallCounts] = {}
    for r in records:
        seats.setdefault(r.seat, CallCounts()).add(r)
    return seats

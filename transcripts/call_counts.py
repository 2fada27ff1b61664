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

An agent of one's own (``py:MODULE:CLASS``) makes no calls; the decisions the
fallback bot played for it (its move refused, or its ``decide`` raised: an error)
are counted the same way (``agents.own_seat``), and the words say whose they are
(``whose``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Iterable

if TYPE_CHECKING:  # records are read, never built: the narrator's notices load no pydantic
    from transcripts.schema import CallRecord

# The ``backend`` of the call records an agent of one's own (``py:MODULE:CLASS``)
# writes: one per decision the fallback bot played for it (its move refused by the
# engine, or its ``decide`` raised), with ``model`` its ``MODULE:CLASS`` and no request
# (``agents.own_seat``). Its other decisions, its own moves, have no record.
OWN_AGENT_BACKEND: Final = "py"
OWN_AGENT_PREFIX: Final = OWN_AGENT_BACKEND + ":"  # the spec of an agent of one's own, and of its answers' ``agent``

WORDS = ("calls", "fallbacks", "errors")
MODEL_SEATS = "model seats"
OWN_AGENTS = "agents of your own"


def made_request(record: CallRecord | Mapping[str, Any]) -> bool:
    """Whether ``record`` (a call record, or its JSON object as a transcript holds it,
    which the metrics read) is of a request sent to the model: its messages are kept
    exactly when one was (answered, refused, or cut off in flight). What ``calls``
    counts, wherever it is counted."""
    messages = record.get("messages") if isinstance(record, Mapping) else record.messages
    return bool(messages)


@dataclass
class CallCounts:
    calls: int = 0
    fallbacks: int = 0
    errors: int = 0
    records: int = 0  # every call record, whatever it counts as
    own: int = 0  # of which an agent of one's own wrote (``OWN_AGENT_BACKEND``)

    def add(self, record: CallRecord) -> None:
        self.records += 1
        self.own += is_own(record)
        self.calls += made_request(record)
        self.fallbacks += record.fallback
        self.errors += bool(record.error)

    def words(self) -> str:
        """``0 calls, 5 fallbacks, 5 errors``: the table's and the result's words."""
        return ", ".join(f"{getattr(self, w)} {w}" for w in WORDS)

    def whose(self) -> str:
        """Whose records these are: ``model seats``, ``agents of your own``, or both."""
        return whose(models=self.records > self.own, own=self.own > 0)

    def as_dict(self) -> dict[str, int]:
        return {w: getattr(self, w) for w in WORDS}


def is_own_agent(spec: str) -> bool:
    """Whether ``spec`` (a seat's, an answer's ``agent``) names an agent of one's own."""
    return spec.startswith(OWN_AGENT_PREFIX)


def is_own(record: CallRecord) -> bool:
    """Whether ``record`` is an agent of one's own's fallback, not a model's call."""
    return record.backend == OWN_AGENT_BACKEND


def whose(*, models: bool, own: bool) -> str:
    """The words for seats with call records: model seats, agents of one's own, or both."""
    if own and not models:
        return OWN_AGENTS
    return f"{MODEL_SEATS} and {OWN_AGENTS}" if own else MODEL_SEATS


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

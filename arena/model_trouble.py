"""A model seat that has stopped answering, said while the game is played.

When a seat's model gives no answer (its server down or refusing, every attempt's
answer lost, the time limit reached, the seat disabled), the fallback bot plays the
decision and the game goes on looking normal: a researcher with a typo in a URL
would believe the model played. ``FailureWatch`` reads the game's call records as
they are written (a ``CallLog`` listener) and tells its listeners once per streak:
``ModelFailing`` when a seat's model has failed ``FAILED_IN_A_ROW`` decisions in a
row (at once when the seat is disabled: nothing later can cure it, so waiting would
only delay the news), ``ModelRecovered`` when it answers again after being said to
fail, so a notice never outlives its truth; a later streak is told again.

Why three: a failed decision has already used the seat's retries (several attempts
with backoff, ``agents.llm.backends.base``), so one failure is a server that stayed
down that long, and one or two in a row still happen when a vendor has a bad minute
or a local server restarts; three in a row (a day's speech, vote and more) is a seat
the model no longer plays, and the game is still young when it is said.

A decision "failed" when the fallback bot played it because no answer came: its last
record holds an ``error``. A fallback after replies the rules refused is not one (the
model answered, badly: that is its violation), and ends a streak like any answer. A
decision settled without a call (the only legal answer) says nothing either way; the
private beliefs question is not a decision.

An agent of one's own (``py:MODULE:CLASS``) has no model to stop answering: a record
of one is a move of its that the game could not take (or a ``decide`` that raised),
which the fallback bot played (``agents.own_seat``). The first in a game is told at
once (``AnswerReplaced``), the later ones are counted by the closing table, since a
fault in a class's code recurs and a notice per decision would drown the game. The
notice says whether the move was refused or ``decide`` raised, never the engine's
reason: a refusal names the legal answers and why another is not one ("Bob is
Alice's beloved"), hidden information a person at the table or a spectator must not
read; the transcript's call record keeps it.

The notice is arena information, not a game event: nothing of it reaches the engine,
a transcript's events or any seat's prompt. Whoever shows it chooses the decisions
that count (``kinds``): a person at the table must not learn who was woken at night,
so their screen counts only ``OPEN_KINDS``, the decisions every seat is asked in the
open. The error is the record's as the ``CallLog`` stored it, already scrubbed of
keys and secrets (``agents.llm.accounting.redact``, applied to every record before
any listener sees it), cut to one short line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Collection

from engine.flow.protocols import BID
from engine.flow.sheriff import SHERIFF_RUN
from engine.flow.voting import SHERIFF_VOTE, VOTE
from engine.speech import SPEAK
from transcripts.call_counts import is_own

if TYPE_CHECKING:  # the records are read, never built: the narrator need not load pydantic
    from transcripts.schema import CallRecord

FAILED_IN_A_ROW = 3
ERROR_CHARS = 240  # of the last error, in a notice

# Decisions every living seat is asked, in the open (whose turn it is to speak, who
# votes, who runs for Sheriff and bids for the floor are the table's knowledge): a
# failure among them tells nothing of anybody's card.
OPEN_KINDS = frozenset({SPEAK, VOTE, SHERIFF_VOTE, SHERIFF_RUN, BID})
BELIEFS = "beliefs"  # the kind of a beliefs question's records (``agents.llm.agent.BELIEFS_KIND``)


@dataclass(frozen=True, slots=True)
class ModelFailing:
    """``seat``'s model gave no answer to its last ``decisions`` decisions (that
    counted); ``disabled``: it will not be asked again this game."""

    seat: str
    model: str
    decisions: int
    error: str
    disabled: bool = False

    @property
    def kind(self) -> str:
        return "disabled" if self.disabled else "failing"


@dataclass(frozen=True, slots=True)
class ModelRecovered:
    """``seat``'s model, said to fail, answered again after ``decisions`` failed ones."""

    seat: str
    model: str
    decisions: int
    kind = "recovered"


@dataclass(frozen=True, slots=True)
class AnswerReplaced:
    """``seat``'s agent of one's own made a move the game could not take (``raised``:
    its ``decide`` raised instead), and the fallback bot played that decision."""

    seat: str
    model: str
    raised: bool = False

    @property
    def kind(self) -> str:
        return "raised" if self.raised else "replaced"


Notice = ModelFailing | ModelRecovered | AnswerReplaced
Listener = Callable[[Notice], None]


def model_of(record: CallRecord) -> str:
    """The model as the seat's table names it: its display name, else its spec."""
    return record.display_name or f"{record.backend}:{record.model}"


def one_line(error: str) -> str:
    """``error`` on one line of at most ``ERROR_CHARS``."""
    text = " ".join(error.split())
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def notice_line(notice: Notice, term: Callable[..., str]) -> str:
    """The notice as a terminal prints it (rich markup): the words of
    ``narration.model_trouble`` through ``term`` (a screen's own, in its language,
    which escapes the values it fills in)."""
    style = "green" if isinstance(notice, ModelRecovered) else "yellow"
    return f"[{style}]{term(f'model_trouble.{notice.kind}', **words(notice))}[/{style}]"


def words(notice: Notice) -> dict[str, str | int]:
    """What a notice's sentence names: ``seat``, ``model``, ``count`` and ``error``."""
    return {"seat": notice.seat, "model": notice.model, "count": getattr(notice, "decisions", 1), "error": getattr(notice, "error", "")}


@dataclass
class _Streak:
    failed: int = 0
    error: str = ""
    told: bool = False


class FailureWatch:
    """Each seat's run of failed decisions, told to the listeners once per streak.

    ``kinds``: the decision kinds that count (every kind when ``None``); the others
    neither lengthen nor end a streak. ``disabled(seat)``: whether the seat's model
    will not be asked again (``agents.llm.agent.LLMAgent.disabled``)."""

    def __init__(
        self,
        *,
        threshold: int = FAILED_IN_A_ROW,
        kinds: Collection[str] | None = None,
        disabled: Callable[[str], bool] | None = None,
    ):
        if threshold < 1:
            raise ValueError(f"a streak is at least one decision long, not {threshold}")
        self.threshold = threshold
        self.kinds = None if kinds is None else frozenset(kinds)
        self.disabled = disabled or (lambda seat: False)
        self.streaks: dict[str, _Streak] = {}
        self.replaced: set[str] = set()  # agents of one's own told of, once per game
        self.told: list[Notice] = []
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def __call__(self, record: CallRecord) -> None:
        """Read one call record (``CallLog.subscribe(watch)``)."""
        if record.kind == BELIEFS or (self.kinds is not None and record.kind not in self.kinds):
            return
        if is_own(record):
            self._replaced(record)
            return
        if not (record.accepted or record.fallback):
            return  # a refused reply, re-asked: the decision goes on
        if record.accepted and not record.fallback and not record.messages:
            return  # settled without a call: nothing was asked of the model
        streak = self.streaks.setdefault(record.seat, _Streak())
        if record.fallback and record.error is not None:
            streak.failed += 1
            streak.error = record.error
            disabled = self.disabled(record.seat)
            if not streak.told and (streak.failed >= self.threshold or disabled):
                streak.told = True
                self._tell(ModelFailing(record.seat, model_of(record), streak.failed, one_line(streak.error), disabled))
            return
        if streak.told:
            self._tell(ModelRecovered(record.seat, model_of(record), streak.failed))
        self.streaks[record.seat] = _Streak()

    def _replaced(self, record: CallRecord) -> None:
        """An agent of one's own's fallback: told the first time in the game."""
        if not record.fallback or record.seat in self.replaced:
            return
        self.replaced.add(record.seat)
        self._tell(AnswerReplaced(record.seat, model_of(record), raised=record.error is not None))

    def _tell(self, notice: Notice) -> None:
        self.told.append(notice)
        for listener in list(self._listeners):
            listener(notice)

"""A model seat's speech as it is written: drafts for the people watching.

Why only drafts: the game records and every other seat reads the speech the agent
checked (``agents.llm.interpret``), never a stream. What streams is for the eye only,
so a seat's table does not sit silent for the seconds a vendor API, or the tens of
seconds a local model, takes to write a whole reply.

Why only the ``text`` field: a reply is one JSON object whose other fields hold the
seat's private reasoning, its claims, its target. The object is read as it arrives
with jiter's partial mode (the JSON parser pydantic and the ``openai`` SDK already
use; ``trailing-strings`` keeps the string being written), and only the top-level
``text`` string is ever passed on; a reply that is not (yet) such an object shows
nothing. A reply the checks then refuse, or one cut on the way, is *withdrawn*: the
viewers are told, and the checked speech (a re-ask's, or the fallback bot's) replaces
it when the engine publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

import jiter

DraftState = Literal["speaking", "withdrawn", "done", "unstreamed"]


@dataclass(frozen=True, slots=True)
class Draft:
    """One step of a seat's speech being written.

    ``speaking``: ``text`` is the public words so far (the whole draft, not a piece).
    ``withdrawn``: the draft shown so far failed the checks or was cut; ``note`` says why.
    ``done``: the decision is answered; the speech event the engine publishes next is
    what stands (``replaced``: it differs from the last draft shown).
    ``unstreamed``: this seat's server cannot stream its replies; ``note`` says why.
    """

    seat: str
    decision: int
    state: DraftState
    text: str = ""
    note: str = ""
    replaced: bool = False


DraftSink = Callable[[Draft], None]


def visible_text(raw: str) -> str | None:
    """The top-level ``text`` string of the JSON object ``raw`` begins, as far as it
    has arrived; ``None`` when ``raw`` holds no such object (yet). Text before the
    object's brace (a chatty model's preamble, a code fence) is skipped; anything else
    of the object is never returned."""
    start = raw.find("{")
    if start < 0:
        return None
    try:
        value = jiter.from_json(raw[start:].encode(), partial_mode="trailing-strings")
    except ValueError:  # not JSON, or JSON with prose after it: show nothing new
        return None
    if isinstance(value, dict):
        text = value.get("text")
        if isinstance(text, str):
            return text
    return None


class SpeechStream:
    """One speech decision's drafts: what a back end streams in, what the sink is told.

    The back end calls ``begin`` before each streamed request (a retry starts a new
    reply), ``raw`` with the reply so far, ``unstreamed`` when its server cannot
    stream; the agent calls ``refused`` when a reply fails its checks and ``done`` when
    the decision is answered."""

    def __init__(self, sink: DraftSink, seat: str, decision: int):
        self.sink, self.seat, self.decision = sink, seat, decision
        self.shown = ""  # the last draft text the viewers were sent
        self.chunks = 0  # drafts sent, for the record and the tests

    def _send(self, state: DraftState, text: str = "", note: str = "", replaced: bool = False) -> None:
        self.sink(Draft(self.seat, self.decision, state, text, note, replaced))

    def begin(self) -> None:
        if self.shown:
            self.withdraw("the answer was cut on the way; the model is asked again")

    def raw(self, text: str) -> None:
        words = visible_text(text)
        if words is None or words == self.shown:
            return
        self.shown = words
        self.chunks += 1
        self._send("speaking", words)

    def unstreamed(self, why: str) -> None:
        self._send("unstreamed", note=why)

    def withdraw(self, why: str) -> None:
        """The draft shown failed (its reply refused, or cut): the viewers are told."""
        if self.shown:
            self.shown = ""
            self._send("withdrawn", note=why)

    def done(self, speech: str) -> None:
        self._send("done", speech, replaced=bool(self.shown) and speech != self.shown)

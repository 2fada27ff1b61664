"""The ``beliefs`` game option: each seat's private P(wolf) for the others, every day.

Not a rule: the engine never knows. The runner (``arena.runner``) hands a
``BeliefPoll`` each batch it is about to ask; when the batch opens a day's vote (its
first ``vote`` decisions, before any is answered), the poll asks every living seat
whose agent gives beliefs (model seats, heuristic bots) for the probability that each
other living player is a werewolf. Model seats are asked concurrently with each other
and with the vote itself; nothing they answer enters any seat's view or prompt, so a
belief can never change play.

Each answer becomes one ``belief`` record (``transcripts.schema.BeliefRecord``),
private to its seat, handed to the poll's listeners (the transcript writer) as soon
as the seat has answered, which is always before the vote's answers are submitted.
A seat that fails to answer (an unreadable reply after the re-asks, a failed call,
the time limit, any exception) gets a record with ``probabilities: null`` and the
reason: missing, never a guess, and never the end of the game.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Iterable, Mapping

from agents.base import Agent, BeliefFailed, SeatView
from agents.own_seat import OwnSeat
from transcripts.schema import BeliefRecord

Listener = Callable[[BeliefRecord], None]

VOTE = "vote"


def gives_beliefs(agent: Agent) -> bool:
    """Whether ``agent`` answers the beliefs question (overrides ``Agent.beliefs``); a
    ``py:`` seat when its own class does (``agents.own_seat``)."""
    cls = type(agent.own if isinstance(agent, OwnSeat) else agent)
    return cls.beliefs is not Agent.beliefs or cls.abeliefs is not Agent.abeliefs


class BeliefPoll:
    """Asks the day's beliefs once per day, when the vote opens.

    ``recorded`` are the (day, seat) whose beliefs a resumed game's transcript already
    holds: those seats are not asked again, the others are (a game killed half-way
    through a poll goes on as if it never stopped).
    """

    def __init__(self, *, recorded: Iterable[tuple[int, str]] = ()):
        self.done: set[int] = set()  # days polled by this run
        self.recorded: set[tuple[int, str]] = set(recorded)
        self.records: list[BeliefRecord] = []
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def announce(self, agents: Mapping[str, Agent]) -> None:
        """Tell the seats that give beliefs, before their first decision, that they
        will be asked (``expect_beliefs``, where an agent has it): a model seat lays
        out every request of the game for the question from its first call (one
        answer schema holding it, ``agents.llm.schema.game_schema``)."""
        for agent in agents.values():
            expect = getattr(agent, "expect_beliefs", None)
            if callable(expect) and gives_beliefs(agent):
                expect()

    # ------------------------------------------------------------------ when, whom
    def moment(self, game: Any, batch: list[Any]) -> int | None:
        """The id of the batch's first vote decision when the batch opens a day's vote
        not polled yet; else ``None``."""
        if game.day in self.done:
            return None
        for d in batch:
            if d.kind == VOTE:
                return d.id
        return None

    def seats(self, game: Any, agents: Mapping[str, Agent]) -> list[str]:
        """The living seats to ask today, in seat order."""
        day, recorded = game.day, self.recorded
        return [
            p.name
            for p in game.players
            if p.alive and p.name in agents and (day, p.name) not in recorded and gives_beliefs(agents[p.name])
        ]

    # ------------------------------------------------------------------ asking
    def poll(self, game: Any, agents: Mapping[str, Agent], batch: list[Any]) -> None:
        """The synchronous runner's poll: each seat in turn."""
        moment = self.moment(game, batch)
        if moment is None:
            return
        self.done.add(game.day)
        day = game.day
        for seat in self.seats(game, agents):
            view = SeatView(seat, game.observation(seat))
            try:
                probs, error = agents[seat].beliefs(view, moment), None
            except Exception as e:  # a failing seat's belief is missing, the game goes on
                probs, error = None, _why(e)
            self._record(day, seat, moment, view, probs, error)

    async def apoll(self, game: Any, agents: Mapping[str, Agent], batch: list[Any], sem: asyncio.Semaphore | None = None) -> None:
        """The async runner's poll: every seat at once (``sem`` caps the tasks in flight,
        shared with the batch's decisions). Views are taken before anything is awaited,
        so every seat answers from the same moment of the game."""
        moment = self.moment(game, batch)
        if moment is None:
            return
        self.done.add(game.day)
        day = game.day
        views = {seat: SeatView(seat, game.observation(seat)) for seat in self.seats(game, agents)}

        async def one(seat: str) -> None:
            view = views[seat]
            try:
                if sem is None:
                    probs = await agents[seat].abeliefs(view, moment)
                else:
                    async with sem:
                        probs = await agents[seat].abeliefs(view, moment)
                error = None
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a failing seat's belief is missing, the game goes on
                probs, error = None, _why(e)
            self._record(day, seat, moment, view, probs, error)

        await asyncio.gather(*(one(s) for s in views))

    def _record(self, day: int, seat: str, moment: int, view: SeatView, probs: Any, error: str | None) -> None:
        if probs is None and error is None:
            error = "no belief given"
        if probs is not None:
            probs, error = _checked(probs, seat, view)
        record = BeliefRecord(day=day, seat=seat, decision=moment, probabilities=probs, error=error)
        self.records.append(record)
        for listener in list(self._listeners):
            listener(record)


def _checked(probs: Any, seat: str, view: SeatView) -> tuple[dict[str, float] | None, str | None]:
    """What an agent returned, kept only if it is a belief about exactly the other
    living players, each a number in [0, 1]: anything else is missing, with why."""
    if not isinstance(probs, Mapping):
        return None, f"not a mapping of players to probabilities: {type(probs).__name__}"
    others = [n for n in view.alive if n != seat]
    out: dict[str, float] = {}
    for n in others:
        p = probs.get(n)
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            return None, f"no probability in [0, 1] for {n}: {p!r}"
        out[n] = float(p)
    return out, None


def _why(e: BaseException) -> str:
    text = str(e)
    if isinstance(e, BeliefFailed) and text:
        return text
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def poll_for(enabled: bool, writer: Any = None, *, recorded: Iterable[tuple[int, str]] = ()) -> BeliefPoll | None:
    """The poll a runner needs for a table with the option ``enabled`` (else ``None``),
    writing its records with ``writer`` when one is given; ``recorded`` as for
    ``BeliefPoll``."""
    if not enabled:
        return None
    poll = BeliefPoll(recorded=recorded)
    if writer is not None:
        poll.subscribe(writer.belief)
    return poll

"""The orchestrator: the PettingZoo-style loop between a game and its agents.

The engine pends decisions in batches that the rules make simultaneous; the async
runner asks every seat of a batch at once (a 12-player vote is one round trip), then
submits the answers in decision order so the record never depends on who was
fastest. The sync runner is the same loop without an event loop, for bots.

An answer the engine refuses is put to the seat's agent (``Agent.refused``): by
default the refusal stands and stops the game (a scripted seat's contract); an agent
of one's own plays its logged fallback instead (``agents.own_seat``). The engine
refuses before it takes anything, so the decision is still open for the answer given
in its place.

With a ``BeliefPoll`` (the ``beliefs`` game option, ``arena.beliefs``), the batch that
opens a day's vote is asked together with the seats' private beliefs; those never
reach the engine or any seat's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from agents.base import Agent, SeatView, blind_answer
from engine.decisions import Decision, IllegalAnswer
from engine.game import Game

if TYPE_CHECKING:
    from arena.beliefs import BeliefPoll

# Called after each answer is accepted: (game, decision, answer, agent).
AnswerHook = Callable[[Game, Decision, Any, Agent], None]


def view_for(game: Game, seat: str) -> SeatView:
    """``seat``'s view now; its events are read only if the agent looks (``SeatView``)."""
    return SeatView(seat, None, game)


def run_sync(
    game: Game, agents: Mapping[str, Agent], on_answer: AnswerHook | None = None, beliefs: "BeliefPoll | None" = None
) -> Game:
    if beliefs is not None:
        beliefs.announce(agents)
    submit = game.submit
    # A seat whose agent decides from the decision alone is asked its ``answer``, and no
    # view is made for it (``agents.base.BlindAgent``: the random bot).
    blind = {seat: blind_answer(agent) for seat, agent in agents.items()}
    batch = game.waiting  # the first batch may be partly answered already (a game resumed)
    while batch and not game.over:
        if beliefs is not None:
            beliefs.poll(game, agents, batch)
        for d in batch:
            seat = d.seat
            alone = blind[seat]
            if alone is not None:
                answer = alone(d)
            else:
                answer = agents[seat].decide(SeatView(seat, None, game), d)  # ``view_for`` inlined: once per decision
            try:
                submit(d.id, answer)
            except IllegalAnswer as e:
                answer = agents[seat].refused(SeatView(seat, None, game), d, answer, str(e))
                submit(d.id, answer)
            if on_answer is not None:
                on_answer(game, d, answer, agents[seat])
        # The whole batch is answered, so the game has moved on and all of its next batch
        # waits: ``pending`` is read (a slot; each batch is a new list the rules never
        # change once yielded) rather than the ``waiting`` property, which in CPython
        # 3.11 is a Python frame entered from C and a copy (2% of a random game).
        batch = game.pending
    return game


async def run_async(
    game: Game,
    agents: Mapping[str, Agent],
    on_answer: AnswerHook | None = None,
    limit: int = 16,
    beliefs: "BeliefPoll | None" = None,
) -> Game:
    import asyncio  # here, not at the top: a process playing bots with ``run_sync`` never loads it

    sem = asyncio.Semaphore(max(1, limit))

    async def one(d: Decision) -> Any:
        async with sem:
            return await agents[d.seat].adecide(view_for(game, d.seat), d)

    if beliefs is not None:
        beliefs.announce(agents)
    while not game.over:
        batch = game.waiting
        if not batch:
            break
        if beliefs is not None and beliefs.moment(game, batch) is not None:
            # The day's vote opens: the seats' beliefs are asked alongside it, from the
            # same moment, and all are in before any vote is submitted.
            *_, answers = await asyncio.gather(beliefs.apoll(game, agents, batch, sem), asyncio.gather(*(one(d) for d in batch)))
        else:
            answers = await asyncio.gather(*(one(d) for d in batch))
        for d, answer in zip(batch, answers):
            try:
                game.submit(d.id, answer)
            except IllegalAnswer as e:
                answer = agents[d.seat].refused(view_for(game, d.seat), d, answer, str(e))
                game.submit(d.id, answer)
            if on_answer is not None:
                on_answer(game, d, answer, agents[d.seat])
    return game

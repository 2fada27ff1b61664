"""The discussion protocols of the LLM benchmarks, a rule option not from the seeds.

The books' debate is ``round_robin`` (``engine.flow.discussion.discussion``): one speaker at
a time in the speaking order, which costs a model game one round trip per speech.
The benchmarks that pit models against each other run the debate two other ways
(docs/RULES.md, "Discussion protocols"):

- ``bidding``, after Google's werewolf_arena: before each speech every living player
  but the last speaker bids how urgently they want the floor, 0 to 4, all at once
  (one batch, so nobody sees another's bid before making their own). The highest bid
  speaks; a tie goes to the first of the tied bidders clockwise from the last
  speaker (on the day's first turn, in the speaking order, so the Sheriff's place
  still counts). The bids are public once all are in. The debate ends after
  ``discussion_turns`` speeches (0: as many as round robin would give, one per living
  player and round) or as soon as every bid is 0.
- ``parallel``, after Kaggle's werewolf environment: each round every living player
  speaks at once, one batch, and the round's speeches are published together after
  the last answer, in the speaking order. No speaker of a round can have heard
  another's words of that round: they are not events yet when the batch is asked.

Neither draws on the game's random stream: the same answers give the same game.
"""

from __future__ import annotations

from typing import Callable, TypedDict

from engine.decisions import CHOICE, decision
from engine.events import PUBLIC, EventData, Name, Names, event
from engine.flow.common import Script
from engine.speech import SPEAK, speech_data
from engine.game_state import GameState, Player


class BidContext(TypedDict, total=False):
    turn: int  # the speech the bids are for, from 1
    turns: int  # how many speeches the debate holds at most
    last: str | None  # who spoke last (None before the day's first speech), who does not bid


BID = decision("bid", CHOICE, context=BidContext, unmeasured="a bid for the floor (discussion: bidding), not a power")

BIDS = (0, 1, 2, 3, 4)  # werewolf_arena's urgency scale

Order = Callable[["GameState"], list["Player"]]  # the living players in the speaking order (``discussion.speaking_order``)


@event("discussion_round")
class DiscussionRound(EventData):
    """A round of the ``parallel`` debate opens: ``speakers`` all speak at once."""

    round: int
    speakers: Names


@event("bids")
class Bids(EventData):
    """The bids for turn ``turn`` of the ``bidding`` debate, by bidder, and who won the
    floor (None: every bid was 0, the debate is over)."""

    turn: int
    bids: dict[str, int]
    speaker: Name | None


def parallel_rounds(game: GameState, phase: str, rounds: int, order: Order, speakers: list[str] | None = None) -> Script:
    """``rounds`` rounds in which the living players (only ``speakers`` when given:
    The Village's Farmers campaigning) all speak at once."""
    for rnd in range(1, rounds + 1):
        seats = [p.name for p in order(game) if speakers is None or p.name in speakers]
        if not seats:
            return
        game.emit(DiscussionRound(rnd, seats), PUBLIC)
        context = {"round": rnd, "phase": phase, "protocol": "parallel", "speakers": len(seats)}
        batch = [game.ask(name, SPEAK, (), context) for name in seats]
        answers = yield batch
        for d in batch:
            game.emit(speech_data(d.seat, answers[d.id], rnd), PUBLIC)


def bidders(game: GameState, last: str | None, order: Order) -> list[str]:
    """Who bids for the next turn, in the order that breaks a tie: clockwise from the
    seat after the last speaker (who does not bid), or the speaking order before the
    day's first speech."""
    if last is None:
        return [p.name for p in order(game)]
    table = game.table
    seat = game.by_name[last].seat + 1
    return [p.name for p in table[seat:] + table[:seat] if p.alive and p.name != last]


def winner(bids: dict[str, int], ranked: list[str]) -> str | None:
    """The highest bidder, the first in ``ranked`` among equals; None when every bid is 0."""
    top = max(bids.values(), default=0)
    if top <= 0:
        return None
    return next(name for name in ranked if bids[name] == top)


def bidding(game: GameState, rounds: int, order: Order, extra: int = 0) -> Script:
    """The day's debate by bids (see the module's docstring). ``extra``: rounds the Host
    adds to the day (004, an extended Sundown), one more turn each per living player."""
    living = len(order(game))
    turns = (game.options.discussion_turns or rounds * living) + extra * living
    last: str | None = None
    for turn in range(1, turns + 1):
        ranked = bidders(game, last, order)
        if not ranked:
            return
        context = {"turn": turn, "turns": turns, "last": last}
        batch = [game.ask(name, BID, BIDS, context) for name in ranked]
        answers = yield batch
        # ``int``: a bid is a number whatever the answer's JSON spelling (``1`` for ``true``).
        bids = {d.seat: int(answers[d.id]) for d in batch}
        speaker = winner(bids, ranked)
        game.emit(Bids(turn, bids, speaker), PUBLIC)
        if speaker is None:  # nobody wants the floor: the debate is over
            return
        d = game.ask(speaker, SPEAK, (), {"round": turn, "phase": "discussion", "protocol": "bidding", "turns": turns})
        said = (yield [d])[d.id]
        game.emit(speech_data(speaker, said, turn), PUBLIC)
        last = speaker

"""The discussion protocols of the LLM benchmarks, a rule option not from the seeds.

The books' debate is ``round_robin`` (``engine.flow.day.discussion``): one speaker at
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

from typing import Callable

from engine.decisions import CHOICE, TEXT, decision
from engine.events import PUBLIC
from engine.speech import SPEAK, speech_data

BID = decision("bid", CHOICE, unmeasured="a bid for the floor (discussion: bidding), not a power")

BIDS = (0, 1, 2, 3, 4)  # werewolf_arena's urgency scale

Order = Callable[[object], list]  # the living players in the speaking order (``day.speaking_order``)


def parallel_rounds(game, phase: str, rounds: int, order: Order, speakers: list[str] | None = None):
    """``rounds`` rounds in which the living players (only ``speakers`` when given:
    The Village's Farmers campaigning) all speak at once."""
    for rnd in range(1, rounds + 1):
        seats = [p.name for p in order(game) if speakers is None or p.name in speakers]
        if not seats:
            return
        game.emit_data("discussion_round", PUBLIC, {"round": rnd, "speakers": seats})
        context = {"round": rnd, "phase": phase, "protocol": "parallel", "speakers": len(seats)}
        batch = [game.ask_with(name, SPEAK, (), context, TEXT) for name in seats]
        answers = yield batch
        for d in batch:
            game.emit_data("speech", PUBLIC, speech_data(d.seat, answers[d.id], rnd))


def bidders(game, last: str | None, order: Order) -> list[str]:
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


def bidding(game, rounds: int, order: Order):
    """The day's debate by bids (see the module's docstring)."""
    turns = game.options.discussion_turns or rounds * len(order(game))
    last: str | None = None
    for turn in range(1, turns + 1):
        ranked = bidders(game, last, order)
        if not ranked:
            return
        context = {"turn": turn, "turns": turns, "last": last}
        batch = [game.ask_with(name, BID, BIDS, context, CHOICE) for name in ranked]
        answers = yield batch
        # ``int``: a bid is a number whatever the answer's JSON spelling (``1`` for ``true``).
        bids = {d.seat: int(answers[d.id]) for d in batch}
        speaker = winner(bids, ranked)
        game.emit_data("bids", PUBLIC, {"turn": turn, "bids": bids, "speaker": speaker})
        if speaker is None:  # nobody wants the floor: the debate is over
            return
        d = game.ask_with(speaker, SPEAK, (), {"round": turn, "phase": "discussion", "protocol": "bidding", "turns": turns}, TEXT)
        said = (yield [d])[d.id]
        game.emit_data("speech", PUBLIC, speech_data(speaker, said, turn))
        last = speaker

"""The public facts that heuristic seats share keep every seat's secrets its own.

``heuristic_memory.PublicTable`` reads a game's public events once for all of its
heuristic seats, and ``heuristic_suspicion`` shares the public perspective's
judgement between them, and each seat carries its partial sums from one decision to
the next (``_Carried``). These tests hold a seat that shares and carries to a fresh
seat that reads its whole view alone (``Memory._solo``, as every seat once did): the same facts and every
float of both judgements equal, at every decision of whole games, and never a private
event in the table, however the other seats' private events interleave.
"""

from __future__ import annotations

import pytest

from agents.heuristic import HeuristicAgent
from agents.base import SeatView
from agents.heuristic_memory import _TABLES, Memory
from agents.heuristic_suspicion import judge, judged
from arena.gamefile import GameSpec, SeatSpec, default_names
from arena.runner import view_for
from engine.events import PUBLIC

FIELDS = (
    "players", "roles_in_play", "deck", "wolf_cards", "set_aside", "my_role", "initial_role", "pack", "dead",
    "causes", "seer_results", "beloved", "sheriff", "speeches", "spoken", "debated", "preset", "hidden_cards",
    "heard", "chat_targets", "wolf_votes", "caught_girl", "witch_victims", "thief_cards", "overheard",
    "night_victims", "quiet_dawns", "sisters", "fox_results", "growls", "revealed", "facts", "day", "phase", "alive",
)  # fmt: skip


@pytest.fixture(autouse=True)
def strict_bot(monkeypatch):
    monkeypatch.setattr(HeuristicAgent, "strict", True)


def alone(seat: str, events: list) -> Memory:
    mem = Memory(seat)
    mem._solo = True
    mem.update(SeatView(seat, events))
    return mem


def same_memory(a: Memory, b: Memory) -> None:
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f
    assert {n: (c.role, c.checks, c.roles_claimed, c.since, c.told) for n, c in a.claims.items()} == {
        n: (c.role, c.checks, c.roles_claimed, c.since, c.told) for n, c in b.claims.items()
    }
    assert [(x.day, x.speaker, x.target) for x in a.accusations] == [(x.day, x.speaker, x.target) for x in b.accusations]
    assert [(r.day, r.round, r.votes) for r in a.votes] == [(r.day, r.round, r.votes) for r in b.votes]


def same_beliefs(a, b) -> None:
    assert (a.score, a.p, a.cred, a.liars, a.known, a.hidden_wolves) == (b.score, b.p, b.cred, b.liars, b.known, b.hidden_wolves)


@pytest.mark.parametrize(
    "preset,players,seed,options",
    [
        ("millers_hollow", 8, 3, {}),
        ("millers_hollow", 12, 8, {"discussion": "bidding"}),
        ("millers_hollow", 12, 4, {"discussion": "bidding"}),
        ("langrensha", 12, 5, {"sheriff_candidacy": True}),
        ("best_of", 12, 6, {}),
        ("village", 10, 7, {}),
        ("forum", 10, 9, {}),
    ],
)
def test_a_sharing_seat_knows_and_judges_what_it_would_alone(preset, players, seed, options):
    spec = GameSpec(preset=preset, seed=seed, options=options, seats=[SeatSpec(name=n, agent="heuristic") for n in default_names(players)])
    game, agents = spec.build()
    compared = 0
    while not game.over and game.waiting:
        for d in game.waiting:
            agent = agents[d.seat]
            assert isinstance(agent, HeuristicAgent)
            view = view_for(game, d.seat)
            game.submit(d.id, agent.decide(view, d))
            mem = agent.memory
            solo = alone(d.seat, view.events)
            same_memory(mem, solo)
            for private in (True, False):
                same_beliefs(judged(mem, private), judge(solo, private))
            if mem.table is not None:
                assert all(e.audience == PUBLIC for e in mem.table.events)
            compared += 1
    assert game.over and compared > 30


def _finished(preset: str, players: int, seed: int):
    spec = GameSpec(preset=preset, seed=seed, seats=[SeatSpec(name=n, agent="heuristic") for n in default_names(players)])
    game, agents = spec.build()
    while not game.over and game.waiting:
        for d in game.waiting:
            game.submit(d.id, agents[d.seat].decide(view_for(game, d.seat), d))
    return game


def test_a_seats_judgement_does_not_depend_on_another_seats_private_events():
    """Every other seat reads its view (its role, pack, Seer results, Witch's victims)
    into the shared table first; each seat then judges exactly as it would alone, and
    the table holds public events only."""
    game = _finished("millers_hollow", 8, 11)
    seats = list(game.by_name)
    secrets = {s: [e for e in game.observation(s) if e.audience != PUBLIC] for s in seats}
    assert any(secrets.values())
    for me in seats:
        others = [Memory(s) for s in seats if s != me]
        for m in others:
            m.update(view_for(game, m.me))
        mine = Memory(me)
        mine.update(view_for(game, me))
        assert not mine._solo and mine.table is not None and mine.table is others[0].table
        assert all(e.audience == PUBLIC for e in mine.table.events)
        solo = alone(me, game.observation(me))
        same_memory(mine, solo)
        for private in (True, False):
            same_beliefs(judge(mine, private), judge(solo, private))
        # nothing of another seat's secrets: what it alone was shown is in no field of mine
        for m in others:
            if m.seer_results and m.me != me:
                assert mine.seer_results == solo.seer_results
            if m.my_role is not None:
                assert mine.my_role == solo.my_role


def test_a_view_behind_the_table_or_from_another_game_reads_alone():
    game = _finished("millers_hollow", 8, 12)
    seats = list(game.by_name)
    ahead = Memory(seats[0])
    ahead.update(view_for(game, seats[0]))
    late = game.observation(seats[1])[: len(game.observation(seats[1])) // 2]
    behind = Memory(seats[1])
    behind.update(SeatView(seats[1], late))  # the table has read further than this view: its facts are not this seat's yet
    assert behind._solo
    same_memory(behind, alone(seats[1], late))
    same_beliefs(judge(behind, True), judge(alone(seats[1], late), True))
    # a fork: the same first events, then others (a replayed copy of a later event)
    events = game.observation(seats[2])
    forked = Memory(seats[2])
    mixed = events[:5] + [e.__class__(e.seq, e.day, e.phase, e.audience, e.data) for e in events[5:]]
    forked.update(SeatView(seats[2], mixed))
    assert forked._solo or forked.table is not ahead.table
    same_memory(forked, alone(seats[2], mixed))


@pytest.mark.parametrize("preset,players,seed", [("millers_hollow", 8, 11), ("best_of", 12, 6), ("village", 10, 7)])
def test_the_shared_public_judgement_is_the_same_whoever_made_it_first(preset, players, seed):
    """The public judgement kept in the table is made by whichever seat asks first (a
    wolf, the Seer, the Witch...): at every moment of a game, each seat in turn asks
    first, and every other seat's answer, shared or its own, is what it would judge
    alone; a seat's private judgement never comes from the table."""
    game = _finished(preset, players, seed)
    seats = list(game.by_name)
    views = {s: game.observation(s) for s in seats}
    assert any(e.audience != PUBLIC for s in seats for e in views[s])
    moments = sorted({e.seq for s in seats for e in views[s]})[:: max(1, len(game.events) // 12)] + [len(game.events)]
    shared = 0  # moments at which every seat shared the table
    for upto in moments:
        cut = {s: [e for e in views[s] if e.seq < upto] for s in seats}
        for first in seats:
            _TABLES.clear()  # a table of its own for this moment's seats (the game's has read it all)
            mems = {s: Memory(s) for s in seats}
            for s in [first] + [x for x in seats if x != first]:
                mems[s].update(SeatView(s, cut[s]))
            shared += all(not m._solo and m.table is mems[first].table for m in mems.values())
            judged(mems[first], False)  # the table's public judgement, made by this seat
            for s in seats:
                solo = alone(s, cut[s])
                same_beliefs(judged(mems[s], False), judge(solo, False))
                same_beliefs(judged(mems[s], True), judge(solo, True))
    assert shared > len(seats)

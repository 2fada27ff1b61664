"""The view the runners hand an agent (``SeatView(seat, None, game)``): read from the
game only when the agent looks, and frozen at the moment it was made."""

from __future__ import annotations

import random

from agents.base import Agent, BlindAgent, SeatView, blind_answer
from agents.random_agent import RandomAgent, random_answer
from arena.gamefile import default_game
from arena.runner import run_sync, view_for
from engine.decisions import Decision


class Keeper(Agent):
    """Keeps every view it is handed, unread, with the game's length at that moment."""

    def __init__(self, name: str, game_events: list) -> None:
        super().__init__(name)
        self.kept: list[tuple[SeatView, int]] = []
        self.events = game_events
        self.rng = random.Random(name)

    def decide(self, view: SeatView, decision: Decision) -> object:
        self.kept.append((view, len(self.events)))
        return random_answer(self.rng, decision)


def test_a_view_read_after_the_game_went_on_shows_what_the_seat_knew_when_asked():
    game, seats = default_game(players=8, seed=3, agent="random").build()
    keepers = {name: Keeper(name, game.events) for name in seats}
    run_sync(game, keepers)
    assert game.over
    for name, keeper in keepers.items():
        assert keeper.kept, name
        for view, emitted in keeper.kept:  # read only now, the game over
            assert view.events == [e for e in game.events[:emitted] if e.visible_to(name)]
            assert view.name == name


def test_a_views_tail_is_its_events_from_there_on_also_when_read_later():
    """``since(seq)`` (what a bot's memory takes at each decision) is the view's events
    from the game's ``seq``-th on: the seat's visible events only, stopping at the
    moment the view was made, from a view made on the game or on a list alike."""
    game, seats = default_game(players=8, seed=4, agent="random").build()
    keepers = {name: Keeper(name, game.events) for name in seats}
    run_sync(game, keepers)
    for name, keeper in keepers.items():
        for view, emitted in keeper.kept[::3]:
            shown = [e for e in game.events[:emitted] if e.visible_to(name)]
            for seq in (0, 1, emitted // 2, emitted - 1, emitted, emitted + 2, shown[-1].seq):
                tail = [e for e in shown if e.seq >= seq]
                assert view.since(seq) == tail
                assert SeatView(name, shown).since(seq) == tail
            assert view.events == shown
            assert view.since(emitted // 3) == [e for e in shown if e.seq >= emitted // 3]
    for name in seats:
        every = game.observation(name)
        for seq in (1, 5, len(game.events) // 2, len(game.events) - 1, len(game.events)):
            assert game.observation(name, seq) == [e for e in every if e.seq >= seq]


def test_a_view_read_at_once_is_the_seats_observation():
    game, _ = default_game(players=8, seed=5, agent="random").build()
    for d in game.waiting:
        assert view_for(game, d.seat).events == game.observation(d.seat)
        assert view_for(game, d.seat).role == game.by_name[d.seat].role


def test_views_read_or_not_play_the_same_game():
    """The random bot never reads its view; a bot that reads every view plays the
    same answers, so reading costs time and changes nothing."""

    class Reader(RandomAgent):
        def decide(self, view: SeatView, decision: Decision) -> object:
            assert view.events and view.events[0].kind == "game_start"
            return super().decide(view, decision)

    logs = []
    for agent in (RandomAgent, Reader):
        game, seats = default_game(players=12, seed=11, agent="random").build()
        run_sync(game, {name: agent(name, seed=i) for i, name in enumerate(seats)})
        logs.append(game.answer_log)
    assert logs[0] == logs[1]


def test_a_blind_agent_is_asked_without_a_view_and_a_reading_subclass_with_one():
    """``BlindAgent``: the sync runner calls ``answer`` (no view is made); a subclass
    overriding ``decide`` is asked through it, with its view, and plays the same game."""

    class Counted(BlindAgent):
        def __init__(self, name: str, seed: int) -> None:
            super().__init__(name)
            self.rng = random.Random(f"{seed}:{name}")
            self.asked = 0

        def answer(self, decision: Decision) -> object:
            self.asked += 1
            return random_answer(self.rng, decision)

    class Reading(Counted):
        def decide(self, view: SeatView, decision: Decision) -> object:
            assert view.name == decision.seat and view.events
            self.views = getattr(self, "views", 0) + 1
            return super().decide(view, decision)

    assert blind_answer(RandomAgent("a")) is not None and blind_answer(Reading("a", 0)) is None
    logs = []
    for agent in (Counted, Reading, RandomAgent):
        game, seats = default_game(players=8, seed=4, agent="random").build()
        agents = {name: agent(name, seed=i) for i, name in enumerate(seats)}
        run_sync(game, agents)
        logs.append(game.answer_log)
        if agent is Reading:
            assert all(a.views == a.asked > 0 for a in agents.values())  # type: ignore[attr-defined]
    assert logs[0] == logs[1] == logs[2]


def test_the_async_runner_plays_a_blind_agent_as_the_sync_one():
    """``run_async`` still hands every agent a view (``adecide``); the random bot plays
    the same game there as through ``run_sync``'s blind ``answer``."""
    import asyncio

    from arena.runner import run_async

    logs = []
    for runner in ("sync", "async"):
        game, seats = default_game(players=12, seed=7, agent="random").build()
        agents = {name: RandomAgent(name, seed=i) for i, name in enumerate(seats)}
        if runner == "sync":
            run_sync(game, agents)
        else:
            asyncio.run(run_async(game, agents))
        logs.append(game.answer_log)
    assert logs[0] == logs[1] and logs[0]

"""The view the runners hand an agent (``SeatView(seat, None, game)``): read from the
game only when the agent looks, and frozen at the moment it was made."""

from __future__ import annotations

import random

from agents.base import Agent, SeatView
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

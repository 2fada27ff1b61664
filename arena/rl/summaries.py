"""What each seat knows, kept as the events come: the structured half of an observation.

A seat's observation summarises its view as ``agents.base.SeatView`` does (its card,
who is alive, the Sheriff, the day), but a view derives the summaries by reading every
event the seat was shown, which made each step dearer the longer the game ran. Here the
table reads each new event once, for every seat at once (the seats it is shown to, by
the engine's visibility rule, as ``Game.observation`` applies it), and updates the few
summaries the event changes. ``tests/test_rl.py`` checks the result against
``SeatView`` for every seat at every step.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from engine.events import NARRATOR, PUBLIC, Event
from engine.flow.leaving import DeathEvent
from engine.flow.main import GameStart, Role
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.game import Game


class Summary:
    """One seat's summaries."""

    __slots__ = ("name", "players", "deck", "dealt", "role", "sheriff", "dead", "alive", "private_day")

    def __init__(self, name: str, players: int):
        self.name = name
        self.players: list[str] = []  # the game's start, as told to the seat
        self.deck: list[str] | None = None  # the cards in play, as the start tells them
        self.dealt: str | None = None  # the first card it was told it holds (its system prompt's)
        self.role: str | None = None  # its card as it last learnt it
        self.sheriff: str | None = None
        self.dead: set[str] = set()  # the deaths it was told of
        self.alive = np.zeros(players, dtype=np.int8)  # by seat: told of the start, not of a death
        self.private_day = 0  # the day of the last event shown to it alone or to a few


class Summaries:
    """Every seat's ``Summary`` in one game."""

    def __init__(self, names: list[str]):
        self.index = {n: i for i, n in enumerate(names)}
        self.seats = {n: Summary(n, len(names)) for n in names}
        self._all = list(self.seats.values())
        self._read = 0  # events of the game read so far
        self._public_day = 0  # the day of the last public event

    def day(self, seat: Summary) -> int:
        """The day of the last event ``seat`` saw (``SeatView.day``): events are in
        order of time, so it is the later of the last public one and its own last."""
        return max(self._public_day, seat.private_day)

    def catch_up(self, game: Game) -> None:
        """Read the events emitted since the last call."""
        events = game.events
        read = self._read
        if read == len(events):
            return
        self._read = len(events)
        for e in events[read:]:
            a = e.audience
            if a == NARRATOR:
                continue
            if a == PUBLIC:
                self._public_day = e.day
                shown = self._all
            else:
                shown = [self.seats[n] for n in a if n in self.seats]
                for s in shown:
                    s.private_day = e.day
            absorb = _ABSORB.get(type(e.data))
            if absorb is not None:
                for s in shown:
                    absorb(s, e, self.index)


def _started(seat: Summary, e: Event, index: dict[str, int]) -> None:
    d: Any = e.data
    if not seat.players:  # the first start told, as ``SeatView.players`` reads it
        seat.players = list(d.players)
        seat.deck = d.roles_in_play
        for p in seat.players:
            if p not in seat.dead:
                seat.alive[index[p]] = 1


def _dealt(seat: Summary, e: Event, index: dict[str, int]) -> None:
    d: Any = e.data
    if d.player == seat.name:
        seat.role = d.role
        if seat.dealt is None:
            seat.dealt = d.role


def _died(seat: Summary, e: Event, index: dict[str, int]) -> None:
    d: Any = e.data
    seat.dead.add(d.player)
    i = index.get(d.player)
    if i is not None:
        seat.alive[i] = 0


def _elected(seat: Summary, e: Event, index: dict[str, int]) -> None:
    d: Any = e.data
    seat.sheriff = d.player


# The payload classes the summaries read (``SeatView``'s), by exact class: none of them
# has subclasses, and a live game holds no ``RawEvent``.
_ABSORB: dict[type, Callable[[Summary, Event, dict[str, int]], None]] = {
    GameStart: _started,
    Role: _dealt,
    DeathEvent: _died,
    SheriffElected: _elected,
    SheriffSuccessor: _elected,
}

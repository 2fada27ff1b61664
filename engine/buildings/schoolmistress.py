"""The Schoolmistress (000 The Village): "Building: the school. Power: permanent ... Each
day, just before the vote, the Schoolmistress may forbid up to 2 players from voting
during that round. She never votes herself. The Schoolmistress and the players she has
forbidden from voting may still debate during the village council. The Schoolmistress
may forbid the Tavernkeeper from voting. The Schoolmistress cannot forbid any Vagabond
from voting."

The last power of the evening window, ``schoolmistress_forbid``, asked up to twice: a
living player (not herself, not a Vagabond), or null to stop. She and her pupils are
barred from that day's vote, revotes included (``forbidden``): the school's part of the
game's memory (``Barred``) says who, for which day."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from engine.buildings.base import PERMANENT, BuildingSpec, holders, layer_on, register_building, vagabonds
from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, Names, event
from engine.flow.common import Script, optional_target
from engine.flow.day_powers import register_day_power
from engine.roles.base import Ballot, register_ballot
from engine.game_state import GameState


class SchoolmistressForbidContext(TypedDict, total=False):
    round: int  # which of her picks this is (1 or 2)
    forbidden: list[str]  # the pupils she has already forbidden today


SCHOOLMISTRESS_FORBID = decision(
    "schoolmistress_forbid",
    CHOICE,
    context=SchoolmistressForbidContext,
    power=Power(WOLF, note="a pupil barred from the vote (each of the two answers)"),
)


@event("forbidden")
class Forbidden(EventData):
    """The Schoolmistress forbids ``players`` (perhaps nobody) from today's vote; she
    never votes herself."""

    schoolmistress: Name
    players: Names


@dataclass(slots=True)
class Barred:
    """Who may not vote in the vote of day ``day`` (revotes included): the
    Schoolmistress and the pupils she forbade that day. Another day's list bars nobody."""

    day: int = -1
    players: set[str] = field(default_factory=set)

SCHOOLMISTRESS = register_building(
    BuildingSpec(
        id="schoolmistress",
        name="Schoolmistress",
        home="school",
        power=PERMANENT,
        box=1,
        summary="You never vote; each day, just before the vote, you may forbid up to 2 players (not Vagabonds) from voting that day.",
        decisions=(SCHOOLMISTRESS_FORBID,),
    )
)

PUPILS = 2


def _barred_today(game: GameState) -> set[str]:
    """Today's barred players, to add to (another day's are forgotten)."""
    barred = game.memory.of(Barred)
    if barred.day != game.day:
        barred.day, barred.players = game.day, set()
    return barred.players


def _day(game: GameState) -> Script:
    for s in holders(game, "schoolmistress"):
        barred = _barred_today(game)
        barred.add(s.name)
        picked: list[str] = []
        for rnd in range(1, PUPILS + 1):
            options = tuple(n for n in game.targets(s.name, exclude=vagabonds(game)) if n not in barred)
            pick = yield from optional_target(game, s.name, SCHOOLMISTRESS_FORBID, options, {"round": rnd, "forbidden": list(picked)})
            if pick is None:
                break
            picked.append(pick)
            barred.add(pick)
        game.emit(Forbidden(s.name, picked), PUBLIC)


def _ballot(game: GameState, ballot: Ballot) -> None:
    barred = game.memory.peek(Barred)
    if barred is not None and barred.day == game.day:
        ballot.barred |= barred.players


register_day_power(("schoolmistress",), _day, ready=lambda game: bool(holders(game, "schoolmistress")))
register_ballot(0, _ballot, when=layer_on)

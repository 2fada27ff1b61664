"""The Schoolmistress (000 The Village): "Building: the school. Power: permanent ... Each
day, just before the vote, the Schoolmistress may forbid up to 2 players from voting
during that round. She never votes herself. The Schoolmistress and the players she has
forbidden from voting may still debate during the village council. The Schoolmistress
may forbid the Tavernkeeper from voting. The Schoolmistress cannot forbid any Vagabond
from voting."

The last power of the evening window, ``schoolmistress_forbid``, asked up to twice: a
living player (not herself, not a Vagabond), or null to stop. She and her pupils are
barred from that day's vote, revotes included (``forbidden``)."""

from __future__ import annotations

from engine.buildings.base import PERMANENT, BuildingSpec, holders, register_building, vagabonds
from engine.events import PUBLIC
from engine.flow.common import optional_target
from engine.flow.day_powers import register_day_power
from engine.decisions import CHOICE, WOLF, Power, decision

SCHOOLMISTRESS_FORBID = decision("schoolmistress_forbid", CHOICE, power=Power(WOLF, note="a pupil barred from the vote (each of the two answers)"))

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


def _day(game):
    for s in holders(game, "schoolmistress"):
        game.barred.add(s.name)
        picked: list[str] = []
        for rnd in range(1, PUPILS + 1):
            options = tuple(n for n in game.targets(s.name, exclude=vagabonds(game)) if n not in game.barred)
            pick = yield from optional_target(game, s.name, SCHOOLMISTRESS_FORBID, options, {"round": rnd, "forbidden": list(picked)})
            if pick is None:
                break
            picked.append(pick)
            game.barred.add(pick)
        game.emit("forbidden", PUBLIC, schoolmistress=s.name, players=picked)


register_day_power(("schoolmistress",), _day, ready=lambda game: bool(holders(game, "schoolmistress")))

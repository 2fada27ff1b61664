"""The Barber (000 The Village): "Building: the Barber's shop. Power: unique ... At any
point during the day, the Barber may eliminate a player of their choice. If the
eliminated player is a Werewolf, the Barber is congratulated by the village and
survives their act. Otherwise, the Barber is immediately eliminated. The Barber cannot
eliminate a Vagabond. After using this power, the Barber loses it and returns their
token."

A day power, ``barber_shave``: another living player who is not a Vagabond, or null.
The victim dies at once (cause ``barber``); if the victim was not a werewolf (the White
Werewolf is one), the Barber dies with them (cause ``barber_mistake``)."""

from __future__ import annotations


from engine.buildings.base import UNIQUE, BuildingSpec, has_token, register_building, spend_token, vagabonds, with_token
from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script, optional_target
from engine.flow.day_powers import EVENING, MORNING, register_day_power
from engine.flow.deaths import kill_batch
from engine.game_state import GameState

BARBER_SHAVE = decision("barber_shave", CHOICE, power=Power(WOLF, note="the Barber's razor"))


@event("shave")
class Shave(EventData):
    """The Barber kills ``target`` (their deaths follow)."""

    barber: Name
    target: Name

BARBER = register_building(
    BuildingSpec(
        id="barber",
        name="Barber",
        home="barber's shop",
        power=UNIQUE,
        box=1,
        summary="Once per game, during the day, you may kill a player (not a Vagabond): if they are not a werewolf, you die too.",
        decisions=(BARBER_SHAVE,),
    )
)


def _day(game: GameState) -> Script:
    for b in with_token(game, "barber"):
        if not b.alive or game.over:
            continue
        target = yield from optional_target(game, b.name, BARBER_SHAVE, game.targets(b.name, exclude=vagabonds(game)))
        if target is None:
            continue
        wolf = game.by_name[target].is_wolf
        game.emit(Shave(b.name, target), PUBLIC)
        spend_token(game, b, "used")
        deaths = [(target, "barber")] if wolf else [(target, "barber"), (b.name, "barber_mistake")]
        yield from kill_batch(game, deaths)
        if game.over:
            return


register_day_power(("barber",), _day, windows=(MORNING, EVENING), ready=lambda game: has_token(game, "barber"))

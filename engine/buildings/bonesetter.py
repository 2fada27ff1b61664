"""The Bonesetter (000 The Village): "Building: the hovel. Power: unique ... At any point
during the day, the Bonesetter can restore to a player the unique power they have
already used. The narrator returns to that player the token that restores the power
linked to their building (for a new, single use). After using this power, the
Bonesetter loses it and returns their token."

A day power, ``bonesetter_restore``: a living player whose building's unique power is
spent (the Confessor, the Barber, the Castellan, another Bonesetter), or null. Only
asked when such a player exists."""

from __future__ import annotations


from engine.buildings.base import BUILDINGS, UNIQUE, BuildingSpec, give_token, has_token, register_building, spend_token, with_token
from engine.decisions import CHOICE, NOT_WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script, optional_target
from engine.flow.day_powers import EVENING, MORNING, register_day_power
from engine.game_state import GameState, Player

BONESETTER_RESTORE = decision("bonesetter_restore", CHOICE, power=Power(NOT_WOLF, note="a spent building power given back"))


@event("bones_set")
class BonesSet(EventData):
    """The Bonesetter gives ``player`` back their building's spent power (its token)."""

    bonesetter: Name
    player: Name


BONESETTER = register_building(
    BuildingSpec(
        id="bonesetter",
        name="Bonesetter",
        home="hovel",
        power=UNIQUE,
        box=1,
        summary="Once per game, during the day, you may give a player back the one-use power of their building that they have already used.",
        decisions=(BONESETTER_RESTORE,),
    )
)


def spent(game: GameState, setter: Player) -> tuple[str, ...]:
    return tuple(
        p.name
        for p in game.players
        if p.alive and p is not setter and not p.token and p.building in BUILDINGS and BUILDINGS[p.building].power == UNIQUE
    )


def _day(game: GameState) -> Script:
    for b in with_token(game, "bonesetter"):
        target = yield from optional_target(game, b.name, BONESETTER_RESTORE, spent(game, b))
        if target is None:
            continue
        game.emit(BonesSet(b.name, target), PUBLIC)
        spend_token(game, b, "used")
        give_token(game, game.by_name[target], "bonesetter")


register_day_power(("bonesetter",), _day, windows=(MORNING, EVENING), ready=lambda game: has_token(game, "bonesetter"))

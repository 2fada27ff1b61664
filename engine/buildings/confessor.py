"""The Confessor (000 The Village): "Building: the church. Power: unique ... At any point
during the day, the Confessor designates a player, who must immediately show them their
character card in secret. After using this power, the Confessor loses it and returns
their token."

A day power (morning and evening windows), ``confessor_hear``: another living player,
or null to wait. The table sees who confessed (``confession``); only the Confessor
learns the card (``confessed_role``)."""

from __future__ import annotations


from engine.buildings.base import UNIQUE, BuildingSpec, has_token, register_building, spend_token, with_token
from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, RoleId, event, private
from engine.flow.common import Script, optional_target
from engine.flow.day_powers import EVENING, MORNING, register_day_power
from engine.game_state import GameState

CONFESSOR_HEAR = decision("confessor_hear", CHOICE, power=Power(WOLF, note="the Confessor sees a card"))


@event("confession")
class Confession(EventData):
    """The table sees ``player`` show the Confessor their card."""

    confessor: Name
    player: Name


@event("confessed_role")
class ConfessedRole(EventData):
    """What the Confessor alone saw: ``player``'s card at that moment."""

    player: Name
    role: RoleId

CONFESSOR = register_building(
    BuildingSpec(
        id="confessor",
        name="Confessor",
        home="church",
        power=UNIQUE,
        box=1,
        summary="Once per game, during the day, you may have a player show you their character card in secret.",
        decisions=(CONFESSOR_HEAR,),
    )
)


def _day(game: GameState) -> Script:
    for c in with_token(game, "confessor"):
        target = yield from optional_target(game, c.name, CONFESSOR_HEAR, game.targets(c.name))
        if target is None:
            continue
        game.emit(Confession(c.name, target), PUBLIC)
        game.emit(ConfessedRole(target, game.by_name[target].role), private(c.name))
        spend_token(game, c, "used")


register_day_power(("confessor",), _day, windows=(MORNING, EVENING), ready=lambda game: has_token(game, "confessor"))

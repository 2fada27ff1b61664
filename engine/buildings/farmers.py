"""The Farmers (000 The Village): "Building: farms. Power: permanent ... From the second
turn on, the Farmers debate and vote to choose a Sheriff among themselves. If the Sheriff
is eliminated, they choose their successor only from among the surviving Farmers. If the
last Farmer is eliminated, there is no longer a Sheriff."

A pool for the Sheriff (``engine.flow.day`` asks it): in a game whose table has farms,
only living Farmers campaign, vote and may be elected, from day 2; the dying Sheriff
names his successor among them (the book's "they" read as the base game's dying
Sheriff, who "designates his successor"); no Farmer left, no Sheriff."""

from __future__ import annotations

from dataclasses import dataclass

from engine.buildings.base import PERMANENT, BuildingSpec, layer_on, register_building
from engine.flow.common import Script
from engine.roles.base import register_setup_hook, register_sheriff_pool
from engine.game_state import GameState


@dataclass(slots=True)
class Farms:
    """Whether the table had farms when the buildings were handed out: the Farmers'
    say over the Sheriff outlives the last Farmer (then there is no Sheriff)."""

    dealt: bool = False

FARMER = register_building(
    BuildingSpec(
        id="farmer",
        name="Farmer",
        home="farm",
        power=PERMANENT,
        box=6,
        summary="From the second day, the Farmers elect the Sheriff among themselves; a dying Sheriff's successor is a Farmer; with no Farmer left there is no Sheriff.",
    )
)


def _note_farms(game: GameState) -> Script:
    if any(p.building == "farmer" for p in game.players):
        game.memory.of(Farms).dealt = True
    return
    yield


def _pool(game: GameState) -> list[str] | None:
    farms = game.memory.peek(Farms)
    if farms is None or not farms.dealt:
        return None
    return [p.name for p in game.players if p.building == "farmer" and p.alive]


register_setup_hook(10, _note_farms, when=layer_on)
register_sheriff_pool(0, _pool, when=layer_on)

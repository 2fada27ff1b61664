"""The Farmers (000 The Village): "Building: farms. Power: permanent ... From the second
turn on, the Farmers debate and vote to choose a Sheriff among themselves. If the Sheriff
is eliminated, they choose their successor only from among the surviving Farmers. If the
last Farmer is eliminated, there is no longer a Sheriff."

A pool for the Sheriff (``engine.flow.day`` asks it): in a game whose table has farms,
only living Farmers campaign, vote and may be elected, from day 2; the dying Sheriff
names his successor among them (the book's "they" read as the base game's dying
Sheriff, who "designates his successor"); no Farmer left, no Sheriff."""

from __future__ import annotations

from engine.buildings.base import PERMANENT, BuildingSpec, layer_on, register_building
from engine.roles.base import register_setup_hook, register_sheriff_pool

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


def _note_farms(game):
    if any(p.building == "farmer" for p in game.players):
        game.memory["farms"] = True
    return
    yield


def _pool(game) -> list[str] | None:
    if not game.memory.get("farms"):
        return None
    return [p.name for p in game.players if p.building == "farmer" and p.alive]


register_setup_hook(10, _note_farms, when=layer_on)
register_sheriff_pool(0, _pool, when=layer_on)

"""The Bailiff (000 The Village): "Building: the Bailiff's house. Power: permanent ...
When a building becomes free, the Bailiff may assign a Vagabond of their choice to it.
That Vagabond changes seat to sit behind the building, returns their bindle token, and
receives the "power" token associated with the building, if it had already been used.
If several buildings become free on the same morning, this is done for each building in
turn. Note: the elimination of the Bailiff ends the assignment of homes. The Bailiff's
house remains empty." The Vagabonds: "A Vagabond may refuse to occupy a home offered by
the Bailiff."

A building becomes free when its occupant dies (not when it burns: it is gone). At the
next dawn, after the night's deaths, the living Bailiff is asked for each free
building in turn (``bailiff_assign``: a living Vagabond or null); the Vagabond answers
``vagabond_accept`` (null is a refusal); a refusal lets the Bailiff offer it to another. The newcomer takes
the building's place at the table, its token and its power (the Farmers' vote, the
Tavernkeeper's immunity...). A building not given that morning stays empty."""

from __future__ import annotations

from engine.decisions import BOOL, CHOICE, NOT_WOLF, Power, decision
from engine.buildings.base import YES_NO, PERMANENT, VAGABOND, BuildingSpec, holders, layer_on, refresh, register_building, vagabonds
from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.roles.base import register_batch_hook, register_dawn_hook

BAILIFF_ASSIGN = decision("bailiff_assign", CHOICE, power=Power(NOT_WOLF, note="a home (and its power) given to a Vagabond"))
VAGABOND_ACCEPT = decision("vagabond_accept", BOOL, unmeasured="yes/no about a home")

BAILIFF = register_building(
    BuildingSpec(
        id="bailiff",
        name="Bailiff",
        home="Bailiff's house",
        power=PERMANENT,
        box=1,
        summary="When a building becomes free, you may give it to a Vagabond, who moves in and takes its power.",
        decisions=(BAILIFF_ASSIGN,),
    )
)
VAGABOND_SPEC = register_building(
    BuildingSpec(
        id=VAGABOND,
        name="Vagabond",
        home="",
        power=PERMANENT,
        box=15,
        summary="You have no home: the Schoolmistress, the Barber, the Raven and the Arsonist cannot touch you; the Bailiff may give you a freed building.",
        decisions=(VAGABOND_ACCEPT,),
    )
)


def _freed(game, fallen, queue) -> None:
    for p, _cause in fallen:
        if p.building and p.building != VAGABOND and not p.state.get("home_freed"):
            p.state["home_freed"] = True
            game.memory.setdefault("free_buildings", []).append(p.name)


def _assign(game):
    free = game.memory.pop("free_buildings", None)
    if not free:
        return
    bailiffs = holders(game, "bailiff")
    if not bailiffs:
        return
    bailiff = bailiffs[0]
    for former in free:
        home = game.by_name[former]
        if home.building in ("bailiff", VAGABOND) or home.alive:
            continue
        refused: list[str] = []
        while True:
            options = tuple(n for n in vagabonds(game) if n not in refused)
            if not options:
                break
            pick = yield from ask_one(
                game.ask(bailiff.name, BAILIFF_ASSIGN, options, allow_pass=True, building=home.building, former=former)
            )
            if pick is None:
                break
            game.emit("home_offered", PUBLIC, bailiff=bailiff.name, player=pick, building=home.building, former=former)
            yes = yield from ask_one(
                game.ask(pick, VAGABOND_ACCEPT, YES_NO, shape=BOOL, allow_pass=True, building=home.building, former=former)
            )
            if not yes:
                refused.append(pick)
                game.emit("home_refused", PUBLIC, player=pick, building=home.building)
                continue
            newcomer = game.by_name[pick]
            newcomer.building = home.building
            newcomer.token = True
            game.move(pick, home.seat)
            game.emit("moved_in", PUBLIC, player=pick, building=home.building, former=former, seat=newcomer.seat)
            refresh(game)
            break


register_batch_hook(40, _freed, when=layer_on)
register_dawn_hook(60, _assign, when=layer_on)

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

from dataclasses import dataclass, field
from typing import TypedDict

from engine.buildings.base import YES_NO, PERMANENT, VAGABOND, BuildingSpec, holders, layer_on, refresh, register_building, vagabonds
from engine.decisions import BOOL, CHOICE, NOT_WOLF, Power, decision
from engine.events import PUBLIC, BuildingId, EventData, Name, event
from engine.flow.common import Script, ask_one
from engine.roles.base import register_batch_hook, register_dawn_hook
from engine.game_state import GameState, Player


class FreedHomeContext(TypedDict, total=False):
    """The context of both questions about a freed home (the Bailiff's, the Vagabond's)."""

    building: str  # the freed building's id
    former: str  # its late occupant


BAILIFF_ASSIGN = decision(
    "bailiff_assign", CHOICE, context=FreedHomeContext, power=Power(NOT_WOLF, note="a home (and its power) given to a Vagabond")
)
VAGABOND_ACCEPT = decision("vagabond_accept", BOOL, context=FreedHomeContext, unmeasured="yes/no about a home")


@event("home_offered")
class HomeOffered(EventData):
    """The Bailiff offers ``former``'s freed ``building`` to the Vagabond ``player``."""

    bailiff: Name
    player: Name
    building: BuildingId
    former: Name


@event("home_refused")
class HomeRefused(EventData):
    player: Name
    building: BuildingId


@event("moved_in")
class MovedIn(EventData):
    """The Vagabond ``player`` takes ``former``'s home: its token, its power and its
    place at the table (``seat``, an index of the seating)."""

    player: Name
    building: BuildingId
    former: Name
    seat: int


@dataclass(slots=True)
class Vacancies:
    """The homes freed by their occupants' deaths, as the Bailiff's mornings need them."""

    waiting: list[str] = field(default_factory=list)  # the late occupants since the last dawn, in order of death
    freed: set[str] = field(default_factory=set)  # every late occupant whose home was ever freed (once each)

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


def _freed(game: GameState, fallen: list[tuple[Player, str]], queue: list[tuple[str, str]]) -> None:
    # ``fallen`` holds the whole batch so far each time: a home is freed once.
    for p, _cause in fallen:
        if p.building and p.building != VAGABOND:
            vacancies = game.memory.of(Vacancies)
            if p.name not in vacancies.freed:
                vacancies.freed.add(p.name)
                vacancies.waiting.append(p.name)


def _assign(game: GameState) -> Script:
    vacancies = game.memory.peek(Vacancies)
    if vacancies is None or not vacancies.waiting:
        return
    free, vacancies.waiting = vacancies.waiting, []
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
            pick = yield from ask_one(game.ask(bailiff.name, BAILIFF_ASSIGN, options, {"building": home.building, "former": former}, True))
            if pick is None:
                break
            game.emit(HomeOffered(bailiff.name, pick, home.building, former), PUBLIC)
            yes = yield from ask_one(game.ask(pick, VAGABOND_ACCEPT, YES_NO, {"building": home.building, "former": former}, True))
            if not yes:
                refused.append(pick)
                game.emit(HomeRefused(pick, home.building), PUBLIC)
                continue
            newcomer = game.by_name[pick]
            newcomer.building = home.building
            newcomer.token = True
            game.move(pick, home.seat)
            game.emit(MovedIn(pick, home.building, former, newcomer.seat), PUBLIC)
            refresh(game)
            break


register_batch_hook(40, _freed, when=layer_on)
register_dawn_hook(60, _assign, when=layer_on)

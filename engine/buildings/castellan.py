"""The Castellan (000 The Village): "Building: the manor. Power: unique ... After any
vote, the Castellan may, at the request of the intended victim, pardon a villager
chosen by the village's vote. That player will therefore not be eliminated and will not
reveal their character card. A selfish Castellan may of course pardon themselves. After
using this power, the Castellan loses it and returns their token."

When the vote designates a victim and a living Castellan still holds his token, the
victim answers ``castellan_plea`` (ask for mercy or not; the Castellan himself need
not ask) and, if they ask, the Castellan answers ``castellan_pardon``; null is no. A pardon spares
the victim and spends the token."""

from __future__ import annotations

from typing import TypedDict

from engine.buildings.base import YES_NO, UNIQUE, BuildingSpec, layer_on, register_building, spend_token, with_token
from engine.decisions import BOOL, NOT_WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script, ask_one
from engine.roles.base import register_pardon
from engine.game_state import GameState


class CastellanPardonContext(TypedDict, total=False):
    player: str  # the condemned, who asked for mercy (or the Castellan himself)


class CastellanPleaContext(TypedDict, total=False):
    castellan: str  # the Castellan the condemned may ask for mercy


CASTELLAN_PARDON = decision(
    "castellan_pardon",
    BOOL,
    context=CastellanPardonContext,
    power=Power(NOT_WOLF, note="yes/no: spare the condemned (good: spare a non-wolf, refuse a wolf)"),
)
CASTELLAN_PLEA = decision("castellan_plea", BOOL, context=CastellanPleaContext, unmeasured="the condemned asks for himself")


@event("plea")
class Plea(EventData):
    """The condemned ``player`` asks the Castellan for mercy."""

    player: Name
    castellan: Name


@event("pardon_refused")
class PardonRefused(EventData):
    castellan: Name
    player: Name


@event("pardoned")
class Pardoned(EventData):
    """The Castellan spares the condemned ``player`` (himself, when selfish)."""

    castellan: Name
    player: Name


CASTELLAN = register_building(
    BuildingSpec(
        id="castellan",
        name="Castellan",
        home="manor",
        power=UNIQUE,
        box=1,
        summary="Once per game, when the vote condemns a player who asks you for mercy (or yourself), you may pardon them.",
        decisions=(CASTELLAN_PARDON,),
    )
)


def _pardon(game: GameState, target: str) -> Script:
    for c in with_token(game, "castellan"):
        if target != c.name:
            plea = yield from ask_one(game.ask(target, CASTELLAN_PLEA, YES_NO, {"castellan": c.name}, True))
            if not plea:
                continue
            game.emit(Plea(target, c.name), PUBLIC)
        mercy = yield from ask_one(game.ask(c.name, CASTELLAN_PARDON, YES_NO, {"player": target}, True))
        if not mercy:
            game.emit(PardonRefused(c.name, target), PUBLIC)
            continue
        game.emit(Pardoned(c.name, target), PUBLIC)
        spend_token(game, c, "used")
        return True
    return False


register_pardon(5, _pardon, when=layer_on)

"""Handing out the buildings (000 The Village, "Box Contents").

"These tokens are used to distribute roles to all the players, however the narrator
chooses: Either a random distribution, by drawing from the full set of available tokens
face-down. Or a random distribution, by drawing from a selection of face-down tokens
prepared by the narrator. Or a fixed order, a personal choice by each player of a token
from a certain number of face-up tokens."


Which tokens (option ``buildings``): ``box``, the whole box (29 tokens); ``first_game``
("For your first game, we recommend choosing buildings only from among the Farmers, the
Schoolmistress, the Castellan, and the Confessor"); ``thirds`` ("In later games, we
recommend respecting the following distribution: 1/3 Farmers, 1/3 Vagabonds, and 1/3
special buildings"); ``listed``, the narrator's own selection (``building_tokens``).
How (``building_handout``): ``random`` draws face down; ``choice`` lays them face up and
each player, in seat order, picks one (``building_choice``). A game file may give a seat
its token (``building:``); those seats are served first.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, TypedDict

from engine.buildings.base import BUILDINGS, VAGABOND, layer_on, refresh
from engine.decisions import CHOICE, decision
from engine.events import PUBLIC, BuildingId, EventData, Name, event
from engine.flow.common import Script, ask_one
from engine.roles.base import register_setup_hook
from engine.setup import SetupError
from engine.game_state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from engine.options import RuleOptions

FARMER = "farmer"
FIRST_GAME = ("schoolmistress", "castellan", "confessor")
# The special buildings of ``thirds``: the Bailiff first whenever there are Vagabonds
# (without him they never get a home), the others drawn at random.
SPECIALS = ("bailiff", "schoolmistress", "castellan", "confessor", "barber", "bonesetter", "tavernkeeper", "baker")


class BuildingChoiceContext(TypedDict, total=False):
    tokens: dict[str, int]  # the tokens still face up, by building id: how many of each


BUILDING_CHOICE = decision("building_choice", CHOICE, context=BuildingChoiceContext, unmeasured="a building, not a player")


@event("buildings_on_offer")
class BuildingsOnOffer(EventData):
    """``building_handout: choice``: the tokens laid face up (by building id, how many)."""

    tokens: dict[str, int]


@event("building_chosen")
class BuildingChosen(EventData):
    player: Name
    building: BuildingId


@event("buildings")
class Buildings(EventData):
    """The hand-out done: every player's token (``homes``, by player), and how it was
    handed out (``random`` or ``choice``)."""

    homes: dict[str, BuildingId]
    handout: str


class BuildingError(ValueError):
    """A building set-up that cannot be played (reported as a setup error)."""


def box() -> list[str]:
    return sorted(b for spec in BUILDINGS.values() for b in [spec.id] * spec.box)


def selection(options: RuleOptions, n: int, rng: random.Random) -> list[str]:
    """The tokens on the table for ``n`` players (at least ``n``), before any draw."""
    rule = options.buildings
    full = box()
    if n > len(full):
        raise BuildingError(f"the box holds {len(full)} building tokens, not enough for {n} players")
    if rule == "box":
        return full
    if rule == "listed":
        tokens = list(options.building_tokens)
        unknown = sorted({t for t in tokens if t not in BUILDINGS})
        if unknown:
            raise BuildingError(f"unknown building '{unknown[0]}' in building_tokens (known: {', '.join(sorted(BUILDINGS))})")
        if len(tokens) < n:
            raise BuildingError(f"building_tokens lists {len(tokens)} tokens for {n} players (one each at least)")
        _check_box(tokens)
        return tokens
    if rule == "first_game":
        first = list(FIRST_GAME[:n])
        farmers = min(BUILDINGS[FARMER].box, n - len(first))
        return first + [FARMER] * farmers + [VAGABOND] * (n - len(first) - farmers)
    # thirds
    farmers = min(BUILDINGS[FARMER].box, round(n / 3))
    homeless = round(n / 3)
    specials = n - farmers - homeless
    if specials > len(SPECIALS):
        homeless += specials - len(SPECIALS)
        specials = len(SPECIALS)
    chosen: list[str] = []
    if specials and homeless:
        chosen.append("bailiff")
    others = [s for s in SPECIALS if s not in chosen]
    chosen += rng.sample(others, specials - len(chosen))
    return sorted(chosen) + [FARMER] * farmers + [VAGABOND] * homeless


def _check_box(tokens: list[str]) -> None:
    for t, k in Counter(tokens).items():
        if k > BUILDINGS[t].box:
            raise BuildingError(f"the box holds {BUILDINGS[t].box} '{t}' token(s), {k} asked for")


def _serve_forced(game: GameState, pool: list[str]) -> dict[str, str]:
    """Take the game file's tokens out of the pool. A token the recommended set lacks
    takes a Vagabond's (else a Farmer's) place, as a forced role takes a villager's."""
    given: dict[str, str] = {}
    forced = game.setup.buildings
    for p in game.players:
        b = forced.get(p.name)
        if b is None:
            continue
        if b in pool:
            pool.remove(b)
        elif game.options.buildings in ("first_game", "thirds") and (VAGABOND in pool or FARMER in pool):
            pool.remove(VAGABOND if VAGABOND in pool else FARMER)
        else:
            raise BuildingError(f"building '{b}' given to {p.name} is not among the tokens (or given too often)")
        given[p.name] = b
    if game.options.buildings in ("first_game", "thirds"):
        _check_box(list(given.values()) + pool)
    return given


def _hand_out(game: GameState) -> Script:
    opts = game.options
    n = len(game.players)
    try:
        pool = selection(opts, n, game.rng)
        given = _serve_forced(game, pool)
    except BuildingError as e:
        raise SetupError(str(e)) from None
    if opts.building_handout == "random":
        pool.sort()
        game.rng.shuffle(pool)
        for p in game.players:
            if p.name not in given:
                given[p.name] = pool.pop()
    else:
        game.emit(BuildingsOnOffer(dict(sorted(Counter(pool).items()))), PUBLIC)
        for p in game.players:
            if p.name in given:
                continue
            kinds = tuple(sorted(set(pool)))
            if len(kinds) == 1:
                pick = kinds[0]
            else:
                pick = yield from ask_one(game.ask(p.name, BUILDING_CHOICE, kinds, {"tokens": dict(Counter(pool))}))
            pool.remove(pick)
            given[p.name] = pick
            game.emit(BuildingChosen(p.name, pick), PUBLIC)
    for p in game.players:
        p.building = given[p.name]
        p.token = True
    game.emit(Buildings({p.name: p.building for p in game.players}, opts.building_handout), PUBLIC)
    refresh(game)


register_setup_hook(0, _hand_out, when=layer_on)

"""A game's setup and the deal.

The deal is the first use of the game's random stream, so the same setup and seed
always deal the same cards. Every problem with a setup is a ``SetupError`` whose
message names it: a game file's author should never see a traceback.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

from engine.cards import BUILDINGS, ROLES
from engine.names import check_names
from engine.options import RuleOptions
from engine.presets import get_preset


class SetupError(ValueError):
    """A setup the rules cannot play; the message says what is wrong."""


@dataclass(slots=True)
class GameSetup:
    names: list[str]
    preset: str = "millers_hollow"
    seed: int = 0
    options: RuleOptions | None = None
    roles: list[str] | None = None  # the whole deck (center cards included)
    forced: dict[str, str] = field(default_factory=dict)  # name -> role id
    center: list[str] | None = None
    buildings: dict[str, str] = field(default_factory=dict)  # name -> building id (The Village)

    def rule_options(self) -> RuleOptions:
        return self.options if self.options is not None else get_preset(self.preset).options()

    def reseeded(self, seed: int) -> GameSetup:
        """The same table dealt under ``seed``: what a simulation or a tournament plays
        once per game (the fields are shared with this setup)."""
        return replace(self, seed=seed)


@dataclass(slots=True)
class Deal:
    roles: dict[str, str]  # name -> role id, in seat order
    center: list[str]
    deck: tuple[str, ...] = ()  # every card dealt or set aside, sorted


def _check_role(role: str, where: str) -> None:
    if role not in ROLES:
        raise SetupError(f"unknown role '{role}' in {where} (known: {', '.join(sorted(ROLES))})")


def _deal_deck(setup: GameSetup, given: list[str], options: RuleOptions, rng: random.Random) -> Deal | None:
    """The common case (a whole deck, ``given``: the setup's ``roles`` or the preset's deck; no forced seat,
    no named center) without the bookkeeping; it deals exactly what the general path would. ``None`` defers to the
    general path, which also produces the error messages."""
    n = len(setup.names)
    key = (tuple(given), n, options.thief_adds_villagers)
    cards = _CHECKED_DECKS.get(key)
    if cards is None:
        cards = _check_deck(list(given), n, options)
        if cards is None:
            return None
        if len(_CHECKED_DECKS) > 1024:
            _CHECKED_DECKS.clear()
        _CHECKED_DECKS[key] = cards
    deck = list(cards)
    rng.shuffle(deck)
    roles = {name: deck.pop() for name in setup.names}
    return Deal(roles, [deck.pop(), deck.pop()] if "thief" in cards else [], cards)


# Decks ``_deal_deck`` has found playable, sorted with their added cards, by (deck,
# players, ``thief_adds_villagers``): a tournament or a simulation deals the same deck
# thousands of times. Only the registry of roles decides, and roles are never removed.
_CHECKED_DECKS: dict[tuple[tuple[str, ...], int, bool], tuple[str, ...]] = {}


# Seatings whose names ``check_names`` accepted: the same table is dealt for every
# game of a simulation or a tournament, and the check folds every name.
_CHECKED_NAMES: set[tuple[str, ...]] = set()


def _check_deck(deck: list[str], n: int, options: RuleOptions) -> tuple[str, ...] | None:
    roles_known = ROLES
    if not all(r in roles_known for r in deck):
        return None
    has_thief = "thief" in deck
    if has_thief and len(deck) == n and options.thief_adds_villagers:
        deck += ["villager", "villager"]
    if len(deck) != (n + 2 if has_thief else n) or not any(roles_known[r].is_wolf for r in deck):
        return None
    deck.sort()
    return tuple(deck)


def _check_buildings(setup: GameSetup, options: RuleOptions) -> None:
    if options.buildings == "none":
        raise SetupError("seats are given buildings but the game has none (set the rule option 'buildings')")
    for name, b in setup.buildings.items():
        if name not in setup.names:
            raise SetupError(f"building given for unknown player '{name}'")
        if b not in BUILDINGS:
            raise SetupError(f"unknown building '{b}' for {name} (known: {', '.join(sorted(BUILDINGS))})")


def deal(setup: GameSetup, rng: random.Random, options: RuleOptions | None = None) -> Deal:
    """The cards of ``setup`` dealt with ``rng``. ``options``: the setup's rule options,
    when the caller has them already."""
    names = setup.names
    n = len(names)
    if n < 3:
        raise SetupError(f"a game needs at least 3 players, got {n}")
    preset = get_preset(setup.preset)
    if n < preset.min_players:
        raise SetupError(f"a game needs at least {preset.min_players} players, got {n}")
    if n > preset.max_players:
        raise SetupError(f"preset {preset.id} seats at most {preset.max_players} players, got {n}")
    key = tuple(names)
    if key not in _CHECKED_NAMES:
        try:
            check_names(names)
        except ValueError as e:
            raise SetupError(str(e)) from None
        if len(_CHECKED_NAMES) > 1024:
            _CHECKED_NAMES.clear()
        _CHECKED_NAMES.add(key)
    for name, role in setup.forced.items():
        if name not in names:
            raise SetupError(f"role given for unknown player '{name}'")
        _check_role(role, f"the seat of {name}")
    if options is None:
        options = setup.rule_options()
    if setup.buildings:
        _check_buildings(setup, options)
    if not setup.forced and setup.center is None:
        # The recommended deck (no roles given) is dealt as the same cards given:
        # sorted, shuffled, popped seat by seat, then the center; the same draws.
        given = setup.roles
        if given is None:
            try:
                given = preset.deck_for(n, options)
            except ValueError as e:
                raise SetupError(str(e)) from None
        fast = _deal_deck(setup, given, options, rng)
        if fast is not None:
            return fast

    if setup.roles is not None:
        deck = list(setup.roles)
        for r in deck:
            _check_role(r, "roles")
        explicit = True
    elif setup.forced and len(setup.forced) == n:
        deck = list(setup.forced.values())
        explicit = True
    else:
        try:
            deck = preset.deck_for(n, options)
        except ValueError as e:
            raise SetupError(str(e)) from None
        explicit = False
    center_given = list(setup.center) if setup.center is not None else None
    if center_given is not None:
        for r in center_given:
            _check_role(r, "center")
        if len(center_given) != 2:
            raise SetupError(f"center must name exactly 2 cards, got {len(center_given)}")

    # Forced seats that the recommended deck does not contain take a villager's place.
    if not explicit:
        pool = Counter(deck)
        for role in setup.forced.values():
            if pool[role] > 0:
                pool[role] -= 1
            elif pool["villager"] > 0:
                pool["villager"] -= 1
                deck.remove("villager")
                deck.append(role)
            else:
                raise SetupError(f"cannot fit role '{role}' into the recommended deck for {n} players")

    has_thief = "thief" in deck
    if center_given is not None:
        if not has_thief:
            raise SetupError("center cards are only set aside when a Thief plays")
        if len(deck) == n:
            deck += center_given  # the two extra cards are the ones named
    elif has_thief and len(deck) == n and options.thief_adds_villagers:
        deck += ["villager", "villager"]  # 000: "If the Thief is played, add 2 Ordinary Villager cards"
    want = n + 2 if has_thief else n
    if len(deck) != want:
        raise SetupError(
            f"wrong card count: {len(deck)} cards for {n} players"
            + (" (with a Thief the deck holds two more cards than players)" if has_thief else "")
        )
    if not any(ROLES[r].is_wolf for r in deck):
        raise SetupError("the deck has no werewolf")

    remaining = Counter(deck)
    for name, role in setup.forced.items():
        if remaining[role] <= 0:
            raise SetupError(f"role '{role}' given to {name} is not in the deck (or given too often)")
        remaining[role] -= 1
    center: list[str] = []
    if has_thief:
        if center_given is not None:
            for r in center_given:
                if remaining[r] <= 0:
                    raise SetupError(f"center card '{r}' is not left in the deck after the seats' roles")
                remaining[r] -= 1
            center = center_given
    rest = sorted(remaining.elements())
    rng.shuffle(rest)
    roles: dict[str, str] = {}
    for name in names:
        roles[name] = setup.forced[name] if name in setup.forced else rest.pop()
    if has_thief and not center:
        center = [rest.pop(), rest.pop()]
    if rest:
        raise SetupError(f"wrong card count: {len(rest)} card(s) left over after the deal")
    return Deal(roles=roles, center=center, deck=tuple(sorted(deck)))

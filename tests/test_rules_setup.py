"""Setup and the deal (000 "Game Setup", "Simplified Setup", "The Thief")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game, GameSetup, SetupError, get_preset
from engine.events import NARRATOR
from helpers import events, new_game, options

NAMES = [f"P{i}" for i in range(10)]


def _roles(game: Game) -> dict[str, str]:
    return {p.name: p.role for p in game.players}


def test_deal_is_deterministic_per_seed():
    """000 "Game Setup": "The narrator deals 1 character card face down to each player."
    The digital deal is the seed's: the same setup and seed deal the same cards."""
    a = Game(GameSetup(names=NAMES, seed=11, options=options()))
    b = Game(GameSetup(names=NAMES, seed=11, options=options()))
    assert _roles(a) == _roles(b)
    deals = {tuple(_roles(Game(GameSetup(names=NAMES, seed=s, options=options()))).values()) for s in range(12)}
    assert len(deals) > 1, "different seeds should deal differently"


@pytest.mark.parametrize(
    "n, wolves",
    [(8, 2), (9, 2), (10, 2), (11, 2), (12, 3), (13, 3), (15, 3), (18, 3)],
)
def test_recommended_deck_follows_the_table(n, wolves):
    """000 "Simplified Setup": 8-11 players: 2 Werewolves, 12-18: 3; 1 Fortune Teller;
    the rest Ordinary Villagers."""
    deck = Counter(get_preset("millers_hollow").deck(n))
    assert deck == Counter({"werewolf": wolves, "seer": 1, "villager": n - wolves - 1})
    game = Game(GameSetup(names=[f"P{i}" for i in range(n)], seed=n, options=options()))
    assert Counter(p.role for p in game.players) == deck


def test_forced_roles_are_respected_and_the_rest_is_dealt_from_the_deck():
    """The deal gives forced seats their card; the others get the rest of the deck.
    A forced role missing from the recommended deck takes a villager's place."""
    forced = {"P3": "werewolf", "P7": "witch", "P0": "hunter"}
    for seed in range(8):
        game = Game(GameSetup(names=NAMES, seed=seed, options=options(), forced=forced))
        roles = _roles(game)
        for name, role in forced.items():
            assert roles[name] == role
        assert Counter(roles.values()) == Counter({"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 5})
        assert all(p.initial_role == p.role for p in game.players)


def test_explicit_deck_is_dealt_exactly():
    deck = ["werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "little_girl", "villager", "villager", "villager"]
    game = Game(GameSetup(names=NAMES, seed=3, options=options(), roles=deck))
    assert Counter(_roles(game).values()) == Counter(deck)


def test_thief_adds_two_villagers_to_the_deck():
    """000 "The Thief": "If the Thief is played, add 2 Ordinary Villager cards to those
    already chosen. After the deal, the 2 undealt cards are placed face down in the center."
    """
    deck = ["werewolf", "werewolf", "seer", "thief"] + ["villager"] * 4  # 8 cards for 8 players
    names = NAMES[:8]
    for seed in range(10):
        game = Game(GameSetup(names=names, seed=seed, options=options(), roles=deck))
        assert len(game.center) == 2
        everything = Counter(p.role for p in game.players) + Counter(game.center)
        assert everything == Counter(deck) + Counter({"villager": 2})


def test_thief_with_recommended_deck_also_adds_two_villagers():
    game = Game(GameSetup(names=NAMES, seed=5, options=options(), forced={"P1": "thief"}))
    everything = Counter(p.role for p in game.players) + Counter(game.center)
    assert everything == Counter({"werewolf": 2, "seer": 1, "thief": 1, "villager": 8})


def test_thief_without_extra_villagers_needs_two_more_cards():
    """Option thief_adds_villagers=false: the deck must already hold players + 2 cards."""
    deck = ["werewolf", "werewolf", "seer", "thief"] + ["villager"] * 4
    with pytest.raises(SetupError, match="two more cards"):
        Game(GameSetup(names=NAMES[:8], options=options({"thief_adds_villagers": False}), roles=deck))
    game = Game(
        GameSetup(names=NAMES[:8], options=options({"thief_adds_villagers": False}), roles=deck + ["werewolf", "hunter"])
    )
    assert len(game.center) == 2


def test_given_center_cards_are_the_ones_set_aside():
    roles = {"T": "thief", "W": "werewolf", "A": "villager", "B": "villager"}
    game = new_game(roles, center=["werewolf", "seer"])
    assert game.center == ["werewolf", "seer"]
    [ev] = events(game, "center")
    assert ev.audience == NARRATOR
    assert ev.data["cards"] == ["werewolf", "seer"]


def test_center_without_thief_is_an_error():
    with pytest.raises(SetupError, match="Thief"):
        new_game({"W": "werewolf", "A": "villager", "B": "villager"}, center=["villager", "villager"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(names=["A", "B"]), "at least 3"),
        (dict(names=["A", "A", "B"]), "duplicate"),
        (dict(names=["A", "B", "C"], roles=["villager", "villager", "seer"]), "no werewolf"),
        (dict(names=["A", "B", "C"], roles=["werewolf", "villager", "wizard"]), "wizard"),
        (dict(names=["A", "B", "C"], forced={"Z": "werewolf"}), "Z"),
        (dict(names=["A", "B", "C"], roles=["werewolf", "villager"]), "card count"),
    ],
)
def test_setup_errors_name_the_problem(kwargs, message):
    with pytest.raises(SetupError, match=message):
        Game(GameSetup(options=options(), **kwargs))


def test_each_player_privately_learns_their_own_card():
    """000 "Game Setup": "Each player secretly looks at their character"."""
    roles = {"W": "werewolf", "S": "seer", "A": "villager"}
    game = new_game(roles)
    role_events = events(game, "role")
    assert {e.data["player"]: e.data["role"] for e in role_events} == roles
    for e in role_events:
        assert e.audience == frozenset({e.data["player"]})

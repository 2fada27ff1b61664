"""The Thief (000 "The Thief"; starting round).

000: "On the first night, the Thief may look at these 2 cards and exchange his card for
one of them. If both cards are Werewolves, he is obliged to exchange his card for one of
them. He then plays this character for the rest of the game."
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, events, pending, role_of, scripted_game, start

ROLES = {"Thief": "thief", "Wolf": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
ONE_NIGHT = {"max_days": 1}


def test_thief_sees_the_two_center_cards_privately():
    """000 starting round: the Thief "discreetly looks at the 2 hidden cards in the middle"."""
    game = scripted_game(ROLES, {"Wolf": {"wolf_kill": ["Ann"]}}, ONE_NIGHT, center=["seer", "villager"])
    [ev] = events(game, "thief_cards")
    assert ev.data["cards"] == ["seer", "villager"]
    assert ev.audience == frozenset({"Thief"})


def test_thief_may_keep_his_card():
    game = scripted_game(
        ROLES, {"Thief": {"thief_swap": [None]}, "Wolf": {"wolf_kill": ["Ann"]}}, ONE_NIGHT, center=["seer", "villager"]
    )
    assert role_of(game, "Thief") == "thief"
    assert game.center == ["seer", "villager"]
    assert data(game, "thief_swap") == [{"player": "Thief", "took": None}]


def test_thief_swaps_and_becomes_the_taken_role():
    """"He then plays this character for the rest of the game": a Thief who takes the
    Seer's card is asked the Seer's question the same night (the Seer is called after him)."""
    game = scripted_game(
        ROLES,
        {"Thief": {"thief_swap": ["seer"], "seer_check": ["Wolf"]}, "Wolf": {"wolf_kill": ["Ann"]}},
        ONE_NIGHT,
        center=["seer", "villager"],
    )
    thief = game.by_name["Thief"]
    assert (thief.initial_role, thief.role) == ("thief", "seer")
    assert game.center == ["thief", "villager"]
    assert data(game, "seer_result") == [{"seer": "Thief", "target": "Wolf", "role": "werewolf"}]
    # he privately learns his new card
    assert events(game, "role", player="Thief")[-1].data["role"] == "seer"
    assert events(game, "role", player="Thief")[-1].audience == frozenset({"Thief"})


def test_thief_must_take_a_werewolf_when_both_cards_are_werewolves():
    """000: "If both cards are Werewolves, he is obliged to exchange his card for one of them.\""""
    game, _, d = start(ROLES, until=pending("thief_swap"), center=["werewolf", "werewolf"])
    assert d.options == ("werewolf",)
    with pytest.raises(IllegalAnswer, match="passing is not allowed"):
        game.submit(d.id, None)
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, "villager")
    game.submit(d.id, "werewolf")
    assert role_of(game, "Thief") == "werewolf"


def test_thief_may_keep_when_only_one_card_is_a_werewolf():
    game, _, d = start(ROLES, until=pending("thief_swap"), center=["werewolf", "villager"])
    assert d.allow_pass
    game.submit(d.id, None)
    assert role_of(game, "Thief") == "thief"


def test_thief_may_only_take_a_card_from_the_center():
    game, _, d = start(ROLES, until=pending("thief_swap"), center=["seer", "villager"])
    with pytest.raises(IllegalAnswer, match="not a legal thief_swap"):
        game.submit(d.id, "witch")


def test_thief_who_takes_a_werewolf_wakes_with_the_pack_that_night():
    """The Thief is called first; the pack is called later the same night, so a Thief who
    became a Werewolf recognises the pack and votes on the victim with it."""
    game = scripted_game(
        ROLES,
        {"Thief": {"thief_swap": ["werewolf"], "wolf_kill": ["Ann"]}, "Wolf": {"wolf_kill": ["Ann"]}},
        ONE_NIGHT,
        center=["werewolf", "werewolf"],
    )
    packs = data(game, "wolf_pack")
    assert packs and all(sorted(p["wolves"]) == ["Thief", "Wolf"] for p in packs)
    assert ("Thief", "wolf_kill", "Ann") in asked(game, "wolf_kill")
    assert game.deaths[0].name == "Ann" and game.deaths[0].cause == "werewolves"


def test_thief_turned_werewolf_wins_with_the_werewolves():
    roles = {"Thief": "thief", "Wolf": "werewolf", "Ann": "villager"}
    game = scripted_game(
        roles,
        {"Thief": {"thief_swap": ["werewolf"], "wolf_kill": ["Ann"]}, "Wolf": {"wolf_kill": ["Ann"]}},
        center=["werewolf", "werewolf"],
    )
    assert game.winner == "werewolves"
    assert sorted(game.winners) == ["Thief", "Wolf"]


def test_thief_is_not_called_after_the_first_night():
    game = scripted_game(
        ROLES,
        {"Thief": {"thief_swap": [None]}, "Wolf": {"wolf_kill": ["Ann", "Bob"]}},
        {"max_days": 2},
        center=["seer", "villager"],
    )
    assert len(asked(game, "thief_swap")) == 1
    assert len(events(game, "thief_cards")) == 1

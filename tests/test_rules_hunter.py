"""The Hunter (000 "The Hunter"; Normal Turn step 4).

000: "If he is devoured by the Werewolves or mistakenly executed by the players, the
Hunter must retaliate before giving up the ghost, by immediately eliminating any other
player of his choice." 002: "puede tomar represalias" (option hunter_may_pass).
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, pending, scripted_game, start

ROLES = {"Hunt": "hunter", "W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager", "Dan": "villager"}


def wolves(*victims):
    return {"W1": {"wolf_kill": list(victims)}, "W2": {"wolf_kill": list(victims)}}


def test_hunter_devoured_by_the_wolves_shoots_at_dawn():
    game = scripted_game(ROLES, {**wolves("Hunt"), "Hunt": {"hunter_shot": ["W1"]}}, {"max_days": 1})
    assert deaths(game) == [("Hunt", 1, "werewolves"), ("W1", 1, "hunter")]
    assert data(game, "hunter_shot") == [{"hunter": "Hunt", "target": "W1"}]
    assert [e.kind for e in game.events if e.kind in ("death", "hunter_shot", "day_start")] == [
        "death",
        "hunter_shot",
        "death",
        "day_start",
    ], "the shot is immediate, before the day goes on"


def test_hunter_executed_by_the_vote_shoots():
    votes = {n: {"vote": ["Hunt"]} for n in ("Ann", "Bob", "Cat")}
    game = scripted_game(ROLES, {**wolves("Dan"), **votes, "Hunt": {"hunter_shot": ["W2"]}}, {"max_days": 1})
    assert deaths(game) == [("Dan", 1, "werewolves"), ("Hunt", 1, "vote"), ("W2", 1, "hunter")]


def test_poisoned_hunter_does_not_shoot_by_default():
    """000 names two causes only: "devoured by the Werewolves or mistakenly executed"."""
    roles = {"Witch": "witch", **ROLES}
    game = scripted_game(roles, {**wolves("Ann"), "Witch": {"witch_poison": ["Hunt"]}, "Hunt": {"hunter_shot": ["W1"]}}, {"max_days": 1})
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Hunt", 1, "poison")]
    assert asked(game, "hunter_shot") == []


def test_option_hunter_shot_causes_may_include_poison():
    roles = {"Witch": "witch", **ROLES}
    game = scripted_game(
        roles,
        {**wolves("Ann"), "Witch": {"witch_poison": ["Hunt"]}, "Hunt": {"hunter_shot": ["W1"]}},
        {"max_days": 1, "hunter_shot_causes": ["werewolves", "vote", "poison"]},
    )
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Hunt", 1, "poison"), ("W1", 1, "hunter")]


def test_hunter_dying_of_grief_does_not_shoot():
    roles = {"Cupid": "cupid", **ROLES}
    game = scripted_game(
        roles,
        {**wolves("Ann"), "Cupid": {"cupid_lovers": [["Hunt", "Ann"]]}, "Hunt": {"hunter_shot": ["W1"]}},
        {"max_days": 1},
    )
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Hunt", 1, "grief")]
    assert asked(game, "hunter_shot") == []


def test_the_hunters_shot_can_end_the_game():
    """000 "Victory Conditions": "The Villagers win if they eliminate the last Werewolf"."""
    roles = {"Hunt": "hunter", "W1": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Hunt"]}, "Hunt": {"hunter_shot": ["W1"]}})
    assert deaths(game) == [("Hunt", 1, "werewolves"), ("W1", 1, "hunter")]
    assert game.winner == "village"
    assert asked(game, "vote") == [], "the game ended at dawn"
    assert sorted(game.winners) == ["Ann", "Bob", "Cat", "Hunt"]


def test_the_hunter_must_shoot_by_default():
    """000: "the Hunter must retaliate"."""
    game, _, d = start(ROLES, wolves("Hunt"), until=pending("hunter_shot"))
    assert d.context["cause"] == "werewolves"
    with pytest.raises(IllegalAnswer, match="passing is not allowed"):
        game.submit(d.id, None)
    with pytest.raises(IllegalAnswer, match="Hunt is dead|themself"):
        game.submit(d.id, "Hunt")  # "any other player"


def test_option_hunter_may_pass():
    """002: "puede tomar represalias" (he may)."""
    game = scripted_game(ROLES, {**wolves("Hunt"), "Hunt": {"hunter_shot": [None]}}, {"max_days": 1, "hunter_may_pass": True})
    assert deaths(game) == [("Hunt", 1, "werewolves")]
    assert data(game, "hunter_shot") == [{"hunter": "Hunt", "target": None}]


def test_the_hunter_may_not_shoot_the_dead():
    game, _, d = start(
        ROLES,
        {**wolves("Ann", "Hunt")},
        until=pending("hunter_shot"),
    )
    assert "Ann" not in d.options
    with pytest.raises(IllegalAnswer, match="Ann is dead"):
        game.submit(d.id, "Ann")


def test_a_hunter_shot_that_kills_a_lover_takes_the_beloved_too():
    roles = {"Cupid": "cupid", **ROLES}
    game = scripted_game(
        roles,
        {**wolves("Hunt"), "Cupid": {"cupid_lovers": [["Ann", "Bob"]]}, "Hunt": {"hunter_shot": ["Ann"]}},
        {"max_days": 1},
    )
    assert deaths(game) == [("Hunt", 1, "werewolves"), ("Ann", 1, "hunter"), ("Bob", 1, "grief")]


def test_a_hunter_healed_by_the_witch_does_not_die_nor_shoot():
    roles = {"Witch": "witch", **ROLES}
    game = scripted_game(roles, {**wolves("Hunt"), "Witch": {"witch_heal": [True]}, "Hunt": {"hunter_shot": ["W1"]}}, {"max_days": 1})
    assert deaths(game) == []
    assert asked(game, "hunter_shot") == []

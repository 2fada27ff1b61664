"""The day limit (option max_days): a game that cannot end stops with winner "none".

The books have no such rule (a table game always ends); the digital arena needs one so a
pack that may pass and a village that abstains cannot loop forever (options.py)."""

from __future__ import annotations

import pytest

from helpers import asked, data, deaths, scripted_game

ROLES = {"W1": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
IDLE = {"wolves_may_pass": True}


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_the_day_limit_ends_the_game_with_no_winner(limit):
    game = scripted_game(ROLES, {}, {**IDLE, "max_days": limit})
    assert game.winner == "none"
    assert game.winners == []
    assert game.day == limit
    assert len(asked(game, "wolf_kill")) == limit, "one night per day played"
    assert len(data(game, "day_start")) == limit
    [end] = data(game, "game_end")
    assert end["winner"] == "none" and str(limit) in end["reason"]
    assert deaths(game) == []


def test_the_default_limit_is_finite():
    game = scripted_game(ROLES, {}, IDLE)
    assert game.winner == "none"
    assert game.day == game.options.max_days


def test_a_game_won_before_the_limit_is_not_cut():
    game = scripted_game(ROLES, {"W1": {"wolf_kill": ["Ann", "Bob", "Cat"]}}, {"max_days": 3})
    assert game.winner == "werewolves" and game.day == 3


def test_the_last_day_is_played_in_full():
    game = scripted_game(ROLES, {"Ann": {"vote": ["W1"]}, "Bob": {"vote": ["W1"]}}, {**IDLE, "max_days": 1})
    assert game.winner == "village"

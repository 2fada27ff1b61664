"""The Seer / Fortune Teller (000 "The Fortune Teller"; Normal Turn step 1).

000: "Each night, she discovers the true identity of a player of her choosing." "The
narrator shows the Fortune Teller the hidden face of the card of the player the Fortune
Teller designated."
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import data, drive, events, pending, scripted_game, start

ROLES = {"Seer": "seer", "Wolf": "werewolf", "Hunt": "hunter", "Ann": "villager", "Bob": "villager"}


def test_seer_learns_exactly_the_chosen_card_each_night():
    game = scripted_game(
        ROLES,
        {"Seer": {"seer_check": ["Hunt", "Wolf"]}, "Wolf": {"wolf_kill": ["Ann", "Bob"]}},
        {"max_days": 2},
    )
    results = data(game, "seer_result")
    assert results == [
        {"seer": "Seer", "target": "Hunt", "role": "hunter"},
        {"seer": "Seer", "target": "Wolf", "role": "werewolf"},
    ]


def test_seer_result_is_private_to_the_seer():
    game = scripted_game(ROLES, {"Seer": {"seer_check": ["Wolf"]}, "Wolf": {"wolf_kill": ["Ann"]}}, {"max_days": 1})
    [ev] = events(game, "seer_result")
    assert ev.audience == frozenset({"Seer"})
    for name in ROLES:
        visible = [e for e in game.observation(name) if e.kind == "seer_result"]
        assert visible == ([ev] if name == "Seer" else [])


def test_seer_sees_the_thiefs_new_card():
    """The Thief "plays this character for the rest of the game": his card is the taken one."""
    roles = {"Seer": "seer", "Thief": "thief", "Wolf": "werewolf", "Ann": "villager"}
    game = scripted_game(
        roles,
        {"Seer": {"seer_check": ["Thief"]}, "Thief": {"thief_swap": ["hunter"]}, "Wolf": {"wolf_kill": ["Ann"]}},
        {"max_days": 1},
        center=["hunter", "villager"],
    )
    assert data(game, "seer_result") == [{"seer": "Seer", "target": "Thief", "role": "hunter"}]


def test_seer_may_not_check_herself_nor_the_dead_nor_strangers():
    game, agents, d = start(
        ROLES, {"Seer": {"seer_check": ["Hunt"]}, "Wolf": {"wolf_kill": ["Ann"]}}, until=pending("seer_check", "Seer")
    )
    # night 1: no one is dead yet; herself and strangers are refused
    with pytest.raises(IllegalAnswer, match="may not choose themself"):
        game.submit(d.id, "Seer")
    with pytest.raises(IllegalAnswer, match="Zed"):
        game.submit(d.id, "Zed")
    with pytest.raises(IllegalAnswer, match="must choose"):
        game.submit(d.id, None)
    game.submit(d.id, "Hunt")

    d2 = drive(game, agents, pending("seer_check", "Seer"))
    assert d2 is not None and "Ann" not in d2.options
    with pytest.raises(IllegalAnswer, match="Ann is dead"):
        game.submit(d2.id, "Ann")


def test_a_dead_seer_is_not_called():
    game = scripted_game(ROLES, {"Seer": {"seer_check": ["Ann"]}, "Wolf": {"wolf_kill": ["Seer", "Ann"]}}, {"max_days": 2})
    assert len(data(game, "seer_result")) == 1

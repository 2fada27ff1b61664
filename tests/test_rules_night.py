"""The order of the night (000 "Starting Round", "Normal Turn", "Reminder of the Turns of Play").

Starting turn: Thief, Cupido, the Lovers. Night turn: the Fortune Teller, the Werewolves
(the Little Girl spying during their turn), the Witch; then the village wakes up.
"""

from __future__ import annotations

from helpers import asked, scripted_game

ROLES = {
    "Thief": "thief",
    "Cupid": "cupid",
    "Seer": "seer",
    "W1": "werewolf",
    "W2": "werewolf",
    "Witch": "witch",
    "Girl": "little_girl",
    "Hunt": "hunter",
    "Ann": "villager",
}


def _first(kinds, kind):
    return kinds.index(kind)


def test_first_night_order():
    game = scripted_game(
        ROLES,
        {
            "Thief": {"thief_swap": [None]},
            "Cupid": {"cupid_lovers": [["Ann", "Hunt"]]},
            "Seer": {"seer_check": ["W1"]},
            "W1": {"wolf_kill": ["Ann"]},
            "W2": {"wolf_kill": ["Ann"]},
        },
        {"max_days": 1, "little_girl_catch_chance": 0.0},
        center=["villager", "villager"],
    )
    ks = [e.kind for e in game.events]
    order = ["thief_cards", "cupid_lovers", "lovers", "seer_result", "wolf_victim", "witch_victim", "dawn", "day_start"]
    positions = [_first(ks, k) for k in order]
    assert positions == sorted(positions), list(zip(order, positions))
    night = ks[: ks.index("dawn")]
    assert "death" not in night, "night victims are revealed at dawn, not before"


def test_first_night_only_steps_do_not_repeat():
    game = scripted_game(
        ROLES,
        {
            "Thief": {"thief_swap": [None]},
            "Cupid": {"cupid_lovers": [["Ann", "Hunt"]]},
            "Seer": {"seer_check": ["W1", "W2"]},
            "W1": {"wolf_kill": ["Cupid", "Thief"]},
            "W2": {"wolf_kill": ["Cupid", "Thief"]},
        },
        {"max_days": 2, "little_girl_catch_chance": 0.0},
        center=["villager", "villager"],
    )
    assert len(asked(game, "thief_swap")) == 1
    assert len(asked(game, "cupid_lovers")) == 1
    assert len(asked(game, "seer_check")) == 2
    assert len(asked(game, "little_girl_spy")) == 2
    assert len(asked(game, "witch_heal")) == 2

"""Best of Werewolves (003): the preset, its learning compositions and the call order.

003 "Learning compositions" (players excluding the leader): 8, 10, 12, 16 and 20 players;
"For other people, start from a nearby composition and adjust especially the simple
Villagers, without exceeding the seven of the box". "Special Aide-mémoire leader": the
first night's order "Cupid ; Lover ; Voyante ; Two Sisters ; Child Wild ; Identification
of the Bear Showr ; pack ; Infect Father of the Wolves ; Grand-Méchant-Loup ; Wizard ;
Fox ; Flute player ; all the charms", the Dog-Loup's choice "before the first pack wakes
up", and later nights "Voyante ; pack with new wolves ; Wolf-White Garou one night out of
two from the second ; Infect Father ... ; Grand-Méchant-Loup ... ; Wizard ; Renard ... ;
Flute player ; charmed".
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import get_preset
from engine.roles import ROLES
from helpers import asked, scripted_game

BOOK = {
    8: {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4},
    10: {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 5},
    12: {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "villager": 6},
    16: {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "sister": 2, "fox": 1, "villager": 7},
    20: {
        "werewolf": 3, "infect_father": 1, "seer": 1, "witch": 1, "hunter": 1, "sister": 2, "fox": 1,
        "bear_tamer": 1, "rusty_knight": 1, "elder": 1, "villager": 7,
    },
}  # fmt: skip
NINETEEN = {
    "werewolf", "infect_father", "big_bad_wolf", "villager", "cupid", "seer", "sister", "little_girl", "fox",
    "rusty_knight", "elder", "witch", "bear_tamer", "hunter", "wild_child", "wolf_hound", "white_werewolf",
    "pied_piper", "angel",
}  # fmt: skip


def play(roles, answers=None, options=None, seed=0):
    return scripted_game(roles, answers, options, preset="best_of", seed=seed)


@pytest.mark.parametrize("n", sorted(BOOK))
def test_the_learning_compositions(n):
    assert Counter(get_preset("best_of").deck(n)) == Counter(BOOK[n])


def test_other_sizes_adjust_the_villagers_of_a_nearby_composition_within_the_box():
    deck = get_preset("best_of").deck
    assert Counter(deck(9)) == Counter({**BOOK[8], "villager": 5})
    assert Counter(deck(13)) == Counter({**BOOK[12], "villager": 7})
    assert Counter(deck(14)) == Counter({**BOOK[16], "villager": 5})  # 12 + 2 would need 8 villagers
    assert Counter(deck(19)) == Counter({**BOOK[20], "villager": 6})
    for n in range(8, 29):
        assert len(deck(n)) == n and deck(n).count("villager") <= 7


def test_the_whole_box_at_28_players_holds_the_19_types():
    deck = get_preset("best_of").deck(28)
    assert set(deck) == NINETEEN and len(deck) == 28
    assert Counter(deck)["werewolf"] == 3 and Counter(deck)["villager"] == 7 and Counter(deck)["sister"] == 2
    with pytest.raises(ValueError):
        get_preset("best_of").deck(29)


def test_the_preset_defaults():
    o = get_preset("best_of").options()
    assert o.sheriff and o.sheriff_double_vote and o.sheriff_tiebreak == "choose" and not o.sheriff_tiebreak_may_void
    assert o.tie == "revote" and not o.wolves_win_at_parity and o.reveal_role_on_death
    assert {"werewolves", "vote", "poison", "grief", "hunter", "white_werewolf", "big_bad_wolf", "rusty_sword"} <= set(
        o.hunter_shot_causes
    )
    assert {r for r, spec in ROLES.items() if "best_of" in spec.presets} == NINETEEN


SEATS = {
    "Cu": "cupid", "Ho": "wolf_hound", "Li": "little_girl", "Se": "seer", "S1": "sister", "S2": "sister",
    "Ch": "wild_child", "Be": "bear_tamer", "W1": "werewolf", "WW": "white_werewolf", "IF": "infect_father",
    "BB": "big_bad_wolf", "Wi": "witch", "Fo": "fox", "Pi": "pied_piper", "V1": "villager", "V2": "villager",
}  # fmt: skip
PACK = ("W1", "WW", "IF", "BB")


def test_the_call_order_of_the_first_and_later_nights():
    answers = {
        "Cu": {"cupid_lovers": [["V1", "V2"]]},
        "Ho": {"wolf_hound_side": ["village"]},
        "Se": {"seer_check": ["W1", "WW"]},
        "Ch": {"wild_child_model": ["Wi"]},
        **{w: {"wolf_kill": ["Be", "Fo"]} for w in PACK},
        "IF": {"wolf_kill": ["Be", "Fo"], "infect_father_infect": [False, False]},
        "BB": {"wolf_kill": ["Be", "Fo"], "big_bad_wolf_kill": ["Cu", "Ho"]},
        "Fo": {"fox_sniff": ["Ho"]},
        "Pi": {"pied_piper_charm": [["Se", "Wi"], ["S1", "S2"]]},
    }
    game = play(SEATS, answers, {"max_days": 2, "little_girl_catch_chance": 0.0, "discussion_rounds": 0})
    night = {"cupid_lovers", "wolf_hound_side", "little_girl_spy", "seer_check", "wild_child_model", "wolf_chat", "wolf_kill",
             "white_werewolf_kill", "infect_father_infect", "big_bad_wolf_kill", "witch_heal", "witch_poison", "fox_sniff",
             "pied_piper_charm"}  # fmt: skip
    order = []
    for (_id, _seat, kind, _a) in game.answer_log:
        if kind in night and (not order or order[-1] != kind):
            order.append(kind)
    first = [
        "cupid_lovers", "wolf_hound_side", "little_girl_spy", "seer_check", "wild_child_model", "wolf_chat", "wolf_kill",
        "infect_father_infect", "big_bad_wolf_kill", "witch_heal", "witch_poison", "fox_sniff", "pied_piper_charm",
    ]  # fmt: skip
    assert order[: len(first)] == first
    second = ["little_girl_spy", "seer_check", "wolf_chat", "wolf_kill", "white_werewolf_kill", "infect_father_infect",
              "big_bad_wolf_kill", "witch_heal", "witch_poison", "pied_piper_charm"]  # fmt: skip
    assert order[len(first) :] == second
    # the Fox's group (Ho and his living neighbours Li and Cu) held no wolf: he is not called again
    assert asked(game, "fox_sniff") == [("Fo", "fox_sniff", "Ho")]


def test_the_fox_is_called_after_the_witch_and_before_the_piper():
    roles = {"Fo": "fox", "W1": "werewolf", "Wi": "witch", "Pi": "pied_piper", "V1": "villager", "V2": "villager"}
    game = play(roles, {"W1": {"wolf_kill": ["V1"]}, "Fo": {"fox_sniff": ["V2"]}, "Pi": {"pied_piper_charm": [["V1", "V2"]]}}, {"max_days": 1})
    kinds = [k for (_i, _s, k, _a) in game.answer_log if k in ("witch_poison", "fox_sniff", "pied_piper_charm")]
    assert kinds == ["witch_poison", "fox_sniff", "pied_piper_charm"]

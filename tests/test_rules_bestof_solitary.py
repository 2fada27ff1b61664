"""The White Werewolf, the Big Bad Wolf, the Pied Piper, the Captain and "How can I win?" (003).

White Werewolf: "He hunts every night with the pack, but wins only if he remains the
only survivor. From the second night, one night out of two, he is awakened alone after
the pack and can kill another Wolf-Garou. He is an enemy of both sides; do not announce
a joint victory with wolves as long as he pursues his goal."
Big Bad Wolf: "wakes up a second time to devour another non-Wolf-Garou victim, as long
as no other Wolf-Garou has been eliminated." Witch: "The leader indicates to it the
victim(s) of the wolves; a cure saves a person".
Flute player: "Every night, he designates two new people to be charmed, or the last
still uncharacterized if there is only one left, never himself... As soon as all the
other survivors are charmed and the Flute Player is alive, he wins alone."
How can I win?: "The particular goals interrupt the game as soon as they are
fulfilled. The victory of a camp is shared with its members already eliminated...
If no one survives, no camp wins." Captain: "His voice is worth two; he slices the
equities and designates his successor when he dies."
"""

from __future__ import annotations

from helpers import best_of_game as play
from helpers import agents_for, asked, data, deaths, drive, events, new_game


# ------------------------------------------------------------------------------ White Werewolf
WHITE = {"WW": "white_werewolf", "W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_white_werewolf_hunts_with_the_pack_and_strikes_alone_on_even_nights():
    answers = {
        **{w: {"wolf_kill": ["V1", "V2", "V3"]} for w in ("WW", "W1", "W2")},
        "WW": {"wolf_kill": ["V1", "V2", "V3"], "white_werewolf_kill": ["W1"]},
    }
    game = play(WHITE, answers, {"max_days": 3})
    assert sorted(events(game, "wolf_pack")[0].data["wolves"]) == ["W1", "W2", "WW"]
    assert asked(game, "white_werewolf_kill") == [("WW", "white_werewolf_kill", "W1")]
    assert [e.day for e in events(game, "white_werewolf_kill")] == [2]
    assert ("W1", 2, "white_werewolf") in deaths(game)
    assert events(game, "white_werewolf_kill")[0].audience == frozenset({"WW"})


def test_the_wolves_do_not_win_beside_the_white_werewolf_and_he_wins_alone():
    roles = {"WW": "white_werewolf", "W1": "werewolf", "V1": "villager"}
    answers = {
        "WW": {"wolf_kill": ["V1"], "white_werewolf_kill": ["W1"]},
        "W1": {"wolf_kill": ["V1"]},
    }
    game = play(roles, answers)
    assert deaths(game) == [("V1", 1, "werewolves"), ("W1", 2, "white_werewolf")]
    assert game.winner == "white_werewolf" and game.winners == ["WW"]


def test_the_village_wins_only_once_the_white_werewolf_is_dead():
    roles = {"WW": "white_werewolf", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {v: {"vote": ["W1", "WW"]} for v in ("V1", "V2", "V3")}
    game = play(roles, answers)
    assert deaths(game) == [("W1", 1, "vote"), ("WW", 2, "vote")]
    assert game.winner == "village" and sorted(game.winners) == ["V1", "V2", "V3"]


# ------------------------------------------------------------------------------ Big Bad Wolf
BIG = {"BB": "big_bad_wolf", "W1": "werewolf", "Wi": "witch", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_big_bad_wolf_devours_a_second_victim_and_the_witch_sees_both():
    answers = {
        "BB": {"wolf_kill": ["V1"], "big_bad_wolf_kill": ["V2"]},
        "W1": {"wolf_kill": ["V1"]},
        "Wi": {"witch_heal": [False, True]},
    }
    game = play(BIG, answers, {"max_days": 1})
    assert [e.data["victim"] for e in events(game, "witch_victim")] == ["V1", "V2"]
    assert data(game, "witch_healed") == [{"target": "V2"}]
    assert deaths(game) == [("V1", 1, "werewolves")]
    assert events(game, "big_bad_wolf_victim")[0].audience == frozenset({"BB"})


def test_his_second_victim_is_never_a_wolf_nor_the_packs():
    game = new_game(BIG, {"max_days": 1}, preset="best_of")
    agents = agents_for(game, {"BB": {"wolf_kill": ["V1"]}, "W1": {"wolf_kill": ["V1"]}})
    d = drive(game, agents, until=lambda d: d.kind == "big_bad_wolf_kill")
    assert "V1" not in d.options and "W1" not in d.options and "BB" not in d.options and "V2" in d.options


def test_the_second_attack_disappears_once_a_wolf_has_died():
    answers = {
        "BB": {"wolf_kill": ["V1", "V3"], "big_bad_wolf_kill": ["V2", "V4"]},
        "W1": {"wolf_kill": ["V1", "V3"]},
        **{v: {"vote": ["W1"]} for v in ("V3", "V4", "Wi")},
    }
    game = play(BIG, answers, {"max_days": 2})
    assert deaths(game) == [("V1", 1, "werewolves"), ("V2", 1, "big_bad_wolf"), ("W1", 1, "vote"), ("V3", 2, "werewolves")]
    assert len(asked(game, "big_bad_wolf_kill")) == 1


# ------------------------------------------------------------------------------ Pied Piper
PIPER = {"Pi": "pied_piper", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_charmed_are_told_and_recognise_each_other():
    game = play(PIPER, {"Pi": {"pied_piper_charm": [["V1", "V2"], ["V3", "W1"]]}}, {"max_days": 2})
    assert data(game, "pied_piper_charm") == [{"targets": ["V1", "V2"]}, {"targets": ["V3", "W1"]}]
    assert [e.audience for e in events(game, "charmed")][:2] == [frozenset({"V1"}), frozenset({"V2"})]
    last = events(game, "charmed_players")[-1]
    assert last.audience == frozenset({"V1", "V2", "V3", "W1"}) and last.data == {"players": ["W1", "V1", "V2", "V3"]}


def test_he_wins_alone_as_soon_as_every_other_survivor_is_charmed():
    answers = {"Pi": {"pied_piper_charm": [["V1", "V2"], ["V3", "W1"]]}, "W1": {"wolf_kill": ["V4"]}}
    game = play(PIPER, answers)
    # night 2: V4 died at dawn 1; with V3 and W1 charmed every other survivor is
    assert game.winner == "pied_piper" and game.winners == ["Pi"]
    assert game.events[-1].phase == "end" and game.day == 2
    assert not [e for e in game.events if e.kind == "dawn" and e.day == 2]  # before the dawn


def test_the_last_uncharmed_alone_and_never_himself():
    roles = {"Pi": "pied_piper", "W1": "werewolf", "V1": "villager", "V2": "villager"}
    game = new_game(roles, {"wolves_may_pass": True}, preset="best_of")
    agents = agents_for(game, {"Pi": {"pied_piper_charm": [["V1", "V2"]]}})
    d = drive(game, agents, until=lambda d: d.kind == "pied_piper_charm" and game.day == 2)
    assert d.count == 1 and d.options == ("W1",)


def test_the_village_wins_without_the_piper():
    answers = {v: {"vote": ["W1"]} for v in ("V1", "V2", "Pi")}
    answers["Pi"]["pied_piper_charm"] = [["V1", "V2"]]
    game = play(PIPER, answers)
    assert game.winner == "village" and "Pi" not in game.winners and game.by_name["Pi"].alive


def test_the_wolves_have_not_won_while_the_piper_lives():
    roles = {"Pi": "pied_piper", "W1": "werewolf", "W2": "werewolf", "V1": "villager"}
    answers = {"W1": {"wolf_kill": ["V1"]}, "W2": {"wolf_kill": ["V1"]}, "Pi": {"pied_piper_charm": [["V1", "W1"]]}}
    game = play(roles, answers, {"max_days": 1})
    assert deaths(game) == [("V1", 1, "werewolves")]
    assert game.winner == "none"  # only wolves and the Piper left, W2 not charmed: the day limit


# ------------------------------------------------------------------------------ victory
def test_no_winner_when_nobody_survives():
    roles = {"Hu": "hunter", "W1": "werewolf", "V1": "villager"}
    answers = {"W1": {"wolf_kill": ["V1", "Hu"]}, "Hu": {"hunter_shot": ["W1"]}}
    game = play(roles, answers)
    assert game.winner == "none" and game.winners == []


def test_a_camp_wins_with_its_dead_by_their_actual_camp():
    roles = {"Ho": "wolf_hound", "W1": "werewolf", "V1": "villager", "V2": "villager"}
    answers = {
        "Ho": {"wolf_hound_side": ["werewolves"], "wolf_kill": ["V1"], "vote": ["V2"]},
        "W1": {"wolf_kill": ["V1", "V2"], "vote": ["Ho"]},
        "V2": {"vote": ["Ho"]},
    }
    game = play(roles, answers)
    assert deaths(game) == [("V1", 1, "werewolves"), ("Ho", 1, "vote"), ("V2", 2, "werewolves")]
    assert game.winner == "werewolves" and sorted(game.winners) == ["Ho", "W1"]


def test_lovers_of_opposing_camps_must_be_the_last_two():
    roles = {"Cu": "cupid", "Pi": "pied_piper", "V1": "villager", "W1": "werewolf"}
    answers = {
        "Cu": {"cupid_lovers": [["Pi", "V1"]]},
        "W1": {"wolf_kill": ["Cu"]},
        "Pi": {"vote": ["W1"], "pied_piper_charm": [["Cu", "W1"]]},  # a Piper in love charms for nothing
        "V1": {"vote": ["W1"]},
    }
    game = play(roles, answers)
    assert game.winner == "lovers" and sorted(game.winners) == ["Pi", "V1"]


def test_the_captain_names_the_eliminated_among_the_tied():
    roles = {"W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {
        "V1": {"sheriff_vote": ["V2"], "vote": ["W1"], "sheriff_tiebreak": ["W1"]},
        "V2": {"sheriff_vote": ["V1"], "vote": ["V3"]},
        "V3": {"sheriff_vote": ["V1"], "vote": ["W1"]},
        "V4": {"sheriff_vote": ["V1"], "vote": ["V3"]},
        "W1": {"sheriff_vote": ["V1"], "vote": ["V3"], "wolf_kill": [None]},
    }
    game = play(roles, answers, {"sheriff": True, "max_days": 1})
    assert data(game, "sheriff_elected")[0]["player"] == "V1"
    # V1's vote counts two: W1 3, V3 3 -> the Captain chooses
    assert asked(game, "sheriff_tiebreak") == [("V1", "sheriff_tiebreak", "W1")]
    assert ("W1", 1, "vote") in deaths(game) and game.winner == "village"

"""Conversions of camp (003): the Wild Child, the Wolf-Hound, the Infect Father, and
the Two Sisters' recognition.

Wild Child: "On the first night, he secretly chooses a model. As long as he lives, he
defends the village; when his model dies, he becomes Loup-Garou and joins the pack the
next night. The role of the model does not change it. He can help eliminate his model."
Wolf-Hound: "On the first night, he definitely chose to stay a village or join the
wolves. The leader took this choice secretly before the first call of the pack".
Infect Father: "Once in the game, after his sleep, he can ask to infect his victim
instead of devouring her. The leader secretly warns the victim: she joins the pack from
the following calls. A character with night power keeps him in addition to his new camp
... The healing of the Witch does not remove the infection." Seer: "A map may not show a
change of camp due to infection". Flute player: "Infected, he loses this goal and
becomes simple Loup-Garou." How can I win?: "The victory of a camp is shared with its
members already eliminated, according to their actual camp."
Sisters: "The two holders open their eyes together the first night to recognize each
other... to begin, use only the initial recognition."
"""

from __future__ import annotations

from helpers import best_of_game as play
from helpers import asked, data, deaths, events


# ------------------------------------------------------------------------------ Wild Child
CHILD = {"Ch": "wild_child", "Mo": "villager", "W1": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager"}


def test_the_wild_child_turns_when_his_model_dies_and_hunts_the_next_night():
    answers = {
        "Ch": {"wild_child_model": ["Mo"], "wolf_kill": ["V1"]},
        "W1": {"wolf_kill": ["Mo", "V1"]},
        "Se": {"seer_check": ["V2", "Ch"]},
    }
    game = play(CHILD, answers, {"max_days": 2})
    assert data(game, "wild_child_model") == [{"model": "Mo"}]
    [turned] = events(game, "wild_child_turned")
    assert turned.audience == frozenset({"Ch"}) and turned.day == 1
    assert game.by_name["Ch"].is_wolf and game.by_name["Ch"].camp == "werewolves"
    # night 2: he wakes with the pack, which learns of him
    assert ("Ch", "wolf_kill", "V1") in asked(game)
    assert sorted(events(game, "wolf_pack")[-1].data["wolves"]) == ["Ch", "W1"]
    # the Seer still reads the card
    assert data(game, "seer_result")[-1] == {"seer": "Se", "target": "Ch", "role": "wild_child"}


def test_he_may_help_vote_out_his_model_and_turns_before_victory_is_checked():
    """003: "After each elimination, check ... the model of the Wild Child ... Then check
    the conditions of victory": voting out the model who was the last wolf does not end
    the game, the Wild Child now being one."""
    roles = {"Ch": "wild_child", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"Ch": {"wild_child_model": ["W1"], "vote": ["W1"]}, **{v: {"vote": ["W1"]} for v in ("V1", "V2")}}
    game = play(roles, answers, {"max_days": 1})
    assert deaths(game) == [("W1", 1, "vote")]
    assert game.winner == "none"  # the day limit, not the village: a werewolf (Ch) lives


def test_the_wild_child_wins_with_the_wolves_even_dead():
    roles = {"Ch": "wild_child", "W1": "werewolf", "V1": "villager", "V2": "villager"}
    answers = {
        "Ch": {"wild_child_model": ["V1"], "wolf_kill": ["V2"]},
        "W1": {"wolf_kill": ["V1", "V2"]},
    }
    game = play(roles, answers, {"max_days": 3})
    assert game.winner == "werewolves" and sorted(game.winners) == ["Ch", "W1"]


# ------------------------------------------------------------------------------ Wolf-Hound
HOUND = {"Ho": "wolf_hound", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_wolf_hound_who_joins_the_wolves_hunts_that_very_night():
    answers = {"Ho": {"wolf_hound_side": ["werewolves"], "wolf_kill": ["V1"]}, "W1": {"wolf_kill": ["V1"]}}
    game = play(HOUND, answers, {"max_days": 1})
    [side] = events(game, "wolf_hound_side")
    assert side.audience == frozenset({"Ho"}) and side.data == {"player": "Ho", "side": "werewolves"}
    assert sorted(events(game, "wolf_pack")[0].data["wolves"]) == ["Ho", "W1"]
    assert ("V1", 1, "werewolves") in deaths(game)
    kinds = [k for (_i, _s, k, _a) in game.answer_log]
    assert kinds.index("wolf_hound_side") < kinds.index("wolf_kill")


def test_the_wolf_hound_who_stays_in_the_village_plays_for_it():
    answers = {v: {"vote": ["W1"]} for v in ("Ho", "V1", "V2")}
    answers["Ho"]["wolf_hound_side"] = ["village"]
    game = play(HOUND, answers)
    assert not asked(game, "wolf_kill", "Ho")
    assert game.winner == "village" and "Ho" in game.winners


# ------------------------------------------------------------------------------ infection
INFECT = {"IF": "infect_father", "W1": "werewolf", "Se": "seer", "Wi": "witch", "V1": "villager", "V2": "villager", "V3": "villager"}


def test_the_infected_victim_survives_and_joins_the_pack_the_next_night():
    answers = {
        "IF": {"wolf_kill": ["Se", "V1"], "infect_father_infect": [True]},
        "W1": {"wolf_kill": ["Se", "V1"]},
        "Se": {"seer_check": ["V2", "W1"], "wolf_kill": ["V1"]},
        "Wi": {"witch_heal": [True]},
    }
    game = play(INFECT, answers, {"max_days": 2})
    assert [e.audience for e in events(game, "infected")] == [frozenset({"Se"})]
    assert data(game, "infect_father") == [{"target": "Se"}]
    # the Witch was shown the victim and spent her cure: the infection stays
    assert data(game, "witch_healed") == [{"target": "Se"}] and game.by_name["Se"].is_wolf
    assert not [d for d in deaths(game) if d[0] == "Se"]
    # night 2: the infected Seer hunts with the pack, and keeps her power
    assert ("Se", "wolf_kill", "V1") in asked(game) and ("Se", "seer_check", "W1") in asked(game)
    assert sorted(events(game, "wolf_pack")[-1].data["wolves"]) == ["IF", "Se", "W1"]


def test_the_infection_is_once_per_game_and_the_seer_still_reads_the_card():
    roles = {**INFECT, "S2": "seer"}
    answers = {
        "IF": {"wolf_kill": ["V1", "V2"], "infect_father_infect": [True]},
        "W1": {"wolf_kill": ["V1", "V2"]},
        "V1": {"wolf_kill": ["V2"]},
        "Se": {"seer_check": ["W1", "V1"]},
        "S2": {"seer_check": ["W1", "W1"]},
    }
    game = play(roles, answers, {"max_days": 2})
    assert len(asked(game, "infect_father_infect")) == 1
    assert ("V2", 2, "werewolves") in deaths(game)
    assert data(game, "seer_result", seer="Se")[-1]["role"] == "villager"


def test_the_infected_pied_piper_becomes_a_simple_werewolf():
    roles = {"IF": "infect_father", "Pi": "pied_piper", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {
        "IF": {"wolf_kill": ["Pi", "V1"], "infect_father_infect": [True]},
        "Pi": {"pied_piper_charm": [["V1", "V2"]], "wolf_kill": ["V1"]},
    }
    game = play(roles, answers, {"max_days": 2})
    assert game.by_name["Pi"].camp == "werewolves"
    # infected before his call (the Infect Father wakes before the Piper), he never charms
    # and hunts with the pack from night 2
    assert not asked(game, "pied_piper_charm")
    assert ("Pi", "wolf_kill", "V1") in asked(game)


def test_an_infected_lover_makes_a_couple_of_two_camps():
    """A cross-infection 003 does not arbitrate: camps decide, so a couple whose member
    is infected now plays for itself (documented in docs/RULES.md)."""
    roles = {"Cu": "cupid", "IF": "infect_father", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {"Cu": {"cupid_lovers": [["V1", "V2"]]}, "IF": {"wolf_kill": ["V1"], "infect_father_infect": [True]}}
    game = play(roles, answers, {"max_days": 1})
    from engine.flow.victory import camp_of

    assert camp_of(game, game.by_name["V1"]) == "lovers" and camp_of(game, game.by_name["V2"]) == "lovers"


# ------------------------------------------------------------------------------ the Sisters
SISTERS = {"S1": "sister", "S2": "sister", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}


def test_the_sisters_recognise_each_other_on_the_first_night_only():
    game = play(SISTERS, {}, {"max_days": 2})
    told = events(game, "sisters")
    assert [(e.audience, e.data["sisters"]) for e in told] == [
        (frozenset({"S1"}), ["S1", "S2"]),
        (frozenset({"S2"}), ["S1", "S2"]),
    ]
    assert all(e.day == 1 for e in told) and not asked(game, "sister_chat")


def test_the_experienced_sisters_confer_from_time_to_time():
    answers = {"S1": {"sister_chat": ["W1 is odd", "still W1"]}, "S2": {"sister_chat": ["agreed", "yes"]}}
    game = play(SISTERS, answers, {"max_days": 3, "sisters_chat_every": 2})
    chats = events(game, "sister_chat")
    assert [(e.day, e.data["speaker"], e.data["text"]) for e in chats] == [
        (1, "S1", "W1 is odd"), (1, "S2", "agreed"), (3, "S1", "still W1"), (3, "S2", "yes"),
    ]  # fmt: skip
    assert all(e.audience == frozenset({"S1", "S2"}) for e in chats)

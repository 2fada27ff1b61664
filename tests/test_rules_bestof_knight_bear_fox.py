"""The Knight with the Rusty Sword, the Bear Tamer and the Fox (003).

Knight: "If it is devoured, it dies, but contaminates the first responsible Wolf-Garou
met to its left around the circle. This wolf dies at the beginning of the next night;
the leader reveals this death the following morning. It is not an immediate
elimination the same morning as the Knight." Aide-mémoire: "remove the wolf condemned by
the Sword if its delay arrives; do not allow it to hunt."

Bear Tamer: "Every morning, after the victims, the leader grunts if at least one of his
two still alive neighbors is Loup-Garou. The places of the dead no longer count. If the
Montreur is infected, the leader grunts every morning as long as he lives. The grunt is
public, but does not identify the suspect neighbour."

Fox: "he may designate a person and his two neighbours still at stake. The leader
indicates whether this group contains at least one Loup-Garou... Positive answer: he
retains his power. Negative answer: he cleared this group at this moment, but loses his
power for the rest of the game. He may choose not to probe one night."
"""

from __future__ import annotations

from engine.events import NARRATOR, PUBLIC
from helpers import best_of_game as play
from helpers import asked, data, deaths, events


# ------------------------------------------------------------------------------ the Knight
KNIGHT = {"Kn": "rusty_knight", "V1": "villager", "W1": "werewolf", "W2": "werewolf", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_devoured_knight_kills_the_first_wolf_to_his_left_the_next_night():
    answers = {"W1": {"wolf_kill": ["Kn", "V2"]}, "W2": {"wolf_kill": ["Kn", "V2"]}}
    game = play(KNIGHT, answers, {"max_days": 2})
    assert deaths(game) == [("Kn", 1, "werewolves"), ("W1", 2, "rusty_sword"), ("V2", 2, "werewolves")]
    [struck] = events(game, "rusty_sword")
    assert struck.audience == NARRATOR and struck.data == {"knight": "Kn", "wolf": "W1"}
    # not the same morning; gone before the pack wakes: W1 does not hunt on night 2
    assert [w for (w, k, _a) in asked(game, "wolf_kill")] == ["W1", "W2", "W2"]
    dawn2 = [e for e in game.events if e.day == 2 and e.kind in ("dawn", "death")]
    assert [e.kind for e in dawn2][:2] == ["dawn", "death"] and dawn2[1].data["player"] == "W1"


def test_the_sword_skips_villagers_and_wraps_around_the_table():
    roles = {"W1": "werewolf", "V1": "villager", "Kn": "rusty_knight", "V2": "villager", "V3": "villager", "W2": "werewolf", "V4": "villager"}
    answers = {"W1": {"wolf_kill": ["Kn"]}, "W2": {"wolf_kill": ["Kn"]}}
    game = play(roles, answers, {"max_days": 2})
    assert data(game, "rusty_sword") == [{"knight": "Kn", "wolf": "W2"}]
    roles = {"W1": "werewolf", "V1": "villager", "Kn": "rusty_knight", "V2": "villager", "V3": "villager", "V4": "villager"}
    game = play(roles, {"W1": {"wolf_kill": ["Kn"]}}, {"max_days": 2})
    assert deaths(game) == [("Kn", 1, "werewolves"), ("W1", 2, "rusty_sword")]
    assert game.winner == "village"


def test_a_knight_voted_out_or_poisoned_contaminates_nobody():
    answers = {v: {"vote": ["Kn"]} for v in ("V1", "V2", "V3", "W1")}
    game = play(KNIGHT, answers, {"max_days": 2})
    assert ("Kn", 1, "vote") in deaths(game) and not events(game, "rusty_sword")


def test_the_wolf_voted_out_before_his_night_dies_only_once():
    answers = {
        "W1": {"wolf_kill": ["Kn"]},
        "W2": {"wolf_kill": ["Kn"]},
        **{v: {"vote": ["W1"]} for v in ("V1", "V2", "V3", "W2")},
    }
    game = play(KNIGHT, answers, {"max_days": 2})
    assert [d for d in deaths(game) if d[0] == "W1"] == [("W1", 1, "vote")]


def test_the_swords_wolf_is_told_dead_when_the_game_ends_before_the_dawn():
    """Out of play since nightfall, his death still to be told at dawn: the Pied Piper's
    last charm ends the game first, so it is told then (``engine.flow.victory.end_game``)."""
    roles = {"Kn": "rusty_knight", "W1": "werewolf", "W2": "werewolf", "Pi": "pied_piper", "V1": "villager", "V2": "villager"}
    answers = {"W1": {"wolf_kill": ["Kn"]}, "W2": {"wolf_kill": ["Kn"]}, "Pi": {"pied_piper_charm": [["V1", "V2"], ["W2"]]}}
    game = play(roles, answers, {"max_days": 3})
    assert game.winner == "pied_piper" and game.day == 2
    assert not [e for e in game.events if e.kind == "dawn" and e.day == 2]  # before the dawn
    assert deaths(game) == [("Kn", 1, "werewolves"), ("W1", 2, "rusty_sword")]
    told = [e.kind for e in game.events if e.day == 2 and e.kind in ("death", "game_end")]
    assert told == ["death", "game_end"]


# ------------------------------------------------------------------------------ the Bear
def test_the_bear_growls_when_a_living_neighbour_is_a_werewolf():
    roles = {"V1": "villager", "Be": "bear_tamer", "W1": "werewolf", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {"W1": {"wolf_kill": ["V3"]}, **{v: {"vote": [None, "W1"]} for v in ("V1", "Be", "V2", "V4")}}
    game = play(roles, answers, {"max_days": 3})
    growls = events(game, "bear_growl")
    assert [e.data for e in growls][:2] == [{"growl": True}, {"growl": True}]
    assert all(e.audience == PUBLIC and e.phase == "dawn" for e in growls)
    dawn1 = [e.kind for e in game.events if e.day == 1 and e.phase == "dawn"]
    assert dawn1.index("death") < dawn1.index("bear_growl")  # after the victims


def test_the_dead_places_no_longer_count():
    roles = {"W1": "werewolf", "V1": "villager", "Be": "bear_tamer", "V2": "villager", "V3": "villager", "V4": "villager", "W2": "werewolf"}
    answers = {"W1": {"wolf_kill": ["V1", "V2"]}, "W2": {"wolf_kill": ["V1", "V2"]}}
    game = play(roles, answers, {"max_days": 2})
    # dawn 1: V1 is dead, the living neighbours are W1 (left side... the seat before) and V2
    # dawn 2: V2 is dead too: W1 and V3
    assert [e.data["growl"] for e in events(game, "bear_growl")] == [True, True]
    roles = {"V0": "villager", "V1": "villager", "Be": "bear_tamer", "V2": "villager", "W1": "werewolf", "V3": "villager"}
    game = play(roles, {"W1": {"wolf_kill": ["V2"]}}, {"max_days": 2})
    assert [e.data["growl"] for e in events(game, "bear_growl")] == [True, True]
    game = play(roles, {"W1": {"wolf_kill": ["V0"]}}, {"max_days": 1})
    assert [e.data["growl"] for e in events(game, "bear_growl")] == [False]


def test_an_infected_bear_tamer_growls_every_morning():
    roles = {"V0": "villager", "Be": "bear_tamer", "V1": "villager", "IF": "infect_father", "V2": "villager", "V3": "villager"}
    answers = {"IF": {"wolf_kill": ["Be", None], "infect_father_infect": [True]}}
    game = play(roles, answers, {"max_days": 2})
    assert data(game, "infected") == [{"player": "Be"}]
    assert [e.data["growl"] for e in events(game, "bear_growl")] == [True, True]


# ------------------------------------------------------------------------------ the Fox
FOX = {"Fo": "fox", "V1": "villager", "W1": "werewolf", "V2": "villager", "V3": "villager", "V4": "villager", "V5": "villager"}


def test_a_positive_answer_keeps_the_power():
    answers = {"Fo": {"fox_sniff": ["V1", "V2"]}}
    game = play(FOX, answers, {"max_days": 2})
    assert [e.data for e in events(game, "fox_result")] == [
        {"target": "V1", "group": ["V1", "W1", "Fo"], "wolf": True},
        {"target": "V2", "group": ["V2", "V3", "W1"], "wolf": True},
    ]
    assert all(e.audience == frozenset({"Fo"}) for e in events(game, "fox_result"))


def test_a_negative_answer_loses_the_power_for_good():
    answers = {"Fo": {"fox_sniff": ["V4", "V1"]}}
    game = play(FOX, answers, {"max_days": 3})
    assert data(game, "fox_result") == [{"target": "V4", "group": ["V4", "V5", "V3"], "wolf": False}]
    assert asked(game, "fox_sniff") == [("Fo", "fox_sniff", "V4")]


def test_the_fox_may_pass_and_keep_his_power():
    game = play(FOX, {"Fo": {"fox_sniff": [None, "V1"]}}, {"max_days": 2})
    assert asked(game, "fox_sniff") == [("Fo", "fox_sniff", None), ("Fo", "fox_sniff", "V1")]
    assert len(events(game, "fox_result")) == 1


def test_the_fox_smells_a_converted_wolf():
    """The Fox asks about werewolves, not cards: a Wolf-Hound who chose the pack counts."""
    roles = {"Fo": "fox", "V1": "villager", "Ho": "wolf_hound", "V2": "villager", "V3": "villager", "W1": "werewolf"}
    game = play(roles, {"Ho": {"wolf_hound_side": ["werewolves"]}, "Fo": {"fox_sniff": ["V2"]}}, {"max_days": 1})
    assert data(game, "fox_result")[0]["wolf"] is True

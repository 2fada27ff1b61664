"""The Angel (003 "Angel").

"His presence requires him to start with one day. If he is eliminated during the first
round by the vote, wolves or poison, he wins alone immediately. If he survives this
first cycle, he becomes simple Villagers. If he falls in love, his goal of Angel
disappears: he must survive with his partner." Preparing the game: "With Angel, start
with a day of debate and an eliminatory vote, then the first night if the game
continues."
"""

from __future__ import annotations

from helpers import best_of_game as play
from helpers import data, deaths, events, kinds

ROLES = {"An": "angel", "W1": "werewolf", "W2": "werewolf", "Wi": "witch", "Hu": "hunter", "V1": "villager", "V2": "villager"}


def votes(target, *voters):
    return {v: {"vote": [target]} for v in voters}


def test_the_game_opens_with_a_day_zero():
    game = play(ROLES, {}, {"max_days": 1})
    starts = [k for k in kinds(game) if k in ("day_start", "night_start", "dawn")]
    assert starts[:4] == ["day_start", "night_start", "dawn", "day_start"]
    assert events(game, "day_start")[0].day == 0 and events(game, "night_start")[0].day == 1
    assert [e.day for e in events(game, "vote_result")][0] == 0


def test_voted_out_on_day_zero_the_angel_wins_alone():
    game = play(ROLES, votes("An", "W1", "W2", "Wi", "V1"))
    assert deaths(game) == [("An", 0, "vote")]
    assert game.winner == "angel" and game.winners == ["An"]
    assert kinds(game)[-1] == "game_end" and "night_start" not in kinds(game)


def test_devoured_on_the_first_night_the_angel_wins_alone():
    game = play(ROLES, {"W1": {"wolf_kill": ["An"]}, "W2": {"wolf_kill": ["An"]}})
    assert deaths(game) == [("An", 1, "werewolves")] and game.winner == "angel" and game.winners == ["An"]


def test_poisoned_on_the_first_night_the_angel_wins_alone():
    game = play(ROLES, {"W1": {"wolf_kill": ["V1"]}, "W2": {"wolf_kill": ["V1"]}, "Wi": {"witch_poison": ["An"]}})
    assert ("An", 1, "poison") in deaths(game) and game.winner == "angel"


def test_shot_by_the_hunter_is_no_win():
    """The Hunter's shot is not among "the vote, wolves or poison"."""
    answers = {**votes("Hu", "W1", "W2", "V1", "V2"), "Hu": {"hunter_shot": ["An"]}}
    game = play(ROLES, answers, {"max_days": 1})
    assert deaths(game)[:2] == [("Hu", 0, "vote"), ("An", 0, "hunter")]
    assert game.winner != "angel"


def test_after_the_first_round_he_is_a_plain_villager():
    answers = {
        "W1": {"wolf_kill": ["V1", "V2"]},
        "W2": {"wolf_kill": ["V1", "V2"]},
        **{v: {"vote": [None, "An"]} for v in ("W1", "W2", "Wi", "Hu")},
    }
    game = play(ROLES, answers, {"max_days": 2})
    [told] = events(game, "angel_villager")
    assert told.audience == frozenset({"An"}) and told.day == 1 and told.data["reason"] == "first_round"
    assert ("An", 1, "vote") in deaths(game)
    assert game.winner != "angel" and game.by_name["An"].camp == "village"


def test_in_love_his_goal_disappears():
    roles = {"Cu": "cupid", **ROLES}
    answers = {"Cu": {"cupid_lovers": [["An", "V1"]]}, "W1": {"wolf_kill": ["An"]}, "W2": {"wolf_kill": ["An"]}}
    game = play(roles, answers, {"max_days": 1})
    assert data(game, "angel_villager") == [{"player": "An", "reason": "love"}]
    assert deaths(game)[:2] == [("An", 1, "werewolves"), ("V1", 1, "grief")]
    assert game.winner != "angel"


def test_the_angel_win_is_checked_before_the_camps():
    """A vote that also leaves no werewolf is still the Angel's: his goal ends the game
    "immediately" and solitary goals come first."""
    roles = {"An": "angel", "W1": "werewolf", "Cu": "cupid", "V1": "villager", "V2": "villager"}
    game = play(roles, votes("An", "W1", "V1", "V2"))
    assert game.winner == "angel"

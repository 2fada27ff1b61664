"""Cupid and the Lovers (000 "Cupido"; starting round; "Victory Conditions").

000: "On the first night (preliminary round), he designates the 2 players ... in love.
Cupido may, if he wishes, designate himself as one of the two Lovers. If one of the
Lovers is eliminated, the other dies of grief immediately. A Lover must never vote
against their beloved, nor cause them any harm (even as a bluff!)."
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, events, pending, scripted_game, start

ROLES = {"Cupid": "cupid", "Wolf": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}


def test_cupid_links_two_lovers_who_learn_each_other_but_not_roles():
    """000 starting round: "The Lovers wake up, recognize each other ... They do not show
    each other their character card"."""
    game = scripted_game(
        ROLES, {"Cupid": {"cupid_lovers": [["Wolf", "Ann"]]}, "Wolf": {"wolf_kill": ["Bob"]}}, {"max_days": 1}
    )
    assert game.lovers == ("Wolf", "Ann")
    [cupid_ev] = events(game, "cupid_lovers")
    assert cupid_ev.audience == frozenset({"Cupid"}) and cupid_ev.data["lovers"] == ["Wolf", "Ann"]
    lover_events = events(game, "lovers")
    assert {(e.data["lover"], e.data["beloved"]) for e in lover_events} == {("Wolf", "Ann"), ("Ann", "Wolf")}
    for e in lover_events:
        assert e.audience == frozenset({e.data["lover"]})
        assert set(e.data) == {"lover", "beloved"}, "the Lovers must not learn each other's card"
        assert "werewolf" not in e.data.values() and "villager" not in e.data.values()


def test_cupid_may_choose_himself():
    """000: "Cupido may, if he wishes, designate himself as one of the two Lovers"."""
    game = scripted_game(
        ROLES, {"Cupid": {"cupid_lovers": [["Cupid", "Bob"]]}, "Wolf": {"wolf_kill": ["Ann"]}}, {"max_days": 1}
    )
    assert game.lovers == ("Cupid", "Bob")
    assert data(game, "lovers", lover="Cupid") == [{"lover": "Cupid", "beloved": "Bob"}]


@pytest.mark.parametrize(
    "answer, message",
    [
        (["Ann"], "exactly 2"),
        (["Ann", "Bob", "Cat"], "exactly 2"),
        (["Ann", "Ann"], "same player twice"),
        (["Ann", "Zed"], "Zed"),
        (None, "must name 2"),
    ],
)
def test_cupid_must_name_two_distinct_living_players(answer, message):
    game, _, d = start(ROLES, until=pending("cupid_lovers"))
    with pytest.raises(IllegalAnswer, match=message):
        game.submit(d.id, answer)


def test_cupid_is_called_only_on_the_first_night():
    game = scripted_game(
        ROLES, {"Cupid": {"cupid_lovers": [["Ann", "Bob"]]}, "Wolf": {"wolf_kill": ["Cat", "Cupid"]}}, {"max_days": 2}
    )
    assert len(asked(game, "cupid_lovers")) == 1


def test_a_lover_killed_at_night_takes_the_beloved_by_grief_immediately():
    """000: "If one of the Lovers is eliminated, the other dies of grief immediately"."""
    game = scripted_game(
        ROLES, {"Cupid": {"cupid_lovers": [["Ann", "Bob"]]}, "Wolf": {"wolf_kill": ["Ann"]}}, {"max_days": 1}
    )
    assert deaths(game)[:2] == [("Ann", 1, "werewolves"), ("Bob", 1, "grief")]
    kinds_at_dawn = [(e.kind, e.data.get("player")) for e in game.events if e.kind == "death"]
    assert kinds_at_dawn[:2] == [("death", "Ann"), ("death", "Bob")]


def test_a_lover_voted_out_takes_the_beloved_by_grief():
    game = scripted_game(
        ROLES,
        {
            "Cupid": {"cupid_lovers": [["Ann", "Bob"]], "vote": ["Bob"]},
            "Wolf": {"wolf_kill": ["Cat"], "vote": ["Bob"]},
            "Ann": {"vote": ["Wolf"]},
        },
        {"max_days": 1},
    )
    assert deaths(game) == [("Cat", 1, "werewolves"), ("Bob", 1, "vote"), ("Ann", 1, "grief")]


def test_a_lover_may_not_vote_against_the_beloved():
    """000: "A Lover must never vote against their beloved"."""
    game, _, d = start(
        ROLES,
        {"Cupid": {"cupid_lovers": [["Ann", "Bob"]]}, "Wolf": {"wolf_kill": ["Cat"]}},
        until=pending("vote", "Ann"),
    )
    assert "Bob" not in d.options
    with pytest.raises(IllegalAnswer, match="beloved"):
        game.submit(d.id, "Bob")


def test_a_werewolf_lover_may_not_devour_the_beloved():
    """000: a Lover must never "cause them any harm"."""
    game, _, d = start(ROLES, {"Cupid": {"cupid_lovers": [["Wolf", "Ann"]]}}, until=pending("wolf_kill", "Wolf"))
    assert "Ann" not in d.options
    with pytest.raises(IllegalAnswer, match="beloved"):
        game.submit(d.id, "Ann")


def test_option_lovers_may_target_each_other():
    game, _, d = start(
        ROLES,
        {"Cupid": {"cupid_lovers": [["Wolf", "Ann"]]}},
        {"lovers_may_target_each_other": True},
        until=pending("wolf_kill", "Wolf"),
    )
    assert "Ann" in d.options


def test_mixed_lovers_win_when_they_are_the_last_two():
    """000 "Victory Conditions": "if the Lovers are 1 Werewolf + 1 Villager, they win as
    soon as all the other players are eliminated"."""
    roles = {"Cupid": "cupid", "Wolf": "werewolf", "Ann": "villager"}
    game = scripted_game(roles, {"Cupid": {"cupid_lovers": [["Wolf", "Ann"]]}, "Wolf": {"wolf_kill": ["Cupid"]}})
    assert game.winner == "lovers"
    assert sorted(game.winners) == ["Ann", "Wolf"]
    assert game.events[-1].kind == "game_end" and game.events[-1].data["winner"] == "lovers"


def test_mixed_lovers_are_excluded_from_the_werewolves_win():
    """The mixed couple "play against all others, werewolves and villagers" (001 en), so
    their old camp's victory is not theirs."""
    roles = {"Cupid": "cupid", "Wolf": "werewolf", "Wolf2": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(
        roles,
        {
            "Cupid": {"cupid_lovers": [["Wolf", "Ann"]], "vote": ["Ann"]},
            "Wolf": {"wolf_kill": ["Bob"]},
            "Wolf2": {"wolf_kill": ["Bob", "Cupid"], "vote": ["Ann"]},
        },
    )
    # night 1: Bob dies; day 1: Ann is voted out, Wolf dies of grief; Wolf2 alone with Cupid
    assert deaths(game)[:3] == [("Bob", 1, "werewolves"), ("Ann", 1, "vote"), ("Wolf", 1, "grief")]
    # night 2: the pack (Wolf2) has nothing left to agree on but Cupid
    assert game.winner == "werewolves"
    assert game.winners == ["Wolf2"]


def test_mixed_lovers_are_excluded_from_the_village_win():
    roles = {"Cupid": "cupid", "Wolf": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(
        roles,
        {
            "Cupid": {"cupid_lovers": [["Wolf", "Ann"]], "vote": ["Wolf"]},
            "Wolf": {"wolf_kill": ["Bob"]},
            "Ann": {"vote": [None]},
        },
    )
    assert deaths(game)[1:] == [("Wolf", 1, "vote"), ("Ann", 1, "grief")]
    assert game.winner == "village"
    assert sorted(game.winners) == ["Bob", "Cupid"]


def test_village_lovers_win_with_the_village():
    roles = {"Cupid": "cupid", "Wolf": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(
        roles,
        {
            "Cupid": {"cupid_lovers": [["Ann", "Bob"]], "vote": ["Wolf"]},
            "Wolf": {"wolf_kill": ["Cupid"]},
            "Ann": {"vote": ["Wolf"]},
        },
    )
    assert game.winner == "village"
    assert sorted(game.winners) == ["Ann", "Bob", "Cupid"]


def test_mixed_lovers_keep_the_game_going_after_the_other_wolves_die():
    """The Villagers win when the last Werewolf is eliminated: a living Werewolf Lover is
    still a Werewolf, so the game goes on until the couple or the others are gone."""
    roles = {"Cupid": "cupid", "Wolf": "werewolf", "Wolf2": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
    game = scripted_game(
        roles,
        {
            "Cupid": {"cupid_lovers": [["Wolf", "Ann"]], "vote": ["Wolf2"]},
            "Wolf": {"wolf_kill": ["Cat", "Bob", "Cupid"], "vote": ["Wolf2"]},
            "Wolf2": {"wolf_kill": ["Cat"]},
            "Ann": {"vote": ["Wolf2"]},
        },
        {"wolf_pack": "unanimous"},
    )
    # night 1 Cat; day 1 Wolf2 voted; night 2 Wolf kills Bob; day 2: Cupid, Wolf, Ann
    assert deaths(game)[:3] == [("Cat", 1, "werewolves"), ("Wolf2", 1, "vote"), ("Bob", 2, "werewolves")]
    # Cupid votes nothing more (queue empty -> abstain); nobody is eliminated on day 2;
    # night 3 Wolf kills Cupid -> the Lovers are the last two.
    assert game.winner == "lovers", (game.winner, deaths(game))
    assert sorted(game.winners) == ["Ann", "Wolf"]


def test_the_spanish_lovers_only_may_not_vote_against_each_other():
    """002: "Un amor no puede, ni siquiera como un farol, votar para linchar a su amante" --
    only the vote is barred (``lovers_restraint: vote``); 000 bars "any harm"."""
    from helpers import agents_for, drive, new_game

    roles = {"Cu": "cupid", "W1": "werewolf", "Wi": "witch", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"Cu": {"cupid_lovers": [["W1", "Wi"]]}, "W1": {"wolf_kill": ["V1"]}}
    game = new_game(roles, {"lovers_restraint": "vote"})
    agents = agents_for(game, answers)
    d = drive(game, agents, until=lambda d: d.kind == "witch_poison")
    assert "W1" in d.options  # her poison may reach her beloved
    game.submit(d.id, None)
    drive(game, agents, until=lambda d: d.kind == "vote")
    legal = {d.seat: set(d.options) for d in game.waiting if d.kind == "vote"}
    assert "Wi" not in legal["W1"] and "W1" not in legal["Wi"]  # but never her vote
    # under 000's rule the poison may not
    game = new_game(roles)
    d = drive(game, agents_for(game, answers), until=lambda d: d.kind == "witch_poison")
    assert "W1" not in d.options


def test_under_the_spanish_rule_the_wolf_may_devour_his_beloved_and_dies_of_grief():
    roles = {"Cu": "cupid", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"Cu": {"cupid_lovers": [["W1", "V1"]]}, "W1": {"wolf_kill": ["V1"]}}
    game = scripted_game(roles, answers, {"lovers_restraint": "vote"})
    assert deaths(game) == [("V1", 1, "werewolves"), ("W1", 1, "grief")]
    assert game.winner == "village"

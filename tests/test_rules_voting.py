"""The village's vote (000 Normal Turn step 6; 002 "El Pueblo vota").

000: "The player with the majority of votes is eliminated. ... In case of a tie, if
present, the Sheriff's vote designates the victim. Otherwise, the players vote again to
break the tie (including the players in question). If there is still a tie, no player is
eliminated." 002: "Si hay empate entre los imputados, nadie es eliminado" (option tie:
no_elimination, no revote).
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, drive, events, pending, scripted_game, start

ROLES = {"Ann": "villager", "Bob": "villager", "Cat": "villager", "Dan": "villager", "Eve": "villager", "W1": "werewolf", "W2": "werewolf"}
DAY = {"max_days": 1, "wolves_may_pass": True}  # the wolves pass: only the vote kills


def votes(**by_voter):
    """votes(Ann=["W1", "Bob"]) -> scripted queues (first round, revote)."""
    return {voter: {"vote": list(v) if isinstance(v, (list, tuple)) else [v]} for voter, v in by_voter.items()}


def test_the_majority_is_eliminated():
    game = scripted_game(ROLES, votes(Ann="W1", Bob="W1", Cat="W2"), DAY)
    assert deaths(game) == [("W1", 1, "vote")]
    assert data(game, "eliminated") == [{"player": "W1"}]
    [result] = data(game, "vote_result")
    assert result["tally"] == {"W1": 2, "W2": 1}
    assert result["votes"]["Ann"] == "W1" and result["votes"]["Dan"] is None


def test_a_tie_without_sheriff_is_voted_again_among_the_tied_by_everyone():
    """000: "the players vote again to break the tie (including the players in question)"."""
    game, agents, d = start(
        ROLES,
        votes(Ann=["W1", "W1"], Bob=["Cat", "W1"], W1=["Cat", "Cat"], W2=["Ann", "Cat"], Cat=["W1", "W1"]),
        DAY,
        until=pending("vote", round=2),
    )
    assert sorted(d.context["candidates"]) == ["Cat", "W1"]
    revoters = [x.seat for x in game.waiting]
    assert sorted(revoters) == sorted(ROLES), "the tied players vote again too"
    drive(game, agents)
    assert [r["round"] for r in data(game, "vote_result")] == [1, 2]
    assert deaths(game) == [("W1", 1, "vote")]


def test_in_the_revote_only_the_tied_may_be_named():
    game, _, d = start(
        ROLES, votes(Ann="W1", Bob="Cat"), DAY, until=lambda d: d.kind == "vote" and d.context.get("round") == 2 and d.seat == "Dan"
    )
    assert sorted(d.options) == ["Cat", "W1"]
    with pytest.raises(IllegalAnswer, match="not a legal vote"):
        game.submit(d.id, "Eve")


def test_a_second_tie_eliminates_nobody():
    game = scripted_game(ROLES, votes(Ann=["W1", "W1"], Bob=["Cat", "Cat"]), DAY)
    assert deaths(game) == []
    assert [r["round"] for r in data(game, "vote_result")] == [1, 2]
    assert data(game, "no_elimination") == [{"reason": "tie"}]


def test_option_tie_no_elimination_has_no_revote():
    """002: "Si hay empate entre los imputados, nadie es eliminado"."""
    game = scripted_game(ROLES, votes(Ann=["W1", "W1"], Bob=["Cat", "W1"]), {**DAY, "tie": "no_elimination"})
    assert deaths(game) == []
    assert [r["round"] for r in data(game, "vote_result")] == [1]
    assert data(game, "no_elimination") == [{"reason": "tie"}]


def test_option_tie_random_draws_lots():
    seen = set()
    for seed in range(12):
        game = scripted_game(ROLES, votes(Ann="W1", Bob="Cat"), {**DAY, "tie": "random"}, seed=seed)
        [(victim, _, cause)] = deaths(game)
        assert cause == "vote" and victim in ("W1", "Cat")
        assert data(game, "tie_broken")[0]["rule"] == "lot"
        seen.add(victim)
    assert seen == {"W1", "Cat"}


def test_abstaining_is_allowed_by_default_and_all_abstaining_eliminates_nobody():
    game = scripted_game(ROLES, {n: {"vote": [None]} for n in ROLES}, DAY)
    assert deaths(game) == []
    assert data(game, "no_elimination") == [{"reason": "no votes"}]
    assert len(asked(game, "vote")) == len(ROLES)


def test_option_allow_abstain_false_refuses_null():
    game, _, d = start(ROLES, {}, {**DAY, "allow_abstain": False}, until=pending("vote"))
    with pytest.raises(IllegalAnswer, match="passing is not allowed"):
        game.submit(d.id, None)


def test_voting_for_oneself_is_refused_by_default():
    game, _, d = start(ROLES, {}, DAY, until=pending("vote", "Ann"))
    with pytest.raises(IllegalAnswer, match="Ann may not choose themself"):
        game.submit(d.id, "Ann")
    game, _, d = start(ROLES, {}, {**DAY, "vote_self": True}, until=pending("vote", "Ann"))
    game.submit(d.id, "Ann")


def test_votes_must_name_living_players():
    game, _, d = start(
        ROLES, {"W1": {"wolf_kill": ["Eve"]}, "W2": {"wolf_kill": ["Eve"]}}, {"max_days": 1}, until=pending("vote", "Ann")
    )
    assert "Eve" not in d.options
    with pytest.raises(IllegalAnswer, match="Eve is dead"):
        game.submit(d.id, "Eve")
    with pytest.raises(IllegalAnswer, match="'Zed' is not a legal vote"):
        game.submit(d.id, "Zed")


def test_the_dead_do_not_vote():
    """000: an eliminated player "can no longer communicate with the other players in any way"."""
    game = scripted_game(ROLES, {"W1": {"wolf_kill": ["Eve"]}, "W2": {"wolf_kill": ["Eve"]}}, {"max_days": 1})
    assert "Eve" not in {s for s, _, _ in asked(game, "vote")}
    assert "Eve" not in {s for s, _, _ in asked(game, "speak")}


def test_a_relative_majority_is_enough():
    game = scripted_game(ROLES, votes(Ann="W1", Bob="W1", Cat="W2", Dan="Eve"), DAY)
    assert deaths(game) == [("W1", 1, "vote")]


def test_the_eliminated_players_card_is_revealed():
    """000 step 6: "The eliminated player reveals their card"."""
    game = scripted_game(ROLES, votes(Ann="W1", Bob="W1"), DAY)
    [death] = events(game, "death")
    assert death.data == {"player": "W1", "cause": "vote", "role": "werewolf"}
    game = scripted_game(ROLES, votes(Ann="W1", Bob="W1"), {**DAY, "reveal_role_on_death": False})
    assert "role" not in events(game, "death")[0].data

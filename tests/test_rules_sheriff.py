"""The Sheriff (000 "The Sheriff"; Normal Turn step 6).

000: "The Sheriff is elected by vote, by relative majority. One cannot refuse the honor
of being Sheriff. From then on, this player's votes count for 2 votes. If this player is
eliminated, with his dying breath he designates his successor." Step 6: "In case of a
tie, if present, the Sheriff's vote designates the victim."
001 zh: the Sheriff chooses on a tie, "也可以决定废票" (option sheriff_tiebreak: choose,
sheriff_tiebreak_may_void).
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, drive, events, pending, scripted_game, start

ROLES = {"Ann": "villager", "Bob": "villager", "Cat": "villager", "Dan": "villager", "Eve": "villager", "W1": "werewolf", "W2": "werewolf"}
ON = {"sheriff": True, "max_days": 1, "sheriff_campaign": False}


def elect(name, *, extra=None):
    """Every other seat votes ``name`` Sheriff (``name`` votes for the next seat: by
    default nobody votes for themself, 001 en "the majority of votes from other
    players"); ``extra`` merges further queues per seat."""
    seats = list(ROLES)
    other = seats[(seats.index(name) + 1) % len(seats)]
    out = {n: {"sheriff_vote": [name if n != name else other]} for n in ROLES}
    for seat, queues in (extra or {}).items():
        out[seat] = {**out[seat], **queues}
    return out


def wolves_pass():
    return {"W1": {"wolf_kill": [None, None, None]}, "W2": {"wolf_kill": [None, None, None]}}


PASS = {"wolves_may_pass": True}


def merge(*dicts):
    out = {}
    for d in dicts:
        for seat, queues in d.items():
            out.setdefault(seat, {}).update(queues)
    return out


def test_sheriff_is_elected_by_relative_majority_on_day_one():
    votes = {"Ann": "Bob", "Bob": "Cat", "Cat": "Bob", "Dan": "Bob", "Eve": "Cat", "W1": "Ann", "W2": "Dan"}
    game = scripted_game(ROLES, merge({n: {"sheriff_vote": [v]} for n, v in votes.items()}, wolves_pass()), {**ON, **PASS})
    assert game.sheriff == "Bob"
    assert data(game, "sheriff_elected") == [{"player": "Bob", "by_lot": False}]
    [tally] = data(game, "sheriff_votes")
    assert tally["tally"] == {"Bob": 3, "Cat": 2, "Ann": 1, "Dan": 1}
    assert events(game, "sheriff_elected")[0].day == 1


def test_no_abstaining_from_the_sheriff_election():
    """000: "One cannot refuse the honor of being Sheriff" -- and the village must elect."""
    game, _, d = start(ROLES, wolves_pass(), {**ON, **PASS}, until=pending("sheriff_vote"))
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, None)


def test_voting_for_oneself_as_sheriff_is_refused_by_default():
    """001 en: "The captain is elected after having the majority of votes from other players"."""
    game, _, d = start(ROLES, wolves_pass(), {**ON, **PASS}, until=pending("sheriff_vote", "Ann"))
    with pytest.raises(IllegalAnswer, match="themself"):
        game.submit(d.id, "Ann")
    game, _, d = start(ROLES, wolves_pass(), {**ON, **PASS, "sheriff_vote_self": True}, until=pending("sheriff_vote", "Ann"))
    game.submit(d.id, "Ann")


def test_a_tied_election_is_voted_again_among_the_tied():
    first = {"Ann": "Bob", "Bob": "Cat", "Cat": "Bob", "Dan": "Bob", "Eve": "Cat", "W1": "Cat", "W2": "Eve"}
    second = {n: "Cat" if n != "Cat" else "Bob" for n in ROLES}
    answers = {n: {"sheriff_vote": [first[n], second[n]]} for n in ROLES}
    game, agents, d = start(ROLES, merge(answers, wolves_pass()), {**ON, **PASS}, until=pending("sheriff_vote", round=2))
    assert sorted(d.options) == ["Bob", "Cat"]
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, "Eve")
    drive(game, agents)
    assert game.sheriff == "Cat"
    assert [t["round"] for t in data(game, "sheriff_votes")] == [1, 2]


def test_a_twice_tied_election_is_settled_by_lot():
    """The books are silent on a tied election; documented choice (sheriff_election_tie:
    revote_then_lot): vote again among the tied, then draw lots -- the seed's lot."""
    six = {n: r for n, r in ROLES.items() if n != "Eve"}
    split = {"Ann": "Bob", "Bob": "Cat", "Cat": "Bob", "Dan": "Cat", "W1": "Bob", "W2": "Cat"}  # 3 - 3, twice
    seen = set()
    for seed in range(12):
        answers = merge({n: {"sheriff_vote": [v, v]} for n, v in split.items()}, wolves_pass())
        game = scripted_game(six, answers, {**ON, **PASS}, seed=seed)
        assert [t["leaders"] for t in data(game, "sheriff_votes")] == [["Bob", "Cat"], ["Bob", "Cat"]]
        [elected] = data(game, "sheriff_elected")
        assert elected["by_lot"] is True and elected["player"] in ("Bob", "Cat")
        seen.add(game.sheriff)
    assert seen == {"Bob", "Cat"}


def test_option_sheriff_election_tie_lot_skips_the_second_round():
    first = {"Ann": "Bob", "Bob": "Cat", "Cat": "Bob", "Dan": "Bob", "Eve": "Cat", "W1": "Cat", "W2": "Eve"}
    seen = set()
    for seed in range(12):
        game = scripted_game(
            ROLES,
            merge({n: {"sheriff_vote": [v]} for n, v in first.items()}, wolves_pass()),
            {**ON, **PASS, "sheriff_election_tie": "lot"},
            seed=seed,
        )
        assert len(data(game, "sheriff_votes")) == 1
        assert data(game, "sheriff_elected")[0]["by_lot"] is True
        seen.add(game.sheriff)
    assert seen == {"Bob", "Cat"}


def test_the_sheriffs_vote_counts_double():
    """000: "this player's votes count for 2 votes"."""
    votes = {"Ann": {"vote": ["W1"]}, "Bob": {"vote": ["Cat"]}}  # Ann is Sheriff: 2 votes for W1
    game = scripted_game(ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS})
    [result] = data(game, "vote_result")
    assert result["tally"] == {"W1": 2, "Cat": 1}
    assert deaths(game) == [("W1", 1, "vote")]


def test_option_sheriff_double_vote_off():
    votes = {"Ann": {"vote": ["W1"]}, "Bob": {"vote": ["Cat"]}, "Cat": {"vote": ["Dan"]}}
    game = scripted_game(ROLES, merge(elect("Eve"), wolves_pass(), votes), {**ON, **PASS, "sheriff_double_vote": False})
    assert data(game, "vote_result")[0]["tally"] == {"W1": 1, "Cat": 1, "Dan": 1}
    assert deaths(game) == []  # Eve abstained, so her vote designates nobody; revote also empty


def test_on_a_tie_the_sheriffs_vote_designates_the_victim():
    """000 step 6: "In case of a tie, if present, the Sheriff's vote designates the victim"."""
    votes = {"Ann": {"vote": ["W1"]}, "Bob": {"vote": ["Cat"]}, "Dan": {"vote": ["Cat"]}}  # 2 - 2
    game = scripted_game(ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS})
    [result] = data(game, "vote_result")
    assert result["tally"] == {"W1": 2, "Cat": 2}
    assert data(game, "tie_broken") == [{"by": "Ann", "target": "W1", "rule": "his_vote"}]
    assert deaths(game) == [("W1", 1, "vote")]


def test_a_tie_the_sheriff_did_not_vote_into_is_voted_again():
    """His vote designates the victim only when it is one of the tied; otherwise the
    players vote again (000 step 6: "Otherwise, the players vote again")."""
    votes = {
        "Ann": {"vote": ["Eve", "W1"]},  # Sheriff: 2 votes for Eve, not among the leaders
        "Bob": {"vote": ["W1", "W1"]},
        "Cat": {"vote": ["W1", "W1"]},
        "Dan": {"vote": ["W1", "Cat"]},
        "Eve": {"vote": ["Cat", "Cat"]},
        "W1": {"vote": ["Cat", "Cat"]},
        "W2": {"vote": ["Cat", "Cat"]},
    }
    game = scripted_game(ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS})
    first, second = data(game, "vote_result")
    assert first["tally"] == {"Eve": 2, "W1": 3, "Cat": 3}
    assert second["round"] == 2 and second["tally"] == {"W1": 4, "Cat": 4}
    # second round tied again, and now his vote (W1) is among the tied: it designates W1
    assert data(game, "tie_broken") == [{"by": "Ann", "target": "W1", "rule": "his_vote"}]
    assert deaths(game) == [("W1", 1, "vote")]


def test_sheriff_tiebreak_none_means_a_revote():
    votes = {"Ann": {"vote": ["W1", "W1"]}, "Bob": {"vote": ["Cat", "W1"]}, "Dan": {"vote": ["Cat", "Cat"]}}
    game = scripted_game(ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS, "sheriff_tiebreak": "none"})
    assert [r["round"] for r in data(game, "vote_result")] == [1, 2]
    assert deaths(game) == [("W1", 1, "vote")]


def test_option_sheriff_tiebreak_choose_asks_him():
    """001 zh: on a tie the Sheriff chooses among the tied."""
    votes = {"Ann": {"vote": ["W1"], "sheriff_tiebreak": ["Cat"]}, "Bob": {"vote": ["Cat"]}, "Dan": {"vote": ["Cat"]}}
    game, agents, d = start(
        ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS, "sheriff_tiebreak": "choose"}, until=pending("sheriff_tiebreak")
    )
    assert d.seat == "Ann" and sorted(d.options) == ["Cat", "W1"]
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, "Eve")
    with pytest.raises(IllegalAnswer, match="passing is not allowed"):
        game.submit(d.id, None)
    drive(game, agents)
    assert deaths(game) == [("Cat", 1, "vote")]
    assert data(game, "tie_broken") == [{"by": "Ann", "target": "Cat", "rule": "choose"}]


def test_option_sheriff_tiebreak_may_void():
    """001 zh: "也可以决定废票" -- he may void the vote."""
    votes = {"Ann": {"vote": ["W1"], "sheriff_tiebreak": [None]}, "Bob": {"vote": ["Cat"]}, "Dan": {"vote": ["Cat"]}}
    game = scripted_game(
        ROLES,
        merge(elect("Ann"), wolves_pass(), votes),
        {**ON, **PASS, "sheriff_tiebreak": "choose", "sheriff_tiebreak_may_void": True},
    )
    assert deaths(game) == []
    assert data(game, "no_elimination") == [{"reason": "tie"}]


def test_the_dead_sheriff_names_a_successor_whose_vote_then_counts_double():
    """000: "If this player is eliminated, with his dying breath he designates his successor"."""
    answers = merge(
        elect("Ann"),
        {"W1": {"wolf_kill": [None, "Ann"]}, "W2": {"wolf_kill": [None, "Ann"]}},
        {"Ann": {"sheriff_successor": ["Bob"]}, "Bob": {"vote": [None, "W2"]}, "Cat": {"vote": [None, "Dan"]}},
    )
    game = scripted_game(ROLES, answers, {**ON, **PASS, "max_days": 2})
    assert deaths(game)[0] == ("Ann", 2, "werewolves")
    assert data(game, "sheriff_successor") == [{"previous": "Ann", "player": "Bob"}]
    assert game.sheriff == "Bob"
    assert data(game, "vote_result")[-1]["tally"] == {"W2": 2, "Dan": 1}
    assert ("W2", 2, "vote") in deaths(game)
    assert len(data(game, "sheriff_elected")) == 1, "the badge passes; no new election"


def test_the_successor_must_be_alive():
    answers = merge(elect("Ann"), {"W1": {"wolf_kill": [None, "Ann"]}, "W2": {"wolf_kill": [None, "Ann"]}})
    game, _, d = start(ROLES, answers, {**ON, **PASS, "max_days": 2}, until=pending("sheriff_successor"))
    assert "Ann" not in d.options
    with pytest.raises(IllegalAnswer, match="Ann is dead"):
        game.submit(d.id, "Ann")
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, None)


def test_a_sheriff_voted_out_also_names_a_successor():
    votes = {"Bob": {"vote": ["Ann"]}, "Cat": {"vote": ["Ann"]}, "Dan": {"vote": ["Ann"]}, "Ann": {"sheriff_successor": ["Eve"]}}
    game = scripted_game(ROLES, merge(elect("Ann"), wolves_pass(), votes), {**ON, **PASS})
    assert deaths(game) == [("Ann", 1, "vote")]
    assert game.sheriff == "Eve"


def test_sheriff_option_off_means_no_election():
    game = scripted_game(ROLES, wolves_pass(), {"sheriff": False, "max_days": 1, **PASS})
    assert asked(game, "sheriff_vote") == [] and game.sheriff is None


def test_the_election_is_held_once_on_the_configured_day():
    """000: "You may wait a few turns before putting the position of Sheriff to a vote"."""
    game = scripted_game(ROLES, merge(elect("Cat"), wolves_pass()), {**ON, **PASS, "max_days": 3, "sheriff_election_day": 2})
    [ev] = events(game, "sheriff_elected")
    assert ev.day == 2 and game.sheriff == "Cat"


def test_speaking_starts_at_the_sheriffs_left():
    game = scripted_game(ROLES, merge(elect("Cat"), wolves_pass()), {**ON, **PASS})
    speakers = [e.data["speaker"] for e in events(game, "speech")]
    assert speakers[0] == "Dan" and speakers[-1] == "Cat"

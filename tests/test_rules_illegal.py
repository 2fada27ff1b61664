"""Illegal answers are refused with a reason (CONTRACT.md 2: "An answer that the rules do
not allow at that moment (a dead target, a second heal) fails the game with an error that
says why; it is never silently replaced").

Each case plays a scripted game up to one decision and submits a bad answer. The refusal
must be an ``IllegalAnswer`` whose message names the reason, and the decision must stay
pending (nothing was silently replaced or consumed).
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import drive, pending, scripted_game, start

ROLES = {
    "Cupid": "cupid",
    "Seer": "seer",
    "Witch": "witch",
    "Hunt": "hunter",
    "W1": "werewolf",
    "W2": "werewolf",
    "Ann": "villager",
    "Bob": "villager",
}
BASE = {"Cupid": {"cupid_lovers": [["Ann", "Bob"]]}, "Seer": {"seer_check": ["W1", "W2"]}}


def night_one(victim="Hunt"):
    return {**BASE, "W1": {"wolf_kill": [victim]}, "W2": {"wolf_kill": [victim]}, "Hunt": {"hunter_shot": ["Seer"]}}


CASES = [
    # (what, decision kind, seat, answer, reason in the message)
    ("dead target in a vote", "vote", "Ann", "Hunt", "Hunt is dead"),
    ("unknown name in a vote", "vote", "Ann", "Nobody", "'Nobody' is not a legal vote"),
    ("self vote", "vote", "Ann", "Ann", "Ann may not choose themself"),
    ("vote against the beloved", "vote", "Ann", "Bob", "Bob is Ann's beloved"),
    ("the hunter shoots himself", "hunter_shot", "Hunt", "Hunt", "Hunt is dead"),
    ("the hunter shoots a stranger", "hunter_shot", "Hunt", "Zed", "'Zed' is not a legal hunter_shot"),
    ("a wrong type for a vote", "vote", "Ann", 42, "not a legal vote"),
    ("text for a yes/no", "witch_heal", "Witch", "yes", "not a legal witch_heal"),
]


@pytest.mark.parametrize("what, kind, seat, answer, reason", CASES, ids=[c[0] for c in CASES])
def test_illegal_answers_name_the_reason(what, kind, seat, answer, reason):
    game, _, d = start(ROLES, night_one(), {"max_days": 2}, until=pending(kind, seat))
    with pytest.raises(IllegalAnswer) as err:
        game.submit(d.id, answer)
    assert reason in str(err.value), f"{what}: {err.value}"
    assert d in game.waiting, "a refused answer must leave the decision pending"


@pytest.mark.parametrize(
    "answer, reason",
    [(["Ann"], "exactly 2"), (["Ann", "Bob", "Seer"], "exactly 2"), (["Ann", "Ann"], "same player twice"), ("Ann", "exactly 2"), (17, "list")],
)
def test_cupid_needs_exactly_two_names(answer, reason):
    game, _, d = start(ROLES, {}, until=pending("cupid_lovers"))
    with pytest.raises(IllegalAnswer, match=reason):
        game.submit(d.id, answer)


def test_answering_twice_or_after_the_end_is_refused():
    game, agents, d = start(ROLES, night_one(), {"max_days": 1}, until=pending("vote", "Ann"))
    game.submit(d.id, None)
    with pytest.raises(IllegalAnswer, match="not pending|already answered"):
        game.submit(d.id, "W1")
    drive(game, agents)
    assert game.over
    with pytest.raises(IllegalAnswer, match="game is over"):
        game.submit(d.id, "W1")


def test_a_scripted_seat_that_runs_out_names_the_seat_and_kind():
    """CONTRACT.md 2: a queue that runs out "fails the game with an error naming the seat and the kind"."""
    from engine import GameError

    with pytest.raises(GameError, match="W1.*wolf_kill"):
        scripted_game(ROLES, BASE, {"max_days": 1})

"""The Elder (003 "Old") and the village's lost powers.

"He survives the first devouring attack of the pack and dies at the second. The leader
secretly keeps the number of remaining lives. The vote, the poison of the Witch or the
shooting of the Hunter kill him immediately and deprive the villagers of their special
powers for the end of the game. Death by grief does not cause this loss. A cure only
makes him one life. The Infected Father of the Wolves does not infect him."
"""

from __future__ import annotations

from engine.events import NARRATOR, PUBLIC
from helpers import asked, best_of_game, data, deaths, events

ROLES = {"El": "elder", "W1": "werewolf", "Se": "seer", "Wi": "witch", "Hu": "hunter", "V1": "villager", "V2": "villager", "V3": "villager"}


def play(roles, answers=None, options=None, preset="best_of"):
    """Wolves without a script pass; the Seer looks at W1 unless told otherwise."""
    answers = {k: dict(v) for k, v in (answers or {}).items()}
    if "Se" in roles:
        answers.setdefault("Se", {}).setdefault("seer_check", ["W1"] * 9)
    return best_of_game(roles, answers, options, preset=preset)


def test_the_first_attack_costs_a_life_the_second_kills():
    game = play(ROLES, {"W1": {"wolf_kill": ["El", "El"]}}, {"max_days": 2})
    assert deaths(game) == [("El", 2, "werewolves")]
    [first, second] = events(game, "elder_life")
    assert first.audience == NARRATOR and first.data == {"player": "El", "lives": 1} and first.day == 1
    assert second.data["lives"] == 0
    assert data(game, "no_death")  # the first morning: nobody died, nothing said about the Elder


def test_a_cure_only_leaves_him_one_life():
    answers = {"W1": {"wolf_kill": ["El", "El"]}, "Wi": {"witch_heal": [True]}}
    game = play(ROLES, answers, {"max_days": 2})
    assert data(game, "witch_healed") == [{"target": "El"}]
    assert deaths(game) == [("El", 2, "werewolves")]


def test_voted_out_the_village_loses_its_powers():
    answers = {
        **{v: {"vote": ["El"]} for v in ("W1", "Se", "V1", "V2")},
        "W1": {"vote": ["El"], "wolf_kill": [None, "Hu"]},
        "Se": {"seer_check": ["W1"], "vote": ["El"]},
    }
    game = play(ROLES, answers, {"max_days": 3})
    assert deaths(game)[:2] == [("El", 1, "vote"), ("Hu", 2, "werewolves")]
    [lost] = events(game, "village_powers_lost")
    assert lost.audience == PUBLIC and lost.data == {"elder": "El", "cause": "vote"}
    assert asked(game, "seer_check") == [("Se", "seer_check", "W1")]  # night 1 only
    assert not asked(game, "witch_heal", "Wi")[1:]  # the Witch is called on night 1 only
    assert not asked(game, "hunter_shot")  # the devoured Hunter has no shot left
    assert all(p.powerless for p in game.players if p.camp == "village" and p.alive)


def test_poisoned_or_shot_he_takes_the_powers_too():
    game = play(ROLES, {"W1": {"wolf_kill": ["V1"]}, "Wi": {"witch_poison": ["El"]}}, {"max_days": 1})
    assert data(game, "village_powers_lost") == [{"elder": "El", "cause": "poison"}]
    game = play(ROLES, {**{v: {"vote": ["Hu"]} for v in ("W1", "V1", "V2")}, "Hu": {"hunter_shot": ["El"]}}, {"max_days": 1})
    assert ("El", 1, "hunter") in deaths(game)
    assert data(game, "village_powers_lost") == [{"elder": "El", "cause": "hunter"}]


def test_death_by_grief_takes_no_power():
    roles = {"Cu": "cupid", **ROLES}
    answers = {"Cu": {"cupid_lovers": [["El", "V1"]]}, **{v: {"vote": ["V1"]} for v in ("W1", "V2", "V3")}}
    game = play(roles, answers, {"max_days": 1})
    assert deaths(game) == [("V1", 1, "vote"), ("El", 1, "grief")]
    assert not events(game, "village_powers_lost")


def test_dying_with_him_the_hunter_still_shoots_by_default():
    """003 does not arbitrate simultaneous deaths: ``elder_loss_spares_batch``."""
    answers = {"W1": {"wolf_kill": ["Hu"]}, "Wi": {"witch_poison": ["El"]}, "Hu": {"hunter_shot": ["W1"]}}
    game = play(ROLES, answers, {"max_days": 1})
    assert ("W1", 1, "hunter") in deaths(game)
    game = play(ROLES, answers, {"max_days": 1, "elder_loss_spares_batch": False})
    assert not asked(game, "hunter_shot") and ("W1", 1, "hunter") not in deaths(game)


def test_the_infect_father_cannot_infect_him():
    roles = {"El": "elder", "IF": "infect_father", "Wi": "witch", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"IF": {"wolf_kill": ["El", "V1"], "infect_father_infect": [True, True]}}
    game = play(roles, answers, {"max_days": 2})
    assert not events(game, "infected")
    assert data(game, "infection_failed") == [{"father": "IF", "target": "El"}]
    assert data(game, "elder_life")[0]["lives"] == 1  # the attack went on, a life is gone
    # the attempt is spent (infect_father_elder_spends): no second offer on night 2
    assert asked(game, "infect_father_infect") == [("IF", "infect_father_infect", True)]
    assert ("V1", 2, "werewolves") in deaths(game)
    game = play(roles, answers, {"max_days": 2, "infect_father_elder_spends": False})
    assert len(asked(game, "infect_father_infect")) == 2 and data(game, "infected") == [{"player": "V1"}]


def test_the_elder_in_langrensha_and_the_idiot_who_dies_with_him():
    """001 zh: "白痴如果已经揭开身份，则将同长老一起死去"."""
    roles = {"El": "elder", "Id": "idiot", "W1": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {v: {"vote": ["Id", "El"]} for v in ("W1", "Se", "V1", "V2", "V3")}
    game = play(roles, answers, {"max_days": 2, "last_words": "none", "wolves_silent": "no_kill"}, preset="langrensha")
    assert data(game, "idiot_revealed") == [{"player": "Id", "role": "idiot"}]
    assert deaths(game) == [("El", 2, "vote"), ("Id", 2, "with_elder")]

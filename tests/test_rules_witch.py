"""The Witch (000 "The Witch"; Normal Turn step 3).

000: "She knows how to brew 2 extremely powerful potions: a healing potion, to revive the
player killed by the Werewolves, and a poisoning potion, used at night to eliminate a
player. The Witch must use each potion only once per game. She may use both potions the
same night. The morning after this power is used, there may therefore be 0, 1, or 2
deaths. The Witch may use the potions for her own benefit, and so heal herself if she
has just been attacked by the Werewolves."
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, drive, events, pending, scripted_game, start

ROLES = {"Witch": "witch", "W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager", "Dan": "villager"}


def wolves(*victims):
    return {"W1": {"wolf_kill": list(victims)}, "W2": {"wolf_kill": list(victims)}}


def test_the_witch_is_shown_the_victim_privately():
    """000 step 3: "The narrator shows the Witch the Werewolves' victim"."""
    game = scripted_game(ROLES, wolves("Ann"), {"max_days": 1})
    [ev] = events(game, "witch_victim")
    assert ev.data == {"victim": "Ann"} and ev.audience == frozenset({"Witch"})
    [(_, kind, healed)] = asked(game, "witch_heal")
    assert healed is False  # an empty queue declines


def test_healing_saves_the_victim_zero_deaths():
    game = scripted_game(ROLES, {**wolves("Ann"), "Witch": {"witch_heal": [True]}}, {"max_days": 1})
    assert deaths(game) == []
    assert data(game, "witch_healed") == [{"target": "Ann"}]
    assert [e.kind for e in game.events if e.kind in ("dawn", "no_death")] == ["dawn", "no_death"]


def test_poison_kills_one_death_from_poison():
    game = scripted_game(ROLES, {**wolves("Ann"), "Witch": {"witch_heal": [True], "witch_poison": ["W1"]}}, {"max_days": 1})
    assert deaths(game) == [("W1", 1, "poison")]


def test_both_deaths_at_dawn_two_deaths():
    game = scripted_game(ROLES, {**wolves("Ann"), "Witch": {"witch_poison": ["Bob"]}}, {"max_days": 1})
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Bob", 1, "poison")]


def test_a_second_heal_is_refused_because_the_potion_is_used():
    """000: "The Witch must use each potion only once per game"."""
    game, agents, d = start(ROLES, wolves("Ann", "Bob"), until=pending("witch_heal"))
    game.submit(d.id, True)
    d = drive(game, agents, pending("witch_heal"))
    assert d is not None and game.day == 2 and d.context["victim"] == "Bob"
    with pytest.raises(IllegalAnswer, match="healing potion is already used"):
        game.submit(d.id, True)
    game.submit(d.id, False)
    drive(game, agents, pending("vote"))
    assert deaths(game) == [("Bob", 2, "werewolves")]


def test_a_second_poison_is_refused_because_the_potion_is_used():
    game, agents, d = start(ROLES, wolves("Ann", "Bob"), until=pending("witch_poison"))
    game.submit(d.id, "W1")
    d = drive(game, agents, pending("witch_poison"))
    assert d is not None and game.day == 2
    assert not d.options
    with pytest.raises(IllegalAnswer, match="poison is already used"):
        game.submit(d.id, "W2")
    game.submit(d.id, None)
    assert deaths(game)[:3] == [("Ann", 1, "werewolves"), ("W1", 1, "poison"), ("Bob", 2, "werewolves")]


def test_both_potions_the_same_night_by_default():
    """000: "She may use both potions the same night"."""
    game = scripted_game(
        ROLES, {**wolves("Ann"), "Witch": {"witch_heal": [True], "witch_poison": ["W2"]}}, {"max_days": 1}
    )
    assert deaths(game) == [("W2", 1, "poison")]
    assert data(game, "witch_healed") == [{"target": "Ann"}]
    assert data(game, "witch_poisoned") == [{"target": "W2"}]


def test_option_one_potion_a_night():
    game, _, d = start(
        ROLES,
        {**wolves("Ann"), "Witch": {"witch_heal": [True]}},
        {"witch_both_potions_same_night": False},
        until=pending("witch_poison"),
    )
    with pytest.raises(IllegalAnswer, match="only one potion a night"):
        game.submit(d.id, "W1")
    # without healing, the poison is available
    game, _, d = start(ROLES, wolves("Ann"), {"witch_both_potions_same_night": False}, until=pending("witch_poison"))
    game.submit(d.id, "W1")
    assert data(game, "witch_poisoned") == [{"target": "W1"}]


def test_the_witch_may_heal_herself_by_default():
    """000: "heal herself if she has just been attacked by the Werewolves"."""
    game = scripted_game(ROLES, {**wolves("Witch"), "Witch": {"witch_heal": [True]}}, {"max_days": 1})
    assert deaths(game) == []
    assert game.by_name["Witch"].alive


def test_option_witch_self_heal_false():
    game, _, d = start(ROLES, wolves("Witch"), {"witch_self_heal": False}, until=pending("witch_heal"))
    with pytest.raises(IllegalAnswer, match="may not heal herself"):
        game.submit(d.id, True)
    game.submit(d.id, False)


def test_nothing_to_heal_when_the_wolves_killed_nobody():
    odd = {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}}
    game, _, d = start(ROLES, odd, until=pending("witch_heal"))
    assert d.context["victim"] is None
    with pytest.raises(IllegalAnswer, match="nobody was attacked"):
        game.submit(d.id, True)


def test_the_witch_does_not_poison_herself_the_dead_or_strangers():
    game, agents, d = start(ROLES, wolves("Ann", "Bob"), until=pending("witch_poison"))
    with pytest.raises(IllegalAnswer, match="themself"):
        game.submit(d.id, "Witch")
    with pytest.raises(IllegalAnswer, match="Zed"):
        game.submit(d.id, "Zed")
    game.submit(d.id, None)
    d = drive(game, agents, pending("witch_poison"))
    assert d is not None and game.day == 2
    with pytest.raises(IllegalAnswer, match="Ann is dead"):
        game.submit(d.id, "Ann")


def test_potions_are_private():
    game = scripted_game(ROLES, {**wolves("Ann"), "Witch": {"witch_heal": [True], "witch_poison": ["Cat"]}}, {"max_days": 1})
    for kind in ("witch_victim", "witch_healed", "witch_poisoned"):
        evs = events(game, kind)
        assert evs and all(e.audience == frozenset({"Witch"}) for e in evs)
    # the village only learns the outcome at dawn
    [death] = events(game, "death")
    assert death.data["player"] == "Cat" and death.data["cause"] == "poison"

"""The Little Girl (000 "The Little Girl"; Normal Turn step 2).

000: "The Little Girl may, by half-opening her eyes, spy on the Werewolves during their
waking phase. If she is caught by one of the Werewolves, she may be devoured immediately
(in silence), in place of the designated victim." Step 2: "She is not obliged to." "If she
is caught, the Werewolves may change their mind and devour her instead of the victim
originally chosen." 002: "Si la Niña es sorprendida en el acto, muere en lugar de la
víctima designada" (option little_girl_caught: dies).

Digital form (engine.roles.little_girl): she decides each night whether to spy; spying
she reads the pack's talk and votes with every wolf's name withheld, and is caught with
probability ``little_girl_catch_chance``.
"""

from __future__ import annotations

from helpers import asked, data, deaths, drive, events, pending, scripted_game, start, strings

ROLES = {"W1": "werewolf", "W2": "werewolf", "Girl": "little_girl", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
WOLF_NAMES = {"W1", "W2"}


def wolves(*victims, chat=()):
    return {"W1": {"wolf_kill": list(victims), "wolf_chat": list(chat)}, "W2": {"wolf_kill": list(victims)}}


def test_spying_is_optional_and_not_spying_overhears_nothing():
    game = scripted_game(ROLES, {**wolves("Ann"), "Girl": {"little_girl_spy": [False]}}, {"max_days": 1, "little_girl_catch_chance": 1.0})
    assert asked(game, "little_girl_spy") == [("Girl", "little_girl_spy", False)]
    assert not [e for e in game.events if e.kind.endswith("_overheard")]
    assert not events(game, "little_girl_caught"), "a girl who does not peek cannot be caught"
    assert deaths(game) == [("Ann", 1, "werewolves")]


def test_a_spying_girl_overhears_the_pack_without_names():
    game = scripted_game(
        ROLES,
        {**wolves("Ann", chat=["let us eat Ann"]), "Girl": {"little_girl_spy": [True]}},
        {"max_days": 1, "little_girl_catch_chance": 0.0},
    )
    chat = events(game, "wolf_chat_overheard")
    votes = events(game, "wolf_votes_overheard")
    assert chat and votes, "spying must let her overhear the pack"
    assert [e.data["text"] for e in chat] == ["let us eat Ann", ""]
    assert votes[0].data["targets"] == ["Ann", "Ann"]
    for e in chat + votes + events(game, "wolf_victim_overheard"):
        assert e.audience == frozenset({"Girl"})
        assert not WOLF_NAMES & set(strings(e.data)), f"{e.kind} names a wolf: {e.data}"
    assert "Girl" not in {n for e in game.observation("Girl") if e.kind == "wolf_chat" for n in [e.data["speaker"]]}
    assert not [e for e in game.observation("Girl") if e.kind in ("wolf_chat", "wolf_votes", "wolf_pack", "wolf_victim")]
    assert deaths(game) == [("Ann", 1, "werewolves")]


def test_a_spying_girl_with_a_lone_wolf_overhears_the_choice():
    roles = {"W1": "werewolf", "Girl": "little_girl", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Bob"]}, "Girl": {"little_girl_spy": [True]}}, {"max_days": 1, "little_girl_catch_chance": 0.0})
    [ev] = events(game, "wolf_votes_overheard")
    assert ev.data["targets"] == ["Bob"]
    assert "W1" not in set(strings(ev.data))


def test_catch_chance_zero_never_catches():
    game = scripted_game(
        ROLES,
        {**wolves("Ann", "Bob", "Cat"), "Girl": {"little_girl_spy": [True, True, True]}},
        {"max_days": 3, "little_girl_catch_chance": 0.0},
    )
    assert len(asked(game, "little_girl_spy")) == 3
    assert len(events(game, "wolf_votes_overheard")) == 3
    assert not events(game, "little_girl_caught")
    assert game.by_name["Girl"].alive


def test_caught_the_wolves_learn_her_name_and_may_devour_her():
    """000 step 2: "If she is caught, the Werewolves may change their mind and devour her
    instead of the victim originally chosen" (default little_girl_caught: wolves_choose)."""
    game, agents, d = start(
        ROLES,
        {**wolves("Girl"), "Girl": {"little_girl_spy": [True]}},
        {"little_girl_catch_chance": 1.0},
        until=pending("wolf_kill", "W1"),
    )
    assert d.context["caught"] == "Girl"
    assert "Girl" in d.options
    [caught] = events(game, "little_girl_caught")
    assert caught.data == {"player": "Girl"}
    assert caught.audience == frozenset({"W1", "W2", "Girl"})
    for name in ("W1", "W2"):
        assert caught in game.observation(name)
    assert caught not in game.observation("Ann")

    drive(game, agents, pending("vote"))
    assert deaths(game) == [("Girl", 1, "werewolves")]


def test_caught_the_wolves_may_keep_their_victim():
    game = scripted_game(
        ROLES,
        {**wolves("Ann"), "Girl": {"little_girl_spy": [True]}},
        {"max_days": 1, "little_girl_catch_chance": 1.0},
    )
    assert events(game, "little_girl_caught")
    assert deaths(game) == [("Ann", 1, "werewolves")]


def test_option_caught_girl_dies_instead_of_the_victim():
    """002 / 001 en: "If she gets caught, she will be killed immediately by the werewolves
    instead of the selected victim" (little_girl_caught: dies)."""
    game = scripted_game(
        ROLES,
        {**wolves("Ann"), "Girl": {"little_girl_spy": [True]}},
        {"max_days": 1, "little_girl_catch_chance": 1.0, "little_girl_caught": "dies"},
    )
    assert deaths(game) == [("Girl", 1, "werewolves")]
    assert data(game, "wolf_victim") == [{"target": "Girl"}]
    assert asked(game, "wolf_kill") == [], "the pack's choice is replaced by the girl"


def test_the_catch_is_the_seeds_lot():
    outcomes = []
    for seed in range(30):
        g = scripted_game(
            ROLES,
            {**wolves("Ann"), "Girl": {"little_girl_spy": [True]}},
            {"max_days": 1, "little_girl_catch_chance": 0.5, "little_girl_caught": "dies"},
            seed=seed,
        )
        again = scripted_game(
            ROLES,
            {**wolves("Ann"), "Girl": {"little_girl_spy": [True]}},
            {"max_days": 1, "little_girl_catch_chance": 0.5, "little_girl_caught": "dies"},
            seed=seed,
        )
        assert deaths(g) == deaths(again)
        outcomes.append(deaths(g)[0][0])
    assert set(outcomes) == {"Ann", "Girl"}

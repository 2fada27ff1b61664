"""The Werewolves (000 "The Werewolves"; Normal Turn step 2; Important Points of Procedure).

000: "The Werewolves (and only they) raise their heads, open their eyes, silently confer,
and designate a victim." "If the Werewolves cannot decide, too bad for them, there will
be no death that night." "Under no circumstances may a Werewolf devour another Werewolf."
001 en: "If a werewolf is selected as a victim by the other werewolves, hard luck, he
dies!" and "They can eventually decide ... not to select a victim".
"""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import asked, data, deaths, drive, events, kinds, pending, scripted_game, start

TWO = {"W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager", "Dan": "villager"}
THREE = {"W1": "werewolf", "W2": "werewolf", "W3": "werewolf", **{n: "villager" for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")}}
NIGHT = {"max_days": 1}


def test_an_agreeing_pack_devours_its_victim():
    game = scripted_game(TWO, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Ann"]}}, NIGHT)
    assert deaths(game) == [("Ann", 1, "werewolves")]
    assert data(game, "wolf_victim") == [{"target": "Ann"}]


def test_a_disagreeing_pack_kills_nobody_by_default():
    """000: "If the Werewolves cannot decide, too bad for them, there will be no death that night"."""
    game = scripted_game(TWO, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}}, NIGHT)
    assert game.options.wolf_pack == "unanimous"
    assert deaths(game) == []
    assert data(game, "wolf_victim") == [{"target": None}]
    assert "no_death" in kinds(game)


def test_wolf_kill_rounds_gives_the_pack_another_try():
    game = scripted_game(
        TWO, {"W1": {"wolf_kill": ["Ann", "Bob"]}, "W2": {"wolf_kill": ["Bob", "Bob"]}}, {"max_days": 1, "wolf_kill_rounds": 2}
    )
    assert deaths(game) == [("Bob", 1, "werewolves")]
    assert [d["attempt"] for d in data(game, "wolf_votes")] == [1, 2]


def test_majority_pack_rule():
    ans = {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Ann"]}, "W3": {"wolf_kill": ["Bob"]}}
    assert deaths(scripted_game(THREE, ans, {**NIGHT, "wolf_pack": "majority"})) == [("Ann", 1, "werewolves")]
    assert deaths(scripted_game(THREE, ans, {**NIGHT, "wolf_pack": "unanimous"})) == []
    split = {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}, "W3": {"wolf_kill": ["Cat"]}}
    assert deaths(scripted_game(THREE, split, {**NIGHT, "wolf_pack": "majority"})) == []


def test_plurality_pack_rule_always_kills_and_breaks_ties_by_lot():
    ans = {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}, "W3": {"wolf_kill": ["Bob"]}}
    assert deaths(scripted_game(THREE, ans, {**NIGHT, "wolf_pack": "plurality"})) == [("Bob", 1, "werewolves")]
    victims = set()
    for seed in range(12):
        g = scripted_game(
            TWO, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}}, {**NIGHT, "wolf_pack": "plurality"}, seed=seed
        )
        [(victim, _, cause)] = deaths(g)
        assert cause == "werewolves" and victim in ("Ann", "Bob")
        victims.add(victim)
        again = scripted_game(
            TWO, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Bob"]}}, {**NIGHT, "wolf_pack": "plurality"}, seed=seed
        )
        assert deaths(again) == deaths(g), "the lot is the seed's"
    assert victims == {"Ann", "Bob"}


def test_a_werewolf_may_not_devour_a_werewolf_by_default():
    """000: "Under no circumstances may a Werewolf devour another Werewolf"."""
    game, _, d = start(TWO, until=pending("wolf_kill", "W1"))
    assert "W2" not in d.options and "W1" not in d.options
    with pytest.raises(IllegalAnswer, match="not a legal wolf_kill"):
        game.submit(d.id, "W2")


def test_option_wolves_may_kill_wolf():
    """001 en: "If a werewolf is selected as a victim by the other werewolves, hard luck, he dies!\""""
    game = scripted_game(
        THREE,
        {"W1": {"wolf_kill": ["W3"]}, "W2": {"wolf_kill": ["W3"]}, "W3": {"wolf_kill": ["Ann"]}},
        {**NIGHT, "wolves_may_kill_wolf": True, "wolf_pack": "majority"},
    )
    assert deaths(game) == [("W3", 1, "werewolves")]


def test_a_wolf_never_targets_itself():
    game, _, d = start(TWO, {}, {"wolves_may_kill_wolf": True}, until=pending("wolf_kill", "W1"))
    assert "W1" not in d.options and "W2" in d.options
    with pytest.raises(IllegalAnswer, match="themself"):
        game.submit(d.id, "W1")


def test_passing_is_refused_by_default_and_allowed_by_option():
    """001 en: the wolves "can eventually decide ... not to select a victim" (option wolves_may_pass)."""
    game, _, d = start(TWO, until=pending("wolf_kill", "W1"))
    with pytest.raises(IllegalAnswer, match="passing is not allowed"):
        game.submit(d.id, None)
    game = scripted_game(TWO, {"W1": {"wolf_kill": [None]}, "W2": {"wolf_kill": [None]}}, {**NIGHT, "wolves_may_pass": True})
    assert deaths(game) == []
    assert data(game, "wolf_victim") == [{"target": None}]


def test_the_wolves_may_not_devour_the_dead_or_strangers():
    game, agents, d = start(
        TWO, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Ann"]}}, until=pending("wolf_kill", "W1", attempt=1)
    )
    game.submit(d.id, "Ann")

    d = drive(game, agents, pending("wolf_kill", "W1"))
    assert d is not None and game.day == 2
    with pytest.raises(IllegalAnswer, match="Ann is dead"):
        game.submit(d.id, "Ann")
    with pytest.raises(IllegalAnswer, match="'Zed' is not a legal"):
        game.submit(d.id, "Zed")


def test_every_living_wolf_answers_and_the_pack_talks_privately():
    """000: the Werewolves "recognize each other ... silently confer"."""
    game = scripted_game(
        TWO,
        {"W1": {"wolf_kill": ["Ann"], "wolf_chat": ["Ann?"]}, "W2": {"wolf_kill": ["Ann"], "wolf_chat": ["yes"]}},
        NIGHT,
    )
    assert sorted(s for s, _, _ in asked(game, "wolf_kill")) == ["W1", "W2"]
    chat = events(game, "wolf_chat")
    assert [e.data["text"] for e in chat] == ["Ann?", "yes"]
    assert all(e.audience == frozenset({"W1", "W2"}) for e in chat)
    packs = events(game, "wolf_pack")
    assert {tuple(e.audience) for e in packs} == {("W1",), ("W2",)}
    assert all(sorted(e.data["wolves"]) == ["W1", "W2"] for e in packs)


def test_a_lone_wolf_does_not_chat():
    roles = {"W1": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}}, NIGHT)
    assert asked(game, "wolf_chat") == []
    assert deaths(game) == [("Ann", 1, "werewolves")]


def test_a_dead_wolf_no_longer_wakes_with_the_pack():
    game = scripted_game(
        TWO,
        {
            "W1": {"wolf_kill": ["Ann", "Bob"]},
            "W2": {"wolf_kill": ["Ann"]},
            "Bob": {"vote": ["W2"]},
            "Cat": {"vote": ["W2"]},
            "Dan": {"vote": ["W2"]},
        },
        {"max_days": 2},
    )
    assert deaths(game) == [("Ann", 1, "werewolves"), ("W2", 1, "vote"), ("Bob", 2, "werewolves")]
    assert [s for s, _, _ in asked(game, "wolf_kill")] == ["W1", "W2", "W1"]
    assert data(game, "wolf_pack")[-1] == {"wolves": ["W1"]}


def test_wolves_who_do_not_wake_die_of_hunger():
    """001 en: "If no werewolves open their eyes, they die of hunger and the villagers win"
    (``wolves_silent: starve``): every wolf may keep their eyes shut (pass); all passing,
    the whole pack dies at dawn."""
    roles = {"W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": [None]}, "W2": {"wolf_kill": [None]}}, {"wolves_silent": "starve"})
    assert deaths(game) == [("W1", 1, "hunger"), ("W2", 1, "hunger")]
    assert game.winner == "village" and game.day == 1


def test_one_wolf_awake_is_enough_to_eat():
    roles = {"W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {"W1": {"wolf_kill": [None]}, "W2": {"wolf_kill": ["V1"]}}
    game = scripted_game(roles, answers, {"wolves_silent": "starve", "wolf_pack": "plurality", "max_days": 1})
    assert deaths(game) == [("V1", 1, "werewolves")]


# ---------------------------------------------------------------------- the talk's proposals
def _chats_and_kills(game):
    """Each wolf's talk and kill questions of each night, played by the heuristic bots."""
    from agents.base import SeatView
    from helpers import bots

    agents = bots(game, 3)
    chats, kills = {}, {}
    while not game.over and game.waiting:
        d = game.waiting[0]
        if d.kind == "wolf_chat":
            chats[(game.day, d.seat)] = d.context.get("victims")
        elif d.kind == "wolf_kill" and d.context.get("attempt") == 1 and not d.context.get("idle"):
            kills[(game.day, d.seat)] = list(d.options)
        game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
    return chats, kills


@pytest.mark.parametrize(
    "options",
    [{}, {"wolves_may_kill_wolf": True}, {"wolf_pack": "first_named"}],
    ids=["pack off limits", "wolves_may_kill_wolf", "first_named"],
)
def test_the_packs_talk_may_propose_exactly_the_victims_its_kill_offers(options):
    """A wolf proposes a victim in the pack's talk (``wolf_chat``'s ``target``): the
    names he may propose are the engine's, the very options his ``wolf_kill`` offers
    (never himself; a packmate only where a wolf may devour a wolf), so a person's seat
    lists exactly the legal victims and no other."""
    from engine import Game, GameSetup, get_preset

    compared = 0
    for seed in range(12):
        deck = ["werewolf", "werewolf", "werewolf", "cupid", "seer", "witch", "villager", "villager", "villager"]
        names = [f"P{i}" for i in range(len(deck))]
        opts = get_preset("millers_hollow").options({"sheriff": False, **options})
        chats, kills = _chats_and_kills(Game(GameSetup(names=names, seed=seed, options=opts, roles=deck)))
        for key, offered in kills.items():
            if key in chats:
                day, wolf = key
                assert chats[key] == offered, (seed, key)
                assert wolf not in chats[key]
                compared += 1
    assert compared > 20


def test_the_packs_talk_never_offers_the_tavernkeeper():
    """The Village: "The Werewolves do not devour" the Tavernkeeper, so no wolf may propose him."""
    from engine import Game, GameSetup, get_preset

    found = False
    for seed in range(30):
        preset = get_preset("village")
        names = [f"P{i}" for i in range(10)]
        game = Game(GameSetup(names=names, seed=seed, preset="village", options=preset.options({"sheriff": False})))
        keeper = [p.name for p in game.players if p.building == "tavernkeeper" and not p.is_wolf]
        chats, kills = _chats_and_kills(game)
        for key, victims in chats.items():
            if key in kills:
                assert victims == kills[key]
            if keeper and key[0] == 1 and victims is not None:
                assert keeper[0] not in victims
                found = True
    assert found, "no game put a Tavernkeeper beside a talking pack"

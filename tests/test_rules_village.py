"""The Village (000, Rules of Expansion #2): the preset, the Raven, and the White Werewolf
reused from Best of Werewolves.

Raven: "Each end of night, after the Werewolves have gone back to sleep ... the Raven may
designate a player he suspects ... That player will automatically have 2 extra votes
against them at the next vote count." White Werewolf: "This character's goal is to be the
sole survivor of the village ... Every other night, he wakes again after his "fellow
wolves" have gone back to sleep ... he may eliminate a Werewolf, if he wishes.\""""

from __future__ import annotations

import random
from collections import Counter

import pytest

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from engine import Game, GameSetup, get_preset
from engine.events import PUBLIC
from engine.flow.voting import VotesDue
from helpers import agents_for, data, deaths, drive, events, new_game
from test_property import Case, check, play


def run(roles, answers=None, until=None, **opts):
    """A scripted village game; the characters' tests play without buildings."""
    opts.setdefault("buildings", "none")
    game = new_game(roles, opts, preset="village")
    d = drive(game, agents_for(game, answers), None if until is None else (lambda d: until(game, d)))
    return game, d


def test_the_preset_deals_the_new_characters():
    assert Counter(get_preset("village").deck(8)) == Counter({"werewolf": 2, "seer": 1, "villager": 5})
    assert Counter(get_preset("village").deck(9))["raven"] == 1
    assert Counter(get_preset("village").deck(9))["arsonist"] == 0
    deck12 = Counter(get_preset("village").deck(12))
    assert deck12["white_werewolf"] == 1 and deck12["werewolf"] == 2 and deck12["raven"] == 1 and deck12["arsonist"] == 1
    # The rules are the base game's; the buildings are the layer the expansion adds.
    assert get_preset("village").options() == get_preset("millers_hollow").options({"buildings": "thirds"})
    no_buildings = get_preset("village").options({"buildings": "none"})
    assert "arsonist" not in get_preset("village").deck_for(12, no_buildings)


def test_the_raven_poster_adds_two_votes_at_the_next_count():
    roles = {"W": "werewolf", "R": "raven", "A": "villager", "B": "villager", "C": "villager"}
    answers = {
        "W": {"wolf_kill": ["A"], "vote": ["B"]},
        "R": {"raven_mark": ["W"], "vote": ["B"]},
        "B": {"vote": ["W"]},
        "C": {"vote": [None]},
    }
    game, _ = run(roles, answers, until=lambda g, d: d.kind == "wolf_kill" and g.day == 2)
    poster = events(game, "raven_poster")[0]
    assert poster.audience == PUBLIC and poster.data == {"target": "W"}
    assert data(game, "extra_votes") == [{"votes": {"W": 2}}]
    result = data(game, "vote_result")[0]
    assert result["tally"] == {"B": 2, "W": 3}
    assert deaths(game)[-1] == ("W", 1, "vote")


def test_the_poster_counts_once_and_never_on_oneself():
    roles = {"W": "werewolf", "R": "raven", "A": "villager", "B": "villager", "C": "villager"}
    answers = {"W": {"wolf_kill": ["A", "B"]}, "R": {"raven_mark": ["C", None]}}
    game, d = run(roles, answers, until=lambda g, d: d.kind == "raven_mark" and g.day == 2)
    assert "R" not in d.options
    assert data(game, "vote_result")[0]["tally"] == {"C": 2}
    assert game.memory.peek(VotesDue) is None  # the poster counted once, then forgotten


def test_the_white_werewolf_plays_in_the_village():
    roles = {"X": "white_werewolf", "W": "werewolf", "A": "villager", "B": "villager", "C": "villager", "D": "villager"}
    answers = {"X": {"wolf_kill": ["A", "B"], "white_werewolf_kill": ["W"]}, "W": {"wolf_kill": ["A", "B"]}}
    game, _ = run(roles, answers, until=lambda g, d: d.kind == "vote" and g.day == 2)
    assert ("W", 2, "white_werewolf") in deaths(game)


def test_the_heuristic_raven_posts_on_suspects():
    posters = wolves = 0
    asked = False
    for seed in range(40):
        n = 9 + seed % 8
        game = Game(GameSetup(names=[f"P{i:02d}" for i in range(n)], preset="village", seed=seed))
        agents = {p.name: HeuristicAgent(p.name, seed) for p in game.players}
        for a in agents.values():
            a.strict = True
        while not game.over:
            d = game.waiting[0]
            asked = asked or d.kind == "raven_mark"
            game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
        for e in events(game, "raven_poster"):
            posters += 1
            wolves += game.by_name[e.data["target"]].is_wolf
    assert asked and posters and wolves / posters > 0.3


@pytest.mark.parametrize("start", range(0, 300, 100))
def test_random_village_games_are_sound(start):
    for seed in range(start, start + 100):
        rng = random.Random(f"case:village:{seed}")
        n = rng.randint(6, 18)
        deck = get_preset("village").deck(n)
        for role in ("raven", "white_werewolf", "witch", "hunter", "cupid", "little_girl"):
            if role not in deck and "villager" in deck and rng.random() < 0.4:
                deck.remove("villager")
                deck.append(role)
        opts = {"sheriff": rng.random() < 0.6, "last_words": "none"}
        case = Case(seed, [f"P{i:02d}" for i in range(n)], deck, opts, None, "village")
        game, log = play(case)
        check(case, game, log)

"""The Village's buildings (000, Rules of Expansion #2) and the Arsonist, one rule at a
time: scripted games with forced characters and forced buildings.

Each test quotes the passage it checks; docs/RULES.md §9 carries them all."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from engine import Game, GameSetup, get_preset
from engine.buildings.base import BUILDINGS
from engine.buildings.handout import box, selection
from engine.buildings.tavernkeeper import Tavern
from engine.events import PUBLIC
from engine.setup import SetupError
from helpers import agents_for, data, deaths, drive, events
from test_property import Case, check, play


def village(roles: dict[str, str], homes: dict[str, str], answers=None, until=None, seed: int = 0, **opts: Any):
    """A scripted village game: ``roles`` and ``homes`` by seat, in seat order. Wolves
    without a scripted victim pass; the Sheriff is off unless a test turns it on."""
    options = {"sheriff": False, "wolves_may_pass": True, "buildings": "listed", "building_tokens": list(homes.values())}
    options.update(opts)
    setup = GameSetup(
        names=list(roles),
        preset="village",
        seed=seed,
        options=get_preset("village").options(options),
        forced=dict(roles),
        buildings=dict(homes),
    )
    game = Game(setup)
    d = drive(game, agents_for(game, answers), None if until is None else (lambda d: until(game, d)))
    return game, d


def asked(game: Game, kind: str) -> list[tuple[str, Any]]:
    """(seat, answer) of every answered decision of ``kind``."""
    return [(seat, answer) for _, seat, k, answer in game.answer_log if k == kind]


# ------------------------------------------------------------------------- the hand-out
def test_the_later_game_split_is_a_third_each_with_the_bailiff():
    """000: "In later games, we recommend ... 1/3 Farmers, 1/3 Vagabonds, and 1/3 special buildings"."""
    opts = get_preset("village").options()
    assert opts.buildings == "thirds"
    for n in (8, 9, 12, 17, 24, 29):
        tokens = Counter(selection(opts, n, random.Random(n)))
        assert sum(tokens.values()) == n
        assert tokens["farmer"] == min(6, round(n / 3))
        specials = {b: k for b, k in tokens.items() if b not in ("farmer", "vagabond")}
        assert all(k == 1 for k in specials.values()) and len(specials) <= 8
        assert "bailiff" in specials  # Vagabonds hope for a home: the Bailiff is dealt with them
        assert tokens["vagabond"] == n - tokens["farmer"] - len(specials)


def test_the_first_game_set_only_has_the_four_recommended_buildings():
    """000: "For your first game, we recommend choosing buildings only from among the
    Farmers, the Schoolmistress, the Castellan, and the Confessor"."""
    opts = get_preset("village").options({"buildings": "first_game"})
    assert Counter(selection(opts, 8, random.Random(0))) == Counter(
        {"schoolmistress": 1, "castellan": 1, "confessor": 1, "farmer": 5}
    )
    twelve = Counter(selection(opts, 12, random.Random(0)))
    assert twelve["farmer"] == 6 and twelve["vagabond"] == 3  # the box holds 6 cows


def test_the_whole_box_is_drawn_face_down():
    """000: "a random distribution, by drawing from the full set of available tokens face-down"."""
    assert len(box()) == 29 and Counter(box())["vagabond"] == 15 and Counter(box())["farmer"] == 6
    seen = Counter()
    for seed in range(30):
        game = Game(GameSetup(names=[f"P{i}" for i in range(10)], preset="village", seed=seed, options=get_preset("village").options({"buildings": "box"})))
        homes = Counter(p.building for p in game.players)
        assert sum(homes.values()) == 10 and all(homes[b] <= BUILDINGS[b].box for b in homes)
        seen.update(homes)
    assert set(seen) == set(BUILDINGS)
    with pytest.raises(SetupError, match="29 building tokens"):
        Game(GameSetup(names=[f"P{i}" for i in range(30)], preset="millers_hollow", seed=0, options=get_preset("village").options({"buildings": "box"})))


def test_the_buildings_are_public_from_the_start():
    roles = {"W": "werewolf", "A": "villager", "B": "villager", "C": "villager"}
    homes = {"W": "farmer", "A": "bailiff", "B": "vagabond", "C": "castellan"}
    game, _ = village(roles, homes, until=lambda g, d: True)
    e = events(game, "buildings")[0]
    assert e.audience == PUBLIC and e.data["homes"] == homes
    assert [p.building for p in game.players] == list(homes.values()) and all(p.token for p in game.players)


def test_each_player_picks_a_face_up_token_in_seat_order():
    """000: "a fixed order, a personal choice by each player of a token from a certain
    number of face-up tokens". A seat given its token by the game file is served first."""
    roles = {"W": "werewolf", "A": "villager", "B": "villager", "C": "villager"}
    opts = {"buildings": "listed", "building_tokens": ["farmer", "farmer", "barber", "vagabond", "castellan"], "building_handout": "choice", "sheriff": False}
    setup = GameSetup(names=list(roles), preset="village", options=get_preset("village").options(opts), forced=roles, buildings={"B": "castellan"})
    game = Game(setup)
    answers = {"W": {"building_choice": ["barber"]}, "A": {"building_choice": ["farmer"]}, "C": {"building_choice": ["vagabond"]}}
    drive(game, agents_for(game, answers), lambda d: d.kind != "building_choice")
    assert [(d["player"], d["building"]) for d in data(game, "building_chosen")] == [("W", "barber"), ("A", "farmer"), ("C", "vagabond")]
    assert {p.name: p.building for p in game.players} == {"W": "barber", "A": "farmer", "B": "castellan", "C": "vagabond"}
    assert data(game, "buildings_on_offer")[0]["tokens"] == {"barber": 1, "farmer": 2, "vagabond": 1}


@pytest.mark.parametrize(
    "opts, homes, words",
    [
        ({"buildings": "none"}, {"A": "farmer"}, "has none"),
        ({"buildings": "thirds"}, {"A": "smith"}, "unknown building 'smith'"),
        ({"buildings": "listed", "building_tokens": ["farmer"] * 3}, {}, "3 tokens for 4 players"),
        ({"buildings": "listed", "building_tokens": ["farmer"] * 7}, {}, "holds 6 'farmer'"),
        ({"buildings": "listed", "building_tokens": ["farmer", "mill", "farmer", "farmer"]}, {}, "unknown building 'mill'"),
        ({"buildings": "listed", "building_tokens": ["farmer"] * 4}, {"A": "barber"}, "'barber' given to A is not among the tokens"),
    ],
)
def test_bad_building_set_ups_say_what_is_wrong(opts, homes, words):
    roles = {"W": "werewolf", "A": "villager", "B": "villager", "C": "villager"}
    with pytest.raises(SetupError, match=words):
        Game(GameSetup(names=list(roles), preset="village", options=get_preset("village").options(opts), forced=roles, buildings=homes))


def test_a_forced_token_missing_from_the_recommended_set_takes_a_vagabonds_place():
    names = [f"P{i}" for i in range(9)]
    game = Game(GameSetup(names=names, preset="village", seed=3, buildings={"P0": "tavernkeeper", "P1": "baker"}))
    homes = Counter(p.building for p in game.players)
    assert game.by_name["P0"].building == "tavernkeeper" and game.by_name["P1"].building == "baker"
    assert homes["farmer"] == 3 and sum(homes.values()) == 9


# ------------------------------------------------------------------------------ Farmers
FARM = {"W": "werewolf", "F1": "villager", "F2": "villager", "A": "villager", "B": "villager"}


def test_the_farmers_elect_the_sheriff_among_themselves_from_the_second_turn():
    """000: "From the second turn on, the Farmers debate and vote to choose a Sheriff among themselves"."""
    homes = {"W": "vagabond", "F1": "farmer", "F2": "farmer", "A": "schoolmistress", "B": "castellan"}
    answers = {"W": {"wolf_kill": [None, None]}, "F1": {"sheriff_vote": ["F2"]}, "F2": {"sheriff_vote": ["F2"]}}
    game, d = village(FARM, homes, answers, until=lambda g, d: g.day == 3, sheriff=True, sheriff_vote_self=True)
    assert asked(game, "sheriff_vote") == [("F1", "F2"), ("F2", "F2")]
    election = [e for e in game.events if e.kind == "sheriff_votes"]
    assert election and all(e.day == 2 for e in election)
    assert data(game, "sheriff_elected") == [{"player": "F2", "by_lot": False}]
    campaigners = [e.data["speaker"] for e in events(game, "speech") if e.phase == "campaign"]
    assert sorted(campaigners) == ["F1", "F2"]


def test_succession_is_among_the_surviving_farmers_and_ends_with_them():
    """000: "If the Sheriff is eliminated, they choose their successor only from among the
    surviving Farmers. If the last Farmer is eliminated, there is no longer a Sheriff."."""
    homes = {"W": "vagabond", "F1": "farmer", "F2": "farmer", "A": "schoolmistress", "B": "castellan"}
    answers = {
        "W": {"wolf_kill": [None, None, "F2", "F1"]},
        "F1": {"sheriff_vote": ["F2"], "sheriff_successor": []},
        "F2": {"sheriff_vote": ["F2"], "sheriff_successor": ["F1"]},
    }
    game, d = village(FARM, homes, answers, until=lambda g, d: g.day == 5 and d.kind == "vote", sheriff=True, sheriff_vote_self=True)
    assert data(game, "sheriff_successor") == [{"previous": "F2", "player": "F1"}]
    assert data(game, "sheriff_gone") == [{"previous": "F1"}]
    assert game.sheriff is None and all(e.day == 2 for e in events(game, "sheriff_votes"))  # never elected again


# ---------------------------------------------------------------------------- Confessor
def test_the_confessor_sees_a_card_once_in_secret():
    """000: "the Confessor designates a player, who must immediately show them their
    character card in secret. After using this power, the Confessor loses it"."""
    roles = {"W": "werewolf", "C": "villager", "A": "villager", "B": "villager"}
    homes = {"W": "farmer", "C": "confessor", "A": "farmer", "B": "farmer"}
    answers = {"C": {"confessor_hear": ["W"]}, "W": {"wolf_kill": [None, None]}}
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 2 and d.kind == "vote")
    public = events(game, "confession")[0]
    secret = events(game, "confessed_role")[0]
    assert public.audience == PUBLIC and public.data == {"confessor": "C", "player": "W"}
    assert secret.audience == frozenset({"C"}) and secret.data == {"player": "W", "role": "werewolf"}
    assert len(asked(game, "confessor_hear")) == 1  # asked in the morning of day 1, then never again
    assert not game.by_name["C"].token and data(game, "token_returned") == [{"player": "C", "building": "confessor", "reason": "used"}]


def test_the_bonesetter_restores_a_spent_power():
    """000: "the Bonesetter can restore to a player the unique power they have already used"."""
    roles = {"W": "werewolf", "C": "villager", "S": "villager", "B": "villager"}
    homes = {"W": "farmer", "C": "confessor", "S": "bonesetter", "B": "farmer"}
    answers = {"C": {"confessor_hear": ["W", "B"]}, "S": {"bonesetter_restore": ["C"]}, "W": {"wolf_kill": [None, None]}}
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 2 and d.kind == "vote")
    assert [d["player"] for d in data(game, "confession")] == ["W", "B"]
    assert data(game, "bones_set") == [{"bonesetter": "S", "player": "C"}]
    assert not game.by_name["S"].token and not game.by_name["C"].token


# ------------------------------------------------------------------------------- Barber
def test_the_barber_survives_shaving_a_werewolf():
    """000: "If the eliminated player is a Werewolf, the Barber is congratulated by the
    village and survives their act"."""
    roles = {"W": "werewolf", "X": "villager", "A": "villager", "B": "villager", "V": "werewolf"}
    homes = {"W": "farmer", "X": "barber", "A": "farmer", "B": "farmer", "V": "farmer"}
    game, _ = village(roles, homes, {"X": {"barber_shave": ["W"]}, "W": {"wolf_kill": [None]}, "V": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "vote")
    assert data(game, "shave") == [{"barber": "X", "target": "W"}]
    assert deaths(game) == [("W", 1, "barber")] and game.by_name["X"].alive


def test_the_barber_dies_with_an_innocent_and_never_shaves_a_vagabond():
    """000: "Otherwise, the Barber is immediately eliminated. The Barber cannot eliminate a Vagabond"."""
    roles = {"W": "werewolf", "X": "villager", "A": "villager", "B": "villager", "V": "villager"}
    homes = {"W": "farmer", "X": "barber", "A": "farmer", "B": "vagabond", "V": "farmer"}
    game, d = village(roles, homes, {"W": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "barber_shave")
    assert "B" not in d.options and "X" not in d.options
    game, _ = village(roles, homes, {"X": {"barber_shave": ["A"]}, "W": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "vote")
    assert deaths(game) == [("A", 1, "barber"), ("X", 1, "barber_mistake")]


# ------------------------------------------------------------------------ Schoolmistress
def test_the_schoolmistress_and_her_pupils_do_not_vote():
    """000: "the Schoolmistress may forbid up to 2 players from voting during that round.
    She never votes herself ... cannot forbid any Vagabond from voting"."""
    roles = {"W": "werewolf", "S": "villager", "A": "villager", "B": "villager", "V": "villager", "C": "villager"}
    homes = {"W": "farmer", "S": "schoolmistress", "A": "farmer", "B": "farmer", "V": "vagabond", "C": "castellan"}
    answers = {"S": {"schoolmistress_forbid": ["A", "W"]}, "W": {"wolf_kill": [None]}}
    game, d = village(roles, homes, answers, until=lambda g, d: g.day == 2)
    forbid = [d for d in game.answer_log if d[2] == "schoolmistress_forbid"]
    assert [a for *_, a in forbid] == ["A", "W"]
    assert data(game, "forbidden") == [{"schoolmistress": "S", "players": ["A", "W"]}]
    voters = set(data(game, "vote_result")[0]["votes"])
    assert voters == {"B", "V", "C"}
    spoke = {e.data["speaker"] for e in events(game, "speech")}
    assert {"S", "A", "W"} <= spoke  # "may still debate during the village council"
    first_ask = next(dd for dd in _decisions(roles, homes, answers) if dd.kind == "schoolmistress_forbid")
    assert "V" not in first_ask.options and "S" not in first_ask.options


def _decisions(roles, homes, answers):
    """Every decision asked in the game, as asked (replays it, recording them)."""
    opts = {"sheriff": False, "wolves_may_pass": True, "buildings": "listed", "building_tokens": list(homes.values())}
    game = Game(GameSetup(names=list(roles), preset="village", options=get_preset("village").options(opts), forced=roles, buildings=homes))
    agents = agents_for(game, answers)
    seen = []
    while not game.over and game.waiting:
        d = game.waiting[0]
        seen.append(d)
        game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
        if game.day > 1 and d.kind == "vote":
            break
    return seen


# ------------------------------------------------------------------------- Tavernkeeper
TAVERN = {"W": "werewolf", "T": "villager", "A": "villager", "B": "villager", "C": "villager"}
TAVERN_HOMES = {"W": "farmer", "T": "tavernkeeper", "A": "farmer", "B": "farmer", "C": "castellan"}


def test_the_tavernkeeper_is_out_of_reach_and_votes_first_alone():
    """000: "The Werewolves do not devour him, and the villagers cannot vote against him
    ... he always votes alone, before the others"."""
    game, d = village(TAVERN, TAVERN_HOMES, until=lambda g, d: d.kind == "wolf_kill")
    assert "T" not in d.options
    game, d = village(TAVERN, TAVERN_HOMES, {"W": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "vote")
    assert d.seat == "T" and [x.seat for x in game.waiting] == ["T"]  # alone, first
    game, d = village(TAVERN, TAVERN_HOMES, {"W": {"wolf_kill": [None]}, "T": {"vote": ["A"]}}, until=lambda g, d: d.kind == "vote" and d.seat != "T")
    assert "T" not in d.options
    assert data(game, "first_vote") == [{"voter": "T", "target": "A", "round": 1}]


def test_the_tavernkeeper_loses_his_token_when_his_target_is_eliminated_even_pardoned():
    """000: "If he has voted against someone who ends up eliminated (even pardoned), he
    loses his immunity and his token"."""
    answers = {
        "W": {"wolf_kill": [None, None]},
        "T": {"vote": ["A"]},
        "B": {"vote": ["A"]},
        "A": {"castellan_plea": [True]},
        "C": {"castellan_pardon": [True]},
    }
    game, d = village(TAVERN, TAVERN_HOMES, answers, until=lambda g, d: g.day == 2 and d.kind == "wolf_kill")
    assert data(game, "pardoned") == [{"castellan": "C", "player": "A"}]
    assert game.by_name["A"].alive and not game.by_name["T"].token
    assert {(d["player"], d["reason"]) for d in data(game, "token_returned")} == {("T", "voted_out"), ("C", "used")}
    assert "T" in d.options and game.memory.of(Tavern).immune == frozenset()


# ---------------------------------------------------------------------------- Castellan
def test_the_castellan_pardons_at_the_victims_request_once():
    """000: "the Castellan may, at the request of the intended victim, pardon a villager
    chosen by the village's vote. That player will therefore not be eliminated and will
    not reveal their character card"."""
    roles = {"W": "werewolf", "C": "villager", "A": "villager", "B": "villager", "D": "villager"}
    homes = {"W": "farmer", "C": "castellan", "A": "farmer", "B": "farmer", "D": "farmer"}
    answers = {
        "W": {"wolf_kill": [None, None], "vote": ["A", "A"], "castellan_plea": [True]},
        "B": {"vote": ["W", "A"]},
        "D": {"vote": ["W", "A"]},
        "A": {"castellan_plea": [True]},
        "C": {"castellan_pardon": [True]},
    }
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 3)
    assert data(game, "plea") == [{"player": "W", "castellan": "C"}]
    assert data(game, "pardoned") == [{"castellan": "C", "player": "W"}]
    assert not any(e.data.get("player") == "W" for e in events(game, "death"))
    assert deaths(game) == [("A", 2, "vote")]  # the second day's plea finds no token
    assert asked(game, "castellan_plea") == [("W", True)]


def test_a_selfish_castellan_pardons_himself_without_asking_and_a_refusal_stands():
    roles = {"W": "werewolf", "C": "villager", "A": "villager", "B": "villager"}
    homes = {"W": "farmer", "C": "castellan", "A": "farmer", "B": "farmer"}
    answers = {"W": {"wolf_kill": [None], "vote": ["C"]}, "A": {"vote": ["C"]}, "C": {"castellan_pardon": [True]}}
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 2)
    assert asked(game, "castellan_plea") == [] and data(game, "pardoned") == [{"castellan": "C", "player": "C"}]
    answers = {"W": {"wolf_kill": [None], "vote": ["A"]}, "B": {"vote": ["A"]}, "A": {"castellan_plea": [True]}, "C": {"castellan_pardon": [False]}}
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 2)
    assert data(game, "pardon_refused") == [{"castellan": "C", "player": "A"}] and deaths(game) == [("A", 1, "vote")]
    assert game.by_name["C"].token


# ------------------------------------------------------------------------------ Bailiff
BAIL = {"W": "werewolf", "L": "villager", "F": "villager", "V1": "villager", "V2": "villager", "A": "villager"}
BAIL_HOMES = {"W": "farmer", "L": "bailiff", "F": "tavernkeeper", "V1": "vagabond", "V2": "vagabond", "A": "farmer"}


def test_the_bailiff_gives_a_freed_home_to_a_vagabond_who_may_refuse():
    """000: "When a building becomes free, the Bailiff may assign a Vagabond of their
    choice to it. That Vagabond changes seat to sit behind the building ... receives the
    "power" token"; "A Vagabond may refuse to occupy a home offered by the Bailiff"."""
    answers = {
        "W": {"wolf_kill": ["A", None]},
        "L": {"bailiff_assign": ["V1", "V2"]},
        "V1": {"vagabond_accept": [False]},
        "V2": {"vagabond_accept": [True]},
    }
    game, _ = village(BAIL, BAIL_HOMES, answers, until=lambda g, d: g.day == 2 and d.kind == "speak")
    assert deaths(game) == [("A", 1, "werewolves")]
    assert [e.kind for e in game.events if e.kind in ("home_offered", "home_refused", "moved_in")] == ["home_offered", "home_refused", "home_offered", "moved_in"]
    moved = data(game, "moved_in")[0]
    assert moved == {"player": "V2", "building": "farmer", "former": "A", "seat": 5}
    v2 = game.by_name["V2"]
    assert v2.building == "farmer" and v2.token and v2.seat == 5 and game.table[5] is v2
    assert game.by_name["A"].seat == 4 and [p.seat for p in game.table] == list(range(6))
    # the new seating counts: V2 sits where A sat, between W (left) and V1 (A's old place is empty)
    assert [p.name for p in game.neighbours("V2")] == ["W", "V1"]


def test_no_home_is_given_once_the_bailiff_is_dead():
    """000: "the elimination of the Bailiff ends the assignment of homes"."""
    answers = {"W": {"wolf_kill": ["L", "A", None]}, "V1": {"vagabond_accept": [True]}}
    game, _ = village(BAIL, BAIL_HOMES, answers, until=lambda g, d: g.day == 3 and d.kind == "speak")
    assert asked(game, "bailiff_assign") == [] and not events(game, "moved_in")


def test_a_home_freed_by_the_vote_is_offered_the_next_morning_and_the_newcomer_gets_its_power():
    answers = {
        "W": {"wolf_kill": [None, None], "vote": ["F"]},
        "V1": {"vote": ["F"], "vagabond_accept": [True]},
        "L": {"bailiff_assign": ["V1"]},
    }
    homes = dict(BAIL_HOMES, F="castellan")
    game, _ = village(BAIL, homes, answers, until=lambda g, d: g.day == 2 and d.kind == "speak")
    assert deaths(game) == [("F", 1, "vote")]
    assert game.by_name["V1"].building == "castellan" and game.by_name["V1"].token
    assert [e.phase for e in events(game, "moved_in")] == ["dawn"]


# -------------------------------------------------------------------------------- Baker
def test_the_baker_may_glimpse_a_werewolf_going_home():
    """000: "Sometimes, just before dawn, he thinks he sees Werewolves returning"."""
    roles = {"W": "werewolf", "K": "villager", "A": "villager", "B": "villager"}
    homes = {"W": "farmer", "K": "baker", "A": "farmer", "B": "farmer"}
    game, _ = village(roles, homes, {"W": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "speak", baker_glimpse_chance=1.0)
    e = events(game, "baker_glimpse")[0]
    assert e.audience == frozenset({"K"}) and e.data == {"player": "W"}
    game, _ = village(roles, homes, {"W": {"wolf_kill": [None]}}, until=lambda g, d: d.kind == "speak", baker_glimpse_chance=0.0)
    assert not events(game, "baker_glimpse")


# ----------------------------------------------------------------------------- Arsonist
ARSON = {"W1": "werewolf", "V": "villager", "W2": "werewolf", "R": "arsonist", "A": "villager", "B": "villager", "C": "villager"}
ARSON_HOMES = {"W1": "farmer", "V": "farmer", "W2": "farmer", "R": "vagabond", "A": "schoolmistress", "B": "vagabond", "C": "castellan"}


def test_a_burned_home_is_gone_and_its_occupant_becomes_a_vagabond():
    """000: "the building is permanently removed from the table. Its former occupant is
    not eliminated from the game — they become a Vagabond"."""
    answers = {"W1": {"wolf_kill": ["C"]}, "W2": {"wolf_kill": ["C"]}, "R": {"arsonist_burn": ["A"]}}
    game, _ = village(ARSON, ARSON_HOMES, answers, until=lambda g, d: d.kind == "speak")
    assert data(game, "fire") == [{"player": "A", "building": "schoolmistress", "wolf_burned": False}]
    assert game.by_name["A"].alive and game.by_name["A"].building == "vagabond"
    assert deaths(game) == [("C", 1, "werewolves")]


def test_burning_the_victims_home_burns_the_first_werewolf_to_their_right():
    """000: "If the Arsonist designated the building where that day's Werewolf victim
    lives, the first Werewolf to the right of the victim is eliminated, burned completely
    ... In that case, there is no victim." Seats are clockwise: V's right is W1."""
    answers = {"W1": {"wolf_kill": ["V"]}, "W2": {"wolf_kill": ["V"]}, "R": {"arsonist_burn": ["V"]}}
    game, _ = village(ARSON, ARSON_HOMES, answers, until=lambda g, d: d.kind == "speak")
    assert data(game, "fire") == [{"player": "V", "building": "farmer", "wolf_burned": True}]
    assert deaths(game) == [("W1", 1, "arsonist")]
    assert game.by_name["V"].alive and game.by_name["V"].building == "vagabond"


def test_the_arsonist_burns_once_and_never_a_vagabond():
    answers = {"W1": {"wolf_kill": ["C", "A"]}, "W2": {"wolf_kill": ["C", "A"]}, "R": {"arsonist_burn": [None, "V"]}}
    game, d = village(ARSON, ARSON_HOMES, answers, until=lambda g, d: d.kind == "arsonist_burn")
    assert set(d.options) == {"W1", "V", "W2", "A", "C"}  # every standing home, none of the Vagabonds'
    game, _ = village(ARSON, ARSON_HOMES, answers, until=lambda g, d: g.day == 4)
    assert [a for s, a in asked(game, "arsonist_burn")] == [None, "V"]


# -------------------------------------------------------------------------------- Raven
def test_the_raven_never_posts_on_a_vagabond_but_may_on_the_tavern():
    """000: "The Raven may place the "anonymous poster" on the tavern ... The Raven cannot
    designate any Vagabond"."""
    roles = {"W": "werewolf", "R": "raven", "T": "villager", "V": "villager", "A": "villager"}
    homes = {"W": "farmer", "R": "farmer", "T": "tavernkeeper", "V": "vagabond", "A": "farmer"}
    answers = {"W": {"wolf_kill": [None]}, "R": {"raven_mark": ["T"]}}
    game, d = village(roles, homes, answers, until=lambda g, d: d.kind == "raven_mark")
    assert "V" not in d.options and "T" in d.options
    game, _ = village(roles, homes, answers, until=lambda g, d: g.day == 2)
    assert data(game, "extra_votes") == [{"votes": {"T": 2}}] and deaths(game) == [("T", 1, "vote")]


# ---------------------------------------------------------------------------- game file
def test_the_game_file_gives_buildings_and_the_transcript_keeps_them(tmp_path):
    from arena.gamefile import GameFileError, GameSpec, header_for
    from transcripts.schema import HeaderRecord

    seats = [{"name": n, "role": r, "agent": "heuristic"} for n, r in TAVERN.items()]
    seats[1]["building"] = "tavernkeeper"
    spec = GameSpec.model_validate({"preset": "village", "seed": 4, "seats": seats})
    game, _ = spec.build()
    assert game.by_name["T"].building == "tavernkeeper"
    header = header_for(spec, game)
    assert HeaderRecord.model_validate(header.model_dump()).to_setup().buildings == {"T": "tavernkeeper"}
    seats[1]["building"] = "windmill"
    with pytest.raises(GameFileError, match="unknown building 'windmill'"):
        GameSpec.model_validate({"preset": "village", "seats": seats}).build()


# ------------------------------------------------------------------- heuristics, property
def test_the_heuristic_bot_uses_every_building_power():
    used: Counter = Counter()
    for seed in range(60):
        n = 10 + seed % 8
        opts = get_preset("village").options({"buildings": "box" if seed % 2 else "thirds", "building_handout": "choice" if seed % 3 == 0 else "random"})
        game = Game(GameSetup(names=[f"P{i:02d}" for i in range(n)], preset="village", seed=seed, options=opts))
        agents = {p.name: HeuristicAgent(p.name, seed) for p in game.players}
        for a in agents.values():
            a.strict = True
        while not game.over:
            d = game.waiting[0]
            answer = agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d)
            if answer not in (None, False, ""):
                used[d.kind] += 1
            game.submit(d.id, answer)
    wanted = {
        "building_choice", "confessor_hear", "bonesetter_restore", "barber_shave", "schoolmistress_forbid", "bailiff_assign",
        "vagabond_accept", "castellan_plea", "castellan_pardon", "arsonist_burn", "raven_mark", "sheriff_vote",
    }  # fmt: skip
    assert wanted <= set(used), wanted - set(used)


@pytest.mark.parametrize("start", range(0, 300, 100))
def test_random_village_games_with_buildings_are_sound(start):
    for seed in range(start, start + 100):
        rng = random.Random(f"case:village-buildings:{seed}")
        n = rng.randint(6, 18)
        deck = get_preset("village").deck(n)
        for role in ("raven", "white_werewolf", "arsonist", "witch", "hunter", "cupid", "little_girl"):
            if role not in deck and "villager" in deck and rng.random() < 0.4:
                deck.remove("villager")
                deck.append(role)
        opts = {
            "sheriff": rng.random() < 0.7,
            "last_words": "none",
            "buildings": rng.choice(["first_game", "thirds", "thirds", "box"]),
            "building_handout": rng.choice(["random", "choice"]),
            "baker_glimpse_chance": rng.choice([0.0, 0.5, 1.0]),
        }
        case = Case(seed, [f"P{i:02d}" for i in range(n)], deck, opts, None, "village")
        game, log = play(case)
        check(case, game, log)


def test_the_buildings_also_bind_the_forums_open_vote():
    """The layer works on any preset: on a forum game the Tavernkeeper is still out of
    the vote's reach and the Schoolmistress's pupils do not vote."""
    roles = {"W": "werewolf", "T": "civilian", "S": "civilian", "A": "civilian", "B": "civilian"}
    homes = {"W": "farmer", "T": "tavernkeeper", "S": "schoolmistress", "A": "farmer", "B": "farmer"}
    opts = {"buildings": "listed", "building_tokens": list(homes.values()), "wolves_may_pass": True, "opening_day": False}
    setup = GameSetup(names=list(roles), preset="forum", options=get_preset("forum").options(opts), forced=roles, buildings=homes)
    game = Game(setup)
    answers = {"S": {"schoolmistress_forbid": ["A"]}, "W": {"wolf_kill": [None]}}
    drive(game, agents_for(game, answers), lambda d: d.kind == "vote")
    voters = {x.seat for x in game.waiting if x.kind == "vote"}
    assert voters == {"W", "T", "B"}
    assert all("T" not in x.options for x in game.waiting if x.kind == "vote")

"""Rules tied to a moment, not to a state (issue 41).

A batch hook, a dawn hook, a before-dawn hook, a pardon or a dawn resolver reads the
game's state when the flow calls it; a rule the books tie to a moment ("when", "at the
moment", "同...一起") must act at that moment and not again at a later batch or
morning where the state it left still holds. docs/RULES.md 3.15 ("The moment of each
hook") lists every such hook with the passage that fixes its moment; each test here
plays past that moment and checks the rule does not fire again. (The Idiot dying with
the Elder: tests/test_rules_langrensha.py; the Castellan's single pardon, the Idiot's
single pardon, the Arsonist's single fire: their own rules tests, named in the list.)
"""

from __future__ import annotations

from typing import Any

from engine import Game, GameSetup, get_preset
from helpers import agents_for, asked, best_of_game, data, deaths, drive, events, new_game


# ------------------------------------------------------------------ batch: the Elder's loss
def test_the_elder_takes_the_powers_once_at_his_death():
    """003: "The vote, the poison of the Witch or the shooting of the Hunter kill him
    immediately and deprive the villagers of their special powers for the end of the
    game." A second Elder, himself a villager without his power since the first one's
    death, takes nothing more when the village votes him out the next day."""
    roles = {"E1": "elder", "E2": "elder", "Se": "seer", "W1": "werewolf", **{f"V{i}": "villager" for i in range(1, 5)}}
    votes = {"vote": ["E1", "E2"]}
    answers = {**{v: dict(votes) for v in ("V1", "V2", "V3", "V4", "W1")}, "Se": {**votes, "seer_check": ["W1"]}}
    game = best_of_game(roles, answers, {"max_days": 2})
    assert deaths(game) == [("E1", 1, "vote"), ("E2", 2, "vote")]
    assert data(game, "village_powers_lost") == [{"elder": "E1", "cause": "vote"}]
    assert asked(game, "seer_check") == [("Se", "seer_check", "W1")]  # night 1 only


# ----------------------------------------------------------------- batch and dawn: the Bailiff
BAIL = {"W": "werewolf", "L": "villager", "A": "villager", "V1": "villager", "V2": "villager", "V3": "villager", "B": "villager", "C": "villager"}
BAIL_HOMES = {"W": "farmer", "L": "bailiff", "A": "farmer", "V1": "vagabond", "V2": "vagabond", "V3": "vagabond", "B": "farmer", "C": "farmer"}


def village(answers: dict[str, dict[str, list[Any]]], days: int) -> Game:
    options = {"sheriff": False, "wolves_may_pass": True, "buildings": "listed", "building_tokens": list(BAIL_HOMES.values())}
    setup = GameSetup(
        names=list(BAIL), preset="village", options=get_preset("village").options(options), forced=dict(BAIL), buildings=dict(BAIL_HOMES)
    )
    game = Game(setup)
    drive(game, agents_for(game, answers), lambda d: game.day > days)
    return game


def offers(game: Game) -> list[tuple[int, Any]]:
    return [(e.day, e.data["former"]) for e in events(game, "home_offered")]


def test_a_home_is_freed_once_when_its_occupant_dies():
    """000 The Bailiff: "When a building becomes free, the Bailiff may assign a Vagabond of
    their choice to it." A's farm is freed by A's death on night 1 and offered at dawn 1;
    the deaths of later batches (V1 voted out on day 1, a Vagabond: no home) free nothing
    more, so the farm given at dawn 1 is not offered again."""
    answers = {
        "W": {"wolf_kill": ["A"], "vote": ["V1"]},
        "L": {"bailiff_assign": ["V2"], "vote": ["V1"]},
        "V2": {"vagabond_accept": [True], "vote": ["V1"]},
        **{v: {"vote": ["V1"]} for v in ("B", "C", "V3")},
    }
    game = village(answers, days=2)
    assert deaths(game) == [("A", 1, "werewolves"), ("V1", 1, "vote")]
    assert [a for _s, _k, a in asked(game, "bailiff_assign")] == ["V2"]  # dawn 1 only
    assert offers(game) == [(1, "A")] and [e.day for e in events(game, "moved_in")] == [1]


def test_a_home_not_given_that_morning_is_not_offered_at_a_later_dawn():
    """000: "If several buildings become free on the same morning, this is done for each
    building in turn": the Bailiff's choice is made the morning the home is free. He gives
    A's farm to nobody at dawn 1; at dawn 2 (after B's death on night 2) only B's farm is
    offered."""
    answers = {"W": {"wolf_kill": ["A", "B"]}, "L": {"bailiff_assign": [None, "V1"]}, "V1": {"vagabond_accept": [True]}}
    game = village(answers, days=2)
    assert [a for _s, _k, a in asked(game, "bailiff_assign")] == [None, "V1"]
    assert offers(game) == [(2, "B")]
    assert data(game, "moved_in")[0]["former"] == "B"


# ------------------------------------------------------------------------- dawn: the Bear
def test_the_bear_growls_on_the_morning_s_neighbours_not_an_earlier_one_s():
    """003: "Every morning, after the victims, the leader grunts if at least one of his two
    still alive neighbors is Loup-Garou. The places of the dead no longer count." His wolf
    neighbour voted out on day 1, the bear is silent on the morning of day 2 although a
    wolf still lives elsewhere."""
    roles = {"V1": "villager", "Be": "bear_tamer", "W1": "werewolf", "V2": "villager", "V3": "villager", "V4": "villager", "W2": "werewolf", "V5": "villager"}
    answers = {v: {"vote": ["W1"]} for v in ("V1", "Be", "V2", "V3", "V4", "V5")}
    game = best_of_game(roles, answers, {"max_days": 2})
    assert deaths(game) == [("W1", 1, "vote")]
    assert [(e.day, e.data["growl"]) for e in events(game, "bear_growl")] == [(1, True), (2, False)]


# ------------------------------------------------------------------------ dawn: the Angel
def test_the_angel_becomes_a_villager_once_at_the_end_of_the_first_round():
    """003: "If he survives this first cycle, he becomes simple Villagers." Told once, at the
    dawn of day 1; the later mornings say nothing more, and his death by the vote on day 2
    is no win."""
    roles = {"An": "angel", "W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {v: {"vote": [None, None, "An"]} for v in ("W1", "W2", "V1", "V2", "V3", "V4")}
    game = best_of_game(roles, answers, {"max_days": 3})
    assert [(e.day, e.data["reason"]) for e in events(game, "angel_villager")] == [(1, "first_round")]
    assert deaths(game) == [("An", 2, "vote")] and game.winner != "angel"


# ------------------------------------------------------------------ dawn: the quiet morning
def test_the_humans_win_on_a_morning_without_death_not_on_the_state_alone():
    """004: "the Wolves are confirmed all dead by the remaining Humans waking up in the
    morning to find nobody died the previous night". The last wolf lynched on day 0, the
    Ninja's kill on night 1 makes the first morning no quiet one; the second morning is."""
    roles = {"W": "werewolf", "N": "ninja", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {**{v: {"vote": ["W"]} for v in ("N", "A", "B", "C")}, "N": {"vote": ["W"], "ninja_kill": ["A", None]}}
    game = new_game(roles, {"discussion_rounds": 0, "ghost_notes": False, "last_words": "none"}, preset="forum")
    drive(game, agents_for(game, answers))
    assert deaths(game) == [("W", 0, "vote"), ("A", 1, "ninja")]
    assert game.winner == "village" and game.day == 2
    assert game.end_reason == "a morning without a death, every wolf dead"


# -------------------------------------------------------------- before dawn: the ghost notes
def test_a_night_victim_writes_a_note_once_before_her_own_dawn():
    """004 Ghosts and Notes, Article 4: "If you are going to be nightkilled ... your note
    must be authored and PM'ed to me before that Night's deadline." Only that night's
    victims write before its dawn: A (night 1) is asked once, and not again before the
    dawn of night 2, when B writes hers."""
    roles = {"W": "werewolf", "A": "civilian", "B": "civilian", "C": "civilian", "D": "civilian", "E": "civilian"}
    answers = {
        "W": {"wolf_kill": ["A", "B"]},
        "A": {"ghost_note": ["a"], "ghost_note_delivery": ["public"]},
        "B": {"ghost_note": ["b"], "ghost_note_delivery": ["public"]},
    }
    game = new_game(roles, {"discussion_rounds": 0, "ghost_notes": True, "last_words": "none", "phantom_votes": False, "max_days": 2}, preset="forum")
    drive(game, agents_for(game, answers))
    assert [(seat, text) for seat, _k, text in asked(game, "ghost_note")] == [("A", "a"), ("B", "b")]
    assert [(e.day, e.data["author"]) for e in events(game, "ghost_note")] == [(1, "A"), (2, "B")]


# ---------------------------------------------------------------- pardon: the Tavernkeeper
def test_the_tavernkeeper_keeps_his_token_for_an_earlier_days_vote():
    """000: "If he has voted against someone who ends up eliminated (even pardoned), he loses
    his immunity and his token." He voted against A on day 1 (B was eliminated); on day 2
    the Schoolmistress forbids him to vote and the village eliminates A: his day-1 vote
    costs him nothing."""
    roles = {"W": "werewolf", "T": "villager", "S": "villager", "A": "villager", "B": "villager", "C": "villager", "D": "villager"}
    homes = {"W": "farmer", "T": "tavernkeeper", "S": "schoolmistress", "A": "farmer", "B": "farmer", "C": "farmer", "D": "farmer"}
    answers = {
        "T": {"vote": ["A"]},
        "S": {"schoolmistress_forbid": [None, "T", None]},
        **{v: {"vote": ["B", "A"]} for v in ("W", "C", "D")},
        "A": {"vote": ["B", "C"]},
        "B": {"vote": ["A"]},
    }
    options = {"sheriff": False, "wolves_may_pass": True, "buildings": "listed", "building_tokens": list(homes.values())}
    setup = GameSetup(names=list(roles), preset="village", options=get_preset("village").options(options), forced=roles, buildings=homes)
    game = Game(setup)
    drive(game, agents_for(game, answers), lambda d: game.day > 2)
    assert deaths(game) == [("B", 1, "vote"), ("A", 2, "vote")]
    assert data(game, "forbidden")[-1]["players"] == ["T"]
    assert game.by_name["T"].token and not events(game, "token_returned")


# ------------------------------------------------------------- dawn resolver: the Protector
def test_last_nights_guard_saves_nobody_tonight():
    """001 zh: "守护者（1人）：每晚可以守护一个人，该人不会被狼人杀害" -- each night's guard is that
    night's: V1, guarded on night 1, is devoured on night 2 while the guard watches V2."""
    roles = {"Gu": "protector", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {"Gu": {"protector_guard": ["V1", "V2"]}, "W1": {"wolf_kill": ["V1", "V1"]}}
    game = new_game(roles, {"max_days": 2, "last_words": "none"}, preset="langrensha")
    drive(game, agents_for(game, answers))
    assert deaths(game) == [("V1", 2, "werewolves")]

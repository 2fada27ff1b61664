"""Victory (000 "Victory Conditions"; 001 en "VICTORY CONDITIONS").

000: "The Villagers win if they eliminate the last Werewolf. The Werewolves win if they
eliminate the last Villager. Special case: if the Lovers are 1 Werewolf + 1 Villager,
they win as soon as all the other players are eliminated." 001 en: "The Villagers win,
as soon as the last werewolf is eliminated. The werewolves win, as soon as the second
last villager dies" (option wolves_win_at_parity).
"""

from __future__ import annotations

from helpers import asked, data, deaths, public, scripted_game

WINNERS = {"village", "werewolves", "lovers", "none"}


def test_village_wins_the_moment_the_last_wolf_dies_at_dawn():
    """The poisoned last Werewolf dies at dawn: the game ends before any debate or vote."""
    roles = {"Witch": "witch", "W1": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}, "Witch": {"witch_poison": ["W1"]}})
    assert game.winner == "village"
    assert deaths(game) == [("Ann", 1, "werewolves"), ("W1", 1, "poison")]
    assert asked(game, "vote") == [] and asked(game, "speak") == []
    assert sorted(game.winners) == ["Ann", "Bob", "Witch"], "a camp wins with its dead"
    end = game.events[-1]
    assert end.kind == "game_end" and end.data["winner"] == "village"


def test_village_wins_by_the_vote():
    roles = {"W1": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}, "Bob": {"vote": ["W1"]}, "Cat": {"vote": ["W1"]}})
    assert game.winner == "village"
    assert deaths(game)[-1] == ("W1", 1, "vote")
    assert game.day == 1


def test_werewolves_win_when_the_last_villager_dies():
    roles = {"W1": "werewolf", "W2": "werewolf", "Ann": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}, "W2": {"wolf_kill": ["Ann"]}})
    assert game.winner == "werewolves"
    assert sorted(game.winners) == ["W1", "W2"]


def test_dead_wolves_share_the_werewolves_win():
    roles = {"W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(
        roles,
        {"W1": {"wolf_kill": ["Ann", "Bob"], "vote": ["W2"]}, "W2": {"wolf_kill": ["Ann"]}, "Bob": {"vote": ["W2"]}},
    )
    assert deaths(game) == [("Ann", 1, "werewolves"), ("W2", 1, "vote"), ("Bob", 2, "werewolves")]
    assert game.winner == "werewolves"
    assert sorted(game.winners) == ["W1", "W2"]


def test_the_game_goes_on_at_parity_by_default():
    """000/002: the Werewolves win when they eliminate the *last* Villager."""
    roles = {"W1": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann", "Bob"]}})
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Bob", 2, "werewolves")]
    assert game.winner == "werewolves" and game.day == 2


def test_option_wolves_win_at_parity():
    """001 en: "The werewolves win, as soon as the second last villager dies"."""
    roles = {"W1": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}}, {"wolves_win_at_parity": True})
    assert deaths(game) == [("Ann", 1, "werewolves")]
    assert game.winner == "werewolves" and game.day == 1
    assert asked(game, "vote") == []


def test_the_second_last_villager_read_to_the_letter():
    """001 en: "The werewolves win, as soon as the second last villager dies": one
    non-wolf left (``wolves_win_when: one_villager_left``). At 2 wolves against 2
    villagers parity ends the game and this reading does not."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager", "Cy": "villager"}
    answers = {w: {"wolf_kill": ["Ann", "Bob"], "vote": [None]} for w in ("W1", "W2")}
    game = scripted_game(roles, answers, {"wolves_win_at_parity": True})
    assert game.winner == "werewolves" and game.day == 1 and deaths(game) == [("Ann", 1, "werewolves")]
    game = scripted_game(roles, answers, {"wolves_win_when": "one_villager_left"})
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Bob", 2, "werewolves")]
    assert game.winner == "werewolves" and game.day == 2 and game.by_name["Cy"].alive
    assert game.end_reason == "the second last villager is dead"


def test_more_than_half_of_the_living():
    """001 zh: "如果任一阵营的玩家数量占据了游戏人数的一半以上，则该阵营获胜" -- the wolves'
    side: 2 wolves against 2 villagers is half, not more; 2 against 1 is more."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Ann": "villager", "Bob": "villager", "Cy": "villager"}
    answers = {w: {"wolf_kill": ["Ann", "Bob"], "vote": [None]} for w in ("W1", "W2")}
    game = scripted_game(roles, answers, {"wolves_win_when": "more_than_half"})
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Bob", 2, "werewolves")]
    assert game.winner == "werewolves" and game.end_reason == "the werewolves are more than half of the living"


def test_nobody_left_alive_means_no_winner():
    """The last Werewolf and the last Villager die in the same dawn: nobody is left."""
    roles = {"W1": "werewolf", "Witch": "witch", "Ann": "villager"}
    game = scripted_game(
        roles,
        {
            "W1": {"wolf_kill": ["Ann", "Witch"], "vote": ["Witch"]},
            "Witch": {"witch_poison": [None, "W1"], "vote": ["W1"]},
        },
    )
    # night 1 Ann dies; day 1 is a 1-1 tie twice (no elimination); night 2 both die at dawn
    assert deaths(game) == [("Ann", 1, "werewolves"), ("Witch", 2, "werewolves"), ("W1", 2, "poison")]
    assert game.winner == "none"
    assert game.winners == []


def test_victory_is_checked_after_every_batch_of_deaths():
    """The Hunter's shot is its own batch: the wolves' dawn kill does not end the game,
    his shot at the last Werewolf does, before the day starts."""
    roles = {"Hunt": "hunter", "W1": "werewolf", "Ann": "villager", "Bob": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Hunt"]}, "Hunt": {"hunter_shot": ["W1"]}})
    assert game.winner == "village"
    assert "day_start" not in [e.kind for e in game.events]


def test_the_end_is_announced_with_every_card():
    roles = {"W1": "werewolf", "Ann": "villager", "Bob": "villager", "Cat": "villager"}
    game = scripted_game(roles, {"W1": {"wolf_kill": ["Ann"]}, "Bob": {"vote": ["W1"]}, "Cat": {"vote": ["W1"]}})
    [end] = data(game, "game_end")
    assert end["winner"] == "village" and sorted(end["winners"]) == ["Ann", "Bob", "Cat"]
    assert end["roles"] == roles
    assert public(game)[-1].kind == "game_end"
    assert game.winner in WINNERS

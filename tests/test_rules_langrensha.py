"""狼人杀 (001 zh): the preset, the Idiot, the Guard, the Witch's two readings, the
Sheriff who voids a tie, last words and the variants.

Guard: "每晚可以守护一个人，该人不会被狼人杀害（但仍然可以被女巫毒死）。可以守护自己，但是不能
连续2天晚上守护同一个人。" Variant 10: "守卫只能保护自己，或者他左右手的两名玩家中的一个。"
Witch: "女巫只有一次使用的机会" / "女巫每局只能有一次机会用药" against "拥有一瓶解药和一瓶毒药".
Sheriff: "村长有双倍投票的功能（即一票算两票）。在平票时由他决定选哪一个，也可以决定废票。"
Lycanthropic Fascination: "该玩家并不会死掉，而是被催眠，失去他原有的能力（和普通村民无异）".
"In any case it surely isn't him": "如果被抛弃着死去，则欺骗者、第三者都不会死。如果欺骗者死去，
则被抛弃者、第三者都会死去。如果第三者死去则只有欺骗者死去。被抛弃者可以不投票给欺骗者，也可以
投。欺骗者和第三者，不得互相投票。"
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalAnswer, get_preset
from engine.events import PUBLIC
from helpers import agents_for, asked, data, deaths, drive, events, new_game


# A pack without a scripted victim kills nobody (as ``helpers.best_of_game`` lets it pass),
# so a script names only what its rule needs; the preset's own price for a silent pack
# (``wolves_silent: starve``) is tested on its own.
QUIET_PACK = {"wolves_silent": "no_kill"}


def play(roles, answers=None, options=None):
    game = new_game(roles, {**QUIET_PACK, **(options or {})}, preset="langrensha")
    drive(game, agents_for(game, answers))
    return game


# ------------------------------------------------------------------------------ the preset
def test_the_twelve_player_table_most_played_today():
    assert Counter(get_preset("langrensha").deck(12)) == Counter(
        {"werewolf": 4, "seer": 1, "witch": 1, "hunter": 1, "idiot": 1, "villager": 4}
    )
    assert Counter(get_preset("langrensha").deck(9)) == Counter({"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "villager": 3})


def test_the_preset_defaults_seed_and_common_practice():
    o = get_preset("langrensha").options()
    assert o.sheriff and o.sheriff_double_vote and o.sheriff_tiebreak == "choose" and o.sheriff_tiebreak_may_void
    assert not o.reveal_role_on_death and o.last_words == "first_night_and_vote"
    assert o.witch_self_heal and o.witch_self_poison and not o.witch_self_heal_first_night_only and not o.witch_single_potion
    assert o.hunter_may_pass and o.wolves_may_pass and o.wolves_silent == "starve"
    assert not o.wolves_win_at_parity and not o.wolves_win_side


def test_cards_stay_hidden_at_death():
    roles = {"W1": "werewolf", "V1": "villager", "V2": "villager", "Se": "seer"}
    game = play(roles, {"W1": {"wolf_kill": ["V1"]}, "Se": {"seer_check": ["W1"]}}, {"max_days": 1})
    assert data(game, "death")[0] == {"player": "V1", "cause": "werewolves"}


# ------------------------------------------------------------------------------ the Idiot
IDIOT = {"Id": "idiot", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_the_idiot_voted_out_is_revealed_survives_and_loses_his_vote():
    answers = {**{v: {"vote": ["Id"]} for v in ("W1", "V1", "V2")}, "Id": {"vote": ["W1", "W1"]}}
    game = play(IDIOT, answers, {"max_days": 2, "last_words": "none"})
    [rev] = events(game, "idiot_revealed")
    assert rev.audience == PUBLIC and rev.data == {"player": "Id", "role": "idiot"}
    assert "Id" not in {d[0] for d in deaths(game)} and not events(game, "eliminated")
    day2 = [e for e in events(game, "vote_result") if e.day == 2]
    assert day2 and all("Id" not in e.data["votes"] for e in day2)
    assert "Id" in game.voteless


def test_the_pardon_works_once():
    answers = {v: {"vote": ["Id", "Id"]} for v in ("W1", "V1", "V2")}
    game = play(IDIOT, answers, {"max_days": 2, "last_words": "none"})
    assert ("Id", 2, "vote") in deaths(game)


# ------------------------------------------------------------------------------ the Guard
GUARD = {"Gu": "protector", "W1": "werewolf", "Wi": "witch", "V1": "villager", "V2": "villager", "V3": "villager"}


def test_the_guarded_player_survives_the_wolves_not_the_poison():
    answers = {"Gu": {"protector_guard": ["V1"]}, "W1": {"wolf_kill": ["V1"]}, "Wi": {"witch_poison": ["V1"]}}
    game = play(GUARD, answers, {"max_days": 1, "last_words": "none"})
    assert deaths(game) == [("V1", 1, "poison")]
    assert events(game, "protector_guard")[0].audience == frozenset({"Gu"})
    game = play(GUARD, {"Gu": {"protector_guard": ["V1"]}, "W1": {"wolf_kill": ["V1"]}}, {"max_days": 1})
    assert deaths(game) == [] and data(game, "no_death")


def test_never_the_same_player_two_nights_running_himself_allowed():
    game = new_game(GUARD, {"last_words": "none"}, preset="langrensha")
    agents = agents_for(game, {"Gu": {"protector_guard": ["Gu"]}, "W1": {"wolf_kill": ["V3"]}})
    d = drive(game, agents, until=lambda d: d.kind == "protector_guard" and game.day == 2)
    assert "Gu" not in d.options and "V1" in d.options and d.context["last"] == "Gu"
    with pytest.raises(IllegalAnswer):
        game.submit(d.id, "Gu")


def test_variant_himself_or_a_neighbour_only():
    game = new_game(GUARD, {"protector_neighbours_only": True}, preset="langrensha")
    d = drive(game, agents_for(game, {}), until=lambda d: d.kind == "protector_guard")
    assert set(d.options) == {"Gu", "W1", "V3"}


def test_guarded_and_healed_the_same_night():
    answers = {"Gu": {"protector_guard": ["V1"]}, "W1": {"wolf_kill": ["V1"]}, "Wi": {"witch_heal": [True]}}
    assert deaths(play(GUARD, answers, {"max_days": 1})) == []
    game = play(GUARD, answers, {"max_days": 1, "protector_heal_clash": True, "last_words": "none"})
    assert deaths(game) == [("V1", 1, "werewolves")]


def test_an_attack_the_guard_stops_costs_the_elder_no_life():
    """The Elder's lives answer only to the attacks a guard did not stop (the Protector's
    ``Shielded``): guarded on night 1 he keeps both; unguarded on night 2 he loses one."""
    roles = {"Gu": "protector", "El": "elder", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"Gu": {"protector_guard": ["El", "V1"]}, "W1": {"wolf_kill": ["El", "El"]}}
    game = play(roles, answers, {"max_days": 2, "sheriff": False, "last_words": "none"})
    assert data(game, "elder_life") == [{"player": "El", "lives": 1}]
    assert game.by_name["El"].alive and not [d for d in deaths(game) if d[0] == "El"]


# ------------------------------------------------------------------------------ the Witch
WITCH = {"Wi": "witch", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}


def test_one_potion_in_the_whole_game():
    answers = {"W1": {"wolf_kill": ["V1", "V2"]}, "Wi": {"witch_heal": [True], "witch_poison": ["W1"]}}
    game = new_game(WITCH, {"witch_single_potion": True, "last_words": "none"}, preset="langrensha")
    d = drive(game, agents_for(game, answers), until=lambda d: d.kind == "witch_poison")
    assert d.options == () and d.context["unavailable"] == "the Witch has already used her one potion"
    game = play(WITCH, answers, {"last_words": "none", "max_days": 2})
    assert data(game, "witch_poisoned") == [{"target": "W1"}]  # one of each, the default


def test_her_poison_may_kill_any_living_person_herself_included():
    """001 zh: "另一种是毒药，可以杀死任意一个活着的人" -- any living person, the Witch too
    (``witch_self_poison``). 003 names herself for the cure only ("a cure saves a person,
    including himself"; "The poison eliminates a person of his choice"): not in ``best_of``."""
    game = new_game(WITCH, {"last_words": "none"}, preset="langrensha")
    d = drive(game, agents_for(game, {"W1": {"wolf_kill": ["V1"]}}), until=lambda d: d.kind == "witch_poison")
    assert "Wi" in d.options
    game = play(WITCH, {"W1": {"wolf_kill": ["V1"]}, "Wi": {"witch_poison": ["Wi"]}}, {"last_words": "none", "max_days": 1})
    assert deaths(game) == [("V1", 1, "werewolves"), ("Wi", 1, "poison")]
    assert not get_preset("best_of").options().witch_self_poison


def test_she_heals_herself_on_any_night():
    """001, its English part: "The witch may use her potion to her advantage and heal
    herself" -- on no particular night; 女巫仅首夜可自救 (only the first night) is today's
    practice, the option ``witch_self_heal_first_night_only``."""
    answers = {"W1": {"wolf_kill": ["V1", "Wi"]}, "Wi": {"witch_heal": [False, True]}}
    game = play(WITCH, answers, {"last_words": "none", "max_days": 2})
    assert not get_preset("langrensha").options().witch_self_heal_first_night_only
    assert data(game, "witch_healed") == [{"target": "Wi"}]
    assert deaths(game) == [("V1", 1, "werewolves")] and game.by_name["Wi"].alive
    game = new_game(WITCH, {"last_words": "none", "witch_self_heal_first_night_only": True}, preset="langrensha")
    d = drive(game, agents_for(game, answers), until=lambda d: d.kind == "witch_heal" and game.day == 2)
    assert d.options == (False,) and d.context["unavailable"] == "the Witch may heal herself only on the first night"


# ------------------------------------------------------------------------------ the pack
def test_a_pack_that_names_nobody_dies_of_hunger():
    """001, its English part: "They can eventually decide not to pen their eyes and not to
    select a victim ... If no werewolves open their eyes, they die of hunger and the
    villagers win." A pack may name nobody (``wolves_may_pass``), at that price."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    game = new_game(roles, {"last_words": "none"}, preset="langrensha")
    d = drive(game, agents_for(game, {"Se": {"seer_check": ["W1"]}}), until=lambda d: d.kind == "wolf_kill")
    assert d.allow_pass and d.context["silent"] == "starve"
    game = new_game(roles, {"last_words": "none"}, preset="langrensha")
    drive(game, agents_for(game, {"Se": {"seer_check": ["W1"]}}))
    assert sorted(deaths(game)) == [("W1", 1, "hunger"), ("W2", 1, "hunger")]
    assert game.winner == "village" and game.day == 1


# ------------------------------------------------------------------------------ the Little Girl
def test_a_caught_little_girl_dies_instead_of_the_selected_victim():
    """001, its English part, twice: "otherwise she will be killed immediately by the
    werewolves instead of the other victim"; "If she gets caught, she will be killed
    immediately instead of the selected victim." The pack is not asked again."""
    roles = {"W1": "werewolf", "Lg": "little_girl", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"W1": {"wolf_kill": ["V1"]}, "Lg": {"little_girl_spy": [True]}}
    game = play(roles, answers, {"max_days": 1, "last_words": "none", "little_girl_catch_chance": 1.0})
    assert get_preset("langrensha").options().little_girl_caught == "dies"
    assert data(game, "little_girl_caught") == [{"player": "Lg"}]
    assert deaths(game) == [("Lg", 1, "werewolves")] and game.by_name["V1"].alive
    assert not asked(game, "wolf_kill")


# ------------------------------------------------------------------------------ the Sheriff
def test_the_sheriff_may_void_a_tied_vote():
    roles = {"W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {
        "V1": {"sheriff_vote": ["V2"], "vote": [None], "sheriff_tiebreak": [None]},
        "V2": {"sheriff_vote": ["V1"], "vote": ["W1"]},
        "V3": {"sheriff_vote": ["V1"], "vote": ["W1"]},
        "V4": {"sheriff_vote": ["V1"], "vote": ["V3"]},
        "W1": {"sheriff_vote": ["V1"], "vote": ["V3"]},
    }
    game = play(roles, answers, {"max_days": 1, "sheriff": True})
    assert data(game, "sheriff_elected")[0]["player"] == "V1"
    assert asked(game, "sheriff_tiebreak") == [("V1", "sheriff_tiebreak", None)]
    assert data(game, "tie_broken") == [{"by": "V1", "target": None, "rule": "choose"}]
    assert not [d for d in deaths(game) if d[2] == "vote"]


# ------------------------------------------------------------------------------ last words
def test_last_words_for_the_first_nights_victims_and_the_voted_out():
    roles = {"W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager", "V5": "villager"}
    answers = {
        "W1": {"wolf_kill": ["V1", "V3"], "vote": ["V2"]},
        "W2": {"wolf_kill": ["V1", "V3"]},
        "V1": {"speak": ["I was a villager"]},
        "V2": {"speak": ["", "farewell"]},
        "V4": {"vote": ["V2"]},
        "V5": {"vote": ["V2"]},
    }
    game = play(roles, answers, {"max_days": 2, "sheriff": False})
    words = [e for e in events(game, "speech") if e.data.get("last_words")]
    assert [(e.data["speaker"], e.day) for e in words] == [("V1", 1), ("V2", 1)]
    assert words[0].data["text"] == "I was a villager" and words[0].audience == PUBLIC
    # the second night's victim has none
    assert ("V3", 2, "werewolves") in deaths(game) and len(words) == 2


# ------------------------------------------------------------------------------ variants
def test_lycanthropic_fascination_hypnotises_instead_of_killing():
    roles = {"W1": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"W1": {"wolf_kill": ["Se"]}, "Se": {"seer_check": ["W1"]}}
    game = play(roles, answers, {"max_days": 2, "wolves_hypnotise": True})
    assert deaths(game) == []
    [h] = events(game, "hypnotised")
    assert h.audience == frozenset({"Se"}) and game.by_name["Se"].powerless
    assert asked(game, "seer_check") == [("Se", "seer_check", "W1")]  # night 2: no eyes open


def test_a_hypnotised_elder_voted_out_takes_no_power():
    """Lycanthropic Fascination: the hypnotised "失去他原有的能力（和普通村民无异）" -- an Elder
    hypnotised on night 1 is a plain villager: voted out, he takes nobody's power and
    the Idiot revealed before him does not die with him."""
    roles = {"W1": "werewolf", "El": "elder", "Id": "idiot", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {
        "W1": {"wolf_kill": ["El"], "vote": ["Id", "El"]},
        "Se": {"seer_check": ["W1", "W1"], "vote": ["Id", "El"]},
        **{v: {"vote": ["Id", "El"]} for v in ("V1", "V2", "V3")},
    }
    game = play(roles, answers, {"max_days": 2, "last_words": "none", "wolves_hypnotise": True})
    assert data(game, "hypnotised") == [{"player": "El"}]
    assert data(game, "idiot_revealed") == [{"player": "Id", "role": "idiot"}]
    assert deaths(game) == [("El", 2, "vote")] and game.by_name["Id"].alive
    assert not events(game, "village_powers_lost") and not game.by_name["Se"].powerless


def test_in_any_case_it_surely_isnt_him_the_chain_of_deaths():
    roles = {"Cu": "cupid", "A": "villager", "B": "villager", "P": "villager", "W1": "werewolf", "V1": "villager", "V2": "villager"}
    base = {"Cu": {"cupid_lovers": [["A", "B"]], "cupid_deceiver": ["A"], "cupid_paramour": ["P"]}}
    opts = {"cupid_second_pair": True, "max_days": 1, "last_words": "none"}
    # the paramour dies: "只有欺骗者死去", only the deceiver follows (not, through him, the abandoned one)
    game = play(roles, {**base, "W1": {"wolf_kill": ["P"]}}, opts)
    assert deaths(game) == [("P", 1, "werewolves"), ("A", 1, "grief")]
    assert game.by_name["B"].alive
    assert data(game, "cupid_paramours") == [{"deceiver": "A", "paramour": "P", "abandoned": "B"}]
    assert [e.audience for e in events(game, "paramours")] == [frozenset({"A"}), frozenset({"P"})]
    # the abandoned one dies: nobody follows
    game = play(roles, {**base, "W1": {"wolf_kill": ["B"]}}, opts)
    assert deaths(game) == [("B", 1, "werewolves")]
    # the deceiver dies: the abandoned one and the paramour follow
    game = play(roles, {**base, "W1": {"wolf_kill": ["A"]}}, opts)
    assert deaths(game) == [("A", 1, "werewolves"), ("B", 1, "grief"), ("P", 1, "grief")]


def test_in_any_case_it_surely_isnt_him_who_may_vote_whom():
    roles = {"Cu": "cupid", "A": "villager", "B": "villager", "P": "villager", "W1": "werewolf", "V1": "villager"}
    answers = {"Cu": {"cupid_lovers": [["A", "B"]], "cupid_deceiver": ["A"], "cupid_paramour": ["P"]}, "W1": {"wolf_kill": ["V1"]}}
    game = new_game(roles, {"cupid_second_pair": True, "sheriff": False, "last_words": "none"}, preset="langrensha")
    agents = agents_for(game, answers)
    drive(game, agents, until=lambda d: d.kind == "vote")
    legal = {d.seat: set(d.options) for d in game.waiting if d.kind == "vote"}
    assert "A" in legal["B"]  # the abandoned one may vote against the deceiver
    assert "P" not in legal["A"] and "B" not in legal["A"]  # the deceiver: neither of them
    assert "A" not in legal["P"]  # the paramour: not the deceiver


def test_the_wolves_win_by_clearing_a_side_when_the_option_is_on():
    roles = {"W1": "werewolf", "W2": "werewolf", "Se": "seer", "Hu": "hunter", "V1": "villager", "V2": "villager", "V3": "villager"}
    answers = {"W1": {"wolf_kill": ["Se", "Hu"]}, "W2": {"wolf_kill": ["Se", "Hu"]}, "Hu": {"hunter_shot": [None]}}
    answers["Se"] = {"seer_check": ["W1"]}
    game = play(roles, answers, {"wolves_win_side": True, "last_words": "none", "sheriff": False})
    assert game.winner == "werewolves" and game.end_reason == "a whole side of the village is dead"
    assert game.day == 2 and game.by_name["V1"].alive


def test_the_thief_and_the_piper_play_in_langrensha():
    roles = {"Th": "thief", "W1": "werewolf", "Pi": "pied_piper", "V1": "villager", "V2": "villager"}
    answers = {"Th": {"thief_swap": ["seer"], "seer_check": ["W1"]}, "W1": {"wolf_kill": ["V1"]}, "Pi": {"pied_piper_charm": [["V2", "W1"]]}}
    game = new_game(roles, {"max_days": 1, "last_words": "none"}, preset="langrensha", center=["seer", "villager"])
    drive(game, agents_for(game, answers))
    assert game.by_name["Th"].role == "seer" and data(game, "seer_result")[0]["target"] == "W1"
    assert game.winner == "none"  # the day limit: the Piper has not charmed the Thief


# ------------------------------------------------------------------------------ the Elder
ELDER = {"El": "elder", "Id": "idiot", "Se": "seer", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}


def test_the_elder_takes_only_the_listed_powers():
    """001 zh: "村里的特殊身份（猎人，守护者，女巫，先知）将全部失去他们的能力" -- the Seer loses
    hers; the Idiot, not on the list, keeps his pardon (``elder_loss_roles: listed``)."""
    answers = {
        **{v: {"vote": ["El", "Id"]} for v in ("W1", "V1", "V2", "V3")},
        "Se": {"seer_check": ["W1"], "vote": ["El", "Id"]},
        "W1": {"vote": ["El", "Id"], "wolf_kill": ["V1", "V2"]},
    }
    game = play(ELDER, answers, {"max_days": 2, "last_words": "none", "sheriff": False})
    [lost] = events(game, "village_powers_lost")
    assert lost.audience == PUBLIC and lost.data == {"elder": "El", "cause": "vote", "roles": ["hunter", "protector", "witch", "seer"]}
    assert game.by_name["Se"].powerless and not game.by_name["Id"].powerless
    assert asked(game, "seer_check") == [("Se", "seer_check", "W1")]  # night 1 only
    assert data(game, "idiot_revealed") == [{"player": "Id", "role": "idiot"}]  # day 2: pardoned
    assert game.by_name["Id"].alive


def test_the_wider_rule_of_the_other_books_takes_every_power():
    answers = {
        **{v: {"vote": ["El", "Id"]} for v in ("W1", "V1", "V2", "V3", "Se")},
        "Se": {"seer_check": ["W1"], "vote": ["El", "Id"]},
        "W1": {"vote": ["El", "Id"], "wolf_kill": ["V1", "V2"]},
    }
    game = play(ELDER, answers, {"max_days": 2, "last_words": "none", "sheriff": False, "elder_loss_roles": "all"})
    assert data(game, "village_powers_lost") == [{"elder": "El", "cause": "vote"}]
    assert game.by_name["Id"].powerless and not events(game, "idiot_revealed")
    assert ("Id", 2, "vote") in deaths(game)


# 001 zh: "当长老不是被狼人杀死的（即死于女巫，猎人，村民投票）的时候，村里的特殊身份（猎人，守护者，
# 女巫，先知）将全部失去他们的能力。白痴如果已经揭开身份，则将同长老一起死去。" -- an Idiot already
# revealed when the Elder dies dies together with him: a moment, the Elder's death, not every
# later death once the powers are gone.
ELDER_AND_IDIOT = {"El": "elder", "Id": "idiot", "Se": "seer", "W1": "werewolf", **{f"V{i}": "villager" for i in range(1, 5)}}


def _elder_and_idiot(first: str, second: str, loss: str):
    """Day 1 the village votes out ``first``, day 2 ``second``; on night 3 the pack kills V1."""
    votes = {"vote": [first, second]}
    answers = {
        **{v: dict(votes) for v in ("V1", "V2", "V3", "V4")},
        "Se": {**votes, "seer_check": ["W1"] * 3},
        "W1": {**votes, "wolf_kill": [None, None, "V1"]},
    }
    return play(ELDER_AND_IDIOT, answers, {"max_days": 3, "last_words": "none", "elder_loss_roles": loss})


@pytest.mark.parametrize("loss", ["listed", "all"])
def test_the_idiot_revealed_before_dies_with_the_elder_and_only_then(loss):
    """"白痴如果已经揭开身份，则将同长老一起死去": revealed on day 1, he dies in the Elder's batch
    on day 2 (both readings of the Elder's list); the night 3 victim dies alone."""
    game = _elder_and_idiot("Id", "El", loss)
    assert data(game, "idiot_revealed") == [{"player": "Id", "role": "idiot"}]
    assert deaths(game) == [("El", 2, "vote"), ("Id", 2, "with_elder"), ("V1", 3, "werewolves")]


def test_an_idiot_revealed_after_the_elders_death_lives_on():
    """``elder_loss_roles: listed`` (the seed's list does not name him): the Elder voted out on
    day 1, the Idiot keeps his pardon, is voted out and revealed on day 2, and the deaths of
    night 3 do not take him: he was not "已经揭开身份" when the Elder died."""
    game = _elder_and_idiot("El", "Id", "listed")
    assert data(game, "idiot_revealed") == [{"player": "Id", "role": "idiot"}]
    assert deaths(game) == [("El", 1, "vote"), ("V1", 3, "werewolves")]
    assert game.by_name["Id"].alive and "Id" in game.voteless


def test_under_the_wider_rule_the_idiot_unrevealed_at_the_elders_death_has_no_pardon_left():
    """``elder_loss_roles: all`` (003: "deprive the villagers of their special powers"): not
    revealed when the Elder died, he is not killed with him but loses his pardon; voted out on
    day 2 he dies by the vote, and nobody dies ``with_elder`` later."""
    game = _elder_and_idiot("El", "Id", "all")
    assert not events(game, "idiot_revealed")
    assert deaths(game) == [("El", 1, "vote"), ("Id", 2, "vote"), ("V1", 3, "werewolves")]


def test_one_execution_decides_the_game():
    """001 zh: "若处决的玩家为狼人，则好人阵营获胜，反之则狼人阵营获胜" (``one_execution``)."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    wolves = {w: {"wolf_kill": ["V4"]} for w in ("W1", "W2")}
    opts = {"one_execution": True, "last_words": "none", "sheriff": False}
    village_votes = {v: {"vote": ["W1"]} for v in ("Se", "V1", "V2", "V3")}
    game = play(roles, {**wolves, **village_votes, "Se": {"seer_check": ["W1"], "vote": ["W1"]}}, opts)
    assert game.winner == "village" and game.day == 1 and game.by_name["W2"].alive
    assert game.end_reason == "the one execution struck a werewolf"
    wrong = {v: {"vote": ["V1"]} for v in ("Se", "V2", "V3", "W1", "W2")}
    game = play(roles, {**{w: {**wolves[w], **wrong[w]} for w in wolves}, **wrong, "Se": {"seer_check": ["W1"], "vote": ["V1"]}}, opts)
    assert game.winner == "werewolves" and game.day == 1 and ("V1", 1, "vote") in deaths(game)
    assert sorted(game.winners) == ["W1", "W2"]


# ------------------------------------------------------------------------------ the Sheriff's candidacy (practice)
CANDIDACY = {"Se": "seer", "W1": "werewolf", "W2": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
CANDIDACY_OPTS = {"sheriff": True, "sheriff_candidacy": True, "max_days": 1, "last_words": "none"}


def test_candidates_run_speak_withdraw_and_the_others_vote():
    """Today's 狼人杀 practice: 上警, the candidates' speeches, 退水, 警下 votes."""
    answers = {
        "Se": {"sheriff_run": [True], "sheriff_withdraw": [False], "seer_check": ["W1"]},
        "W1": {"sheriff_run": [True], "sheriff_withdraw": [True], "wolf_kill": ["V4"]},
        "W2": {"sheriff_vote": ["Se"], "wolf_kill": ["V4"]},
        "V1": {"sheriff_run": [True], "sheriff_withdraw": [False]},
        "V2": {"sheriff_vote": ["Se"]},
        "V3": {"sheriff_vote": ["V1"]},
    }
    game = play(CANDIDACY, answers, CANDIDACY_OPTS)
    assert data(game, "sheriff_candidates") == [{"candidates": ["Se", "W1", "V1"]}]
    campaign = [e.data["speaker"] for e in events(game, "speech") if e.phase == "campaign"]
    assert campaign == ["Se", "W1", "V1"]  # the candidates only
    assert data(game, "sheriff_withdrawn") == [{"players": ["W1"], "candidates": ["Se", "V1"]}]
    [votes] = data(game, "sheriff_votes")
    assert set(votes["votes"]) == {"W2", "V2", "V3"}  # the stage does not vote (V4 died in the night)
    assert game.sheriff == "Se"


def test_a_lone_candidate_is_elected_and_nobody_running_loses_the_badge():
    answers = {"W1": {"wolf_kill": ["V4"]}, "W2": {"wolf_kill": ["V4"]}, "V1": {"sheriff_run": [True]}, "Se": {"seer_check": ["W1"]}}
    game = play(CANDIDACY, answers, CANDIDACY_OPTS)
    assert data(game, "sheriff_elected") == [{"player": "V1", "by_lot": False, "unopposed": True}]
    assert not events(game, "sheriff_votes")
    answers = {"W1": {"wolf_kill": ["V4", None]}, "W2": {"wolf_kill": ["V4", None]}, "Se": {"seer_check": ["W1", "W2"]}}
    game = play(CANDIDACY, answers, {**CANDIDACY_OPTS, "max_days": 2})
    assert data(game, "sheriff_candidates")[0] == {"candidates": []} and game.sheriff is None
    assert len(events(game, "sheriff_candidates")) == 1  # no second election on day 2


def test_the_dying_sheriff_may_tear_the_badge_up():
    answers = {
        "W1": {"wolf_kill": ["V4", "V1"]},
        "W2": {"wolf_kill": ["V4", "V1"]},
        "V1": {"sheriff_run": [True], "sheriff_successor": [None]},
        "Se": {"seer_check": ["W1", "W2"]},
    }
    game = play(CANDIDACY, answers, {**CANDIDACY_OPTS, "max_days": 2})
    [gone] = events(game, "sheriff_gone")
    assert gone.audience == PUBLIC and gone.data == {"previous": "V1", "torn": True}
    assert game.sheriff is None


def test_an_unemployed_wolf_found_out_by_the_seer_kills_no_more():
    """001 zh glossary: "失业狼人：某些规则下，狼人在被村民发现后，无法继续杀害其他玩家"
    (``wolves_exposed_idle``): seen by the Seer on night 1, W1 has no say from night 2."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Se": "seer", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager"}
    answers = {
        "W1": {"wolf_kill": ["V1"]},
        "W2": {"wolf_kill": ["V1", "V2"]},
        "Se": {"seer_check": ["W1", "W2"]},
    }
    game = play(roles, answers, {"wolves_exposed_idle": True, "max_days": 2, "last_words": "none", "sheriff": False})
    night2 = [e.data for e in events(game, "wolf_votes") if e.day == 2]
    assert night2 == [{"votes": {"W1": None, "W2": "V2"}, "attempt": 1}]
    assert ("V2", 2, "werewolves") in deaths(game)
    game = new_game(roles, {"wolves_exposed_idle": True, "last_words": "none", "sheriff": False}, preset="langrensha")
    d = drive(game, agents_for(game, answers), until=lambda d: d.kind == "wolf_kill" and d.seat == "W1" and game.day == 2)
    assert d.options == () and d.allow_pass and d.context["idle"]

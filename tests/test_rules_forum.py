"""Message-board Werewolf (004): the open, changeable vote, phantom votes, cancelled
lynchings, final words, ghost notes, the humans' quiet morning, and every role.

004: "you may change your vote before Sundown arrives"; "players are allowed to vote for
themselves"; "a refusal to vote will earn them a Phantom vote for the next day"; "In the
event that a lynching is cancelled, all Phantom Votes that were allocated for that day
will instead carry over"; "the Wolves are confirmed all dead by the remaining Humans
waking up in the morning to find nobody died the previous night (Human victory)"."""

from __future__ import annotations

from collections import Counter

from engine import get_preset
from engine.events import PUBLIC
from helpers import agents_for, asked, data, deaths, drive, events, new_game

QUIET = {"discussion_rounds": 0, "ghost_notes": False, "last_words": "none"}


def run(roles, answers=None, until=None, **opts):
    game = new_game(roles, {**QUIET, **opts}, preset="forum")
    d = drive(game, agents_for(game, answers), None if until is None else (lambda d: until(game, d)))
    return game, d


def at(kind, day):
    """Stop at the first ``kind`` decision asked on day (or night) ``day``."""
    return lambda game, d: d.kind == kind and game.day == day


# ------------------------------------------------------------------------------ the preset
def test_the_preset_and_its_tables():
    o = get_preset("forum").options()
    assert o.opening_day and o.vote_self and o.phantom_votes and o.vote_changes == 2
    assert o.village_wins_at_quiet_dawn and o.last_words == "vote" and not o.sheriff and not o.reveal_role_on_death
    deck = Counter(get_preset("forum").deck(12))
    assert deck["werewolf"] + deck["pack_leader"] == 3 and deck["pack_leader"] == 1
    assert sum(deck.values()) == 12 and deck["forum_seer"] == 1 and deck["civilian"] >= 1
    for n in range(3, 31):
        assert len(get_preset("forum").deck(n)) == n


# ------------------------------------------------------------------------------ the vote
def test_the_game_opens_with_a_day_and_votes_change_in_public():
    roles = {"W": "werewolf", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"vote": ["A"], "vote_change": [None, None]},
        "A": {"vote": ["A"], "vote_change": ["W", None]},  # a vote for oneself, then a change
        "B": {"vote": ["W"], "vote_change": [None, None]},
        "C": {"vote": ["A"], "vote_change": [None, "W"]},
    }
    game, _ = run(roles, answers)
    assert deaths(game)[0] == ("W", 0, "vote")
    changes = data(game, "vote_change")
    assert [(c["voter"], c["previous"], c["target"], c["round"]) for c in changes] == [("A", "A", "W", 1), ("C", "A", "W", 2)]
    assert all(e.audience == PUBLIC for e in events(game, "vote_change"))
    assert data(game, "vote_result")[0]["tally"] == {"W": 3, "A": 1}
    assert events(game, "sundown")


def test_the_last_wolf_dead_the_humans_win_on_a_morning_without_death():
    roles = {"W": "werewolf", "A": "civilian", "B": "civilian"}
    answers = {"A": {"vote": ["W"]}, "B": {"vote": ["W"]}}
    game, _ = run(roles, answers)
    kinds = [e.kind for e in game.events]
    # Not at the lynching: at the next morning, when nobody died in the night.
    assert kinds.index("night_start") < kinds.index("no_death") < kinds.index("game_end")
    assert game.winner == "village" and game.day == 1
    assert game.end_reason == "a morning without a death, every wolf dead"


def test_a_refusal_earns_a_phantom_vote_counted_the_next_day():
    roles = {"W": "werewolf", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"vote": ["C", "A"], "wolf_kill": ["B"]},
        "A": {"vote": [None, None]},
        "B": {"vote": ["C"]},
        "C": {"vote": ["W"]},
    }
    game, _ = run(roles, answers)
    assert data(game, "phantom_votes")[0]["players"] == ["A"]
    day1 = [d for e, d in zip(events(game, "vote_result"), data(game, "vote_result")) if e.day == 1][0]
    assert day1["phantoms"] == {"A": 1} and day1["tally"] == {"A": 2}
    assert game.winner == "werewolves"  # no human is left


def test_the_celebrity_cancels_the_lynching_and_the_phantoms_carry_over():
    roles = {"W": "werewolf", "U": "unknown_celebrity", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"vote": ["B", "A"], "wolf_kill": ["U", "C"]},
        "U": {"vote": ["B"]},
        "A": {"vote": [None, None]},
        "B": {"vote": ["C"]},
        "C": {"vote": ["B"]},
    }
    game, _ = run(roles, answers)
    assert data(game, "celebrity_news") == [{"player": "U", "day": 1}]
    assert data(game, "lynch_cancelled") == [{"day": 1, "carried": {"A": 1}}]
    by_day = {e.day: e.data for e in events(game, "vote_result")}
    assert 1 not in by_day and by_day[2]["phantoms"] == {"A": 1} and by_day[2]["tally"] == {"A": 2}
    assert game.winner == "werewolves"


def test_final_words_follow_a_lynching_only_and_ghost_notes_are_passed():
    roles = {"W": "werewolf", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"vote": ["A"], "wolf_kill": ["B"]},
        "A": {"vote": ["W"], "speak": ["I was a civilian."], "ghost_note": ["W is the wolf."], "ghost_note_delivery": ["public"]},
        "B": {"vote": ["A"], "ghost_note": ["psst"], "ghost_note_delivery": ["private"]},
        "C": {"vote": ["A"]},
    }
    game, _ = run(roles, answers, until=at("vote", 1), ghost_notes=True, last_words="vote")
    last = [d for d in data(game, "speech") if d.get("last_words")]
    assert last == [{"speaker": "A", "text": "I was a civilian.", "round": 1, "last_words": True}]
    public = [e for e in events(game, "ghost_note") if e.audience == PUBLIC]
    assert [e.data["text"] for e in public] == ["W is the wolf."]
    private = [e for e in events(game, "ghost_note") if e.audience != PUBLIC]
    assert len(private) == 1 and private[0].data["reader"] == "C"  # the only living human
    assert private[0].visible_to("C") and not private[0].visible_to("W")


def test_a_night_victims_note_is_written_before_the_night_is_told():
    """004 Ghosts and Notes, Article 4: "If you are going to be nightkilled ... your note
    must be authored and PM'ed to me before that Night's deadline": the night's victims
    write once the kills are final (the guarded one is never asked) and before dawn, so
    the note cannot know who else the night took."""
    roles = {"W": "werewolf", "N": "ninja", "G": "guardian_angel", "A": "civilian", "B": "civilian", "C": "civilian", "D": "civilian"}
    answers = {
        "W": {"vote": ["A"], "wolf_kill": ["B", "C"]},
        "N": {"vote": ["A"], "ninja_kill": ["D"]},
        "G": {"vote": ["A"], "guardian_angel_protect": ["C"]},
        "A": {"vote": ["W"]},
        "B": {"vote": ["A"], "ghost_note": ["W is the wolf."], "ghost_note_delivery": ["public"]},
        "C": {"vote": ["A"]},
        "D": {"vote": ["A"], "ghost_note": ["D was here."], "ghost_note_delivery": ["public"]},
    }
    game, d = run(roles, answers, until=at("ghost_note", 1), ghost_notes=True)
    assert d is not None and d.seat == "B"
    seen = game.observation("B")
    assert not [e for e in seen if e.kind in ("dawn", "death") and e.day == 1]
    game, _ = run(roles, answers, until=at("vote", 1), ghost_notes=True)
    order = [e.kind if e.kind != "ghost_note" else ("note", e.data["author"]) for e in game.events if e.day == 1 and e.kind in ("dawn", "death", "ghost_note")]
    assert order[0] == "dawn" and ("note", "B") in order and ("note", "D") in order
    deaths_told = [e.data["player"] for e in events(game, "death") if e.day == 1]
    assert sorted(deaths_told) == ["B", "D"]  # C was saved, and never asked for a note
    assert "C" not in [e.data["author"] for e in events(game, "ghost_note")]


# ------------------------------------------------------------------------------ roles
def test_coroner_learns_the_lynched_and_the_devoured():
    roles = {"W": "werewolf", "K": "coroner", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {"W": {"vote": ["A"], "wolf_kill": ["B"]}, "K": {"vote": ["A"]}, "A": {"vote": ["W"]}, "B": {"vote": ["A"]}, "C": {"vote": ["A"]}}
    game, _ = run(roles, answers, until=at("vote", 1))
    reports = [(e.data["target"], e.data["role"], e.data["cause"]) for e in events(game, "coroner_report")]
    assert reports == [("A", "civilian", "vote"), ("B", "civilian", "werewolves")]
    assert all(e.audience == frozenset({"K"}) for e in events(game, "coroner_report"))
    assert all("role" not in d for d in data(game, "death"))  # the host does not reveal cards


def test_seer_psychic_insomniac_and_pack_leader_at_night():
    roles = {"L": "pack_leader", "W": "werewolf", "S": "forum_seer", "P": "psychic", "N": "insomniac", "A": "civilian", "B": "civilian"}
    answers = {
        "L": {"pack_leader_sniff": ["P"], "wolf_kill": ["A"]},
        "W": {"wolf_kill": ["A"]},
        "S": {"forum_seer_sense": [True]},
        "P": {"psychic_read": ["L"]},
        "N": {"insomniac_stay_awake": [True]},
    }
    game, d = run(roles, answers, until=at("vote", 1))
    assert data(game, "forum_seer_sense") == [{"wolves": 2}]
    assert data(game, "psychic_result") == [{"target": "L", "role": "pack_leader"}]
    assert data(game, "pack_leader_sniff") == [{"target": "P", "auxiliary": True}]
    saw = data(game, "insomniac_saw")[0]["wolf"]
    assert saw in ("L", "W")
    seen = events(game, "insomniac_seen")[0]
    assert seen.data == {"insomniac": "N"} and seen.audience == frozenset({saw})


def test_vigilante_shoots_once_in_public():
    roles = {"W": "werewolf", "V": "vigilante", "A": "civilian", "B": "civilian"}
    answers = {"V": {"vigilante_shoot": ["W"]}}
    game, _ = run(roles, answers)
    assert deaths(game) == [("W", 0, "vigilante")]
    assert data(game, "vigilante_shot") == [{"shooter": "V", "target": "W"}]
    assert game.winner == "village" and len(asked(game, "vigilante_shoot")) == 1


def test_ninja_kills_besides_the_pack_and_sees_the_guardian_angel_who_saves():
    roles = {"W": "werewolf", "N": "ninja", "G": "guardian_angel", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"wolf_kill": ["A"]},
        "N": {"ninja_kill": ["B"]},
        "G": {"guardian_angel_protect": ["A"]},
    }
    game, d = run(roles, answers, until=at("guardian_angel_protect", 2))
    assert deaths(game)[0] == ("B", 1, "ninja") and game.by_name["A"].alive
    assert data(game, "guardian_angel_saved") == [{"target": "A"}]
    assert data(game, "ninja_saw") == [{"target": "B", "seen": {"G": "guardian_angel"}}]
    assert "A" in d.options  # attacked last night: she may protect A again


def test_guardian_angel_may_not_protect_the_same_player_twice_in_a_row():
    roles = {"W": "werewolf", "G": "guardian_angel", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {"W": {"wolf_kill": ["B"]}, "G": {"guardian_angel_protect": ["A"]}}
    game, d = run(roles, answers, until=at("guardian_angel_protect", 2))
    assert "A" not in d.options and "G" in d.options


def test_priest_brings_back_the_dead_once():
    roles = {"W": "werewolf", "P": "priest", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {
        "W": {"vote": ["A"], "wolf_kill": ["B"]},
        "P": {"vote": ["A"], "priest_revive": [None, "B"]},
        "A": {"vote": ["W"]},
        "B": {"vote": ["A"]},
        "C": {"vote": ["A"]},
    }
    game, d = run(roles, answers, until=at("vote", 1))
    assert game.by_name["B"].alive
    revived = data(game, "revived")
    assert revived[0] == {"player": "B", "priest": "P"}
    assert len(asked(game, "priest_revive")) == 2


def test_mad_scientist_mutates_a_wolf_into_the_pack_leader():
    roles = {"W": "werewolf", "M": "mad_scientist", "A": "civilian", "B": "psychic"}
    answers = {"M": {"mad_scientist_dose": ["W"]}, "W": {"wolf_kill": ["A"]}}
    game, _ = run(roles, answers, until=at("vote", 1))
    assert game.by_name["W"].role == "pack_leader" and game.by_name["W"].is_wolf
    assert data(game, "mutated") == [{"player": "W", "role": "pack_leader"}]
    assert events(game, "mutated")[0].audience == frozenset({"W"})


def test_mad_scientist_changes_a_human_for_sure():
    for seed in range(12):
        roles = {"W": "werewolf", "M": "mad_scientist", "A": "civilian", "B": "psychic", "C": "civilian"}
        game = new_game(roles, {**QUIET}, preset="forum", seed=seed)
        drive(game, agents_for(game, {"M": {"mad_scientist_dose": ["A"]}, "W": {"wolf_kill": ["C"]}}), lambda d: d.kind == "vote" and game.day == 1)
        assert game.by_name["A"].role in ("werewolf", "psychic")


# ------------------------------------------------------------------------------ the wolves' PMs
PACK = {"W1": "werewolf", "W2": "werewolf", "A": "civilian", "B": "civilian", "C": "civilian", "D": "civilian", "E": "civilian"}
NO_LYNCH = {n: {"vote": [None] * 3, "vote_change": [None] * 6} for n in PACK}


def test_the_first_wolf_pm_naming_a_victim_is_final():
    """004 Article 5-A: "the first Wolf PM I receive that has a name on it will be the
    final kill decision for that Night" -- the wolves in turn; the later ones are not asked."""
    assert get_preset("forum").options().wolf_pack == "first_named"
    answers = {**NO_LYNCH, "W1": {**NO_LYNCH["W1"], "wolf_kill": ["A"]}, "W2": {**NO_LYNCH["W2"], "wolf_kill": ["B"]}}
    game, _ = run(PACK, answers, max_days=1)
    assert asked(game, "wolf_kill") == [("W1", "wolf_kill", "A")]  # night 1: W1 first, final
    assert data(game, "wolf_votes") == [{"votes": {"W1": "A"}, "attempt": 1}]
    assert ("A", 1, "werewolves") in deaths(game)


def test_a_wolf_may_leave_the_pm_to_the_next_and_the_order_turns():
    answers = {**NO_LYNCH, "W1": {**NO_LYNCH["W1"], "wolf_kill": [None, None]}, "W2": {**NO_LYNCH["W2"], "wolf_kill": ["B", "C"]}}
    game, d = run(PACK, answers, until=lambda g, d: d.kind == "wolf_kill" and g.day == 2)
    assert d.seat == "W2" and d.context["turn"] == 1 and d.context["order"] == ["W2", "W1"]  # night 2 starts one wolf later
    assert asked(game, "wolf_kill") == [("W1", "wolf_kill", None), ("W2", "wolf_kill", "B")]
    assert ("B", 1, "werewolves") in deaths(game)


def test_the_last_wolf_must_name_one_by_default():
    game, d = run(PACK, NO_LYNCH, until=lambda g, d: d.kind == "wolf_kill" and d.seat == "W2")
    assert not d.allow_pass and d.context["turn"] == 2


def test_wolves_who_miss_the_deadline_lose_one_of_their_own():
    """004 Article 5-B: "If the Wolves fail to PM me by the deadline, one of THEM will die
    instead" (``wolves_silent: one_dies``): every wolf may send no name; then one of them,
    drawn by lot, dies at dawn."""
    answers = {**NO_LYNCH, "W1": {**NO_LYNCH["W1"], "wolf_kill": [None]}, "W2": {**NO_LYNCH["W2"], "wolf_kill": [None]}}
    game, _ = run(PACK, answers, max_days=1, wolves_silent="one_dies", phantom_votes=False)
    [death] = [d for d in deaths(game) if d[1] == 1]
    assert death[0] in ("W1", "W2") and death[2] == "deadline"
    assert data(game, "wolf_victim")[-1] == {"target": None}


# ------------------------------------------------------------------------------ the Host's procedures "in some games"
NIGHT = {"L": "pack_leader", "W": "werewolf", "S": "forum_seer", "P": "psychic", "A": "civilian", "B": "civilian", "C": "civilian"}
NIGHT_ANSWERS = {
    "L": {"pack_leader_sniff": ["P"], "wolf_kill": ["A"]},
    "W": {"wolf_kill": ["A"]},
    "S": {"forum_seer_sense": [True]},
    "P": {"psychic_read": ["L"]},
}


def test_the_wolves_are_told_when_the_seer_or_the_psychic_acts():
    """004 Seer: "the Wolves may be informed it's happened (or even who you are)";
    Psychic: "The Wolves might get informed if you do this" (``wolves_told_seers``)."""
    game, _ = run(NIGHT, NIGHT_ANSWERS, until=at("vote", 1), wolves_told_seers="act")
    told = events(game, "seer_spotted")
    assert [e.data for e in told] == [{"role": "forum_seer"}, {"role": "psychic"}]
    assert all(e.audience == frozenset({"L", "W"}) for e in told)
    game, _ = run(NIGHT, NIGHT_ANSWERS, until=at("vote", 1), wolves_told_seers="who")
    assert data(game, "seer_spotted") == [{"role": "forum_seer", "player": "S"}, {"role": "psychic", "player": "P"}]
    game, _ = run(NIGHT, NIGHT_ANSWERS, until=at("vote", 1))
    assert not events(game, "seer_spotted")  # the preset's default: never


def test_in_really_big_games_the_pack_leader_learns_the_card():
    """004: "In really big games, he might even be told what it is" (``pack_leader_exact_from``)."""
    game, _ = run(NIGHT, NIGHT_ANSWERS, until=at("vote", 1), pack_leader_exact_from=7)
    assert data(game, "pack_leader_sniff") == [{"target": "P", "auxiliary": True, "role": "psychic"}]
    game, _ = run(NIGHT, NIGHT_ANSWERS, until=at("vote", 1), pack_leader_exact_from=8)  # 7 players: not big enough
    assert data(game, "pack_leader_sniff") == [{"target": "P", "auxiliary": True}]


def test_a_save_may_blow_the_guardian_angels_cover():
    """004: "some games force you to blow your cover when a protection is successful";
    6-B: "Any Guardian Angel who makes a successful save that blows their cover ... is a
    confirmed Human" (``guardian_angel_reveal``)."""
    roles = {"W": "werewolf", "G": "guardian_angel", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {"W": {"wolf_kill": ["A"]}, "G": {"guardian_angel_protect": ["A"]}}
    game, _ = run(roles, answers, until=at("vote", 1), guardian_angel_reveal=True)
    [saved] = events(game, "guardian_angel_saved")
    assert saved.audience == PUBLIC and saved.data == {"target": "A", "angel": "G"}
    game, _ = run(roles, answers, until=at("vote", 1))
    [saved] = events(game, "guardian_angel_saved")
    assert saved.audience == frozenset({"G"}) and saved.data == {"target": "A"}


def test_a_dead_vigilantes_unused_gun_is_found_by_another_human():
    """004: "if the Vigilante is killed before he can use his weapon, another human might
    find it, and the role of Vigilante is added to any other Aux Role that player might
    have" (``vigilante_gun_found``)."""
    roles = {"W": "werewolf", "V": "vigilante", "A": "civilian", "B": "civilian", "C": "civilian"}
    answers = {"W": {"wolf_kill": ["V"]}, "V": {"vigilante_shoot": [None]}}
    game, d = run(roles, answers, until=lambda g, d: d.kind == "vigilante_shoot" and g.day == 1, vigilante_gun_found=True, phantom_votes=False)
    [found] = events(game, "gun_found")
    finder = found.data["player"]
    assert finder in ("A", "B", "C") and found.audience == frozenset({finder}) and found.data["previous"] == "V"
    assert d.seat == finder
    game.submit(d.id, "W")
    assert data(game, "vigilante_shot")[-1] == {"shooter": finder, "target": "W"}
    assert ("W", 1, "vigilante") in deaths(game)
    game, _ = run(roles, answers, until=at("vote", 1), phantom_votes=False)
    assert not events(game, "gun_found")

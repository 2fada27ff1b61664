"""The heuristic pack: scripted situations where the wolves must play their side well.

Each test hands one wolf a hand-made history and asks one decision: a counter-claim
when the Seer names a mate, the pack's single fake Seer, consistent fake results, night
targets that remove the village's information (a Confessor who heard a wolf, the
Baker), the Arsonist's likely fire avoided, a framed villager kept alive to be voted,
and the White Werewolf seen for what he is. A last check plays whole games: both sides
win, and the pack's play stays deterministic per seed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agents import heuristic_talk as talk
from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from arena.runner import run_sync
from engine import Game, GameSetup, get_preset
from engine.decisions import CHOICE, TEXT, Decision
from engine.events import PUBLIC, Event

SEATS = [f"P{i}" for i in range(9)]
LANGRENSHA_9 = ["werewolf"] * 3 + ["seer", "witch", "hunter"] + ["villager"] * 3
PACK = ["P2", "P5", "P8"]


@pytest.fixture(autouse=True)
def strict_bot(monkeypatch):
    """A policy bug must fail the test, not hide behind the random fallback."""
    monkeypatch.setattr(HeuristicAgent, "strict", True)


def history(events: list[tuple[str, int, dict]], me: str, role: str = "werewolf", *, preset: str = "langrensha",
            deck: list[str] | None = None, pack: list[str] | None = PACK, players: list[str] | None = None) -> list[Event]:  # fmt: skip
    """A wolf's view: the table, its card, its pack, then (kind, day, public data)."""
    players = players or SEATS
    evs = [Event.recorded(0, "game_start", 0, "setup", PUBLIC, {"players": players, "preset": preset, "roles_in_play": deck or LANGRENSHA_9, "set_aside": 0})]
    evs.append(Event.recorded(1, "role", 0, "setup", frozenset([me]), {"player": me, "role": role}))
    if pack:
        evs.append(Event.recorded(2, "wolf_pack", 1, "night", frozenset(pack), {"wolves": list(pack)}))
    for i, (kind, day, data) in enumerate(events, start=len(evs)):
        evs.append(Event.recorded(i, kind, day, "day" if kind == "speech" else "night", PUBLIC, data))
    return evs


def speech(speaker: str, role: str | None = None, checks: dict | None = None, accuses: list | None = None) -> dict:
    checks_ = [{"target": t, "role": r} for t, r in (checks or {}).items()]
    return {"speaker": speaker, "text": "", "round": 1, "claims": {"role": role, "checks": checks_, "accuses": accuses or []}}


def ask(me: str, events: list[Event], kind: str, options=(), shape: str = CHOICE, seed: int = 0, **context):
    bot = HeuristicAgent(me, seed=seed)
    d = Decision(99, me, kind, shape, tuple(options), False, 1, dict(context))
    return bot.decide(SeatView(me, events), d)


def speak(me: str, events: list[Event], seed: int = 0) -> dict:
    return ask(me, events, "speak", shape=TEXT, seed=seed, phase="discussion")["claims"]


# ------------------------------------------------------------------------- the fake Seer
def test_a_wolf_counter_claims_when_the_seer_names_a_mate(monkeypatch):
    monkeypatch.setattr(talk, "COUNTER_HIDDEN", 1.0)
    named = history([("death", 1, {"player": "P1", "cause": "werewolves"}), ("speech", 1, speech("P0", "seer", {"P5": "werewolf"}, ["P5"]))], "P2")
    claims = speak("P2", named)
    assert claims["role"] == "seer"
    assert {"target": "P0", "role": "werewolf"} in claims["checks"]  # the real Seer is "the wolf he found"
    assert "P0" in claims["accuses"]
    assert all(c["role"] != "werewolf" for c in claims["checks"] if c["target"] in PACK)  # never names a mate
    # once a mate tells the story, the others back it instead of claiming too
    told = history([("death", 1, {"player": "P1", "cause": "werewolves"}), ("speech", 1, speech("P0", "seer", {"P5": "werewolf"})),
                    ("speech", 1, {**speech("P2", "seer", {"P0": "werewolf"}, ["P0"])})], "P8")  # fmt: skip
    backing = speak("P8", told)
    assert backing["role"] != "seer"
    assert backing["accuses"] == ["P0"]


def test_no_counter_claim_when_the_pack_draws_against_it(monkeypatch):
    monkeypatch.setattr(talk, "COUNTER_HIDDEN", 0.0)
    named = history([("speech", 1, speech("P0", "seer", {"P5": "werewolf"}))], "P2")
    assert speak("P2", named)["role"] != "seer"


def test_the_pack_opens_with_one_fake_seer_at_most(monkeypatch):
    monkeypatch.setattr(talk, "BLUFF_HIDDEN", 1.0)
    first = speak("P2", history([], "P2"))
    assert first["role"] == "seer" and len(first["checks"]) == 1
    # a mate who speaks after him on the same day does not claim a second Seer
    after = history([("speech", 1, {"speaker": "P2", "text": "", "round": 1, "claims": first})], "P5")
    assert speak("P5", after)["role"] != "seer"
    # nor does the first wolf to speak when a real Seer came out first without naming a mate
    late = history([("speech", 1, speech("P0", "seer", {"P1": "villager"}))], "P2")
    assert speak("P2", late)["role"] != "seer"


def test_fake_results_stay_consistent_and_never_name_a_mate(monkeypatch):
    monkeypatch.setattr(talk, "BLUFF_HIDDEN", 1.0)
    bot = HeuristicAgent("P2", seed=4)
    events = history([], "P2")
    say = Decision(1, "P2", "speak", TEXT, (), False, 1, {"phase": "discussion"})
    day1 = bot.decide(SeatView("P2", events), say)["claims"]
    events.append(Event.recorded(len(events), "speech", 1, "day", PUBLIC, {"speaker": "P2", "text": "", "round": 1, "claims": day1}))
    events.append(Event.recorded(len(events), "death", 2, "night", PUBLIC, {"player": "P7", "cause": "werewolves"}))
    day2 = bot.decide(SeatView("P2", events), Decision(2, "P2", "speak", TEXT, (), False, 1, {"phase": "discussion"}))["claims"]
    assert day2["role"] == "seer"
    assert day1["checks"][0] in day2["checks"] and len(day2["checks"]) == 2  # one more look, none changed
    assert not any(c["role"] == "werewolf" and c["target"] in PACK for c in day2["checks"])


def test_no_fake_seer_where_the_dead_show_their_cards(monkeypatch):
    """A counter-claim in Miller's Hollow is exposed by the first reveal: the pack rarely
    makes it, and never opens with a bluff."""
    deck = ["werewolf"] * 3 + ["seer"] + ["villager"] * 5
    claims = Counter()
    for seed in range(40):
        opening = speak("P2", history([], "P2", preset="millers_hollow", deck=deck), seed=seed)
        named = history([("speech", 1, speech("P0", "seer", {"P5": "werewolf"}))], "P2", preset="millers_hollow", deck=deck)
        claims["bluff"] += opening["role"] == "seer"
        claims["counter"] += speak("P2", named, seed=seed)["role"] == "seer"
    assert claims["bluff"] == 0
    assert claims["counter"] <= 20, claims


# ------------------------------------------------------------------------- the night
def test_the_pack_kills_the_seer_claimant_who_named_a_mate():
    events = history([("speech", 1, speech("P0", "seer", {"P5": "werewolf"}, ["P5"]))], "P2")
    options = [n for n in SEATS if n not in PACK]
    assert ask("P2", events, "wolf_kill", options) == "P0"


def test_a_framed_villager_is_kept_alive_to_be_voted():
    """Devoured, the player a mate's fake Seer called a wolf would prove the lie."""
    events = history([("speech", 1, speech("P5", "seer", {"P4": "werewolf"}, ["P4"])), ("speech", 1, speech("P4", None, None, ["P5", "P2"]))], "P2")  # fmt: skip
    options = [n for n in SEATS if n not in PACK]
    picks = {ask("P2", events, "wolf_kill", options, seed=s) for s in range(10)}
    assert "P4" not in picks


VILLAGE_12 = [f"P{i}" for i in range(12)]
VILLAGE_DECK = ["white_werewolf", "werewolf", "werewolf", "seer", "raven", "arsonist"] + ["villager"] * 6
HOMES = {
    "P0": "confessor", "P1": "baker", "P2": "farmer", "P3": "vagabond", "P4": "farmer", "P5": "bailiff",
    "P6": "farmer", "P7": "vagabond", "P8": "barber", "P9": "farmer", "P10": "schoolmistress", "P11": "vagabond",
}  # fmt: skip


def village(events: list[tuple[str, int, dict]], me: str = "P2", role: str = "werewolf", pack=("P2", "P5", "P9")) -> list[Event]:
    head = [("buildings", 0, {"homes": HOMES, "handout": "random"})]
    return history(head + events, me, role, preset="village", deck=VILLAGE_DECK, pack=list(pack), players=VILLAGE_12)


def test_the_pack_kills_the_confessor_who_heard_a_wolf():
    options = [n for n in VILLAGE_12 if n not in ("P2", "P5", "P9")]
    heard_wolf = village([("confession", 1, {"confessor": "P0", "player": "P5"})])
    assert ask("P2", heard_wolf, "wolf_kill", options) == "P0"
    heard_villager = village([("confession", 1, {"confessor": "P0", "player": "P4"})])
    assert ask("P2", heard_villager, "wolf_kill", options) != "P0"


def test_the_baker_is_an_early_target():
    options = [n for n in VILLAGE_12 if n not in ("P2", "P5", "P9")]
    picks = Counter(ask("P2", village([]), "wolf_kill", options, seed=s) for s in range(20))
    assert picks.most_common(1)[0][0] == "P1", picks


def test_the_arsonists_likely_fire_is_avoided_until_it_burned():
    """From the second night a villager Arsonist burns a credible Seer's home: devouring
    him then burns the wolf to his right for no victim."""
    claim = [("speech", 1, speech("P6", "seer", {"P4": "villager"}))]
    options = [n for n in VILLAGE_12 if n not in ("P2", "P5", "P9")]
    night2 = claim + [("death", 2, {"player": "P11", "cause": "werewolves", "role": "villager"})]
    assert ask("P2", village(night2), "wolf_kill", options) != "P6"
    burned = night2 + [("fire", 2, {"player": "P3", "building": "vagabond", "wolf_burned": False})]
    assert ask("P2", village(burned), "wolf_kill", options) == "P6"


def test_plain_wolves_turn_on_the_known_white_werewolf():
    """With the deck's White Werewolf alive and one mate left, that mate is him."""
    events = village([("death", 2, {"player": "P5", "cause": "white_werewolf", "role": "werewolf"}),
                      ("speech", 2, speech("P4", None, None, ["P9"])), ("speech", 2, speech("P6", None, None, ["P9"]))])  # fmt: skip
    options = [n for n in VILLAGE_12 if n not in ("P5", "P2")]
    assert ask("P2", events, "vote", options) == "P9"


# ------------------------------------------------------------------------- whole games
def test_both_sides_win_and_the_pack_plays_the_same_game_per_seed():
    wins = Counter()
    for seed in range(60):
        preset = get_preset("langrensha")
        setup = GameSetup(names=SEATS, preset="langrensha", seed=seed, roles=preset.deck_for(9, preset.options()), options=preset.options())
        g = run_sync(Game(setup), {n: HeuristicAgent(n, seed) for n in SEATS})
        wins[g.winner] += 1
        if seed < 3:
            again = run_sync(Game(setup), {n: HeuristicAgent(n, seed) for n in SEATS})
            assert again.answer_log == g.answer_log
    assert wins["village"] >= 15 and wins["werewolves"] >= 15, wins


def test_threat_counts_once_what_a_full_scan_counts():
    """``Situation`` counts the pack's accusers and the framed players once per decision;
    at every wolf decision of a whole game they must equal a scan of the memory."""
    import random

    from agents.heuristic_memory import is_wolf_role
    from agents.heuristic_situation import Situation
    from arena.gamefile import GameSpec, SeatSpec, default_names
    from arena.runner import view_for

    spec = GameSpec(preset="millers_hollow", seed=8, seats=[SeatSpec(name=n, agent="heuristic") for n in default_names(10)])
    game, agents = spec.build()
    checked = accused = 0
    while not game.over and game.waiting:
        for d in game.waiting:
            agent = agents[d.seat]
            game.submit(d.id, agent.decide(view_for(game, d.seat), d))
            mem = agent.memory
            if not mem.is_wolf:
                continue
            sit = Situation(mem, random.Random(0), d, {})
            framed = {t for w in mem.pack_alive if (c := mem.claims.get(w)) and c.role == "seer" for t, r in c.checks.items() if is_wolf_role(r)}
            assert sit.framed() == framed - mem.pack
            for name in mem.players:
                n = sit.pack_accusations(name)
                assert n == sum(1 for a in mem.accusations if a.speaker == name and a.target in mem.pack)
                checked, accused = checked + 1, accused + n
    assert game.over and checked > 50 and accused > 0

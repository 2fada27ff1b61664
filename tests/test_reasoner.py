"""The reasoner (``agent: reasoner``): legal in every preset and role, deterministic,
and answering the belief probe from a posterior that is a probability.

Legality is proven on a corpus that deals every role of every preset to reasoner seats
(some tables mixed with heuristic seats), with the bot strict: a policy's exception or
an illegal answer fails the test instead of hiding behind the random fallback.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from agents.reasoner.agent import ReasonerAgent, policy_for
from agents.reasoner.space import Deck, Facts, count, draw_rows, enumerate_rows
from agents.registry import make_agent
from arena.beliefs import BeliefPoll
from arena.gamefile import default_game, seat_seed
from arena.runner import run_sync
from engine import Game
from engine.events import PUBLIC
from engine.presets import PRESETS
from engine.roles import ROLES

WINNERS = {"village", "werewolves", "lovers", "white_werewolf", "pied_piper", "angel", "none"}

# Each preset at table sizes whose recommended decks hold every role its book deals,
# plus decks that add the preset's roles no recommended deck holds.
TABLES: list[tuple[str, int, list[str] | None, dict[str, Any] | None]] = [
    ("millers_hollow", 8, None, None),
    ("millers_hollow", 12, None, None),
    ("millers_hollow", 10, ["werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "little_girl", "thief", "villager", "villager"], None),
    ("millers_hollow_es", 9, ["werewolf", "werewolf", "seer", "witch", "hunter", "little_girl", "cupid", "thief", "villager"], None),
    ("best_of", 8, None, None),
    (
        "best_of",
        12,
        ["werewolf", "infect_father", "seer", "witch", "hunter", "sister", "sister", "fox", "bear_tamer", "rusty_knight", "elder", "villager"],
        None,
    ),
    (
        "best_of",
        12,
        [
            "werewolf",
            "big_bad_wolf",
            "white_werewolf",
            "seer",
            "little_girl",
            "cupid",
            "wild_child",
            "wolf_hound",
            "pied_piper",
            "angel",
            "villager",
            "villager",
        ],
        None,
    ),
    ("langrensha", 12, None, None),
    (
        "langrensha",
        14,
        ["werewolf"] * 4 + ["seer", "witch", "hunter", "idiot", "protector", "elder", "cupid", "pied_piper", "thief", "villager"],
        {"sheriff_candidacy": True},
    ),
    ("village", 12, None, None),
    (
        "forum",
        15,
        [
            "pack_leader",
            "werewolf",
            "werewolf",
            "forum_seer",
            "coroner",
            "guardian_angel",
            "psychic",
            "vigilante",
            "insomniac",
            "unknown_celebrity",
            "priest",
            "ninja",
            "mad_scientist",
            "civilian",
            "civilian",
        ],
        None,
    ),
]


def _play(preset: str, players: int, roles: list[str] | None, options: dict[str, Any] | None, seed: int, mixed: bool) -> Game:
    spec = default_game(players=players, preset=preset, seed=seed, agent="reasoner", roles=roles, options=options)
    if roles is not None and "thief" in roles:  # the Thief's two added cards set aside: every listed card is dealt
        spec = spec.model_copy(update={"center": ["villager", "villager"]})
    game, seats = spec.build()
    if mixed:  # every other seat a heuristic bot: the reasoner reads and answers other bots
        for i, p in enumerate(game.players):
            if i % 2:
                seats[p.name] = make_agent("heuristic", p.name, seed=seat_seed(seed, i))
    return run_sync(game, seats)


@lru_cache(maxsize=None)
def corpus() -> tuple[tuple[Game, str], ...]:
    ReasonerAgent.strict = True
    HeuristicAgent.strict = True
    try:
        return tuple((_play(p, n, r, o, seed=31 + i, mixed=i % 3 == 2), p) for i, (p, n, r, o) in enumerate(TABLES))
    finally:
        ReasonerAgent.strict = False
        HeuristicAgent.strict = False


def test_every_game_ends_with_a_legal_winner():
    for game, preset in corpus():
        assert game.over, preset
        assert game.winner in WINNERS, preset


def test_every_role_of_every_preset_is_played():
    dealt: dict[str, set[str]] = {}
    for game, preset in corpus():
        dealt.setdefault(preset, set()).update(p.initial_role for p in game.players)
    for preset in PRESETS:
        listed = {r for r, spec in ROLES.items() if preset in spec.presets}
        missing = listed - dealt.get(preset, set())
        assert not missing, f"{preset}: never dealt {sorted(missing)}"


def test_every_kind_asked_has_a_play():
    """A kind with no play would be answered at random: none in the corpus."""
    asked = {kind for game, _ in corpus() for (_id, _seat, kind, _a) in game.answer_log}
    assert {"vote", "speak", "seer_check", "wolf_kill", "witch_heal", "hunter_shot", "protector_guard", "fox_sniff"} <= asked
    assert not [k for k in asked if policy_for(k) is None]


def test_same_seed_same_game():
    a = _play("millers_hollow", 12, None, None, seed=5, mixed=True)
    b = _play("millers_hollow", 12, None, None, seed=5, mixed=True)
    assert a.answer_log == b.answer_log


def test_beliefs_are_probabilities_and_change_nothing():
    """The probe's answers cover exactly the other living players, in [0, 1], sum to
    about the wolves still hidden for a villager, and asking them changes no answer."""
    spec = default_game(players=8, seed=9, agent="reasoner")
    game, seats = spec.build()
    poll = BeliefPoll()
    run_sync(game, seats, beliefs=poll)
    quiet = run_sync(*default_game(players=8, seed=9, agent="reasoner").build())
    assert game.answer_log == quiet.answer_log
    assert poll.records
    roles = {p.name: p for p in game.players}
    for r in poll.records:
        assert r.probabilities is not None
        assert all(0.0 <= v <= 1.0 for v in r.probabilities.values())
        if not roles[r.seat].is_wolf:
            assert 0.5 < sum(r.probabilities.values()) < 3.5


def test_the_village_votes_wolves_more_than_chance():
    """Over many games at 8 players, a reasoner villager's vote lands on a wolf more
    often than a uniform vote would."""
    hits = chance = 0.0
    for seed in range(12):
        game = _play("millers_hollow", 8, None, None, seed=100 + seed, mixed=False)
        wolves = {p.name for p in game.players if p.is_wolf}
        for e in game.events:
            if e.kind != "vote_result":
                continue
            for voter, target in e.data.votes.items():
                if voter in wolves or target is None:
                    continue
                alive = [n for n in e.data.votes if n != voter]
                hits += target in wolves
                chance += sum(1 for n in alive if n in wolves) / max(1, len(alive))
    assert hits > 1.5 * chance


def test_the_pack_agrees_on_its_victim():
    """Reasoner wolves read the same evidence and break ties alike: a unanimous pack
    never wastes its night."""
    for seed in range(6):
        game = _play("millers_hollow", 12, None, None, seed=200 + seed, mixed=False)
        for e in game.events:
            if e.kind == "wolf_votes":
                picks = {t for t in e.data.votes.values() if t is not None}
                assert len(picks) <= 1, (seed, e.data.votes)


# ---------------------------------------------------------------------- the space
@pytest.mark.parametrize("preset, players", [("millers_hollow", 8), ("millers_hollow", 12), ("best_of", 8)])
def test_an_exact_space_lists_every_assignment_once(preset: str, players: int):
    deck_cards = PRESETS[preset].deck(players)
    deck = Deck.of([f"p{i}" for i in range(players)], deck_cards, 0)
    facts = Facts(fixed={0: deck.types.index("villager")}, not_wolf={1})
    rows = enumerate_rows(deck, facts)
    assert len(rows) == count(deck, facts) == len({tuple(r) for r in rows})
    assert (rows[:, 0] == deck.types.index("villager")).all()
    assert not deck.wolfish[rows[:, 1]].any()
    assert all(Counter(r.tolist()) == Counter(deck.types.index(c) for c in deck_cards) for r in rows)


def test_a_drawn_space_is_uniform_over_the_assignments():
    """Rows drawn under facts are spread evenly over the consistent assignments: each
    is drawn about as often (chi-square well inside its bounds)."""
    deck = Deck.of([f"p{i}" for i in range(8)], PRESETS["millers_hollow"].deck(8), 0)
    facts = Facts(not_wolf={0, 1}, wolf={2})
    exact = {tuple(r) for r in enumerate_rows(deck, facts)}
    drawn = draw_rows(deck, facts, 20000, np.random.default_rng(4))
    counts = Counter(tuple(r) for r in drawn)
    assert set(counts) == exact
    expected = 20000 / len(exact)
    chi2 = sum((counts[r] - expected) ** 2 / expected for r in exact)
    assert chi2 < 2 * len(exact)


def test_the_shared_table_reads_only_public_events():
    """Reasoner seats of one game share a table of the public story; no seat's secret
    enters it, and each seat's secrets stay its own."""
    game, seats = default_game(players=8, seed=3, agent="reasoner").build()
    run_sync(game, seats)
    tables = set()
    for p in game.players:
        agent = seats[p.name]
        assert isinstance(agent, ReasonerAgent)
        t = agent.belief.table
        if t is None:  # devoured before its first decision: it never read a thing
            continue
        tables.add(id(t))
        assert all(e.audience == PUBLIC for e in t.events)
        assert agent.belief.pack == ({w.name for w in game.players if w.is_wolf} if p.is_wolf else set())
    assert len(tables) == 1


def test_simulate_plays_reasoner_tables(capsys):
    from arena.cli import main

    assert main(["simulate", "--agents", "reasoner", "--players", "8", "--games", "3", "--processes", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 3 and sum(report["wins"].values()) == 3 and report["agents"] == "reasoner"


def test_a_villagers_beliefs_beat_the_constant_answer():
    """Over a few games against heuristic wolves, a reasoner villager's probabilities
    score a clearly better Brier than always answering the table's wolf share."""
    se = base = 0.0
    for seed in range(10):
        game, _ = default_game(players=8, seed=300 + seed, agent="heuristic").build()
        agents = {p.name: make_agent("heuristic" if p.is_wolf else "reasoner", p.name, seed=seat_seed(300 + seed, i)) for i, p in enumerate(game.players)}
        poll = BeliefPoll()
        run_sync(game, agents, beliefs=poll)
        wolves = {p.name for p in game.players if p.is_wolf}
        share = len(wolves) / (len(game.players) - 1)
        for r in poll.records:
            if r.seat in wolves or r.probabilities is None or game.by_name[r.seat].role == "seer":
                continue
            for target, p in r.probabilities.items():
                y = float(target in wolves)
                se += (p - y) ** 2
                base += (share - y) ** 2
    assert base > 0 and 1 - se / base > 0.15


@pytest.mark.parametrize("preset, seed", [("best_of", 1), ("langrensha", 2), ("forum", 1)])
def test_a_twin_of_a_seats_belief_holds_its_posterior_exactly(preset, seed):
    """``SeatBelief.twin`` (the persuasion measurement's copy) read the view the seat
    read holds the seat's very posterior: where the seat drew rows of its own, it
    draws them when the seat did (its trail), so the same rows, not merely the same
    evidence. It reads alone: no seat's table is touched."""
    game, seats = default_game(players=12, preset=preset, seed=seed, agent="reasoner").build()
    run_sync(game, seats)
    agents = [a for a in seats.values() if isinstance(a, ReasonerAgent)]
    for agent in agents:  # each seat reads the rest of its view, as at a decision after the game
        agent.beliefs(SeatView(agent.name, game.observation(agent.name)))
    tables = {id(a.belief.table): (a.belief.table, list(a.belief.table.events)) for a in agents if a.belief.table is not None}
    own = 0
    for agent in agents:
        b = agent.belief
        twin = b.twin()
        twin.update(game.observation(agent.name))
        if not b.ready:
            continue
        (space, w), (tspace, tw) = b.weights(), twin.weights()
        assert np.array_equal(space.rows, tspace.rows) and np.array_equal(w, tw)
        assert twin.table is not b.table
        own += b.own is not None
    assert own  # some seat drew rows of its own: the case the trail is for
    for table, events in tables.values():
        assert len(table.events) == len(events) and all(x is y for x, y in zip(table.events, events))

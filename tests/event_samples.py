"""Events of every kind, with their real audiences, for the text pipeline's tests.

Played games give most kinds, with the data and audiences the engine really writes:
random bots on every preset, with each preset's other roles mixed in and every rule
option of ``CHOICES`` drawn, and message-board games with every Auxiliary Role. A few
kinds hang on options or moments random tables seldom reach (a second pair of
Lovers, a Vigilante dying with his bullet, the 狼人杀 candidacy); those are written
here by hand, as the engine emits them (the emitting line is named beside each).
``missing_kinds`` tells which registered kinds have no sample: the tests fail on it,
so a new kind cannot arrive without an event to read.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from agents.base import SeatView
from agents.random_agent import RandomAgent
from engine import Game, GameSetup, get_preset
from engine.buildings.handout import box
from engine.events import NARRATOR, PUBLIC, Event
from engine.options import CHOICES
from engine.presets import PRESETS
from engine.roles import ROLES
from helpers import random_forum_game

GAMES_PER_PRESET = 5  # the fewest that reach every kind the hand-made list lacks


def play_random(game: Game, seed: int) -> Game:
    """Play ``game`` to its end with a random bot in every seat."""
    agents = {p.name: RandomAgent(p.name, seed=seed) for p in game.players}
    while not game.over:
        d = game.waiting[0]
        game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
    return game


def varied_game(preset: str, seed: int) -> Game:
    """A table of ``preset`` with some of its other roles in place of villagers and
    every rule option drawn at random (The Village's buildings included)."""
    rng = random.Random(f"event-samples:{preset}:{seed}")
    p = get_preset(preset)
    n = rng.randint(max(p.min_players, 10), min(p.max_players, 20))
    deck = p.deck(n)
    village = [r for r, s in ROLES.items() if preset in s.presets and r not in deck and not s.is_wolf]
    wolves = [r for r, s in ROLES.items() if preset in s.presets and r not in deck and s.is_wolf and r != "werewolf"]
    picks = rng.sample(village, min(len(village), rng.randint(2, 7))) + rng.sample(wolves, min(len(wolves), rng.randint(0, 2)))
    if "sister" in picks:
        picks.append("sister")
    for role in picks:
        if "villager" in deck:
            deck.remove("villager")
            deck.append(role)
    opts = {k: rng.choice(v) for k, v in CHOICES.items()}
    if opts["buildings"] == "listed":
        opts["building_tokens"] = rng.sample(box(), n)
    if opts["buildings"] != "none" and "villager" in deck and "arsonist" not in deck:
        deck.remove("villager")
        deck.append("arsonist")
    names = [f"P{i:02d}" for i in range(n)]
    return Game(GameSetup(names=names, preset=preset, seed=seed, options=p.options(opts), roles=deck))


@lru_cache(maxsize=None)
def sample_games() -> tuple[Game, ...]:
    games = []
    for seed in range(GAMES_PER_PRESET):
        games.append(play_random(random_forum_game("event-samples", seed), seed))
        for preset in sorted(PRESETS):
            if preset != "forum":
                games.append(play_random(varied_game(preset, seed), seed))
    return tuple(games)


def _private(*seats: str) -> frozenset[str]:
    return frozenset(seats)


# Kinds random tables seldom reach, as the engine emits them.
HAND_MADE: tuple[Event, ...] = (
    # engine/roles/big_bad_wolf.py: the Big Bad Wolf's second victim
    Event.recorded(0, "big_bad_wolf_victim", 2, "night", _private("Bob"), {"target": "Chloe"}),
    # engine/roles/cupid.py: Cupid's second arrow (cupid_second_pair)
    Event.recorded(0, "cupid_paramours", 1, "night", _private("Cora"), {"deceiver": "Alice", "paramour": "Bob", "abandoned": "Chloe"}),
    Event.recorded(0, "paramours", 1, "night", _private("Alice"), {"lover": "Alice", "paramour": "Bob"}),
    Event.recorded(0, "paramours", 1, "night", _private("Bob"), {"lover": "Bob", "paramour": "Alice"}),
    # engine/roles/vigilante.py: a dead Vigilante's unused gun found
    Event.recorded(0, "gun_found", 3, "night", _private("Bob"), {"player": "Bob", "previous": "Vic"}),
    # engine/flow/forum.py: the Host's reprimand for impersonation, and the Celebrity's Sundown
    Event.recorded(0, "reprimand", 2, "dusk", PUBLIC, {"player": "Bob", "votes": 3, "reason": "impersonation", "day": 2, "line": "Host: Alice is the Seer."}),
    Event.recorded(0, "sundown_extended", 2, "day", PUBLIC, {"day": 2, "rounds": 1}),
    # engine/flow/ghost_notes.py: a note hidden for the Coroner, dropped, and found (coroner_notes)
    Event.recorded(0, "coroner_note_hidden", 2, "night", _private("Bob"), {"author": "Bob", "text": "Eve is a wolf."}),
    Event.recorded(0, "coroner_note_hidden", 3, "night", _private("Bob"), {"author": "Bob", "text": ""}),
    Event.recorded(0, "coroner_note", 3, "dawn", _private("Kim"), {"author": "Bob", "text": "Eve is a wolf."}),
    # engine/roles/werewolf.py: the pack hypnotises instead of killing (wolves_hypnotise)
    Event.recorded(0, "hypnotised", 2, "night", _private("Chloe"), {"player": "Chloe"}),
    # engine/roles/infect_father.py: the Elder cannot be infected
    Event.recorded(0, "infection_failed", 2, "night", NARRATOR, {"father": "Bob", "target": "Eve"}),
    # engine/roles/rusty_knight.py: the Rusty Knight's sword
    Event.recorded(0, "rusty_sword", 2, "night", NARRATOR, {"knight": "Kay", "wolf": "Bob"}),
    # engine/flow/sheriff.py: the 狼人杀 candidacy (上警, 退水)
    Event.recorded(0, "sheriff_candidates", 1, "campaign", PUBLIC, {"candidates": ["Alice", "Bob"]}),
    Event.recorded(0, "sheriff_candidates", 1, "campaign", PUBLIC, {"candidates": []}),
    Event.recorded(0, "sheriff_withdrawn", 1, "campaign", PUBLIC, {"players": ["Bob"], "candidates": ["Alice"]}),
    Event.recorded(0, "sheriff_lost", 1, "campaign", PUBLIC, {"reason": "no candidate"}),
    Event.recorded(0, "sheriff_lost", 1, "campaign", PUBLIC, {"reason": "no voter"}),
    # engine/roles/sister.py: the Sisters confer (sisters_chat_every)
    Event.recorded(0, "sister_chat", 2, "night", _private("Sue", "Sam"), {"speaker": "Sue", "text": "Bob is odd."}),
    Event.recorded(0, "sister_chat", 2, "night", _private("Sue", "Sam"), {"speaker": "Sam", "text": ""}),
    # engine/roles/guardian_angel.py: a save that keeps her cover (guardian_angel_reveal off)
    Event.recorded(0, "guardian_angel_saved", 2, "night", _private("Gina"), {"target": "Bob"}),
    Event.recorded(0, "guardian_angel_saved", 2, "night", _private("Gina"), {"target": "Gina"}),
    # engine/flow/sheriff.py: a dying Sheriff tears the badge up (狼人杀)
    Event.recorded(0, "sheriff_gone", 3, "dawn", PUBLIC, {"previous": "Alice", "torn": True}),
)


def sample_events() -> list[Event]:
    """Every event of the sample games, then the hand-made ones."""
    return [e for g in sample_games() for e in g.events] + list(HAND_MADE)


def _shape(value: Any, label: Any) -> Any:
    """What of a value can change a sentence: a flag, a number, an engine word (a
    cause, a reason), which of the event's players it is (the reader, the same as
    another field: ``label``), a list's size and whether the reader is in it; not the
    player's name (names start upper-case)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return label(value) if value[:1].isupper() else value
    if isinstance(value, (list, tuple)):
        return ("list", min(len(value), 3), tuple(sorted({label(v) for v in value if isinstance(v, str) and label(v) == "N0"})))
    if isinstance(value, dict):
        return ("dict", min(len(value), 3))
    return type(value).__name__


def distinct_events() -> list[Event]:
    """One sample of each shape of event (kind, phase, audience, and each field's
    shape): the same sentences at a fraction of the cost, for the tests that read
    every sample through every reader."""
    seen: dict[tuple, Event] = {}
    for e in sample_events():
        labels: dict[str, str] = {}

        def label(name: str) -> str:
            return labels.setdefault(name, f"N{len(labels)}")

        if isinstance(e.audience, frozenset):
            for n in sorted(e.audience):
                label(n)  # the recipients first: N0 is the reader of a one-seat secret
            audience: Any = min(len(e.audience), 2)
        else:
            audience = e.audience
        key = (e.kind, e.phase, audience, tuple((k, _shape(v, label)) for k, v in sorted(dict(e.data).items())))
        seen.setdefault(key, e)
    return list(seen.values())


def missing_kinds(kinds: set[str]) -> set[str]:
    return set(kinds) - {e.kind for e in sample_events()}

"""The heuristic bot plays every Best of Werewolves (003) and 狼人杀 (001) character with
intent: always legal (in strict mode, a policy's bug fails the test), every new decision
kind asked and answered by a policy, and each power used the way it pays.

Statistical like tests/test_heuristic.py: thresholds sit well inside what the bot does
and well outside what random play does.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest

from agents.heuristic import HeuristicAgent
from agents.heuristic_roles import ROLE_POLICIES
from arena.runner import run_sync
from engine import Game, GameSetup, get_preset
from helpers import bots

BOX = (
    ["werewolf"] * 3 + ["infect_father", "big_bad_wolf"] + ["villager"] * 7
    + ["cupid", "seer", "sister", "sister", "little_girl", "fox", "rusty_knight", "elder", "witch", "bear_tamer",
       "hunter", "wild_child", "wolf_hound", "white_werewolf", "pied_piper", "angel"]
)  # fmt: skip
LANGRENSHA = ["werewolf"] * 4 + ["seer", "witch", "hunter", "idiot", "protector", "elder", "cupid", "thief", "pied_piper"] + ["villager"] * 6
WOLVES = ("werewolf", "infect_father", "big_bad_wolf", "white_werewolf")


@pytest.fixture(autouse=True)
def strict_bot(monkeypatch):
    monkeypatch.setattr(HeuristicAgent, "strict", True)


def deal(seed: int) -> tuple[str, list[str], dict]:
    rng = random.Random(f"heuristic-new:{seed}")
    if seed % 2 == 0:
        n = rng.randint(8, 28)
        deck = get_preset("best_of").deck(n) if rng.random() < 0.3 else rng.sample(BOX, n)
        if not any(r in WOLVES for r in deck):
            deck[deck.index("villager") if "villager" in deck else 0] = "werewolf"
        return "best_of", deck, {"sisters_chat_every": rng.choice([0, 2])}
    n = rng.randint(8, 16)
    deck = get_preset("langrensha").deck(n) if rng.random() < 0.3 else rng.sample(LANGRENSHA, n)
    if "werewolf" not in deck:
        deck[0] = "werewolf"
    return "langrensha", deck, {"cupid_second_pair": rng.random() < 0.4, "wolves_hypnotise": rng.random() < 0.1}


def play(seed: int, village: str = "heuristic") -> Game:
    preset, deck, opts = deal(seed)
    names = [f"P{i}" for i in range(len(deck))]
    game = Game(GameSetup(names=names, preset=preset, seed=seed, roles=deck, options=get_preset(preset).options(opts)))
    return run_sync(game, bots(game, seed, village))


@lru_cache(maxsize=None)
def corpus() -> tuple[Game, ...]:
    return tuple(play(seed) for seed in range(200))


def test_strict_games_end_and_every_new_kind_is_played_by_a_policy():
    asked = Counter(k for g in corpus() for (_i, _s, k, _a) in g.answer_log)
    assert set(ROLE_POLICIES) <= set(asked), set(ROLE_POLICIES) - set(asked)
    winners = Counter(g.winner for g in corpus())
    assert {"village", "werewolves", "pied_piper", "white_werewolf"} <= set(winners), winners


def test_the_fox_sniffs_where_the_wolves_are():
    results = Counter(e.data["wolf"] for g in corpus() for e in g.events if e.kind == "fox_result")
    assert sum(results.values()) >= 30
    assert results[True] / sum(results.values()) >= 0.6, results


def test_the_protector_guards_the_players_the_wolves_want():
    saved = sum(1 for g in corpus() for e in g.events if e.kind == "protector_guard" and e.data["target"] in _attacked(g, e.day))
    guards = sum(1 for g in corpus() for e in g.events if e.kind == "protector_guard")
    assert guards >= 50 and saved >= 0.12 * guards, (saved, guards)


def _attacked(game: Game, night: int) -> set[str]:
    return {e.data["target"] for e in game.events if e.kind == "wolf_victim" and e.day == night and e.data["target"]}


def test_the_white_werewolf_turns_on_the_pack_late():
    kills = [(g, e) for g in corpus() for e in g.events if e.kind == "white_werewolf_kill"]
    struck = [(g, e) for g, e in kills if e.data["target"]]
    assert kills and struck
    assert len(struck) <= 0.8 * len(kills)  # he waits while the pack is useful
    assert any(g.winner == "white_werewolf" for g in corpus())


def test_the_infect_father_uses_his_infection():
    offers = [a for g in corpus() for (_i, _s, k, a) in g.answer_log if k == "infect_father_infect"]
    assert offers and 0.2 <= sum(offers) / len(offers) <= 0.9


def test_the_wild_child_models_on_a_villager():
    models = Counter()
    for g in corpus():
        for e in g.events:
            if e.kind == "wild_child_model":
                models[g.by_name[e.data["model"]].is_wolf] += 1
    assert sum(models.values()) >= 15 and models[False] >= 0.6 * sum(models.values()), models


def test_the_pied_piper_wins_sometimes_and_charms_the_living():
    assert sum(g.winner == "pied_piper" for g in corpus()) >= 5


def test_heuristic_village_beats_random_village_in_both_presets():
    wins = Counter()
    for village in ("heuristic", "random"):
        for seed in range(1000, 1120):
            g = play(seed, village)
            wins[village] += g.winner == "village"
    assert wins["heuristic"] > wins["random"] + 15, wins

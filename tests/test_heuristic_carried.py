"""The heuristic bot's judgement carried across events plays exactly as a fresh one.

``heuristic_suspicion`` keeps each seat's partial sums between events and adds only
the votes and accusations appended since (``_Carried``). These tests hold it to the
judgement a memory that reads the whole view at once computes: every float equal, at
every decision of whole games of several presets. And a whole 狼人杀 game must not
depend on the interpreter's string hashing (a set iterated in hash order once made
the heuristic bot's speech differ between runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.heuristic import HeuristicAgent
from agents.heuristic_memory import Memory
from agents.heuristic_suspicion import judge, judged
from arena.gamefile import GameSpec, SeatSpec, default_names
from arena.runner import view_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def strict_bot(monkeypatch):
    monkeypatch.setattr(HeuristicAgent, "strict", True)


def _same(carried, fresh) -> None:
    assert carried.score == fresh.score
    assert carried.p == fresh.p
    assert carried.cred == fresh.cred
    assert carried.liars == fresh.liars
    assert carried.known == fresh.known
    assert carried.hidden_wolves == fresh.hidden_wolves


@pytest.mark.parametrize(
    "preset,players,seed,options",
    [
        ("millers_hollow", 8, 3, {}),
        ("millers_hollow", 12, 4, {"discussion": "bidding"}),
        ("langrensha", 12, 5, {"sheriff_candidacy": True}),
        ("best_of", 12, 6, {}),
        ("village", 10, 7, {}),
    ],
)
def test_carried_judgement_is_the_fresh_one_at_every_decision(preset, players, seed, options):
    spec = GameSpec(preset=preset, seed=seed, options=options, seats=[SeatSpec(name=n, agent="heuristic") for n in default_names(players)])
    game, agents = spec.build()
    compared = 0
    while not game.over and game.waiting:
        for d in game.waiting:
            agent = agents[d.seat]
            view = view_for(game, d.seat)
            game.submit(d.id, agent.decide(view, d))
            assert isinstance(agent, HeuristicAgent)
            fresh = Memory(d.seat)
            fresh.update(view.events)
            for private in (True, False):
                _same(judged(agent.memory, private), judge(fresh, private))
                compared += 1
    assert game.over and compared > 50


GAMES = """
import hashlib, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
from arena.gamefile import GameSpec, SeatSpec, default_names, header_for
from arena.runner import run_sync
from transcripts.writer import TranscriptWriter
with tempfile.TemporaryDirectory() as tmp:
    for players, seed, options in ((9, 11, {{}}), (12, 12, {{"sheriff_candidacy": True}}), (12, 13, {{}})):
        spec = GameSpec(preset="langrensha", seed=seed, options=options,
                        seats=[SeatSpec(name=n, agent="heuristic") for n in default_names(players)])
        game, agents = spec.build()
        path = Path(tmp) / f"{{seed}}.jsonl"
        with TranscriptWriter(path, header_for(spec, game)) as writer:
            writer.sync_events(game)
            run_sync(game, agents, on_answer=writer.on_answer)
        body = path.read_bytes().split(b"\\n", 1)[1]
        print(seed, len(game.answer_log), hashlib.sha256(body).hexdigest())
"""


def _digests(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", GAMES.format(root=str(ROOT))], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_langrensha_heuristic_games_do_not_depend_on_string_hashing():
    first, second = _digests("1"), _digests("2")
    assert len(first.splitlines()) == 3
    assert first == second

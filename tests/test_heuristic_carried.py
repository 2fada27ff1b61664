"""The heuristic bot's play does not depend on the interpreter's string hashing.

``heuristic_suspicion`` keeps each seat's partial sums between events and adds only
the votes and accusations appended since (``_Carried``); that the carried, shared
judgement is every float of a fresh one read alone is held at every decision by
``tests/test_heuristic_shared.py``. Here a whole 狼人杀 game must not depend on the
interpreter's string hashing (a set iterated in hash order once made the heuristic
bot's speech differ between runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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

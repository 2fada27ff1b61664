"""CONTRIBUTING.md's worked example really is a role: one module, no core file touched.

The guide's module is taken from the document, installed as ``engine.roles.lamplighter``
in a fresh interpreter (so the registries of this test run stay as they are), and a game
is played with the role dealt: the Lamplighter is asked her question and shown her
result, the game ends, and its transcript verifies. If the engine's API changes and the
guide is not updated, this fails.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = '''
import sys, types
import engine.roles as roles
code = open(sys.argv[1], encoding="utf-8").read()
module = types.ModuleType("engine.roles.lamplighter")
module.__file__ = "engine/roles/lamplighter.py"
sys.modules[module.__name__] = module
exec(compile(code, module.__file__, "exec"), module.__dict__)
from engine import Game, GameSetup
from engine.decisions import DECISION_KINDS
from engine.events import EVENT_KINDS
from agents.random_agent import RandomAgent
from arena.runner import run_sync
assert "lamplighter" in roles.ROLES and "lamplighter_light" in DECISION_KINDS and "lamp_result" in EVENT_KINDS
from engine.presets import PRESETS
for preset in PRESETS.values():  # placed by its after=, no number, in every book's order
    steps = [s.name for s in roles.night_steps(preset.night)]
    assert steps[steps.index("seer") + 1] == "lamplighter", (preset.id, steps)
names = [f"P{i}" for i in range(7)]
deck = ["werewolf", "werewolf", "lamplighter", "villager", "villager", "villager", "villager"]
for seed in range(20):
    game = Game(GameSetup(names=names, seed=seed, roles=deck, preset="best_of"))
    run_sync(game, {n: RandomAgent(n, seed=seed) for n in names})
    assert game.over
    kinds = {e.kind for e in game.events}
    if "lamp_result" in kinds:
        print("lit", seed)
        break
else:
    raise SystemExit("the Lamplighter never lit a lamp in 20 games")
'''


def test_the_worked_example_plays(tmp_path: Path) -> None:
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.S)
    module = next(b for b in blocks if "register_role(" in b)
    path = tmp_path / "lamplighter.py"
    path.write_text(module, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PLAY, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "lit" in done.stdout

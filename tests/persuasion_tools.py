"""What the persuasion tests share: bot games written as transcripts, the planted
fake-Seer game, and a listener that votes like a model at a temperature above zero."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from transcript_tools import play_to_file

from agents.base import Agent, SeatView
from agents.random_agent import random_answer
from arena.gamefile import spec_from_data
from arena.persuasion.probe import Settings
from arena.persuasion.run import RunResult, measure
from engine.decisions import Decision

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]

# The planted speech: a scripted villager claims to be the Seer and to have seen Bob,
# a villager, as a werewolf. She speaks last, so no speech of the day answers her; the
# real Seer is a silent scripted seat; the game ends after day 1's vote (max_days 1),
# so the scripted seats need no answers beyond it.
FAKE_SEER = {
    "text": "I am the Seer. Last night I looked at Bob: he is a werewolf. Vote Bob.",
    "claims": {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}], "accuses": ["Bob"]},
}


def planted(seed: int) -> dict[str, Any]:
    return {
        "preset": "millers_hollow", "seed": seed, "options": {"sheriff": False, "max_days": 1},
        "seats": [
            {"name": "Bob", "agent": "heuristic", "role": "villager"},
            {"name": "Chloe", "agent": "heuristic", "role": "werewolf"},
            {"name": "David", "agent": "heuristic", "role": "villager"},
            {"name": "Emma", "agent": "heuristic", "role": "witch"},
            {"name": "Farah", "agent": "heuristic", "role": "werewolf"},
            {"name": "Hugo", "agent": "heuristic", "role": "villager"},
            {"name": "Zed", "agent": "scripted", "role": "seer", "answers": {"seer_check": ["Hugo"]}},
            {"name": "Alice", "agent": "scripted", "role": "villager", "answers": {"speak": [FAKE_SEER]}},
        ],
    }  # fmt: skip


def table(seed: int, agents: list[str], **extra: Any) -> dict[str, Any]:
    """Eight seats of the given agents in turn (``py:`` specs included)."""
    return {"seed": seed, "options": {"sheriff": False}, "seats": [{"name": n, "agent": agents[i % len(agents)]} for i, n in enumerate(NAMES)], **extra}


def write_game(data: dict[str, Any], path: Path) -> Path:
    play_to_file(spec_from_data(data), path)
    return path


def run(paths: list[Path], settings: Settings, **kw: Any) -> RunResult:
    kw.setdefault("trust_code", True)
    return asyncio.run(measure([(p, p.name) for p in paths], settings, **kw))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


# Draws that belong to no seat: a model's sampling at its temperature, which no copy of
# the seat carries with it, so the two arms of an ask are independent draws.
NOISE = random.Random(0)


def reseed(seed: int) -> None:
    NOISE.seed(seed)


class CoinAgent(Agent):
    """A listener that cannot be moved, yet answers differently each time it is asked:
    every answer is uniformly random over the legal ones, drawn from ``NOISE``. Its
    speeches accuse a random player."""

    spec = "py:persuasion_tools:CoinAgent"

    def __init__(self, name: str, *, seed: int = 0, options: dict | None = None):
        super().__init__(name)

    def decide(self, view: SeatView, decision: Decision) -> Any:
        if decision.kind == "speak":
            others = [p for p in view.alive if p != self.name]
            return {"text": "Hmm.", "claims": {"accuses": [NOISE.choice(others)]}} if others else "Hmm."
        return random_answer(NOISE, decision)

"""Agent specs (CONTRACT.md 3b): ``heuristic``, ``random``, ``scripted``, ``human``,
``openai:MODEL``, ``anthropic:MODEL``. Unknown specs are an error naming the spec."""

from __future__ import annotations

from typing import Any

from agents.base import Agent

KNOWN = ("heuristic", "random", "scripted")


def make_agent(spec: str, name: str, *, seed: int = 0, answers: dict[str, Any] | None = None, **options: Any) -> Agent:
    if spec == "random":
        from agents.random_agent import RandomAgent

        return RandomAgent(name, seed=seed)
    if spec == "scripted":
        from agents.scripted import ScriptedAgent

        return ScriptedAgent(name, answers)
    if spec == "heuristic":
        from agents.heuristic import HeuristicAgent

        return HeuristicAgent(name, seed=seed)
    raise ValueError(f"unknown agent '{spec}' for {name} (known: {', '.join(KNOWN)})")

"""A game waiting on a slow model seat says so (``arena.patience``), never looks hung."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from rich.console import Console

from agents.base import Agent
from agents.random_agent import RandomAgent
from arena.patience import waiting_line, watch
from arena.play_loop import run_game
from engine import Game, GameSetup

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma"]


class SlowModel(Agent):
    """A seat that says it is a model and answers like the random bot, slowly."""

    spec = "openai:slow-model"

    def __init__(self, name: str, delay: float):
        super().__init__(name)
        self.inner = RandomAgent(name, seed=1)
        self.delay = delay

    def decide(self, view, decision) -> Any:
        return self.inner.decide(view, decision)

    async def adecide(self, view, decision) -> Any:
        await asyncio.sleep(self.delay)
        return self.inner.decide(view, decision)


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None), out


def test_a_slow_model_seat_is_named_with_its_wait():
    game = Game(GameSetup(names=NAMES, seed=3))
    agents: dict[str, Agent] = {n: RandomAgent(n, seed=i) for i, n in enumerate(NAMES)}
    agents["Alice"] = SlowModel("Alice", delay=0.06)
    console, out = _console()

    async def main() -> None:
        from arena.runner import run_async

        task = asyncio.create_task(watch(game, agents, console, after=0.02, every=0.0, tick=0.01))
        try:
            await asyncio.wait_for(run_async(game, agents), timeout=60)
        finally:
            task.cancel()

    asyncio.run(main())
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith("Waiting for Alice (openai:slow-model) on ") for line in lines)
    assert not any(n in line for line in lines for n in NAMES[1:])  # the bots are never waited on


def test_fast_seats_say_nothing():
    game = Game(GameSetup(names=NAMES, seed=3))
    agents = {n: RandomAgent(n, seed=i) for i, n in enumerate(NAMES)}
    console, out = _console()
    asyncio.run(run_game(game, agents, on_answer=None, console=console))
    assert game.over and out.getvalue() == ""


def test_the_line_counts_the_calls_made():
    class Rec:
        def __init__(self, latency: float):
            self.messages = [{"role": "user", "content": "?"}]
            self.latency_s = latency

    class Log:
        records = [Rec(4.0), Rec(6.0)]

    line = waiting_line([("Alice", "openai:m", "wolf_kill", 12.4), ("Chloe", "openai:m", "wolf_kill", 12.0)], Log())
    assert line == "Waiting for Alice (openai:m) on wolf kill, Chloe (openai:m) on wolf kill: 12 s. 2 model calls so far, 5.0 s each on average."

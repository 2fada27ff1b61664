"""A game waiting on a slow model seat says so (``arena.patience``), never looks hung."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from rich.console import Console

from agents.base import Agent
from agents.random_agent import RandomAgent
from arena.command import CliError
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


def _watched(game: Game, agents: dict[str, Agent], console: Console, **timing: Any) -> None:
    """Play ``game`` to its end with the watcher beside it (``timing``: its knobs)."""

    async def main() -> None:
        from arena.runner import run_async

        task = asyncio.create_task(watch(game, agents, console, **timing))
        try:
            await asyncio.wait_for(run_async(game, agents), timeout=60)
        finally:
            task.cancel()

    asyncio.run(main())


def test_a_slow_model_seat_is_named_with_its_wait():
    game = Game(GameSetup(names=NAMES, seed=3))
    agents: dict[str, Agent] = {n: RandomAgent(n, seed=i) for i, n in enumerate(NAMES)}
    agents["Alice"] = SlowModel("Alice", delay=0.06)
    console, out = _console()
    _watched(game, agents, console, after=0.02, every=0.0, tick=0.01)
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


def test_a_persons_screen_is_told_no_seat_and_no_decision():
    """With a person at the table the console is their screen: "Chloe on seer check" or
    "David on wolf chat" would deal them the cards the night hides."""
    line = waiting_line([("Chloe", "openai:m", "seer_check", 14.2), ("David", "openai:m", "wolf_chat", 3.0)], None, discreet=True)
    assert line == "Waiting for the model seats: 14 s."
    game = Game(GameSetup(names=NAMES, seed=3))
    agents: dict[str, Agent] = {n: SlowModel(n, delay=0.03) for n in NAMES}
    console, out = _console()
    _watched(game, agents, console, after=0.01, every=0.0, tick=0.005, discreet=True)
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith("Waiting for the model seats: ") for line in lines)
    kinds = {"seer check", "wolf kill", "wolf chat", "witch", "vote", "speak"}
    assert not any(n in line for line in lines for n in NAMES) and not any(k in line for line in lines for k in kinds)


def test_the_play_command_is_discreet_when_a_person_plays(monkeypatch):
    import arena.play_loop as loop

    seen: dict[str, bool] = {}

    async def fake_run_game(game, agents, on_answer, beliefs=None, console=None, calls=None, *, discreet=False):
        seen["discreet"] = discreet

    monkeypatch.setattr(loop, "run_game", fake_run_game)
    for humans, expected in (([], False), ([object()], True)):
        game = Game(GameSetup(names=NAMES, seed=3))
        console, _ = _console()
        screen = loop.Screen(console=console, humans=humans)
        monkeypatch.setattr(loop, "show_humans", lambda *a, **k: None)
        try:
            loop.play_to_end(game, {}, screen, writer=None, calls=None, json_out=False, quiet=False)
        except CliError:
            pass  # the game never ran (the runner is a stand-in): only what it was told matters
        assert seen.pop("discreet") is expected

"""A person at the table, playing one seat from the terminal.

Why ``adecide`` waits on a reader thread: the runner asks a batch's seats together,
so while the person thinks, the model seats of the same batch (a vote, a night) are
already answering. Why a time limit plays a *safe* default rather than failing the
game: a person who walks away should cost their seat a move, not the whole table its
game; passing where the rules allow it is the move that changes least, and otherwise
the heuristic bot's answer is a legal, deterministic one.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from rich.console import Console

from agents.base import Agent, SeatView
from agents.heuristic import HeuristicAgent
from agents.human_input import BadInput, option_label, parse_answer, pass_word
from agents.human_io import EndOfInput, LineReader, reader_for
from agents.human_view import SeatScreen
from engine.decisions import BOOL, MULTI, TEXT, Decision, GameError, IllegalAnswer


class HumanLeft(GameError):
    """The person closed their input (Ctrl-D): the game stops where it is, nothing is
    made up; ``werewolf play`` saves it and exits with status 3, to be resumed."""


class HumanAgent(Agent):
    spec = "human"

    def __init__(
        self,
        name: str,
        *,
        seed: int = 0,
        timeout: float | None = None,
        console: Console | None = None,
        reader: LineReader | None = None,
        language: str = "en",
    ):
        super().__init__(name)
        if timeout is not None and timeout <= 0:
            raise ValueError(f"the time limit for {name} must be a positive number of seconds, got {timeout}")
        self.seed = seed
        self.timeout = timeout
        self.reader = reader
        self.screen = SeatScreen(console or Console(highlight=False), name, language)
        self._fallback: Agent | None = None
        self._lock: asyncio.Lock | None = None

    def attach(self, console: Console) -> None:
        """Print to ``console`` (the CLI's: stderr when stdout carries JSON)."""
        self.screen.console = console

    def notify(self, view: SeatView) -> None:
        self.screen.follow(view.events)

    # ------------------------------------------------------------------ asking
    def decide(self, view: SeatView, decision: Decision) -> Any:
        return asyncio.run(self._ask(view, decision))  # a fresh loop each time: no lock to share

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one question at a time on one screen
            return await self._ask(view, decision)

    async def _ask(self, view: SeatView, decision: Decision) -> Any:
        self.screen.follow(view.events)
        reader = self._reader()
        if os.isatty(reader.fd):
            stale = reader.discard_pending()
            if stale:
                self.screen.note(f"(ignored what was typed before this question: {' / '.join(stale)})")
        loop = asyncio.get_running_loop()
        deadline = None if self.timeout is None else loop.time() + self.timeout
        self.screen.question(decision, self.timeout, self._default_text(decision) if self.timeout is not None else None, view.alive)
        while True:
            self.screen.prompt(decision)
            left = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                line = await reader.readline(left)
            except TimeoutError:
                answer = self._default(view, decision)
                self.screen.console.print()
                self.screen.problem(f"Time is up: {self._describe(decision, answer)}.")
                return answer
            except EndOfInput:
                self.screen.console.print()
                raise HumanLeft(f"{self.name} left the game (end of input, Ctrl-D)") from None
            except asyncio.CancelledError:  # Ctrl-C: the error then starts on a line of its own
                self.screen.console.print()
                raise
            finally:
                self.screen.closed()
            try:
                return parse_answer(decision, line, view.players, view.alive)
            except BadInput as e:
                self.screen.problem(f"{e}. Try again.")

    def _reader(self) -> LineReader:
        if self.reader is None:
            self.reader = reader_for(sys.stdin.fileno())
        return self.reader

    # ------------------------------------------------------------------ the default
    def _default(self, view: SeatView, decision: Decision) -> Any:
        """Pass where the rules allow it; otherwise the heuristic bot's legal answer."""
        if decision.can_pass:
            return decision.validate(decision.pass_answer)
        if self._fallback is None:
            self._fallback = HeuristicAgent(self.name, seed=self.seed)
        try:
            return decision.validate(self._fallback.decide(view, decision))
        except IllegalAnswer:  # the bot guarantees legality; this is belt and braces
            return decision.validate(list(decision.options[: decision.count]) if decision.shape == MULTI else decision.options[0])

    def _default_text(self, decision: Decision) -> str:
        if decision.shape == TEXT:
            return "you say nothing"
        if decision.can_pass:
            return "you " + (pass_word(decision) if decision.shape != BOOL else "answer no")
        return "a choice is made for you"

    def _describe(self, decision: Decision, answer: Any) -> str:
        if decision.shape == TEXT:
            return "you say nothing"
        if decision.shape == BOOL:
            return "you answer " + ("yes" if answer else "no")
        if answer is None:
            return "you " + pass_word(decision)
        picks = answer if isinstance(answer, list) else [answer]
        return "playing " + " and ".join(option_label(decision, p) for p in picks) + " for you"

"""Before the first decision: every model endpoint of a table answers, or nothing starts.

A model seat that cannot reach its model does not stop a game: its fallback bot plays
for it (``agents.llm.agent``), which is what an unattended tournament needs once it is
running. At the start it is the opposite: a typo in a URL, a server not started, a
model name the server does not know would give a normal-looking game that no model
played. So ``werewolf play`` (and ``play --resume``, ``fork``), ``werewolf
tournament`` and a web game check first: each distinct endpoint (back end, address,
model and key; seats sharing one are checked once) gets one cheap request
(``agents.llm.probe``), all at once. A failure is one line naming the seats, the
model, the address (never a key) and the error.

``--allow-fallbacks`` (``allow_fallbacks: true`` in a tournament file) plays on: the
line becomes a warning, and in a single game the seats whose model did not answer are
played by their fallback bot from the first decision, each decision recorded as a
fallback with the check's error (rather than every decision waiting out the retries
of a dead server).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from agents.base import Agent
from agents.llm.probe import ProbeResult, probe
from arena.command import CliError

ALLOW_FLAG = "--allow-fallbacks"
SLOW = 5.0  # seconds of checking before the user is told what it waits for


@dataclass(frozen=True)
class Unanswered:
    """An endpoint that did not answer, and the seats that use it."""

    seats: tuple[str, ...]
    model: str  # the seats' spec, e.g. openai:gpt-5.4-mini
    address: str
    error: str

    def __str__(self) -> str:
        return self.describe()

    def describe(self, noun: str = "seat") -> str:
        """``seat Alice (openai:m at http://...): error``; ``noun`` names what the seats
        are (a tournament's participants)."""
        who = f"{noun} " if len(self.seats) == 1 else f"{noun}s "
        return f"{who}{', '.join(self.seats)} ({self.model} at {self.address}): {self.error}"


def model_agents(agents: Mapping[str, Agent]) -> dict[str, Any]:
    """The table's model seats (anything with a ``backend``: ``LLMAgent``, and the
    remote seats built on it, whose check reads the agent card: ``agents.a2a``)."""
    return {name: agent for name, agent in agents.items() if getattr(agent, "backend", None) is not None}


async def check(agents: Mapping[str, Agent], *, close: bool = True, say: Callable[[str], None] | None = None) -> list[Unanswered]:
    """Probe every distinct endpoint of ``agents``' model seats at once; the ones that
    did not answer, in seat order. With ``close``, the connections the checks opened
    are closed in this event loop (a game played in another loop opens its own).
    ``say`` is told once which endpoints keep the check waiting past ``SLOW`` seconds
    (a server that accepts and never answers is waited for as the seat's time limit
    and retries say), so a slow start never looks like a hung command."""
    groups: dict[tuple[Any, ...], list[tuple[str, Any]]] = {}
    models = model_agents(agents)
    for name, agent in models.items():
        groups.setdefault(agent.backend.probe_key, []).append((name, agent))
    tasks = [asyncio.ensure_future(probe(seats[0][1].backend)) for seats in groups.values()]
    try:
        if say is not None:
            await asyncio.wait(tasks, timeout=SLOW)
            waiting = [seats[0][1] for seats, task in zip(groups.values(), tasks) if not task.done()]
            if waiting:
                say(waiting_line(waiting))
        results: list[ProbeResult] = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        if close:
            await asyncio.gather(*(agent.aclose() for agent in models.values()))
    out = []
    for seats, result in zip(groups.values(), results):
        if not result.ok:
            agent = seats[0][1]
            out.append(Unanswered(tuple(name for name, _ in seats), agent.spec, agent.backend.address, result.error))
    return out


def waiting_line(agents: Iterable[Any]) -> str:
    """Which endpoints the check still waits for, and how long it may wait."""
    told = []
    for agent in agents:
        o = agent.options
        told.append(f"{agent.spec} at {agent.backend.address} (up to {o.max_retries + 1} tries, at most {o.retry_total:g} s of retrying)")
    return f"Checking the model seats before the game: still waiting for {', '.join(told)}"


async def check_spec(spec: Any) -> list[Unanswered]:
    """``check`` for a table not seated yet (a ``GameSpec``: the web's, before its game
    and transcript exist): its model and remote seats are made for the check alone."""
    if not any(seat.is_remote for seat in spec.seats):
        return []
    _, agents = spec.build()
    return await check(agents)


def run_check(agents: Mapping[str, Agent], say: Callable[[str], None] | None = None) -> list[Unanswered]:
    """``check`` from synchronous code, in an event loop of its own."""
    if not model_agents(agents):
        return []
    return asyncio.run(check(agents, say=say))


def refusal(failures: Iterable[Unanswered], *, flag: str | None = ALLOW_FLAG, noun: str = "seat", what: str = "the game") -> str:
    """The one line that stops a command (``flag`` names the way to play on anyway)."""
    told = "; ".join(f.describe(noun) for f in failures)
    hint = f"check the address and the model, or {flag} to play on with the fallback bot" if flag else "check the address and the model"
    return f"a model did not answer before {what}, so nothing was started: {told} ({hint})"


def warning(failures: Iterable[Unanswered], *, noun: str = "seat", what: str = "the game") -> str:
    told = "; ".join(f.describe(noun) for f in failures)
    return f"a model did not answer before {what}; the fallback bot plays for it: {told}"


def play_without(agents: Mapping[str, Agent], failures: Iterable[Unanswered]) -> None:
    """The seats of ``failures`` are not asked in this game: their fallback bot answers
    at once, each decision recorded as a fallback with the check's error."""
    for f in failures:
        for name in f.seats:
            agents[name].disabled = f"no answer before the game: {f.error}"  # type: ignore[attr-defined]


def before_play(agents: Mapping[str, Agent], *, allow_fallbacks: bool, writer: Any = None) -> list[Unanswered]:
    """The check of a game played at this terminal (``play``, ``play --resume``,
    ``fork``): ``CliError`` (exit 2) with the one line when a model did not answer,
    ``writer`` (a transcript already open) closed first; with ``allow_fallbacks`` a
    warning on stderr instead, and those seats played by their fallback bot."""
    failures = run_check(agents, say=lambda line: print(line, file=sys.stderr, flush=True))
    if failures and not allow_fallbacks:
        if writer is not None:
            writer.close()
        raise CliError(refusal(failures))
    if failures:
        play_without(agents, failures)
        print(f"warning: {warning(failures)}", file=sys.stderr, flush=True)
    return failures

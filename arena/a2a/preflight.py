"""Before the first decision: every remote seat's agent card is read.

Why at set-up: an agent that cannot be reached would otherwise have every decision
of its seat played by the fallback bot, in a game that looks normal and is rated as
that agent's. Reading the card is the cheapest request an agent answers, and the one
a client must make anyway (it says where messages go), so a command that seats an
unreachable agent stops before anything is played, with one line naming the seat,
the address and why (exit 2 at the terminal, HTTP 400 on the web, an A2A error for
the assessor's tasks).
"""

from __future__ import annotations

import asyncio
from typing import Any, Mapping

from agents.a2a.spec import is_a2a_spec
from arena.command import CliError
from arena.gamefile import GameSpec, make_seat_agent


class RemoteUnreachable(ValueError):
    """A remote seat's agent cannot be used; the message names the seat and says why."""


def remote_seats(agents: Mapping[str, Any]) -> list[Any]:
    """The table's remote seats (``agents.a2a.A2AAgent``): the agents that can read a card."""
    return [a for a in agents.values() if callable(getattr(a, "preflight", None)) and str(getattr(a, "spec", "")).startswith("a2a:")]


async def aread_cards(agents: Mapping[str, Any]) -> None:
    """Read every remote seat's card at once; ``RemoteUnreachable`` for the first
    seat (in table order) whose card cannot be read."""
    seats = remote_seats(agents)
    if not seats:
        return
    from agents.a2a.transport import Unreachable  # the SDK: loaded only for a table with remote seats

    results = await asyncio.gather(*(a.preflight() for a in seats), return_exceptions=True)
    for agent, result in zip(seats, results):
        if isinstance(result, Unreachable):
            raise RemoteUnreachable(f"{agent.name} ({agent.spec}): {result}")
        if isinstance(result, BaseException):
            raise result


async def aread_spec_cards(spec: GameSpec) -> None:
    """``aread_cards`` for a table not seated yet (the web's start form): its remote
    seats are made for the check alone, so nothing of the game exists if it fails.
    ``GameFileError`` for a seat that cannot be made (a token's variable unset)."""
    seats: dict[str, Any] = {s.name: make_seat_agent(s, 0, language=spec.language) for s in spec.seats if is_a2a_spec(s.agent)}
    try:
        await aread_cards(seats)
    finally:
        for agent in seats.values():
            await agent.aclose()


def read_cards(agents: Mapping[str, Any]) -> None:
    """``aread_cards`` from synchronous code (a command before its game's loop)."""
    if remote_seats(agents):
        asyncio.run(aread_cards(agents))


def check_cards(agents: Mapping[str, Any]) -> None:
    """``read_cards`` for a command: ``CliError`` (exit 2) with the seat's line."""
    try:
        read_cards(agents)
    except RemoteUnreachable as e:
        raise CliError(str(e)) from None

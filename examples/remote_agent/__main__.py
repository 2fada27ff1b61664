"""An example remote agent: any Werewolf seat, played over the A2A protocol.

    python -m examples.remote_agent --port 9100
    werewolf play --seat Alice=a2a:http://127.0.0.1:9100

An A2A server (the official ``a2a-sdk``, ``pip install 'werewolf-arena[a2a]'``) on
127.0.0.1 that answers every decision the arena sends it. Its mind is the arena's
own heuristic bot, so it plays legally and sensibly; copy this file and replace
``Seat.answer`` with yours. What the arena sends and what it reads back are in
docs/REMOTE_AGENTS.md; in short, each message holds the seat's view as text (what a
language model would be told) and as JSON (a text part of media type
``application/json``: ``decision``, ``events``, ``answer_schema``, ``time_left_s``), and
the reply is the answer object, here as a data part.

One seat per A2A context: the arena opens one context per seat and game, so the
agent keeps each seat's memory (here the events it was sent, for the bot to read)
under the context's id, and can serve a whole table at once.
"""

from __future__ import annotations

import argparse
import json
import os
import zlib
from collections import OrderedDict
from typing import Any

os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")  # no tracing nobody collects

import uvicorn  # noqa: E402
from a2a.helpers import new_data_part, new_message, new_text_part  # noqa: E402
from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore  # noqa: E402
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, UnsupportedOperationError  # noqa: E402
from starlette.applications import Starlette  # noqa: E402

from agents.base import SeatView  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.a2a.wire import PROTOCOL, jsonable, whole_numbers  # noqa: E402
from engine.decisions import DECISION_KINDS, Decision, Shape  # noqa: E402
from engine.events import PUBLIC, Event, private  # noqa: E402

MAX_SEATS = 1000  # seats remembered at once; the oldest is forgotten first


class Seat:
    """One seat of one game: what it was shown, and the bot that reads it."""

    def __init__(self, name: str, language: str):
        self.name = name
        self.events: list[Event] = []
        self.bot = HeuristicAgent(name, seed=zlib.crc32(name.encode()), language=language)

    def answer(self, data: dict[str, Any]) -> dict[str, Any]:
        """The answer object for one message: ``{"action": ...}``, a speech's
        ``{"text": ...}``, or the beliefs question's ``{"probabilities": {...}}``."""
        for e in data["events"]:
            if self.events and e["seq"] <= self.events[-1].seq:
                continue  # sent again after a message that got no reply in time: already known
            audience = PUBLIC if e["public"] else private(self.name)  # the bot needs no other name
            self.events.append(Event.recorded(e["seq"], e["kind"], e["day"], e["phase"], audience, e["data"]))
        view = SeatView(self.name, list(self.events))
        d = data["decision"]
        if d["kind"] == "beliefs":
            return {"probabilities": self.bot.beliefs(view)}
        decision = Decision(
            id=d["id"], seat=self.name, kind=DECISION_KINDS.get(d["kind"], d["kind"]), shape=Shape(d["shape"]),  # type: ignore[arg-type]
            options=tuple(d["options"]), allow_pass=d["allow_pass"], count=d["count"], context=d["context"],
        )  # fmt: skip
        move = jsonable(self.bot.decide(view, decision))
        if decision.shape == Shape.TEXT:
            return move if isinstance(move, dict) else {"text": move}
        return {"action": move}


class WerewolfAgent(AgentExecutor):
    """The A2A side: one reply message per message, each seat kept by its context."""

    def __init__(self) -> None:
        self.seats: OrderedDict[str, Seat] = OrderedDict()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        data = decision_data(context.message)
        if data.get("protocol") != PROTOCOL:
            reply = [new_text_part(f"I play Werewolf seats for the Werewolf Arena: send its {PROTOCOL} messages.")]
        else:
            reply = [new_data_part(self.seat(context.context_id or "", data).answer(data))]
        await event_queue.enqueue_event(new_message(reply, context_id=context.context_id))

    def seat(self, context_id: str, data: dict[str, Any]) -> Seat:
        seat = self.seats.get(context_id)
        if seat is None:
            seat = self.seats[context_id] = Seat(data["seat"], data.get("language", "en"))
            while len(self.seats) > MAX_SEATS:
                self.seats.popitem(last=False)
        self.seats.move_to_end(context_id)
        return seat

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise UnsupportedOperationError(message="a decision is answered at once; there is nothing to cancel")


def decision_data(message: Any) -> dict[str, Any]:
    """The message's JSON part (``application/json``), or {} when it has none."""
    for part in message.parts if message is not None else []:
        if part.HasField("text") and part.media_type == "application/json":
            try:
                data = json.loads(part.text)
            except json.JSONDecodeError:
                return {}
            return whole_numbers(data) if isinstance(data, dict) else {}
    return {}


def agent_card(url: str) -> AgentCard:
    return AgentCard(
        name="Werewolf example agent",
        description="Plays any seat of a Werewolf Arena game (its mind: the arena's heuristic bot).",
        version="1.0.0",
        supported_interfaces=[AgentInterface(url=url + "/", protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["application/json"],
        skills=[
            AgentSkill(
                id="werewolf-seat",
                name="Play a Werewolf seat",
                description=f"Answers each decision of one seat ({PROTOCOL} messages), one A2A context per seat and game.",
                tags=["werewolf", "game"],
            )
        ],
    )


def app(host: str, port: int) -> Starlette:
    card = agent_card(f"http://{host}:{port}")
    handler = DefaultRequestHandler(agent_executor=WerewolfAgent(), task_store=InMemoryTaskStore(), agent_card=card)
    return Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/"))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m examples.remote_agent", description="An example remote Werewolf agent (A2A).")
    p.add_argument("--port", type=int, default=9100, help="the port to listen on (default 9100)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    args = p.parse_args(argv)
    uvicorn.run(app(args.host, args.port), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()

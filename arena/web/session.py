"""A game being played on the server, and the streams its pages follow.

Why the game runs as a task of the server's own event loop: the runner asks every
pending decision of a batch at once (``arena.runner.run_async``), so model seats
answer while the person thinks, and the person's answer is just a future the page's
POST resolves. Why every page gets a full snapshot on (re)connection and then only
updates: a reload or a dropped socket must lose nothing, and the server, not the
page, is where the game's state lives. Each connection's lens filters what it is
sent, and every message sent on it is kept (``Channel.sent``) so what a browser
received can be audited.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from pathlib import Path
from typing import Any

from agents.base import Agent, SeatView
from agents.llm.accounting import CallLog
from arena.gamefile import HUMAN, GameSpec, header_for, seat_seed
from arena.runner import run_async
from engine.decisions import Decision, GameError, IllegalAnswer
from transcripts.schema import CallRecord
from transcripts.views import reasoning_of
from transcripts.writer import TranscriptWriter

from arena.web.lens import FULL_LENS, Lens
from arena.web.questions import given, question
from arena.web.render import card, entries, players, role_names
from arena.web.web_agent import WebAgent

log = logging.getLogger("werewolf.web")


class Channel:
    """One open connection: its lens, its outbox, and everything it was sent."""

    def __init__(self, lens: Lens):
        self.lens = lens
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def next(self) -> dict[str, Any]:
        return await self.queue.get()


class Paced(Agent):
    """A bot that waits a moment before it speaks, so a person can read the debate
    as it unfolds instead of finding it all written at once."""

    def __init__(self, inner: Agent, pace: float):
        super().__init__(inner.name)
        self.inner = inner
        self.pace = pace
        self.spec = inner.spec

    def decide(self, view: SeatView, decision: Decision) -> Any:
        return self.inner.decide(view, decision)

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        if decision.kind == "speak":
            await asyncio.sleep(self.pace)
        return await self.inner.adecide(view, decision)

    def close(self) -> None:
        self.inner.close()


class GameSession:
    """One game: its engine state, agents, transcript, tokens and open connections."""

    def __init__(self, spec: GameSpec, *, transcripts_dir: Path, pace: float = 0.0):
        self.spec = spec
        self.id = secrets.token_hex(4)
        self.watch_token = secrets.token_urlsafe(18)
        self.host_token = secrets.token_urlsafe(24)
        self.created = time.time()
        self.calls = CallLog()
        self.game, agents = spec.build(calls=self.calls)
        self.names = [s.name for s in spec.seats]
        self.web_seats: dict[str, WebAgent] = {}
        for i, seat in enumerate(spec.seats):
            if seat.agent == HUMAN:
                agent = WebAgent(seat.name, seed=seat_seed(spec.seed, i), timeout=seat.timeout, language=spec.language)
                agent.on_change = self._seat_changed
                agents[seat.name] = self.web_seats[seat.name] = agent
            elif pace > 0 and not seat.is_model:
                agents[seat.name] = Paced(agents[seat.name], pace)
        self.agents: dict[str, Agent] = agents
        self.seat_tokens: dict[str, str] = {secrets.token_urlsafe(18): name for name in self.web_seats}
        transcripts_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.created))
        self.transcript = transcripts_dir / f"web-{stamp}-{self.id}.jsonl"
        self.writer = TranscriptWriter(self.transcript, header_for(spec, self.game))
        self.calls.subscribe(self.writer.call)
        self.calls.subscribe(self._on_call)
        self.thoughts: list[dict[str, Any]] = []
        self.status = "running"  # running | over | failed | stopped
        self.error: str | None = None
        self.channels: set[Channel] = set()
        self.history: list[Channel] = []  # every channel ever opened, for audits and tests
        self._published = 0
        self.task: asyncio.Task | None = None

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"werewolf game {self.id}")

    @property
    def over(self) -> bool:
        return self.status != "running"

    async def _run(self) -> None:
        self.writer.sync_events(self.game)  # the deal and the first night's opening, before any answer
        self.publish()
        try:
            await run_async(self.game, self.agents, on_answer=self._on_answer, limit=max(16, len(self.agents)))
        except asyncio.CancelledError:
            self._stop("stopped", "the game was stopped by the host")
        except (GameError, IllegalAnswer) as e:
            self._stop("failed", str(e))
        except Exception as e:  # a bug: keep the record and tell the pages, never kill the server
            log.exception("game %s failed", self.id)
            self._stop("failed", f"internal error: {e!r}")
        else:
            if self.game.over:
                self.writer.result(self.game)
                self.status = "over"
            else:
                self._stop("failed", "the game stopped before reaching an end (no decision was pending)")
        finally:
            self.writer.close()
            for agent in self.agents.values():
                inner = getattr(agent, "inner", agent)
                aclose = getattr(inner, "aclose", None)
                try:
                    if aclose is not None:
                        await aclose()
                    agent.close()
                except Exception:  # closing is best effort
                    log.debug("closing %s failed", agent.name, exc_info=True)
            self.publish()

    def _stop(self, status: str, message: str) -> None:
        self.status, self.error = status, message
        self.writer.error(self.game, message)

    def stop(self) -> bool:
        """The host ends the game where it is; the transcript says why."""
        if self.task is None or self.task.done():
            return False
        self.task.cancel()
        return True

    def _on_answer(self, game: Any, decision: Decision, answer: Any, agent: Agent) -> None:
        self.writer.on_answer(game, decision, answer, agent)
        seat = self.web_seats.get(decision.seat)
        if seat is not None:
            seat.settled(decision.id)
        self.publish()

    def _on_call(self, record: CallRecord) -> None:
        reasoning = reasoning_of(record)
        if not reasoning:
            return
        thought = {
            "seat": record.seat,
            "kind": record.kind,
            "day": record.day,
            "decision": record.decision,
            "model": record.display_name or record.model,
            "text": reasoning,
            "after": self._published,  # the page shows it after the events already out
        }
        self.thoughts.append(thought)
        for ch in list(self.channels):
            if ch.lens.full:
                ch.push({"type": "thought", "thought": thought})

    def _seat_changed(self, seat: str) -> None:
        self.publish(seat=seat)

    # ------------------------------------------------------------------ what pages receive
    def publish(self, seat: str | None = None) -> None:
        """Send each connection the events it may see since the last publish, with the
        state around them. ``seat``: only that seat's questions changed."""
        events = self.game.events
        new = events[self._published :]
        self._published = len(events)
        for ch in list(self.channels):
            if seat is not None and not new and ch.lens.seat != seat:
                continue
            ch.push(self.message("update", ch.lens, new))

    def message(self, kind: str, lens: Lens, events: list) -> dict[str, Any]:
        seen = lens.filter(self.game.events[: self._published])
        out: dict[str, Any] = {
            "type": kind,
            "view": lens.kind,
            "events": entries(events, lens, self.spec.language),
            "status": self.status,
            "error": self.error,
            "players": players(self.names, seen, lens, self.spec.language),
            "speaking": self._speaking(),
            "links": self.links(lens),
            "me": lens.seat,
        }
        if kind == "snapshot":
            out["roles"] = role_names(self.spec.language)
        if lens.seat is not None:
            out["card"] = card(seen, lens.seat, self.spec.language)
            agent = self.web_seats.get(lens.seat)
            if agent is not None:
                out["pending"] = [question(agent, q, self.spec.language) for q in list(agent.questions.values())]
                out["given"] = [given(agent, g) for g in agent.given.values()]
                out["notes"] = list(agent.notes)
        if lens.full:
            out["waiting"] = [{"seat": d.seat, "kind": d.kind} for d in self.game.waiting] if not self.over else []
            if kind == "snapshot":
                out["thoughts"] = list(self.thoughts)
        return out

    def snapshot(self, lens: Lens) -> dict[str, Any]:
        return self.message("snapshot", lens, self.game.events[: self._published])

    def _speaking(self) -> str | None:
        """Whose turn it is to speak: public at the table, unlike who is awake at night."""
        if self.over:
            return None
        waiting = self.game.waiting
        if len(waiting) == 1 and waiting[0].kind == "speak":
            return waiting[0].seat
        return None

    def links(self, lens: Lens) -> dict[str, Any]:
        out: dict[str, Any] = {"watch": f"/watch/{self.watch_token}"}
        if self.over or lens.full:
            out["full"] = f"/watch/{self.watch_token}/full"
            out["transcript"] = str(self.transcript)
            out["download"] = f"/api/watch/{self.watch_token}/transcript" if self.over else f"/api/host/{self.host_token}/transcript"
        return out

    def subscribe(self, lens: Lens) -> Channel:
        """A new connection: it gets the snapshot first, then every later update."""
        ch = Channel(lens)
        ch.push(self.snapshot(lens))
        self.channels.add(ch)
        self.history.append(ch)
        return ch

    def unsubscribe(self, ch: Channel) -> None:
        self.channels.discard(ch)

    # ------------------------------------------------------------------ the person's answers
    def answer(self, seat: str, decision_id: int, value: Any) -> Any:
        return self.web_seats[seat].answer(decision_id, value)

    def summary(self) -> dict[str, Any]:
        """What the creator of the game is told: every address of it."""
        return {
            "id": self.id,
            "seats": {name: f"/play/{token}" for token, name in self.seat_tokens.items()},
            "watch": f"/watch/{self.watch_token}",
            "host": f"/host/{self.host_token}",
            "transcript": str(self.transcript),
        }


class SessionStore:
    """Every game of this server, found by its tokens only."""

    def __init__(self, transcripts_dir: Path):
        self.transcripts_dir = transcripts_dir
        self.sessions: dict[str, GameSession] = {}
        self._seat: dict[str, tuple[GameSession, str]] = {}
        self._watch: dict[str, GameSession] = {}
        self._host: dict[str, GameSession] = {}

    def create(self, spec: GameSpec, pace: float = 0.0) -> GameSession:
        from arena.web.table_form import MAX_RUNNING

        if sum(1 for s in self.sessions.values() if not s.over) >= MAX_RUNNING:
            raise RuntimeError(f"this server already plays {MAX_RUNNING} games; stop one first")
        session = GameSession(spec, transcripts_dir=self.transcripts_dir, pace=pace)
        self.sessions[session.id] = session
        for token, name in session.seat_tokens.items():
            self._seat[token] = (session, name)
        self._watch[session.watch_token] = session
        self._host[session.host_token] = session
        session.start()
        return session

    def by_seat(self, token: str) -> tuple[GameSession, str] | None:
        return self._seat.get(token)

    def by_watch(self, token: str) -> GameSession | None:
        return self._watch.get(token)

    def by_host(self, token: str) -> GameSession | None:
        return self._host.get(token)

    async def shutdown(self) -> None:
        """Stop every running game; each transcript records why it stopped."""
        tasks = [s.task for s in self.sessions.values() if s.task is not None and not s.task.done()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["Channel", "GameSession", "SessionStore", "FULL_LENS"]

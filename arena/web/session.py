"""A game being played on the server, and the streams its pages follow.

Why the game runs as a task of the server's own event loop: the runner asks every
pending decision of a batch at once (``arena.runner.run_async``), so model seats
answer while the person thinks, and the person's answer is just a future the page's
POST resolves. Why every page gets a full snapshot on (re)connection and then only
updates: a reload or a dropped socket must lose nothing, and the server, not the
page, is where the game's state lives. Each connection's lens filters what it is
sent. A closed connection leaves nothing behind (a long-running server stays the size
it was over thousands of them): only a server made to audit (``create_app(audit=True)``,
the tests) keeps every connection and every message sent on it (``GameSession.history``,
``Channel.sent``), to check what a browser received.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Sequence

from agents.base import Agent, SeatView
from agents.llm.accounting import CallLog
from agents.llm.streaming import Draft
from arena.beliefs import BeliefPoll, poll_for
from arena.catchup import spec_from_header
from arena.command import CliError
from arena.gamefile import HUMAN, GameSpec, header_for, seat_seed
from arena.model_trouble import FailureWatch, Notice, words
from arena.resume import prepare_resume
from arena.runner import run_async
import arena.web.persist as persist
from arena.web.index import GameIndex
from arena.web.lens import FULL_LENS, Lens
from arena.web.persist import Keys, digest
from arena.web.questions import given, question
from arena.web.render import card, entries, players, role_names
from arena.web.table_form import MAX_RUNNING
from arena.web.web_agent import AnswerRefused, WebAgent
from engine.decisions import Decision, GameError, IllegalAnswer
from engine.speech import SPEAK
from transcripts.schema import BeliefRecord, CallRecord, ErrorRecord, EventRecord
from transcripts.verify import Status, verify_file
from transcripts.views import reasoning_of
from transcripts.writer import TranscriptWriter
from engine.presets import get_preset
import arena.people_games as people_games
from arena.tournament.store import StoreError

log = logging.getLogger("werewolf.web")

KEEP_FINISHED = 8  # finished games kept in memory after a page opened them (about 0.2 MB each)
INTERRUPTED = "interrupted: the server stopped (it plays the game on when it starts again)"


class Channel:
    """One open connection: its lens, its outbox, and, when audited, everything it was sent."""

    def __init__(self, lens: Lens, *, audited: bool = False):
        self.lens = lens
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] | None = [] if audited else None

    def push(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def next(self) -> dict[str, Any]:
        return await self.queue.get()

    def delivered(self, message: dict[str, Any]) -> None:
        """``message`` went out on the connection: kept when audited."""
        if self.sent is not None:
            self.sent.append(message)


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
        if decision.kind == SPEAK:
            await asyncio.sleep(self.pace)
        return await self.inner.adecide(view, decision)

    def close(self) -> None:
        self.inner.close()


class GameSession:
    """One game: its engine state, agents, transcript, tokens and open connections.

    Made three ways: ``new`` (a table set up in the browser), ``resumed`` (a game this
    server was playing when it stopped, caught up with its transcript by ``play
    --resume``'s machinery) and ``finished`` (a game that had ended: its pages still
    open, nothing is played)."""

    def __init__(
        self,
        spec: GameSpec,
        game: Any,
        agents: dict[str, Agent],
        *,
        transcript: Path,
        keys: Keys,
        id: str,
        created: float,
        pace: float = 0.0,
        calls: CallLog | None = None,
        writer: TranscriptWriter | None = None,
        beliefs: BeliefPoll | None = None,
        records: Sequence[Any] = (),  # a transcript's records: its thoughts and beliefs are shown again
    ):
        self.spec, self.game, self.keys, self.id, self.created, self.pace = spec, game, keys, id, created, pace
        self.transcript, self.writer, self.calls, self.poll = transcript, writer, calls, beliefs
        self.names = [s.name for s in spec.seats]
        self.web_seats: dict[str, WebAgent] = {}
        self.kept_notes: dict[str, list[str]] = {}  # a finished game's seats' notes, read back from its file
        agents = dict(agents)
        for i, seat in enumerate(spec.seats):
            if seat.agent == HUMAN:
                # The seated agent's limit: a resumed record may have changed the header's (time_limit).
                timeout = getattr(agents.get(seat.name), "timeout", seat.timeout)
                agent = WebAgent(seat.name, seed=seat_seed(spec.seed, i), timeout=timeout, language=spec.language)
                agent.on_change = self._seat_changed
                agents[seat.name] = self.web_seats[seat.name] = agent
            elif pace > 0 and not seat.is_remote and seat.name in agents:
                agents[seat.name] = Paced(agents[seat.name], pace)
        self.agents: dict[str, Agent] = agents
        # Model seats' speeches as they are written (``agents.llm.streaming``): the
        # draft of each seat speaking now, and the seats whose server cannot stream.
        self.live: dict[str, dict[str, Any]] = {}
        self._unstreamed: set[str] = set()
        for seated in agents.values():
            inner = getattr(seated, "inner", seated)
            if hasattr(inner, "drafts"):
                inner.drafts = self._on_draft
        self.thoughts: list[dict[str, Any]] = []
        self.beliefs: list[dict[str, Any]] = []
        self.troubles: list[dict[str, Any]] = []  # model seats that stopped answering: the host's news
        self.failures: FailureWatch | None = None  # reads the calls of a game being played
        seen = 0
        for r in records:
            if isinstance(r, EventRecord):
                seen += 1
            elif isinstance(r, CallRecord):
                self._thought(r, seen)
            elif isinstance(r, BeliefRecord):
                self._belief(r, seen)
        if calls is not None:
            if writer is not None:
                calls.subscribe(writer.call)
            calls.subscribe(self._on_call)
            self.failures = FailureWatch(disabled=lambda seat: bool(getattr(self.agents.get(seat), "disabled", None)))
            self.failures.subscribe(self._on_trouble)
            calls.subscribe(self.failures)
        if beliefs is not None:
            beliefs.subscribe(self._on_belief)
        self.status = "running"  # running | over | failed | stopped
        self.error: str | None = None
        self.interrupted = False  # the server is stopping: the game resumes when it starts again
        self.channels: set[Channel] = set()
        self.history: list[Channel] | None = None  # every channel ever opened, when audited (SessionStore's audit)
        self._published = 0
        self.task: asyncio.Task | None = None
        self.people_db: Path | None = None  # set by the store: record the game there when it ends
        self.clock = time.monotonic()

    # ------------------------------------------------------------------ three ways in
    @classmethod
    def new(cls, spec: GameSpec, *, transcripts_dir: Path, pace: float = 0.0) -> "GameSession":
        calls = CallLog()
        game, agents = spec.build(calls=calls)
        id, created = secrets.token_hex(4), time.time()
        transcripts_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(created))
        transcript = transcripts_dir / f"web-{stamp}-{id}.jsonl"
        writer = TranscriptWriter(transcript, header_for(spec, game))
        keys = Keys.new([s.name for s in spec.seats if s.agent == HUMAN])
        session = cls(
            spec, game, agents, transcript=transcript, keys=keys, id=id, created=created, pace=pace,
            calls=calls, writer=writer, beliefs=poll_for(spec.beliefs, writer),
        )  # fmt: skip
        session.save()
        return session

    @classmethod
    def resumed(cls, transcript: Path, meta: dict[str, Any]) -> "GameSession":
        """The game of ``transcript`` caught up with its record, appending to it;
        ``CliError`` when it cannot be (it ended, it does not verify, a seat cannot be
        seated again)."""
        cont = prepare_resume(str(transcript))
        t = cont.verification.transcript
        assert t is not None
        spec = spec_from_header(t.header)
        session = cls(
            spec, cont.game, cont.agents, transcript=transcript, keys=Keys.from_json(meta["keys"]), id=str(meta["id"]),
            created=float(meta.get("created") or 0), pace=float(meta.get("pace") or 0), calls=cont.calls, writer=cont.writer,
            beliefs=poll_for(spec.beliefs, cont.writer, recorded=cont.caught.beliefs), records=t.records,
        )  # fmt: skip
        return session

    @classmethod
    def finished(cls, transcript: Path, meta: dict[str, Any], error: str | None = None) -> "GameSession | None":
        """A game that is not played any more, as far as its transcript goes (``None``
        when it cannot be read at all); ``error`` overrides the recorded reason."""
        v = verify_file(transcript)
        t = v.transcript
        if t is None or v.game is None or v.status is Status.UNREADABLE:
            return None
        try:
            spec = spec_from_header(t.header)
        except CliError:
            return None
        session = cls(
            spec, v.game, {}, transcript=transcript, keys=Keys.from_json(meta["keys"]), id=str(meta["id"]),
            created=float(meta.get("created") or 0), records=t.records,
        )  # fmt: skip
        stops = [r.message for r in t.records if isinstance(r, ErrorRecord)]
        if v.status is Status.OK:
            session.status = "over"
        else:
            status = meta.get("status")
            session.status = status if status in ("stopped", "failed") else "failed"
            session.error = error or (stops[-1] if stops else "the game stopped before reaching an end")
        session._published = len(session.game.events)
        notes = meta.get("notes")
        if isinstance(notes, dict):
            session.kept_notes = {str(k): [str(n) for n in v] for k, v in notes.items() if isinstance(v, list)}
        return session

    def save(self) -> None:
        """The game's file (``arena.web.persist``): digests of its tokens, its pace, its status."""
        persist.save(
            self.transcript,
            {
                "id": self.id,
                "created": self.created,
                "transcript": self.transcript.name,
                "pace": self.pace,
                "status": self.status,
                "keys": self.keys.to_json(),
                # what happened to each person's seat outside the events (a time limit's
                # default), which the transcript does not record: kept for the seat's page
                # once the game is over and its agents are gone
                "notes": {name: list(agent.notes) for name, agent in self.web_seats.items() if agent.notes} or self.kept_notes,
            },
        )

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"werewolf game {self.id}")

    @property
    def over(self) -> bool:
        return self.status != "running"

    async def _run(self) -> None:
        assert self.writer is not None
        self.writer.sync_events(self.game)  # the deal and the first night's opening, before any answer
        self.publish()
        try:
            await run_async(self.game, self.agents, on_answer=self._on_answer, limit=max(16, len(self.agents)), beliefs=self.poll)
        except asyncio.CancelledError:
            if self.interrupted:
                self._stop("stopped", INTERRUPTED)
            else:
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
            if not self.interrupted:
                self._save_quietly()
                self._to_people_db()
            self.publish()

    def _to_people_db(self) -> None:
        """A game with a person, recorded for the ratings: finished, or abandoned
        (stopped by the host, failed), never rated (``arena.people_games``)."""
        if self.people_db is None or not any(s.agent == HUMAN for s in self.spec.seats):
            return
        try:
            if self.status == "over":
                started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.created))
                people_games.record_finished(self.people_db, self.spec, self.game, self.transcript, started=started, seconds=time.monotonic() - self.clock)
            else:
                people_games.record_abandoned(self.people_db, self.spec, self.transcript, self.error or self.status)
        except (StoreError, OSError, sqlite3.Error):
            log.warning("game %s: cannot be recorded in %s", self.id, self.people_db, exc_info=True)

    def _save_quietly(self) -> None:
        try:
            self.save()
        except OSError:
            log.warning("cannot save the state of game %s", self.id, exc_info=True)

    def _stop(self, status: str, message: str) -> None:
        self.status, self.error = status, message
        assert self.writer is not None
        self.writer.error(self.game, message)

    def stop(self) -> bool:
        """The host ends the game where it is; the transcript says why."""
        if self.task is None or self.task.done():
            return False
        self.task.cancel()
        return True

    def _on_answer(self, game: Any, decision: Decision, answer: Any, agent: Agent) -> None:
        assert self.writer is not None
        self.writer.on_answer(game, decision, answer, agent)
        seat = self.web_seats.get(decision.seat)
        if seat is not None:
            seat.settled(decision.id)
        self.publish()

    def _thought(self, record: CallRecord, after: int) -> dict[str, Any] | None:
        reasoning = reasoning_of(record)
        if not reasoning:
            return None
        thought = {
            "seat": record.seat,
            "kind": record.kind,
            "day": record.day,
            "decision": record.decision,
            "model": record.display_name or record.model,
            "text": reasoning,
            "after": after,  # the page shows it after the events already out
        }
        self.thoughts.append(thought)
        return thought

    def _belief(self, record: BeliefRecord, after: int) -> dict[str, Any]:
        belief = {
            "seat": record.seat,
            "day": record.day,
            "decision": record.decision,
            "probabilities": record.probabilities,
            "error": record.error,
            "after": after,
        }
        self.beliefs.append(belief)
        return belief

    def _on_call(self, record: CallRecord) -> None:
        thought = self._thought(record, self._published)
        if thought is not None:
            self._push({"type": "thought", "thought": thought}, lambda lens: lens.full)

    def _on_trouble(self, notice: Notice) -> None:
        """A model seat that stopped answering, or answers again (``arena.model_trouble``):
        to the host's view only, once, in its place among the events. The arena's news,
        not the game's: no seat and no spectator is told who was asked what."""
        trouble = {"kind": notice.kind, **words(notice), "after": self._published}
        self.troubles.append(trouble)
        self._push({"type": "trouble", "trouble": trouble}, lambda lens: lens.full)

    def _on_belief(self, record: BeliefRecord) -> None:
        """A seat's private beliefs: to that seat's pages and the full view, nobody else."""
        belief = self._belief(record, self._published)
        self._push({"type": "belief", "belief": belief}, lambda lens: lens.full or lens.seat == record.seat)

    def _on_draft(self, draft: Draft) -> None:
        """A speech being written, to every page (a speech in turn is public); why a
        draft was withdrawn, and that a seat's server cannot stream, to the host's view
        only (the reasons quote the model's reply and name its server)."""
        message = {"seat": draft.seat, "decision": draft.decision, "state": draft.state, "text": draft.text, "replaced": draft.replaced}
        if draft.state == "unstreamed":
            if draft.seat not in self._unstreamed:
                self._unstreamed.add(draft.seat)
                self._push({"type": "draft", "draft": {**message, "note": draft.note}}, lambda lens: lens.full)
            return
        if draft.state == "speaking":
            self.live[draft.seat] = message
        else:
            self.live.pop(draft.seat, None)
        for ch in list(self.channels):
            ch.push({"type": "draft", "draft": {**message, "note": draft.note} if ch.lens.full else message})

    def _push(self, message: dict[str, Any], to: Callable[[Lens], bool]) -> None:
        for ch in list(self.channels):
            if to(ch.lens):
                ch.push(message)

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
            "speaking_together": self._speaking_together(),
            "links": self.links(lens),
            "me": lens.seat,
            "language": self.spec.language,
            "beliefs_option": self.spec.beliefs,
        }
        if kind == "snapshot":
            out["roles"] = role_names(self.spec.language)
            out["drafts"] = list(self.live.values())
            if lens.full or lens.seat is not None:  # a seat's own beliefs, never another's
                out["beliefs"] = [b for b in self.beliefs if lens.full or b["seat"] == lens.seat]
        if lens.seat is not None:
            out["card"] = card(seen, lens.seat, self.spec.language)
            agent = self.web_seats.get(lens.seat)
            if agent is not None:
                out["pending"] = [question(agent, q, self.spec.language) for q in list(agent.questions.values())]
                out["given"] = [given(agent, g) for g in agent.given.values()]
                # a game over has fresh agents: its notes are the ones its file kept
                out["notes"] = list(agent.notes) or list(self.kept_notes.get(lens.seat, ()))
        if lens.full:
            out["waiting"] = [{"seat": d.seat, "kind": d.kind} for d in self.game.waiting] if not self.over else []
            if kind == "snapshot":
                out["thoughts"] = list(self.thoughts)
                out["troubles"] = list(self.troubles)
        return out

    def snapshot(self, lens: Lens) -> dict[str, Any]:
        return self.message("snapshot", lens, self.game.events[: self._published])

    def _speaking(self) -> str | None:
        """Whose turn it is to speak: public at the table, unlike who is awake at night."""
        if self.over:
            return None
        waiting = self.game.waiting
        if len(waiting) == 1 and waiting[0].kind == SPEAK:
            return waiting[0].seat
        return None

    def _speaking_together(self) -> list[str]:
        """Who speaks in the round where everybody speaks at once (``discussion:
        parallel``), until the round is heard: public, like whose turn it is to speak,
        and it says nothing of what anybody said (a seat's own given answer is shown to
        it alone, ``given``)."""
        if self.over:
            return []
        waiting = self.game.waiting
        if any(d.kind == SPEAK and d.context.get("protocol") == "parallel" for d in waiting):
            return [d.seat for d in waiting]
        return []

    def links(self, lens: Lens) -> dict[str, Any]:
        """The addresses this lens may follow; after a restart the server knows a token
        only once a page has shown it (``persist.Keys.learn``). The transcript is a
        download, never a path: where the server keeps its files is the server's own
        business (``file`` is only the name it is saved and downloaded as)."""
        watch, host = self.keys.watch_token, self.keys.host_token
        out: dict[str, Any] = {"watch": f"/watch/{watch}"} if watch else {}
        if self.over or lens.full:
            out["file"] = self.transcript.name
            if watch:
                out["full"] = f"/watch/{watch}/full"
            if self.over and watch:
                out["download"] = f"/api/watch/{watch}/transcript"
            elif lens.full and host:
                out["download"] = f"/api/host/{host}/transcript"
        return out

    def subscribe(self, lens: Lens) -> Channel:
        """A new connection: it gets the snapshot first, then every later update."""
        ch = Channel(lens, audited=self.history is not None)
        ch.push(self.snapshot(lens))
        self.channels.add(ch)
        if self.history is not None:
            self.history.append(ch)
        return ch

    def unsubscribe(self, ch: Channel) -> None:
        self.channels.discard(ch)

    # ------------------------------------------------------------------ the person's answers
    def answer(self, seat: str, decision_id: int, value: Any) -> Any:
        if self.over:
            raise AnswerRefused("the game is not being played any more", 409)
        return self.web_seats[seat].answer(decision_id, value, self.game.by_name)

    def summary(self) -> dict[str, Any]:
        """What the creator of the game is told: every address of it."""
        return {
            "id": self.id,
            "seats": {name: f"/play/{token}" for name, token in self.keys.seat_tokens.items()},
            "watch": f"/watch/{self.keys.watch_token}",
            "host": f"/host/{self.keys.host_token}",
            # The creator holds the host key (the server's operator): the file as the
            # operator's --transcripts names it, and the download any program can use.
            "transcript": str(self.transcript),
            "download": f"/api/host/{self.keys.host_token}/transcript",
        }


def _rotated(db: Path, spec: GameSpec) -> GameSpec:
    """``spec`` with each person's card the next of their rotation (``people_games``);
    as it was when the deck cannot be known or the database read (logged)."""
    try:
        deck = list(spec.roles or get_preset(spec.preset).deck(len(spec.seats)))
        return people_games.rotate_roles(db, spec, deck)
    except (ValueError, StoreError, sqlite3.Error):
        log.warning("the people's cards cannot be rotated from %s; dealt at random", db, exc_info=True)
        return spec


class TooManyGames(RuntimeError):
    """The server already plays as many games as it may (``--max-running``): HTTP 429."""


class SessionStore:
    """Every game of this server, found by its tokens' digests only.

    Why only the games being played are held: a game that has ended changes no more,
    and its transcript says all a page is shown of it, so it leaves memory as it ends
    and is read again (``GameSession.finished``) when a page asks for it; the index
    on disk (``arena.web.index``) says which game a token opens. The few finished games
    opened last stay at hand, since a page that opens one asks again at once (its
    state, its socket, the replay)."""

    def __init__(self, transcripts_dir: Path, *, max_running: int = MAX_RUNNING, keep_finished: int = KEEP_FINISHED, audit: bool = False, people_db: Path | None = None):
        self.transcripts_dir = transcripts_dir
        self.people_db = people_db  # where people's games are recorded and rated (``arena.people_games``)
        self.max_running = max_running
        self.keep_finished = keep_finished
        self.audit = audit  # keep every connection of every game held, and what it was sent (tests)
        self.index = GameIndex(transcripts_dir)
        self.sessions: dict[str, GameSession] = {}  # the games being played, by id
        self._seat: dict[str, tuple[GameSession, str]] = {}
        self._watch: dict[str, GameSession] = {}
        self._host: dict[str, GameSession] = {}
        self._finished: OrderedDict[str, GameSession] = OrderedDict()  # game file name -> game, last opened last
        self._unresumable: dict[str, str] = {}  # game file name -> why it was not played on at this start

    def create(self, spec: GameSpec, pace: float = 0.0) -> GameSession:
        if sum(1 for s in self.sessions.values() if not s.over) >= self.max_running:
            n = self.max_running
            raise TooManyGames(
                f"this server already plays {n} game{'s' if n != 1 else ''} at once; wait for one to end or stop one "
                "(werewolf serve --max-running sets the limit)"
            )
        if self.people_db is not None and any(s.agent == HUMAN for s in spec.seats):
            spec = _rotated(self.people_db, spec)
        session = GameSession.new(spec, transcripts_dir=self.transcripts_dir, pace=pace)
        self._play(session)
        return session

    def held(self) -> int:
        """How many games are in memory: those being played and the finished ones at hand."""
        return len(self.sessions) + len(self._finished)

    def _audited(self, session: GameSession) -> GameSession:
        if self.audit and session.history is None:
            session.history = []
        return session

    def _play(self, session: GameSession) -> None:
        """Hold ``session`` while it is played, and let it go when it ends."""
        self._audited(session)
        self.sessions[session.id] = session
        session.people_db = self.people_db
        keys = session.keys
        for d, name in keys.seats.items():
            self._seat[d] = (session, name)
        self._watch[keys.watch] = session
        self._host[keys.host] = session
        self._record(session)
        session.start()
        assert session.task is not None
        session.task.add_done_callback(lambda _: self._ended(session))

    def _record(self, session: GameSession) -> bool:
        try:
            self.index.record(persist.meta_path(session.transcript))
        except (OSError, sqlite3.Error):
            log.warning("game %s: the index of %s cannot be written", session.id, self.transcripts_dir, exc_info=True)
            return False
        return True

    def _ended(self, session: GameSession) -> None:
        """A game's task is over: its transcript and its file are written, so it leaves
        memory, unless the server is stopping (it is played on at the next start) or the
        index cannot say where it is (then it stays, and the log says why)."""
        if session.interrupted or not self._record(session):
            return
        self.sessions.pop(session.id, None)
        keys = session.keys
        for d in keys.seats:
            self._seat.pop(d, None)
        self._watch.pop(keys.watch, None)
        self._host.pop(keys.host, None)

    def _finished_game(self, meta: Path) -> GameSession | None:
        """The game of file ``meta`` as it ended, read from its transcript (``None``
        when it cannot be read); the last ``keep_finished`` opened are kept."""
        session = self._finished.get(meta.name)
        if session is not None:
            self._finished.move_to_end(meta.name)
            return session
        loaded = persist.load(meta)
        if loaded is None or not loaded[0].is_file():
            return None
        transcript, data = loaded
        session = GameSession.finished(transcript, data, self._unresumable.get(meta.name))
        if session is None:
            return None
        self._finished[meta.name] = self._audited(session)
        while len(self._finished) > self.keep_finished:
            self._finished.popitem(last=False)
        return session

    def _lookup(self, token: str, view: str) -> tuple[GameSession, str] | None:
        """A game that is not being played, by the index, with the seat a seat's token
        opens ('' for the other views)."""
        found = self.index.find(digest(token))
        if found is None or found.view != view:
            return None
        session = self._finished_game(found.meta)
        return None if session is None else (session, found.seat or "")

    def restore(self) -> list[str]:
        """Take up the games this server's folder holds (a restart): the ones still
        being played are caught up with their transcripts and played on; the others
        are only indexed, and read when a page asks for them. Returns what the log is
        told, one line per game taken up and one for all the others."""
        self.index.sync()
        told = []
        for meta in self.index.running():
            loaded = persist.load(meta)
            if loaded is None or not loaded[0].is_file():
                continue
            transcript, data = loaded
            if str(data.get("id")) in self.sessions:
                continue
            try:
                session = GameSession.resumed(transcript, data)
            except CliError as e:
                if "already ended" not in str(e):
                    self._unresumable[meta.name] = f"cannot be resumed after a restart: {e}"
            except Exception as e:  # a bug must not keep the server from starting
                log.exception("game %s cannot be resumed", data.get("id"))
                self._unresumable[meta.name] = f"cannot be resumed after a restart: {e!r}"
            else:
                self._play(session)
                told.append(f"Earlier game {transcript.name}: played on from day {session.game.day}")
                continue
            ended = self._finished_game(meta)
            if ended is None:
                told.append(f"Earlier game {transcript.name}: cannot be read, skipped")
            else:
                told.append(f"Earlier game {transcript.name}: {ended.status}" + (f" ({ended.error})" if ended.error else ""))
        others = self.index.count() - len(self.sessions)
        if others:
            told.append(f"{others} earlier game{'s' if others != 1 else ''} of {self.transcripts_dir} open when a page asks for them")
        return told

    def by_seat(self, token: str) -> tuple[GameSession, str] | None:
        found = self._seat.get(digest(token)) or self._lookup(token, "play")
        if found is not None:
            found[0].keys.learn("play", token)
        return found

    def by_watch(self, token: str) -> GameSession | None:
        session = self._watch.get(digest(token))
        if session is None:
            ended = self._lookup(token, "watch")
            session = ended[0] if ended else None
        if session is not None:
            session.keys.learn("watch", token)
        return session

    def by_host(self, token: str) -> GameSession | None:
        session = self._host.get(digest(token))
        if session is None:
            ended = self._lookup(token, "host")
            session = ended[0] if ended else None
        if session is not None:
            session.keys.learn("host", token)
        return session

    async def shutdown(self) -> None:
        """Stop every running game, to be played on when the server starts again; each
        transcript records the interruption."""
        tasks = []
        for s in self.sessions.values():
            if s.task is not None and not s.task.done():
                s.interrupted = True
                s.task.cancel()
                tasks.append(s.task)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.index.close()


__all__ = ["Channel", "GameSession", "SessionStore", "TooManyGames", "FULL_LENS"]

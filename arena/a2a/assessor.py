"""The arena as an A2A assessor (``werewolf a2a serve``): a game or a tournament as a
task, its participants named in the request (docs/REMOTE_AGENTS.md).

An assessment platform (AgentBeats and the like) sends one message naming the
participants (agents over A2A, built-in bots), the preset, the table size and the
number of games. The request is checked before a task exists (``AssessorHandler``):
a bad one, or one whose remote agent cannot be reached, is answered with an A2A
invalid-params error saying why, and a request beyond the tasks the assessor runs at
once is refused the same way. A task plays a tournament with the arena's own runner
in a folder of its own, says how it goes as each game ends (status updates: streamed
to a client that streams, kept in the task for one that polls), and ends with three
kinds of artifact: the result, the leaderboard, and each game's transcript.

Nothing a task does may end in a traceback for the requester: its failure is a
failed task with one line saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")  # see agents.a2a.transport

from a2a.helpers import get_data_parts, get_text_parts, new_data_part, new_text_part  # noqa: E402
from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.context import ServerCallContext  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater  # noqa: E402
from a2a.types import (  # noqa: E402
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    InvalidParamsError,
    InvalidRequestError,
    Message,
    Part,
    SendMessageRequest,
    Task,
    TaskState,
    TaskStatus,
    UnsupportedOperationError,
)
from starlette.applications import Starlette  # noqa: E402

from agents.registry import make_agent  # noqa: E402
from arena.preflight import check, refusal  # noqa: E402
from arena.a2a.request import EXAMPLE, SKILL, RequestError, parse_request  # noqa: E402
from arena.command import CliError  # noqa: E402
from arena.ratings.cli import compute_leaderboard, leaderboard_json  # noqa: E402
from arena.tournament.config import ConfigError, TournamentConfig  # noqa: E402
from arena.tournament.run import run_tournament, transcripts_dir  # noqa: E402
from arena.tournament.store import Store, StoreError  # noqa: E402
from transcripts import read_transcript  # noqa: E402
from transcripts.schema import TranscriptError  # noqa: E402

log = logging.getLogger("werewolf.a2a")

RESULT_PROTOCOL = "werewolf-arena/assessment@1"
WATCH_EVERY = 0.5  # seconds between looks at the task's finished games
LEADERBOARD_RESAMPLES = 200  # bootstrap resamples of the task's leaderboard (a few games: fast, and said so)
KEEP_TASKS = 16  # finished tasks kept in memory, transcripts and all (their files stay in their folders)
_FINISHED = frozenset({TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED})


class Assessor(AgentExecutor):
    """Plays each task's tournament in a folder of its own under ``out``."""

    def __init__(self, out: Path, *, max_tasks: int = 2, local_agents: bool = False):
        self.out = out
        self.max_tasks = max_tasks
        self.local_agents = local_agents
        self.running = 0

    def check(self, message: Message | None, name: str = "assessment") -> TournamentConfig:
        """The request's tournament; ``RequestError`` for a request not to run."""
        _, cfg = parse_request(request_data(message), local_agents=self.local_agents, name=name)
        return cfg

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id, context_id = context.task_id or "", context.context_id or ""
        updater = TaskUpdater(event_queue, task_id, context_id)
        # The task first (the SDK's handler wants it before any update of it).
        history = [context.message] if context.message is not None else []
        await event_queue.enqueue_event(Task(id=task_id, context_id=context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED), history=history))
        if self.running >= self.max_tasks:  # the handler refuses these first; two at once may pass it
            await updater.reject(_say(updater, f"the assessor is running its limit of {self.max_tasks} task(s); send the request again later"))
            return
        self.running += 1
        try:
            cfg = self.check(context.message, name=f"a2a-{task_id[:12]}")
            await updater.start_work(_say(updater, f"playing {cfg.games} game(s) of {cfg.tables[0].label()}"))
            await self._play(cfg, self.out / _folder(task_id), updater)
        except (RequestError, ConfigError, StoreError, CliError) as e:
            await updater.failed(_say(updater, str(e)))
        except Exception as e:  # a bug: the requester gets one line, the operator's log the rest
            log.warning("task %s failed: %r", task_id, e)
            await updater.failed(_say(updater, f"internal error: {type(e).__name__}: {e}"))
        finally:
            self.running -= 1

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise UnsupportedOperationError(message="an assessment runs to its end; it cannot be canceled")

    async def _play(self, cfg: TournamentConfig, folder: Path, updater: TaskUpdater) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "assessment.sqlite"
        done = asyncio.Event()
        watcher = asyncio.create_task(self._watch(transcripts_dir(db), updater, cfg.games, done))
        try:
            report = await asyncio.to_thread(run_tournament, cfg, db, progress=False)
        finally:
            done.set()
            await watcher  # it tells the games that ended since its last look, then returns
        result = await asyncio.to_thread(_result, db, report.to_json())
        await updater.add_artifact([new_data_part(result)], name="result")
        board = await asyncio.to_thread(_leaderboard, db, cfg.seed)
        await updater.add_artifact([new_data_part(board)], name="leaderboard")
        # One artifact, a part per game: each artifact event copies the task in the store.
        texts = await asyncio.to_thread(_transcripts, transcripts_dir(db))
        await updater.add_artifact([Part(text=text, media_type="application/jsonl", filename=name) for name, text in texts], name="transcripts")
        said = f"{report.played} game(s) played, {report.failed} failed" + (f", stopped: {report.stopped}" if report.stopped else "")
        if report.played == 0:
            await updater.failed(_say(updater, said + (f": {report.failures[0]}" if report.failures else "")))
        else:
            await updater.complete(_say(updater, said))

    async def _watch(self, folder: Path, updater: TaskUpdater, planned: int, done: asyncio.Event) -> None:
        """A status update as each game ends, until ``done`` (and a last look then): a
        finished transcript has its final name (``arena.tournament.play``), so the
        folder says what is done, whatever thread plays the games."""
        told: set[str] = set()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), WATCH_EVERY)
            for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
                if path.name not in told:
                    told.add(path.name)
                    winner = await asyncio.to_thread(_winner, path)
                    line = f"game {path.stem} finished ({len(told)}/{planned})" + (f": {winner} won" if winner else "")
                    await updater.update_status(TaskState.TASK_STATE_WORKING, _say(updater, line))
            if done.is_set():
                return


class AssessorHandler(DefaultRequestHandler):
    """The SDK's request handler, with a request checked before a task is made: a bad
    request, an unreachable agent or a full house is an A2A error, and nothing of it
    is kept."""

    def __init__(self, assessor: Assessor, card: AgentCard):
        super().__init__(agent_executor=assessor, task_store=RecentTasks(KEEP_TASKS), agent_card=card)
        self.assessor = assessor

    async def _admit(self, params: SendMessageRequest) -> None:
        a = self.assessor
        if params.message.task_id:
            raise InvalidRequestError(message="an assessment takes one message; send a new message (no taskId) for a new one")
        if a.running >= a.max_tasks:
            raise InvalidRequestError(message=f"the assessor is running its limit of {a.max_tasks} task(s); send the request again later")
        try:
            cfg = a.check(params.message)
            await _reach(cfg)
        except RequestError as e:
            raise InvalidParamsError(message=str(e)) from None

    async def on_message_send(self, params: SendMessageRequest, context: Any) -> Any:
        await self._admit(params)
        return await super().on_message_send(params, context)

    async def on_message_send_stream(self, params: SendMessageRequest, context: Any) -> Any:
        await self._admit(params)
        async for event in super().on_message_send_stream(params, context):
            yield event


class RecentTasks(InMemoryTaskStore):
    """The SDK's in-memory store, keeping the ``keep`` most recent tasks: a finished
    task older than those is forgotten (a client polls its task within minutes), so a
    long-running assessor does not hold every transcript it ever returned."""

    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep
        self._order: OrderedDict[str, ServerCallContext] = OrderedDict()

    async def save(self, task: Task, context: ServerCallContext) -> None:
        await super().save(task, context)
        self._order[task.id] = context
        self._order.move_to_end(task.id)
        for old_id, old_context in list(self._order.items())[: max(0, len(self._order) - self.keep)]:
            old = await super().get(old_id, old_context)
            if old is not None and old.status.state not in _FINISHED:
                continue  # still running: kept
            del self._order[old_id]
            if old is not None:
                await super().delete(old_id, old_context)


async def _reach(cfg: TournamentConfig) -> None:
    """Read every remote participant's card now: a request whose agent cannot be
    reached is refused at once, naming it, instead of running games of fallbacks."""
    agents: dict[str, Any] = {}
    try:
        for p in cfg.participants:
            if p.is_remote:
                agents[p.name] = make_agent(p.agent, p.name, options=p.llm_options())
    except ValueError as e:
        raise RequestError(str(e)) from None
    failures = await check(agents)  # (closes what it opened)
    if failures:
        raise RequestError(refusal(failures, flag=None, noun="participant", what="the task"))


def request_data(message: Message | None) -> Any:
    """The request a message holds: its first data part, else its text (JSON)."""
    if message is None:
        raise RequestError(f"send a message holding the request: {EXAMPLE}")
    data = get_data_parts(message.parts)
    if data:
        return data[0]
    text = "\n".join(get_text_parts(message.parts)).strip()
    if not text:
        raise RequestError(f"the message holds no request: {EXAMPLE}")
    return text


def _result(db: Path, report: dict[str, Any]) -> dict[str, Any]:
    """The result artifact: the run's report (without this machine's paths) and every
    game: its winner and each seat's participant, role, outcome and counts."""
    store = Store.open_existing(db)
    try:
        games = {g["id"]: g for g in store.games()}
        seats: dict[str, list[dict[str, Any]]] = {}
        for s in store.seats():
            seats.setdefault(s["game_id"], []).append(
                {k: s[k] for k in ("name", "participant", "agent", "initial_role", "role", "side", "calls", "violations", "fallbacks")}
                | {"won": bool(s["won"]), "alive": bool(s["alive"])}
            )
    finally:
        store.close()
    return {
        "protocol": RESULT_PROTOCOL,
        "report": {k: v for k, v in report.items() if k not in ("db", "transcripts")},
        "games": [
            {"id": gid, "preset": g["preset"], "players": g["players"], "seed": g["seed"], "winner": g["winner"], "days": g["days"],
             "reason": g["reason"], "transcript": Path(g["transcript"]).name, "seats": seats.get(gid, [])}
            for gid, g in games.items()
        ],  # fmt: skip
    }


def _transcripts(folder: Path) -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.jsonl"))]


def _leaderboard(db: Path, seed: int) -> dict[str, Any]:
    lb = compute_leaderboard(str(db), LEADERBOARD_RESAMPLES, seed)
    board = leaderboard_json(str(db), lb)
    return json.loads(json.dumps(board, default=str))  # plain JSON for a data part


def _winner(path: Path) -> str | None:
    try:
        result = read_transcript(path).result
    except (TranscriptError, OSError, ValueError):
        return None
    return result.winner if result is not None else None


def _say(updater: TaskUpdater, text: str) -> Message:
    return updater.new_agent_message([new_text_part(text)])


def _folder(task_id: str) -> str:
    """A task's folder name: its id, kept to safe characters (the SDK makes the id)."""
    return "".join(c for c in task_id if c.isalnum() or c in "-_")[:64] or "task"


def assessor_card(url: str) -> AgentCard:
    return AgentCard(
        name="Werewolf Arena assessor",
        description=(
            "Plays a Werewolf game or a tournament between the agents a request names (agents over A2A, built-in bots) "
            "and returns the result, the leaderboard and every game's transcript."
        ),
        version="1.0.0",
        supported_interfaces=[AgentInterface(url=url.rstrip("/") + "/", protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["application/json", "text/plain"],
        default_output_modes=["application/json", "application/jsonl", "text/plain"],
        skills=[
            AgentSkill(
                id=SKILL,
                name="Play a Werewolf game or a tournament",
                description="A request names the participants (a2a:URL or heuristic/random), the preset, the players and the games.",
                tags=["werewolf", "assessment", "tournament", "benchmark"],
                examples=[EXAMPLE],
            )
        ],
    )


def assessor_app(url: str, out: Path, *, max_tasks: int = 2, local_agents: bool = False) -> Starlette:
    """The assessor's ASGI application, its card advertising ``url``."""
    card = assessor_card(url)
    handler = AssessorHandler(Assessor(out, max_tasks=max_tasks, local_agents=local_agents), card)
    return Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/"))

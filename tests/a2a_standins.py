"""Remote agents for the tests: the example agent, and agents that misbehave, each a
real A2A server (the official SDK's) on 127.0.0.1 in a process of its own.

Run as a script it serves the example agent's mind with, per seat, a behaviour
(``--behave SEAT=MODE``) and, with ``--record FILE``, one JSON line per message
received: its context, its parts and the bearer token it came with, so a test can
read exactly what a remote agent was sent.

Modes (the A2A wire as the SDK's server sends it in each case):

- ``garbage``: a text part that is no answer (``lorem ipsum``);
- ``huge``: a text part of 10 MB;
- ``impostor``: a legal answer that says it is another seat's (``{"seat": ...}``);
- ``slow:S``: the right answer after S seconds;
- ``die:N``: the whole server exits after its N-th reply (a crash mid-game);
- ``big``: a text part of 200 KB, through the SDK (so with its length announced);
- ``fail``: the agent's executor raises (the SDK answers with a failed task / an error);
- ``stream`` (or ``stream:N``): the card says the agent streams, and each answer comes
  by ``message/stream`` as a task whose artifact is the answer's JSON text in pieces
  (``TaskArtifactUpdateEvent`` with ``append``, then the completed status: the A2A
  specification's streaming, https://a2a-protocol.org/latest/specification/#72-messagestream),
  its private reasoning first; the first N public speeches are replies the checks
  refuse (``BROKEN_SPEECH`` of ``arena/standin_server.py``).

``*=MODE`` gives every seat that mode.

``--token SEAT=TOKEN``: messages for SEAT must carry ``Bearer TOKEN`` or get HTTP 401.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(*args: str, module: str | None = None, port: int | None = None, wait: float = 60.0) -> Iterator[str]:
    """A remote agent in a subprocess on ``port`` (else a free one) of 127.0.0.1: its
    base URL, once its card answers. ``module``: ``-m`` that module (the example
    agent), else this file with ``args``."""
    with serving_all([list(args)], module=module, ports=[port], wait=wait) as urls:
        yield urls[0]


@contextlib.contextmanager
def serving_all(
    arg_lists: list[list[str]], *, module: str | None = None, ports: list[int | None] | None = None, wait: float = 60.0
) -> Iterator[list[str]]:
    """``serving`` for several agents, started together (each costs a second or more
    of imports): their URLs in order."""
    if module:
        commands = [["-m", module, "--port", "{port}"] for _ in arg_lists]
    else:
        commands = [[__file__, "--port", "{port}", *args] for args in arg_lists]
    with running(commands, ports=ports, wait=wait) as urls:
        yield urls


@contextlib.contextmanager
def running(commands: list[list[str]], *, ports: list[int | None] | None = None, wait: float = 60.0) -> Iterator[list[str]]:
    """A2A servers started together, each ``python ARGS`` with ``{port}`` in ARGS
    replaced by its port (a free one unless ``ports`` says): their URLs, once each
    one's card answers."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs: list[tuple[subprocess.Popen, str]] = []
    # stderr to a file, not a pipe: a server that logs much would fill a pipe nobody reads, and stop.
    logs = tempfile.TemporaryFile()
    try:
        for i, args in enumerate(commands):
            port = (ports[i] if ports else None) or free_port()
            cmd = [sys.executable, *(a.replace("{port}", str(port)) for a in args)]
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=logs)
            procs.append((proc, f"http://127.0.0.1:{port}"))
        for proc, url in procs:
            _wait_for(url, proc, wait, logs)
        yield [url for _, url in procs]
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        logs.close()


def _wait_for(url: str, proc: subprocess.Popen, wait: float, logs: Any) -> None:
    import httpx

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            logs.seek(0)
            err = logs.read().decode(errors="replace")
            raise RuntimeError(f"the stand-in agent exited ({proc.returncode}): {err[-2000:]}")
        try:
            if httpx.get(url + "/.well-known/agent-card.json", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the stand-in agent at {url} did not start within {wait:g} s")


def records(path: Path) -> list[dict[str, Any]]:
    """The messages a recording stand-in received, in order."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------------- the server
def _server(port: int, behave: dict[str, str], record: str | None, tokens: dict[str, str]) -> None:
    os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")
    import uvicorn
    from a2a.helpers import new_data_part, new_message, new_text_part
    from google.protobuf.json_format import MessageToDict
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
    from a2a.types import Task, TaskState, TaskStatus
    from starlette.applications import Starlette

    sys.path.insert(0, str(ROOT))
    from examples.remote_agent.__main__ import WerewolfAgent, agent_card, decision_data

    from arena.standin_server import BROKEN_SPEECH

    replies = {"n": 0, "broken": 0}
    log = open(record, "a", encoding="utf-8") if record else None

    class Standin(AgentExecutor):
        """The SDK's task-keeping server (``DefaultRequestHandler``), unlike the example's
        message-only one: a failing agent here answers with a failed task. Its seats are
        kept and played as the example agent keeps and plays them."""

        def __init__(self, card: Any) -> None:
            self.table = WerewolfAgent(card)

        async def cancel(self, context: Any, event_queue: Any) -> None:
            pass

        async def execute(self, context: Any, event_queue: Any) -> None:
            message = context.message
            data = decision_data(message)
            seat = data.get("seat", "")
            headers = context.call_context.state.get("headers", {})
            auth = headers.get("authorization", "")
            if log is not None:
                texts = [p.text for p in message.parts if p.HasField("text") and p.media_type != "application/json"]
                entry = {"context_id": context.context_id, "texts": texts, "data": data, "authorization": auth, "raw": MessageToDict(message)}
                log.write(json.dumps(entry, ensure_ascii=False) + "\n")
                log.flush()
            mode, _, arg = behave.get(seat, behave.get("*", "")).partition(":")
            if mode == "slow":
                await asyncio.sleep(float(arg))
            if mode == "fail":
                raise RuntimeError("the agent broke")
            if mode == "stream":
                await stream(context, event_queue, data, seat, int(arg or 0))
                return
            if mode == "garbage":
                reply = [new_text_part("lorem ipsum dolor sit amet")]
            elif mode == "big":
                reply = [new_text_part("x" * 200_000)]
            else:
                answer = self.table.seat(context.context_id or "", data).answer(data)
                if log is not None:  # a private note no other seat may ever be shown
                    answer["reasoning"] = f"private note of {seat} number {replies['n']}"
                if mode == "impostor":
                    others = [p for p in (data.get("decision", {}).get("options") or []) if isinstance(p, str) and p != seat]
                    answer = {**answer, "seat": others[0] if others else "Nobody"}
                reply = [new_data_part(answer)]
            await event_queue.enqueue_event(new_message(reply, context_id=context.context_id))
            replies["n"] += 1
            if mode == "die" and replies["n"] >= int(arg):
                os._exit(3)  # mid-game, as a crash: no goodbye

    async def stream(context: Any, event_queue: Any, data: dict[str, Any], seat: str, broken: int) -> None:
        """The answer as a streamed task: its JSON text in pieces, appended to one artifact."""
        answer = {"reasoning": f"private note of {seat} number {replies['n']}", **self_table.seat(context.context_id or "", data).answer(data)}
        text = json.dumps(answer, ensure_ascii=False)
        if data.get("decision", {}).get("kind") == "speak" and "text" in answer and replies["broken"] < broken:
            replies["broken"] += 1
            text = BROKEN_SPEECH
        submitted = TaskStatus(state=TaskState.TASK_STATE_SUBMITTED)
        await event_queue.enqueue_event(Task(id=context.task_id, context_id=context.context_id, status=submitted, history=[context.message]))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.start_work()
        for i in range(0, len(text), 8):
            await updater.add_artifact([new_text_part(text[i : i + 8], media_type="application/json")], artifact_id="answer", append=i > 0, last_chunk=i + 8 >= len(text))
        await updater.complete()
        replies["n"] += 1

    url = f"http://127.0.0.1:{port}"
    card = agent_card(url)
    if any(m.startswith("stream") for m in behave.values()):
        card.capabilities.streaming = True
    executor = Standin(card)
    self_table = executor.table
    handler = DefaultRequestHandler(agent_executor=executor, task_store=InMemoryTaskStore(), agent_card=card)
    app = Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/"))

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        """Before the SDK: a seat with a token gets 401 without it; a ``huge`` seat gets
        a valid JSON-RPC reply of 10 MB, streamed without a length (the cap must stop
        reading it, not wait for its end)."""
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        body, more = b"", True
        while more:
            msg = await receive()
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
        request = json.loads(body or b"{}")
        parts = request.get("params", {}).get("message", {}).get("parts", [])
        named = next((json.loads(p["text"]).get("seat") for p in parts if isinstance(p, dict) and p.get("mediaType") == "application/json"), None)
        auth = dict(scope["headers"]).get(b"authorization", b"").decode()
        if named in tokens and auth != f"Bearer {tokens[named]}":
            await send({"type": "http.response.start", "status": 401, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"unauthorized"})
            return
        if behave.get(named or "", "") == "huge":
            head = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "result": {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": ""}]}}})
            before, after = head.split('"text": ""')
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            try:
                await send({"type": "http.response.body", "body": (before + '"text": "').encode(), "more_body": True})
                for _ in range(160):  # 10 MB in 64 KiB chunks
                    await send({"type": "http.response.body", "body": b"x" * 65536, "more_body": True})
                await send({"type": "http.response.body", "body": ('"' + after).encode()})
            except OSError:
                pass  # the arena stopped reading, as it should
            return
        replayed = {"done": False}

        async def replay() -> Any:
            if not replayed["done"]:
                replayed["done"] = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await app(scope, replay, send)

    uvicorn.run(guarded, host="127.0.0.1", port=port, log_level="warning")


def _pairs(values: list[str] | None) -> dict[str, str]:
    return dict(v.split("=", 1) for v in values or [])


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--behave", action="append", metavar="SEAT=MODE")
    p.add_argument("--record", metavar="FILE")
    p.add_argument("--token", action="append", metavar="SEAT=TOKEN")
    a = p.parse_args()
    _server(a.port, _pairs(a.behave), a.record, _pairs(a.token))

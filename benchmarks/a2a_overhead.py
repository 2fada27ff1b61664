"""A2A overhead: what a decision costs when the seat's mind is a remote agent over
loopback, against the same mind in this process.

The remote seats are played by the example agent (``python -m examples.remote_agent``,
the official SDK's server wrapping the heuristic bot) in a process of its own on
127.0.0.1; the baseline is the heuristic bot itself, in process, at the same seats of
the same deals. Each decision is asked alone (one at a time, in the engine's order),
so a decision's time is its own: the message built, the round trip through both SDKs
and HTTP, the agent's bot, the reply read and checked, the call recorded. Overhead =
the remote decision's median minus the in-process one's.

What the protocol itself costs is measured beside it, in the same run: the round trip
of a message of the same size to an A2A agent that answers at once (the same SDK and
server, no game: ``--serve-echo``), the floor no seat can go below. And the CPU per
message, which a loaded machine moves less than the wall clock: the arena's (this
process's CPU in the remote games minus in the same games in process) and the
agent's (``/proc``).

    python benchmarks/a2a_overhead.py [--games 4] [--players 8] [--remote 3] [--seed 1]

Goal (issue 38): under 5 ms median per decision.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")

from agents.base import SeatView  # noqa: E402
from agents.llm.accounting import CallLog  # noqa: E402
from arena.preflight import check  # noqa: E402
from arena.gamefile import default_game  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of a process (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(args: list[str]) -> tuple[subprocess.Popen, str]:
    """A server (``python ARGS --port P``) on a free port, once its card answers."""
    import httpx

    port = free_port()
    proc = subprocess.Popen([sys.executable, *args, "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/.well-known/agent-card.json", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{args} did not start")


async def play(seed: int, players: int, remote: int, url: str | None) -> tuple[list[float], list[float], CallLog]:
    """One game, every decision asked alone; the times (s) of the first ``remote``
    seats' decisions, and of those a message was sent for."""
    spec = default_game(players=players, seed=seed)
    if url is not None:
        for seat in spec.seats[:remote]:
            seat.agent = f"a2a:{url}"
    calls = CallLog()
    game, agents = spec.build(calls=calls)
    assert not await check(agents, close=False), "the agent did not answer the check"
    watched = {s.name for s in spec.seats[:remote]}
    times: dict[int, float] = {}
    while not game.over:
        for d in game.waiting:
            agent = agents[d.seat]
            t0 = time.perf_counter()
            answer = await agent.adecide(SeatView(d.seat, None, game), d)
            if d.seat in watched:
                times[d.id] = time.perf_counter() - t0
            game.submit(d.id, answer)
    for agent in agents.values():
        close = getattr(agent, "aclose", None)
        if close is not None:
            await close()
    sent = {r.decision for r in calls.records if r.messages}
    return list(times.values()), [t for i, t in times.items() if i in sent], calls


async def floor(url: str, samples: list[dict[str, Any]], rounds: int) -> list[float]:
    """Round trips of the recorded messages to an agent that answers at once."""
    import httpx

    from agents.a2a import transport

    async with httpx.AsyncClient() as http:
        card = await transport.fetch_card(http, url)
        client = transport.sdk_client(card, http)
        context = uuid.uuid4().hex
        times = []
        for _ in range(rounds):
            for m in samples:
                t0 = time.perf_counter()
                await transport.send(client, transport.outgoing(m["parts"][0]["text"], m["parts"][1]["data"], context), 30.0)
                times.append(time.perf_counter() - t0)
        return times


def serve_echo(port: int) -> None:
    """An A2A agent that answers every message at once (the SDK's server, no game)."""
    import uvicorn
    from a2a.helpers import new_data_part, new_message
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore
    from starlette.applications import Starlette

    from examples.remote_agent.__main__ import agent_card

    class Echo(AgentExecutor):
        async def execute(self, context: Any, event_queue: Any) -> None:
            await event_queue.enqueue_event(new_message([new_data_part({"action": None})], context_id=context.context_id))

        async def cancel(self, context: Any, event_queue: Any) -> None:
            pass

    card = agent_card(f"http://127.0.0.1:{port}")
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(), agent_card=card)
    uvicorn.run(Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/")), host="127.0.0.1", port=port, log_level="warning")


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"median {1000 * statistics.median(xs):6.2f} ms  p90 {1000 * xs[int(0.9 * (len(xs) - 1))]:6.2f} ms  (n={len(xs)})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--players", type=int, default=8)
    p.add_argument("--remote", type=int, default=3, help="remote seats per game (the first ones)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--serve-echo", type=int, metavar="PORT", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve_echo is not None or args.port is not None:
        serve_echo(args.port or args.serve_echo)
        return
    seeds = range(args.seed, args.seed + args.games)

    base: list[float] = []
    local0 = time.process_time()
    for seed in seeds:
        base += asyncio.run(play(seed, args.players, args.remote, None))[0]
    local_cpu = time.process_time() - local0

    proc, url = start(["-m", "examples.remote_agent"])
    try:
        asyncio.run(play(seeds[0], args.players, args.remote, url))  # warm-up: imports, first connections, catalogs
        remote: list[float] = []
        sent: list[float] = []
        records: list[Any] = []
        agent0, arena0 = cpu_seconds(proc.pid), time.process_time()
        for seed in seeds:
            all_times, sent_times, calls = asyncio.run(play(seed, args.players, args.remote, url))
            remote += all_times
            sent += sent_times
            records += [r for r in calls.records if r.messages]
        agent_cpu, arena_cpu = cpu_seconds(proc.pid) - agent0, time.process_time() - arena0
    finally:
        proc.terminate()
        proc.wait()
    samples = [json.loads(json.dumps(r.messages[0])) for r in records]
    echo, echo_url = start([__file__, "--serve-echo", "0"])
    try:
        asyncio.run(floor(echo_url, samples[:5], 1))  # warm-up
        echo0 = cpu_seconds(echo.pid)
        trips = asyncio.run(floor(echo_url, samples, 2))
        echo_cpu = cpu_seconds(echo.pid) - echo0
    finally:
        echo.terminate()
        echo.wait()

    n = max(1, len(records))
    print(f"A2A overhead per decision: {args.games} games of {args.players}, {args.remote} remote seats (example agent on 127.0.0.1)")
    print(f"  in process (heuristic bot):        {ms(base)}")
    print(f"  remote, every decision:             {ms(remote)}")
    print(f"  remote, decisions sent:             {ms(sent)}")
    print(f"  the protocol's floor (echo agent):  {ms(trips)}")
    if base and sent:
        over = statistics.median(sent) - statistics.median(base)
        print(f"  overhead (median sent - median in process): {1000 * over:.2f} ms   goal: < 5 ms")
        print(f"    of which the protocol's floor:           {1000 * statistics.median(trips):.2f} ms")
    print(
        f"  CPU per message: arena {1000 * (arena_cpu - local_cpu) / n:.2f} ms, example agent {1000 * agent_cpu / n:.2f} ms, "
        f"echo agent {1000 * echo_cpu / max(1, len(trips)):.2f} ms"
    )
    print(f"  load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()

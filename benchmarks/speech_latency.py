"""How long a table waits before a model seat's speech starts to show: figures.

    python benchmarks/speech_latency.py [--delay 0.02] [--games 3] [--spec openai:standin]

One model seat (``--spec``: ``openai:standin``, or a LiteLLM seat on the stand-in's
OpenAI, Gemini or Ollama wire: ``litellm:openai/standin``,
``litellm:gemini/gemini-2.5-flash``, ``litellm:ollama_chat/qwen3``) among four bots, on the real-HTTP stand-in of
``arena/standin_server.py``, which streams its reply in pieces of 4 characters with
``--delay`` seconds between two (a model writing at that pace).
Printed (medians over its speeches in a few games): the time from the question to the
first public words shown (a draft,
``agents.llm.streaming``), and to the whole checked speech, which is when an unstreamed
seat shows anything; then the same speech unstreamed (``stream: false``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from arena.standin_server import StandInServer  # noqa: E402


def base_url(api: StandInServer, spec: str) -> str:
    """Where ``spec``'s requests go on the stand-in: Gemini's API under ``/v1beta``,
    Ollama's at the root, OpenAI's under ``/v1``."""
    if "gemini/" in spec:
        return api.anthropic_url + "/v1beta"
    if "ollama" in spec:
        return api.anthropic_url
    return api.base_url


async def speeches(spec: str, base_url: str, stream: bool, games: int) -> list[tuple[float | None, float]]:
    """(seconds to the first words shown, seconds to the whole speech) for every
    speech of the model seat over ``games`` games of one model among four bots."""
    from agents.heuristic import HeuristicAgent
    from agents.llm import make_llm_agent
    from agents.llm.streaming import Draft
    from arena.runner import run_async
    from engine import Game, GameSetup

    out: list[tuple[float | None, float]] = []
    names = ["Alice", "Bob", "Chloe", "David", "Emma"]
    for seed in range(games):
        agents: dict[str, Any] = {n: HeuristicAgent(n, seed=seed) for n in names}
        model = make_llm_agent(spec, "Bob", base_url=base_url, api_key_env="OPENAI_API_KEY", stream=stream)
        agents["Bob"] = model
        started: dict[int, float] = {}
        first: dict[int, float] = {}
        asked = model.adecide

        async def timed(view: Any, decision: Any) -> Any:
            started[decision.id] = time.monotonic()
            answer = await asked(view, decision)
            if decision.kind == "speak":
                now = time.monotonic()
                out.append((first[decision.id] - started[decision.id] if decision.id in first else None, now - started[decision.id]))
            return answer

        def seen(d: Draft) -> None:
            if d.state == "speaking":
                first.setdefault(d.decision, time.monotonic())

        model.adecide = timed  # type: ignore[method-assign]
        model.drafts = seen
        try:
            await run_async(Game(GameSetup(names=names, seed=seed)), agents)
        finally:
            await model.aclose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delay", type=float, default=0.02, help="seconds between two streamed pieces")
    ap.add_argument("--games", type=int, default=3, help="games of one model seat among four bots")
    ap.add_argument("--spec", default="openai:standin", help="the model seat (see above)")
    args = ap.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-benchmark-standin")
    with StandInServer(latency=0, stream_delay=args.delay) as api:
        for stream in (True, False):
            runs = asyncio.run(speeches(args.spec, base_url(api, args.spec), stream, args.games))
            shown = [f for f, _ in runs if f is not None]
            whole = statistics.median(w for _, w in runs)
            first = f"{statistics.median(shown):.3f} s" if shown else f"{whole:.3f} s (the whole speech, at once)"
            print(f"stream={str(stream).lower():5}  first words shown after {first}; whole speech after {whole:.3f} s (medians of {len(runs)} speeches)")


if __name__ == "__main__":
    main()

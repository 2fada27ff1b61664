"""LLM orchestration: what a game of model seats costs in calls, tokens and round trips.

Full games of the project's model seat (``LLMAgent`` over the ``openai:`` back end,
the real SDK, the real orchestrator ``arena.runner.run_async`` and the process-wide
concurrency limits) against a local stand-in of the Chat Completions API that takes a
fixed latency per call and always answers legally (``benchmarks/standin_server.py``).
Figures are printed, never asserted.

Per table size, averaged over the games (min..max in brackets):

- calls per game, prompt and completion tokens per game (4 characters a token; the
  prompt figure is the real prompt, the completion figure the stand-in's fixed-length
  answers);
- the share of prompt tokens that is a cacheable prefix: shared with the same seat's
  previous call (what the layout offers a prefix cache), the part of it OpenAI's rule
  would bill as cached (1,024-token minimum, 128-token steps), and the share shared
  with *any* earlier call (what a cache common to all seats could serve);
- batches: the engine's steps whose decisions were asked together;
- wall time divided by the latency: how many sequential round trips a game really
  costs, CPU time included; the round trips on the critical path (the longest chain
  of calls each started after the previous returned), which no CPU noise moves; and
  the same game at zero latency: the orchestration's own time (engine, prompts, SDK,
  the stand-in) per game and per call.

    python benchmarks/llm_orchestration.py [--games 5] [--latency 0.05] [--players 8 12]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from standin_server import StandInServer  # noqa: E402

from agents.llm.accounting import CallLog  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from arena import limits as arena_limits  # noqa: E402
from arena.runner import run_async  # noqa: E402
from engine import Game, GameSetup  # noqa: E402

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris", "Jules", "Karim", "Lena", "Marco"]
PRESET = "millers_hollow"


class Waves:
    """Counts the orchestrator's batches from the seats' side: a decision that starts
    after another one has finished opens a new batch (``run_async`` starts a batch's
    decisions together and the next batch only once they have all returned)."""

    def __init__(self) -> None:
        self.count = 0
        self._finished_since_start = True

    def wrap(self, agent: Any) -> Any:
        waves = self

        class Timed:
            name = agent.name

            async def adecide(self, view: Any, decision: Any) -> Any:
                if waves._finished_since_start:
                    waves.count += 1
                    waves._finished_since_start = False
                try:
                    return await agent.adecide(view, decision)
                finally:
                    waves._finished_since_start = True

        return Timed()


@dataclass
class GameFigures:
    players: int
    seed: int
    winner: str | None
    wall_s: float
    calls: int
    batches: int
    prompt_tokens: int
    completion_tokens: int
    same_seat_prefix: int
    openai_cached: int
    any_prefix: int
    recorded_cached: int
    recorded_input: int
    critical_path: int
    violations: int
    fallbacks: int


async def play_one(server: StandInServer, players: int, seed: int, options: dict[str, Any]) -> GameFigures:
    server.reset(seed)
    names = NAMES[:players]
    game = Game(GameSetup(names=names, seed=seed, preset=PRESET))
    log = CallLog()
    waves = Waves()
    seats = {
        n: make_agent(
            "openai:standin",
            n,
            seed=seed * 100 + i,
            log=log,
            preset=PRESET,
            rules=game.options,
            base_url=server.base_url,
            api_key="sk-bench-not-a-key",
            **options,
        )
        for i, n in enumerate(names)
    }
    started = time.perf_counter()
    try:
        await run_async(game, {n: waves.wrap(a) for n, a in seats.items()})
    finally:
        for a in seats.values():
            await a.backend.aclose()
    wall = time.perf_counter() - started
    reqs = list(server.requests)
    return GameFigures(
        players=players,
        seed=seed,
        winner=game.winner,
        wall_s=wall,
        calls=len(reqs),
        batches=waves.count,
        prompt_tokens=sum(r.prompt_tokens for r in reqs),
        completion_tokens=sum(r.completion_tokens for r in reqs),
        same_seat_prefix=sum(r.same_seat_prefix for r in reqs),
        openai_cached=sum(r.openai_cached for r in reqs),
        any_prefix=sum(r.any_prefix for r in reqs),
        recorded_cached=sum(r.cached_tokens or 0 for r in log.records),
        recorded_input=sum(r.input_tokens or 0 for r in log.records),
        critical_path=critical_path(reqs),
        violations=sum(1 for r in log.records if r.violation),
        fallbacks=sum(1 for r in log.records if r.fallback),
    )


def critical_path(reqs: list[Any]) -> int:
    """The longest chain of calls each of which started after the previous one had
    returned: the round trips the game could not overlap, whatever the CPU did."""
    order = sorted(reqs, key=lambda r: r.started)
    depth: list[int] = []
    for i, r in enumerate(order):
        depth.append(1 + max((depth[j] for j in range(i) if order[j].ended <= r.started), default=0))
    return max(depth, default=0)


def spread(values: list[float], fmt: str = "{:,.0f}") -> str:
    mean = statistics.fmean(values)
    if len(values) == 1 or min(values) == max(values):
        return fmt.format(mean)
    return f"{fmt.format(mean)} [{fmt.format(min(values))}..{fmt.format(max(values))}]"


def report(players: int, latency: float, slow: list[GameFigures], fast: list[GameFigures]) -> None:
    def share(part: str) -> str:
        return spread([100.0 * getattr(g, part) / g.prompt_tokens for g in slow], "{:.1f}%")

    print(f"\n{players} players, {PRESET} preset defaults (recommended deck), {len(slow)} games, latency {latency * 1000:g} ms per call")
    winners = {}
    for g in slow:
        winners[g.winner] = winners.get(g.winner, 0) + 1
    rows = [
        ("calls per game", spread([g.calls for g in slow])),
        ("prompt tokens per game", spread([g.prompt_tokens for g in slow])),
        ("  per call (mean)", spread([g.prompt_tokens / g.calls for g in slow])),
        ("completion tokens per game", spread([g.completion_tokens for g in slow])),
        ("cacheable prefix, same seat's previous call", share("same_seat_prefix")),
        ("  of which OpenAI would bill as cached", share("openai_cached")),
        ("  as recorded by the seats (cached/input)", spread([100.0 * g.recorded_cached / max(1, g.recorded_input) for g in slow], "{:.1f}%")),
        ("shared prefix with any earlier call", share("any_prefix")),
        ("batches (steps asked together)", spread([g.batches for g in slow])),
        ("calls per batch", spread([g.calls / g.batches for g in slow], "{:.2f}")),
        ("wall time per game", spread([g.wall_s for g in slow], "{:.2f} s")),
        ("wall time / latency (round trips)", spread([g.wall_s / latency for g in slow], "{:.1f}")),
        ("wall time per game at 0 latency", spread([f.wall_s for f in fast], "{:.2f} s")),
        ("  per call", spread([1000 * f.wall_s / f.calls for f in fast], "{:.1f} ms")),
        ("round trips on the critical path", spread([g.critical_path for g in slow])),
        ("violations / fallbacks per game", f"{statistics.fmean(g.violations for g in slow):.1f} / {statistics.fmean(g.fallbacks for g in slow):.1f}"),
        ("winners", ", ".join(f"{k}: {v}" for k, v in sorted(winners.items(), key=lambda kv: str(kv[0])))),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")


async def run(args: argparse.Namespace) -> None:
    if args.global_limit or args.per_model:
        arena_limits.configure(global_limit=args.global_limit or None, default_per_model=args.per_model or None)
    lim = arena_limits.LIMITS
    options = {"max_tokens": args.max_tokens}
    print(
        f"llm_orchestration: openai SDK -> local stand-in (127.0.0.1), concurrency limits: "
        f"global {lim.global_limit}, per model {lim.cap('openai:standin')}; python {sys.version.split()[0]}, {os.cpu_count()} cpus"
    )
    with StandInServer(latency=args.latency) as server:
        for players in args.players:
            seeds = [args.seed + i for i in range(args.games)]
            server.latency = 0.0
            await play_one(server, players, seeds[0], options)  # warm-up: imports, templates, the SDK's pool
            fast = [await play_one(server, players, s, options) for s in seeds]
            server.latency = args.latency
            slow = [await play_one(server, players, s, options) for s in seeds]
            report(players, args.latency, slow, fast)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5, help="games per table size")
    ap.add_argument("--latency", type=float, default=0.05, help="seconds per call")
    ap.add_argument("--players", type=int, nargs="+", default=[8, 12])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--global-limit", type=int, default=0, help="override the process-wide cap on calls in flight")
    ap.add_argument("--per-model", type=int, default=0, help="override the per-model cap on calls in flight")
    args = ap.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

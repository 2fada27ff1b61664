"""Round trips per game under each discussion protocol (rule option ``discussion``).

Full games of model seats (``openai:`` back end, the real SDK, ``arena.runner.run_async``)
against the local stand-in of ``arena/standin_server.py``, which answers legally
after a fixed latency. The same seeds are played under ``round_robin`` (the books'
debate, one speaker at a time), ``bidding`` (werewolf_arena: a batch of bids before each
speech) and ``parallel`` (Kaggle: one batch per round of speeches). Printed per
protocol, averaged over the games (min..max in brackets), with the ratio to
round robin beside each figure:

- sequential model round trips: the orchestrator's batches as the seats see them
  (a decision starting after another has finished opens a new one), and the longest
  chain of calls each started after the previous returned (the critical path, which no
  CPU noise moves);
- calls, speeches and days per game, so that a protocol that plays more or less
  debate is seen as such;
- wall time divided by the latency.

Figures are printed, never asserted.

    python benchmarks/discussion_protocols.py [--games 3] [--players 8] [--latency 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from llm_orchestration import NAMES, Waves, critical_path, timed_game  # noqa: E402
from arena.standin_server import StandInServer  # noqa: E402

from agents.llm.accounting import CallLog  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from engine import Game, GameSetup, get_preset  # noqa: E402

PROTOCOLS = ("round_robin", "bidding", "parallel")


@dataclass
class Figures:
    batches: int
    critical_path: int
    calls: int
    speeches: int
    days: int
    wall_s: float
    fallbacks: int


async def play_one(server: StandInServer, players: int, seed: int, protocol: str, rounds: int) -> Figures:
    server.reset(seed)
    names = NAMES[:players]
    options = get_preset("millers_hollow").options({"discussion": protocol, "discussion_rounds": rounds})
    game = Game(GameSetup(names=names, seed=seed, options=options))
    log, waves = CallLog(), Waves()
    seats = {
        n: make_agent(
            "openai:standin", n, seed=seed * 100 + i, log=log, rules=game.options, base_url=server.base_url, api_key="sk-bench-not-a-key"
        )
        for i, n in enumerate(names)
    }
    wall = await timed_game(game, seats, waves)
    reqs = list(server.requests)
    return Figures(
        batches=waves.count,
        critical_path=critical_path(reqs),
        calls=len(reqs),
        speeches=sum(1 for e in game.events if e.kind == "speech"),
        days=game.day,
        wall_s=wall,
        fallbacks=sum(1 for r in log.records if r.fallback),
    )


def spread(values: list[float], fmt: str = "{:,.1f}") -> str:
    mean = statistics.fmean(values)
    if min(values) == max(values):
        return fmt.format(mean)
    return f"{fmt.format(mean)} [{fmt.format(min(values))}..{fmt.format(max(values))}]"


async def run(args: argparse.Namespace) -> None:
    print(f"discussion_protocols: openai SDK -> local stand-in, {args.players} players, {args.games} games, "
          f"latency {args.latency * 1000:g} ms, {args.rounds} debate round(s) a day")  # fmt: skip
    results: dict[str, list[Figures]] = {}
    with StandInServer(latency=args.latency) as server:
        await play_one(server, args.players, args.seed, "round_robin", args.rounds)  # warm-up
        for protocol in PROTOCOLS:
            results[protocol] = [await play_one(server, args.players, args.seed + i, protocol, args.rounds) for i in range(args.games)]
    base = results["round_robin"]
    rows = [
        ("sequential round trips (batches)", "batches"),
        ("round trips on the critical path", "critical_path"),
        ("calls", "calls"),
        ("speeches", "speeches"),
        ("days", "days"),
        ("fallbacks", "fallbacks"),
    ]
    width = max(len(r[0]) for r in rows) + 2
    print(f"\n  {'per game':<{width}}" + "".join(f"{p:>32}" for p in PROTOCOLS))
    for label, field in rows:
        cells = []
        for p in PROTOCOLS:
            values = [getattr(f, field) for f in results[p]]
            ref = statistics.fmean(getattr(f, field) for f in base)
            ratio = f" (×{statistics.fmean(values) / ref:.2f})" if ref and p != "round_robin" else ""
            cells.append(f"{spread(values) + ratio:>32}")
        print(f"  {label:<{width}}" + "".join(cells))
    ref = statistics.fmean(f.wall_s for f in base)
    cells = []
    for p in PROTOCOLS:
        ratio = f" (×{statistics.fmean(f.wall_s for f in results[p]) / ref:.2f})" if p != "round_robin" else ""
        cells.append(f"{spread([f.wall_s / args.latency for f in results[p]]) + ratio:>32}")
    print(f"  {'wall time / latency':<{width}}" + "".join(cells))
    per_day = [f"{spread([f.critical_path / max(1, f.days) for f in results[p]], '{:.1f}'):>32}" for p in PROTOCOLS]
    print(f"  {'critical path per day':<{width}}" + "".join(per_day))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--latency", type=float, default=0.02, help="seconds per call")
    ap.add_argument("--rounds", type=int, default=1, help="discussion_rounds")
    ap.add_argument("--seed", type=int, default=1)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()

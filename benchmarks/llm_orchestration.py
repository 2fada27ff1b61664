"""LLM orchestration: what a game of model seats costs in calls, tokens, dollars and round trips.

Full games of the project's model seat (``LLMAgent`` over the ``openai:`` and
``anthropic:`` back ends, the real SDKs, the real orchestrator ``arena.runner.run_async``
and the process-wide concurrency limits) against a local stand-in of both vendors'
APIs that takes a fixed latency per call, always answers legally and reports usage
the way each vendor would bill it, by its documented prompt-cache rules
(``arena/standin_server.py``, ``agents.llm.vendor_cache``). Figures are printed,
never asserted.

Per table size and vendor semantics (OpenAI: one run, priced for a small and a
frontier model, the cache rules being the same for both; Anthropic: one run per
model, the minimum cacheable prefix depending on the model), averaged over the games
(min..max in brackets):

- calls, input tokens (the whole prompt, 4 characters a token) and output tokens;
- the billed cached share (cache reads / input tokens) and the cache writes share;
- USD per game at the built-in list prices (``agents.llm.pricing``), as the seats'
  own accounting records it;
- round trips on the critical path (the longest chain of calls each started after
  the previous returned, which no CPU noise moves), the rules' critical path (the
  engine's steps asked one after the other), and their ratio; wall time / latency;
- violations and fallbacks per game (the stand-in never needs a re-ask);
- OpenAI: the routes (prefix and ``prompt_cache_key``) the calls went by, and the
  calls an overflowing route sent to a further machine.

The caches keep vendor time (``--vendor-latency`` seconds per round trip, whatever the
stand-in's own latency), so OpenAI's documented overflow (about 15 requests a minute
per prefix and key) and the entries' lifetimes apply at a real game's pace. The
default, 2.5 s, is on the fast side for a small model (public measurements of
gpt-4o-mini: about 0.4 s to the first token and 60 tokens a second) for replies of 100 to 250 tokens, a
round trip waiting for the slowest of its calls; reasoning models take far longer.

    python benchmarks/llm_orchestration.py [--games 3] [--latency 0.05] [--vendor-latency 2.5] [--cache-key-seats N] [--players 8 12] [--vendors openai anthropic]
    python benchmarks/llm_orchestration.py --players 8 --roles werewolf werewolf seer witch hunter villager villager villager
    python benchmarks/llm_orchestration.py --players 8 --vendors openai --beliefs --breakdown
    python benchmarks/llm_orchestration.py --before main   # main's seats and this tree's, side by side
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# ``--before REV`` plays the seats of another tree (``git archive REV``) against this
# tree's stand-in: its child process is told the tree here, before anything imports.
SEATS_TREE = os.environ.get("LLM_ORCHESTRATION_SEATS_TREE")


def _seats_from(tree: str) -> None:
    """Import the project's packages from ``tree`` but the vendors' cache rules
    (``agents.llm.vendor_cache``, which imports nothing of the project) from this
    tree, so both trees' seats are billed by the same rules."""
    import importlib.util

    sys.path.insert(0, tree)
    import agents.llm  # noqa: F401  (the other tree's package)

    spec = importlib.util.spec_from_file_location("agents.llm.vendor_cache", ROOT / "agents" / "llm" / "vendor_cache.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    sys.path.insert(0, str(ROOT))
    import arena.standin_server  # noqa: F401  (this tree's stand-in and arena package; the other tree goes back in front)

    sys.path.insert(0, tree)


if SEATS_TREE:
    _seats_from(SEATS_TREE)
else:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))

from arena.standin_server import StandInServer  # noqa: E402

from agents.llm.accounting import CallLog  # noqa: E402
from agents.llm.config import LLMOptions  # noqa: E402
from agents.llm.pricing import DEFAULT_TABLE  # noqa: E402
from agents.llm.vendor_cache import CHARS_PER_TOKEN, OPENAI_OVERFLOW_RATE, common_prefix, openai_billed_cached  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.llm import limits as arena_limits  # noqa: E402
from arena.runner import run_async  # noqa: E402
from engine import Game, GameSetup  # noqa: E402

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris", "Jules", "Karim", "Lena", "Marco"]
PRESET = "millers_hollow"
# Vendor semantics -> runs: (model asked, [models priced]); a small and a frontier model each.
RUNS = {
    "openai": [("gpt-5.4-mini", ["gpt-5.4-mini", "gpt-5.5"])],
    "anthropic": [("claude-haiku-4-5", ["claude-haiku-4-5"]), ("claude-sonnet-4-6", ["claude-sonnet-4-6"])],
}


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

            def beliefs(self, view: Any, moment: int | None = None) -> Any:
                return agent.beliefs(view, moment)

            async def abeliefs(self, view: Any, moment: int | None = None) -> Any:
                return await agent.abeliefs(view, moment)  # asked beside the vote: no batch of its own

            def expect_beliefs(self) -> None:
                agent.expect_beliefs()

        return Timed()


@dataclass
class GameFigures:
    players: int
    seed: int
    winner: str | None
    wall_s: float
    calls: int
    batches: int
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    cache_write_tokens: int
    usd: dict[str, float]
    critical_path: int
    violations: int
    fallbacks: int
    routes: int
    overflowed: int
    uncached: dict[str, int]


def cost(records: list[Any], model: str, vendor: str) -> float:
    """USD at ``model``'s list price for these calls' billed usage."""
    price = DEFAULT_TABLE.lookup(model, vendor)
    total = 0.0
    for r in records:
        if r.input_tokens is None:
            continue
        total += price.cost(
            input_tokens=r.input_tokens,
            output_tokens=r.output_tokens or 0,
            cached_tokens=r.cached_tokens or 0,
            cache_write_tokens=r.cache_write_tokens or 0,
        )
    return total


async def timed_game(game: Game, seats: dict, waves: "Waves", *, beliefs: bool = False) -> float:
    """Play ``game`` with the model ``seats`` (each wrapped to count the round trips
    in ``waves``; with ``beliefs``, each day's beliefs asked beside the vote), close
    their clients, and return the wall time in seconds."""
    from arena.beliefs import BeliefPoll

    started = time.perf_counter()
    try:
        await run_async(game, {n: waves.wrap(a) for n, a in seats.items()}, beliefs=BeliefPoll() if beliefs else None)
    finally:
        for a in seats.values():
            await a.backend.aclose()
    return time.perf_counter() - started


async def play_one(
    server: StandInServer,
    players: int,
    seed: int,
    vendor: str,
    model: str,
    priced: list[str],
    options: dict[str, Any],
    roles: list[str] | None = None,
    beliefs: bool = False,
) -> GameFigures:
    server.reset(seed)
    names = NAMES[:players]
    game = Game(GameSetup(names=names, seed=seed, preset=PRESET, roles=roles))
    log = CallLog()
    waves = Waves()
    url = server.base_url if vendor == "openai" else server.anthropic_url
    seats = {
        n: make_agent(
            f"{vendor}:{model}",
            n,
            seed=seed * 100 + i,
            log=log,
            preset=PRESET,
            rules=game.options,
            base_url=url,
            api_key="sk-bench-not-a-key",
            **options,
        )
        for i, n in enumerate(names)
    }
    wall = await timed_game(game, seats, waves, beliefs=beliefs)
    reqs = list(server.requests)
    made = [r for r in log.records if r.messages]
    return GameFigures(
        players=players,
        seed=seed,
        winner=game.winner,
        wall_s=wall,
        calls=len(reqs),
        batches=waves.count,
        input_tokens=sum(r.input_tokens or 0 for r in made),
        output_tokens=sum(r.output_tokens or 0 for r in made),
        cached_tokens=sum(r.cached_tokens or 0 for r in made),
        cache_write_tokens=sum(r.cache_write_tokens or 0 for r in made),
        usd={m: cost(made, m, vendor) for m in priced},
        critical_path=critical_path(reqs),
        violations=sum(1 for r in log.records if r.violation),
        fallbacks=sum(1 for r in log.records if r.fallback),
        routes=len({r.route for r in reqs if r.route}),
        overflowed=sum(1 for r in reqs if r.machine),
        uncached=uncached_causes(reqs) if vendor == "openai" else {},
    )


QUESTION = "\n\n## "  # where a question's heading starts, after the history (speeches are quoted on one line)


def uncached_causes(reqs: list[Any]) -> dict[str, int]:
    """OpenAI: where each call's input tokens not billed as cache reads went, against
    the longest prefix it shares with an earlier call on its route already answered
    (what the route's cache could hold): the route's first call, or a seat's first
    call on a route another seat opened (what is its own); the tools and schema,
    the system text or the history differing from every earlier call's (a broken
    prefix); the history new since then; the question (and any re-ask after it); the
    match rounded down to whole 128-token blocks; an overflow machine's missing entry."""
    out: dict[str, int] = {}

    def add(cause: str, n: int) -> None:
        if n > 0:
            out[cause] = out.get(cause, 0) + n

    order = sorted(reqs, key=lambda r: r.started)
    for i, r in enumerate(order):
        if not r.text:
            continue
        earlier = [e for e in order[:i] if e.route == r.route and e.ended <= r.started and e.text]
        if not earlier:
            add("the route's first call", r.prompt_tokens - r.cached_tokens)
            continue
        best = max(earlier, key=lambda e: common_prefix(e.text, r.text))
        matched = common_prefix(best.text, r.text)
        could = openai_billed_cached(matched // CHARS_PER_TOKEN)
        add("an overflow machine (the entry is on another)", could - r.cached_tokens)
        add("rounding down to 128-token blocks", matched // CHARS_PER_TOKEN - could)
        user, question = r.text.find("<user>"), r.text.rfind(QUESTION)
        own = r.text[r.text.find("<system>") : user]
        if not any(e.text[e.text.find("<system>") : e.text.find("<user>")] == own for e in earlier):
            add("a seat's first call on a shared route (its own part)", (len(r.text) - matched) // CHARS_PER_TOKEN)
            continue
        question = question if question > user else len(r.text)
        kept = best.text.rfind(QUESTION)  # where the earlier call's question began: its history ends there
        if matched < r.text.find("<system>"):
            add("broken prefix: tools or schema", (len(r.text) - matched) // CHARS_PER_TOKEN)
            continue
        if matched < user:
            add("broken prefix: system text", (len(r.text) - matched) // CHARS_PER_TOKEN)
            continue
        if matched < min(kept, question):
            add("broken prefix: earlier history rewritten", (min(kept, question) - matched) // CHARS_PER_TOKEN)
            matched = min(kept, question)
        add("history new since the last call", (question - matched) // CHARS_PER_TOKEN)
        add("the question (and re-asks)", (len(r.text) - max(matched, question)) // CHARS_PER_TOKEN)
    return out


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


Table = tuple[str, list[tuple[str, str]]]  # a run's heading and its (figure, value) rows


def report(
    players: int,
    latency: float,
    vendor: str,
    model: str,
    games: list[GameFigures],
    roles: list[str] | None = None,
    beliefs: bool = False,
    breakdown: bool = False,
) -> Table:
    """One run's figures: its heading and rows (printed by ``show``, or side by side)."""
    deck = f"deck {'+'.join(roles)}" if roles else "recommended deck"
    asked = ", beliefs asked each day" if beliefs else ""
    heading = f"{players} players, {vendor} semantics ({model}), {PRESET} defaults, {deck}{asked}, {len(games)} games, latency {latency * 1000:g} ms per call"
    winners: dict[Any, int] = {}
    for g in games:
        winners[g.winner] = winners.get(g.winner, 0) + 1
    rows = [
        ("calls per game", spread([g.calls for g in games])),
        ("input tokens per game", spread([g.input_tokens for g in games])),
        ("  per call (mean)", spread([g.input_tokens / g.calls for g in games])),
        ("output tokens per game", spread([g.output_tokens for g in games])),
        ("billed cached share (reads / input)", spread([100.0 * g.cached_tokens / max(1, g.input_tokens) for g in games], "{:.1f}%")),
        ("cache writes (share of input)", spread([100.0 * g.cache_write_tokens / max(1, g.input_tokens) for g in games], "{:.1f}%")),
    ]
    for m in games[0].usd:
        rows.append((f"USD per game, {m}", spread([g.usd[m] for g in games], "${:.4f}")))
    rows += [
        ("round trips (critical path)", spread([g.critical_path for g in games])),
        ("rules' critical path (steps asked in turn)", spread([g.batches for g in games])),
        ("round trips / rules' critical path", spread([g.critical_path / g.batches for g in games], "{:.2f}")),
        ("wall time / latency", spread([g.wall_s / latency for g in games], "{:.1f}")),
        ("violations / fallbacks per game", f"{statistics.fmean(g.violations for g in games):.1f} / {statistics.fmean(g.fallbacks for g in games):.1f}"),
    ]
    if vendor == "openai":
        rows += [
            ("routes (prefix + prompt_cache_key)", spread([g.routes for g in games])),
            ("calls sent to an overflow machine", spread([g.overflowed for g in games])),
        ]
    rows += [
        ("winners", ", ".join(f"{k}: {v}" for k, v in sorted(winners.items(), key=lambda kv: str(kv[0])))),
    ]
    if breakdown and vendor == "openai":
        total = sum(g.input_tokens for g in games)
        causes: dict[str, int] = {}
        for g in games:
            for k, n in g.uncached.items():
                causes[k] = causes.get(k, 0) + n
        rows.append(("input not billed as cache reads, by cause (share of all input):", ""))
        rows += [(f"    {k}", f"{100.0 * n / max(1, total):.1f}%") for k, n in sorted(causes.items(), key=lambda kv: -kv[1])]
    return heading, rows


def show(tables: list[Table]) -> None:
    for heading, rows in tables:
        print(f"\n{heading}")
        width = max(len(k) for k, v in rows if v)
        for k, v in rows:
            print(f"  {k:<{width}}  {v}".rstrip())


def side_by_side(runs: dict[str, list[Table]]) -> None:
    """The same runs measured with two trees' seats, one column each."""
    names = list(runs)
    by_heading = {name: dict(tables) for name, tables in runs.items()}
    for heading, _ in runs[names[-1]]:
        print(f"\n{heading}")
        columns = [dict(by_heading[n].get(heading, [])) for n in names]
        labels = list(dict.fromkeys(k for n in names for k, _ in by_heading[n].get(heading, [])))
        width = max(len(k) for k in labels)
        cell = max(20, *(len(c.get(k, "")) + 2 for c in columns for k in labels))
        print(f"  {'':<{width}}" + "".join(f"{n:>{cell}}" for n in names))
        for k in labels:
            print(f"  {k:<{width}}" + "".join(f"{c.get(k, '-'):>{cell}}" for c in columns))


def cache_options() -> dict[str, Any]:
    """The layout the seats use on the vendors' own hosts (the stand-in is local, so
    the automatic choice would be the local servers' one)."""
    return {"prompt_layout": "cache"} if "prompt_layout" in LLMOptions.model_fields else {}


async def run(args: argparse.Namespace) -> None:
    tables: list[Table] = []
    if args.global_limit or args.per_model:
        arena_limits.configure(global_limit=args.global_limit or None, default_per_model=args.per_model or None)
    lim = arena_limits.LIMITS
    options = {"max_tokens": args.max_tokens, **cache_options()}
    if args.cache_key_seats:
        options["cache_key_seats"] = args.cache_key_seats
    print(
        f"llm_orchestration: seats from {SEATS_TREE or ROOT}; openai and anthropic SDKs -> local stand-in (127.0.0.1), concurrency limits: "
        f"global {lim.global_limit}, per model {lim.cap('openai:gpt-5.4-mini')}; python {sys.version.split()[0]}, {os.cpu_count()} cpus; options {options}"
    )
    print(f"the caches' clock: {args.vendor_latency:g} s per round trip (vendor time); OpenAI routes overflow above {OPENAI_OVERFLOW_RATE} requests a minute")
    with StandInServer(latency=args.latency, vendor_latency=args.vendor_latency) as server:
        for players in args.players:
            seeds = [args.seed + i for i in range(args.games)]
            for vendor in args.vendors:
                for model, priced in RUNS[vendor][: 1 if args.roles else None]:
                    server.latency = 0.0
                    await play_one(server, players, seeds[0], vendor, model, priced, options, args.roles, args.beliefs)  # warm-up: imports, templates, the SDK's pool
                    server.latency = args.latency
                    games = [await play_one(server, players, s, vendor, model, priced, options, args.roles, args.beliefs) for s in seeds]
                    tables.append(report(players, args.latency, vendor, model, games, args.roles, args.beliefs, args.breakdown))
    if args.json:
        print(json.dumps(tables))
    else:
        show(tables)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3, help="games per table size and run")
    ap.add_argument("--latency", type=float, default=0.05, help="seconds per call")
    ap.add_argument("--vendor-latency", type=float, default=2.5, help="seconds per round trip at the vendor, for the caches' clock")
    ap.add_argument("--players", type=int, nargs="+", default=[8, 12])
    ap.add_argument("--vendors", nargs="+", default=["openai", "anthropic"], choices=sorted(RUNS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--roles", nargs="+", default=None, help="a deck instead of the recommended one (e.g. with a Witch); one run per vendor")
    ap.add_argument("--cache-key-seats", type=int, default=0, help="seats sharing one OpenAI prompt_cache_key (default: LLMOptions.cache_key_seats)")
    ap.add_argument("--beliefs", action="store_true", help="the beliefs game option: each seat's private P(wolf) asked as each day's vote opens")
    ap.add_argument("--breakdown", action="store_true", help="OpenAI: where the input not billed as cache reads went")
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--global-limit", type=int, default=0, help="override the process-wide cap on calls in flight")
    ap.add_argument("--per-model", type=int, default=0, help="override the per-model cap on calls in flight")
    ap.add_argument("--json", action="store_true", help="the tables as one JSON list on the last line of stdout")
    ap.add_argument("--before", metavar="REV", help="also play the seats of git revision REV (e.g. main), billed by this tree's stand-in; side by side")
    args = ap.parse_args()
    if args.before:
        compare(args)
    else:
        asyncio.run(run(args))


def compare(args: argparse.Namespace) -> None:
    """``--before REV``: the same runs in two fresh interpreters, REV's seats then this
    tree's, both against this tree's stand-in (the vendors' rules), side by side."""
    argv = [a for a in sys.argv[1:] if a != "--json"]
    i = argv.index("--before") if "--before" in argv else next(i for i, a in enumerate(argv) if a.startswith("--before="))
    del argv[i : i + (1 if "=" in argv[i] else 2)]
    runs: dict[str, list[Table]] = {}
    with tempfile.TemporaryDirectory(prefix="llm-before-") as tmp:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        for name, tree in ((args.before, tmp), ("this tree", "")):
            env = {k: v for k, v in os.environ.items() if k != "LLM_ORCHESTRATION_SEATS_TREE"}
            if tree:
                env["LLM_ORCHESTRATION_SEATS_TREE"] = tree
            out = subprocess.run([sys.executable, __file__, *argv, "--json"], env=env, capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(f"the {name} run failed:\n{out.stderr[-4000:]}")
            lines = out.stdout.strip().splitlines()
            print("\n".join(lines[:-1]).replace(tmp, f"git archive {args.before}"))
            runs[name] = [(h, [tuple(r) for r in rows]) for h, rows in json.loads(lines[-1])]
    side_by_side(runs)


if __name__ == "__main__":
    main()

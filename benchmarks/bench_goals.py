"""The bench's two measured goals (issue 53).

1. Agreement: two runs of one protocol design with the same "model" (the heuristic bot
   with noise 0.3) agree within their intervals. Pair i runs the protocol with seeds
   ``1000 + 2i`` and ``1001 + 2i`` (a fresh draw of the same design: the same tables,
   opponents and pars); the goal is that at least 9 of 10 pairs' intervals overlap.
2. The estimate: ``openai:gpt-5.4-mini`` on the local stand-in (``arena.standin_server``,
   billed by OpenAI's documented cache rules, priced by the price table), the estimate's
   cost a game times the games played against the spend, within 20%.

    nice python benchmarks/bench_goals.py [--agreement-protocol smoke] [--pairs 10]
        [--estimate-protocol v1] [--estimate-deals 12]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bench.estimate import estimate  # noqa: E402
from arena.bench.protocol import load_protocol  # noqa: E402
from arena.bench.protocol import MODEL  # noqa: E402
from arena.bench.run import Bench, open_store  # noqa: E402
from arena.standin_server import StandInServer  # noqa: E402


def agreement(name: str, pairs: int) -> None:
    proto = load_protocol(name)
    overlaps = 0
    t0 = time.perf_counter()
    for i in range(pairs):
        ivs = []
        for seed in (1000 + 2 * i, 1001 + 2 * i):
            p = proto.model_copy(update={"seed": seed})
            with tempfile.TemporaryDirectory() as tmp:
                st = Bench(p, "heuristic", {"noise": 0.3}, Path(tmp)).run()
            ivs.append((st.interval(p), len(st.outcomes), st.stopped))
        (a, na, sa), (b, nb, sb) = ivs
        ok = a.low <= b.high and b.low <= a.high
        overlaps += ok
        print(f"pair {i}: {a.value:+.0f} [{a.low:+.0f}, {a.high:+.0f}] ({na} games, {sa})  vs  "
              f"{b.value:+.0f} [{b.low:+.0f}, {b.high:+.0f}] ({nb} games, {sb})  overlap={ok}", flush=True)  # fmt: skip
    print(f"agreement on {proto.label}: {overlaps}/{pairs} pairs overlap ({time.perf_counter() - t0:.0f} s)")


def estimate_vs_spend(name: str, deals: int) -> None:
    proto = load_protocol(name)
    # all the protocol's tables and opponents, every deal played (target unreachable)
    p = proto.model_copy(update={"max_deals": deals, "target": 1e-9})
    spec = "openai:gpt-5.4-mini"
    with StandInServer(latency=0.0) as api:
        os.environ["OPENAI_BASE_URL"] = api.base_url
        os.environ["OPENAI_API_KEY"] = "sk-bench"
        t0 = time.perf_counter()
        est = estimate(p, spec, None)
        t1 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            st = Bench(p, spec, None, Path(tmp), game_cost=est.usd_per_game or 0.0).run()
            t2 = time.perf_counter()
            store = open_store(Path(tmp), p, spec, None)
            games = store.games()
            decisions = sum(int(json.loads(s["metrics"] or "{}").get("decisions_asked") or 0) for s in store.seats() if s["participant"] == MODEL)
            store.close()
        tin = sum(g["input_tokens"] for g in games)
        actual = (f"actual: {decisions / len(games):.1f} decisions a game, {tin / decisions:.0f} in / "
                  f"{sum(g['output_tokens'] for g in games) / decisions:.0f} out tokens a decision, "
                  f"{sum(g['cached_tokens'] or 0 for g in games) / tin:.0%} cached (estimate: {est.cached_share:.0%})")  # fmt: skip
    assert est.usd_per_game is not None
    predicted = est.usd_per_game * len(st.outcomes)
    print(f"estimate on {p.label} ({len(p.tables)} tables, {deals} deals): dry run {est.dry_run_games} games in {t1 - t0:.0f} s; "
          f"${est.usd_per_game:.5f} a game, {est.decisions_per_game:.1f} decisions, {est.input_tokens_per_decision:.0f} in / "
          f"{est.output_tokens_per_decision:.0f} out tokens a decision")  # fmt: skip
    print(f"run: {len(st.outcomes)} games in {t2 - t1:.0f} s, spent ${st.cost_usd:.4f}; estimate for those games ${predicted:.4f}: "
          f"error {100 * (predicted - st.cost_usd) / st.cost_usd:+.1f}%")  # fmt: skip
    print(actual)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agreement-protocol", default="smoke")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--estimate-protocol", default="v1")
    ap.add_argument("--estimate-deals", type=int, default=12)
    ap.add_argument("--only", choices=("agreement", "estimate"))
    args = ap.parse_args()
    if args.only != "estimate":
        agreement(args.agreement_protocol, args.pairs)
    if args.only != "agreement":
        estimate_vs_spend(args.estimate_protocol, args.estimate_deals)


if __name__ == "__main__":
    main()

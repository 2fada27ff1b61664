"""Measure a bench protocol's pars: the reference player in the model's seat.

For every table, opponent and side, the par is the Elo at which a model wins half its
games there, read from the reference player's win rate q in that cell as
``-400 * log10(q / (1 - q))`` (q clipped to [0.03, 0.97]: a cell the reference player
always wins or always loses says only that the par is far, not how far), so the
reference player scores 0 on the protocol's scale by construction. Also prints each
opponent's own rating on that scale (its games in the model's seat would measure it;
here: the reference player's par against it, averaged over sides and tables, negated).

    nice python benchmarks/bench_calibrate.py --protocol v1 --per-cell 12 [--write]

``--write`` puts the pars into the protocol file (a new protocol: bump its version).
``--rate-opponents`` then benches each opponent but the reference player (as the model,
on the protocol as written, with its stopping rule) and writes its rating (``--write``).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bench.protocol import load_protocol  # noqa: E402
from arena.bench.run import Bench, open_store, read_outcomes  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--protocol", default="v1")
    ap.add_argument("--per-cell", type=int, default=12, help="games per table, opponent and side")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--rate-opponents", action="store_true", help="only bench the opponents on the protocol's pars")
    args = ap.parse_args()
    if args.rate_opponents:
        rate_opponents(args.protocol, args.write)
        return
    proto = load_protocol(args.protocol)
    cells = len(proto.tables) * len(proto.opponents)
    run = proto.model_copy(update={"max_deals": cells * args.per_cell, "batch": cells})
    with tempfile.TemporaryDirectory() as tmp:
        Bench(run, "reasoner", None, Path(tmp)).run_all()
        store = open_store(Path(tmp), run, "reasoner", None)
        outcomes = read_outcomes(store, run, [g["id"] for g in store.games()])
        store.close()
    pars = []
    for t in range(len(proto.tables)):
        for o in proto.opponents:
            for side in ("werewolves", "village"):
                won = [x.won for x in outcomes if (x.table, x.opponent, x.side) == (t, o.name, side)]
                q = min(0.97, max(0.03, sum(won) / len(won)))
                elo = round(-400 * math.log10(q / (1 - q)), 1)
                pars.append({"table": t, "opponent": o.name, "side": side, "elo": elo, "games": len(won)})
                print(f"{proto.tables[t].label():<20} {o.name:<10} {side:<10} q={sum(won) / len(won):.3f} par={elo:+.0f} ({len(won)} games)")
    for o in proto.opponents:
        own = [-p["elo"] for p in pars if p["opponent"] == o.name]
        print(f"{o.name}: {sum(own) / len(own):+.0f} Elo on average below/above the reference player's pars")
    if args.write:
        path = Path(__file__).resolve().parents[1] / "arena" / "bench" / "protocols" / f"{args.protocol}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["pars"] = pars
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
        print(f"wrote {path}")


def rate_opponents(name: str, write: bool) -> None:
    proto = load_protocol(name)
    ratings: dict[str, float] = {}
    for o in proto.opponents[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            st = Bench(proto, o.agent, o.options, Path(tmp)).run()
        iv = st.interval(proto)
        ratings[o.name] = round(iv.value, 1)
        print(f"{o.name}: {iv.value:+.0f} [{iv.low:+.0f}, {iv.high:+.0f}] over {len(st.outcomes)} games ({st.stopped})", flush=True)
    if write:
        path = Path(__file__).resolve().parents[1] / "arena" / "bench" / "protocols" / f"{name}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for o in data["opponents"]:
            if o["name"] in ratings:
                o["rating"] = ratings[o["name"]]
            elif o is data["opponents"][0]:
                o["rating"] = 0.0  # the reference player: 0 by construction of the pars
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

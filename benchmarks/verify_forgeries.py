"""Issue 12's forgeries against ``werewolf verify``, before and after, and what verify costs.

Two trees side by side in one run: ``--before REF`` (default: where this branch left
``main``, extracted with ``git archive``) and the working tree. A model game (three
``openai:`` seats against the local stand-in server of ``arena/standin_server.py``, five
heuristic bots) is the honest file; the forgeries are made from it and from a bots'
game at the same table with another winner:

1. every ``digest`` field deleted;
2. the bots' game, its answers relabelled as the model's, no calls, the chain stripped;
3. the same with the chain recomputed;
4. the model game with its call records dropped, the chain recomputed;
5. a model call's answer edited, the chain recomputed.

Each is verified by both trees (``verify --json``: the status is printed; ``ok`` means
the forgery passed). Then the verify time of the fixture transcript
(``tests/fixtures/scripted_8.yaml`` played) and of the model game (unsigned, and
signed: the tree before cannot read a signed file), per tree: the lowest of
``--rounds`` processes, the trees alternating, each the median of ``--repeat`` runs
(figures printed, never asserted).

    python benchmarks/verify_forgeries.py [--before REF] [--repeat 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
MODEL = "openai:standin"


def run(tree: Path, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=tree, env={**env, "PYTHONPATH": str(tree)}, capture_output=True, text=True)


def table(folder: Path, seed: int, models: bool) -> Path:
    import yaml

    seats = [{"name": n, "agent": MODEL if models and n in NAMES[:3] else "heuristic"} for n in NAMES]
    p = folder / f"table{seed}{'m' if models else ''}.yaml"
    p.write_text(yaml.safe_dump({"seed": seed, "options": {"sheriff": False}, "seats": seats}))
    return p


def play(tree: Path, game: Path, out: Path, env: dict[str, str], *flags: str) -> dict:
    r = run(tree, ["-m", "arena.cli", "play", str(game), "--json", "--quiet", "--transcript", str(out), *flags], env)
    if r.returncode != 0:
        raise SystemExit(f"play failed: {r.stderr}")
    return json.loads(r.stdout)


def lines(p: Path) -> list[dict]:
    return [json.loads(x) for x in p.read_text().splitlines()]


def write(p: Path, rows: list[dict], *, rechain: bool) -> Path:
    from transcripts.chain import link
    from transcripts.schema import parse_record

    prev, out = None, []
    for row in rows:
        row = dict(row)
        row.pop("digest", None) if rechain or "digest" not in row else None
        if rechain:
            prev = row["digest"] = link(prev, parse_record(json.dumps(row)))
        out.append(json.dumps(row, ensure_ascii=False))
    p.write_text("\n".join(out) + "\n")
    return p


def forgeries(folder: Path, model: Path, bots: Path) -> dict[str, Path]:
    m, b = lines(model), lines(bots)
    agents = {s["name"]: s["agent"] for s in m[0]["seats"]}
    out: dict[str, Path] = {}
    out["1 digests deleted"] = write(folder / "f1.jsonl", [{k: v for k, v in r.items() if k != "digest"} for r in m], rechain=False)
    relabelled = [dict(r) for r in b]
    relabelled[0] = {**b[0], "seats": [{**s, "agent": agents[s["name"]]} for s in b[0]["seats"]]}
    relabelled = [relabelled[0]] + [({**r, "agent": agents[r["seat"]]} if r["type"] == "answer" else r) for r in relabelled[1:]]
    stripped = [{k: v for k, v in r.items() if k != "digest"} for r in relabelled]
    out["2 other game relabelled, chain stripped"] = write(folder / "f2.jsonl", stripped, rechain=False)
    out["3 other game relabelled, chain recomputed"] = write(folder / "f3.jsonl", relabelled, rechain=True)
    out["4 calls dropped, chain recomputed"] = write(folder / "f4.jsonl", [r for r in m if r["type"] != "call"], rechain=True)
    edited = [dict(r) for r in m]
    i = next(i for i, r in enumerate(edited) if r["type"] == "call" and r.get("accepted") and r["kind"] == "vote")
    answer = next(r for r in edited if r["type"] == "answer" and r["decision"] == edited[i]["decision"])
    edited[i] = {**edited[i], "answer": next(o for o in answer["options"] if o != answer["answer"])}
    out["5 call answer edited, chain recomputed"] = write(folder / "f5.jsonl", edited, rechain=True)
    return out


TIMER = """
import statistics, sys, time
from transcripts.verify import verify_file
path, n = sys.argv[1], int(sys.argv[2])
verify_file(path)  # imports and caches warmed
times = []
for _ in range(n):
    t0 = time.perf_counter(); v = verify_file(path); times.append(time.perf_counter() - t0)
print(statistics.median(times), v.status.value)
"""


BREAKDOWN = """
import statistics, sys, time
from transcripts.chain import first_break, forms
from transcripts.coverage import check_backing
from transcripts.schema import read_transcript
from transcripts.signatures import check_signatures
from transcripts.verify import FIRST_RECORD_LINE, _Rerun, build_game, verify
t, n = read_transcript(sys.argv[1]), int(sys.argv[2])
run = _Rerun(t, build_game(t.header))
for i, r in enumerate(t.records):
    run.record(i + FIRST_RECORD_LINE, r)
seats = {s.name: s.agent for s in t.header.seats}
canon = forms(t.header, t.records)
def med(f):
    f(); times = []
    for _ in range(n):
        t0 = time.perf_counter(); f(); times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000
total = med(lambda: verify(t))
parts = {"canonical forms": med(lambda: forms(t.header, t.records)), "chain": med(lambda: first_break(t.header, t.records, canon)),
         "calls": med(lambda: check_backing(run.calls, run.answered, run.belief_lines, seats)),
         "signatures": med(lambda: check_signatures(t, None, canon))}
print(f"{total:.2f} " + " ".join(f"{k}={v:.3f}" for k, v in parts.items()) + f" new={sum(parts.values()):.2f}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="the git ref of the tree before (default: merge-base of HEAD and main)")
    ap.add_argument("--repeat", type=int, default=20, help="verifications per process (their median is taken)")
    ap.add_argument("--rounds", type=int, default=3, help="processes per tree, alternating (the lowest median is printed)")
    args = ap.parse_args()
    from arena.standin_server import StandInServer

    before_ref = args.before or subprocess.check_output(["git", "merge-base", "HEAD", "main"], cwd=ROOT, text=True).strip()
    with tempfile.TemporaryDirectory() as tmp, StandInServer(latency=0.0) as api:
        folder = Path(tmp)
        before = folder / "before"
        before.mkdir()
        archive = subprocess.run(["git", "archive", before_ref], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        env = {**os.environ, "OPENAI_BASE_URL": api.base_url, "OPENAI_API_KEY": "sk-bench"}
        env.pop("WEREWOLF_SIGNING_KEY", None)
        model = folder / "model.jsonl"
        winner = play(ROOT, table(folder, 4, True), model, env)["winner"]
        bots = next(
            p for seed in range(1, 60)
            if play(ROOT, table(folder, seed, False), p := folder / f"bots{seed}.jsonl", env)["winner"] != winner
        )  # fmt: skip
        trees = {"before": before, "after": ROOT}
        print(f"before = {before_ref[:12]}, after = working tree; model game won by {winner}, the bots' game by {lines(bots)[-1]['winner']}")
        print(f"{'forgery':46} {'before':>12} {'after':>12}")
        for name, path in forgeries(folder, model, bots).items():
            cells = []
            for tree in trees.values():
                r = run(tree, ["-m", "arena.cli", "verify", str(path), "--json"], env)
                try:
                    cells.append(json.loads(r.stdout)["status"])
                except (json.JSONDecodeError, KeyError):
                    cells.append(f"exit {r.returncode}")
            print(f"{name:46} {cells[0]:>12} {cells[1]:>12}")
        fixture = folder / "fixture.jsonl"
        play(ROOT, ROOT / "tests" / "fixtures" / "scripted_8.yaml", fixture, env)
        subprocess.run([sys.executable, "-m", "arena.cli", "keygen", str(folder / "key")], cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True)
        signed = folder / "signed.jsonl"
        play(ROOT, table(folder, 4, True), signed, env, "--sign-key", str(folder / "key"))
        print(f"\nverify time (lowest of {args.rounds} alternating processes per tree, each the median of {args.repeat} runs)")
        print(f"{'transcript':34} {'lines':>6} {'before ms':>10} {'after ms':>10} {'after/before':>13}")
        rows = (("fixture scripted_8 (bots)", fixture), ("model game (3 model seats)", model), ("the same, signed", signed))
        for label, path in rows:
            ms: list[float | None] = [None, None]
            for _ in range(args.rounds):  # the trees alternate, so a busy moment hits both alike
                for k, tree in enumerate(trees.values()):
                    r = run(tree, ["-c", TIMER, str(path), str(args.repeat)], env)
                    seconds, status = r.stdout.split() if r.returncode == 0 else ("nan", "error")
                    if status == "ok":  # the tree before cannot read a signed file
                        ms[k] = min(float(seconds) * 1000, ms[k] if ms[k] is not None else float("inf"))
            cells = [f"{m:.2f}" if m is not None else "n/a" for m in ms]
            ratio = f"{ms[1] / ms[0]:.2f}x" if None not in ms else "n/a"
            print(f"{label:34} {len(lines(path)):>6} {cells[0]:>10} {cells[1]:>10} {ratio:>13}")
        print(
            "\nwithin one process of the tree after (ms, median): the whole verify, and its checks after the re-play "
            "(the canonical forms and the chain were computed before too; the calls and signatures are new)"
        )
        for label, path in rows:
            r = run(ROOT, ["-c", BREAKDOWN, str(path), str(args.repeat)], env)
            if r.returncode != 0:
                raise SystemExit(r.stderr)
            total, *parts = r.stdout.split()
            new = float(parts[-1].split("=")[1])
            print(f"{label:34} verify {float(total):7.2f}  {' '.join(parts[:-1])}  together {new:.2f} ({new / float(total):.0%})")


if __name__ == "__main__":
    main()

"""Byte-identical transcripts across a refactor: record digests, then check them.

A change to how the engine declares, emits or stores its events must not change a
single byte of what it records: the same seed and the same answers give the same
file. This plays seeded games of every preset (several table sizes, heuristic and
random seats, the preset's own options and a few switched ones), writes each one
with the real ``TranscriptWriter`` and keeps the SHA-256 of the file without its
header (which names the software version). ``record`` writes the digests;
``check`` plays the same games again and names every game whose file differs.

    python benchmarks/transcript_identity.py record /tmp/ids.json [--games 1000]
    python benchmarks/transcript_identity.py check /tmp/ids.json
    python benchmarks/transcript_identity.py check /tmp/ids.json --set impersonation_phantoms=0

``--set OPTION=JSON`` plays every game with that option overridden (the digests are
still looked up under the games' own keys): after a preset's default changes, setting
it back shows whether the default is all that changed.

Games are spread over presets, sizes and agents by their index, so ``--games N``
always plays the same first N games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.gamefile import GameSpec, SeatSpec, default_names, header_for  # noqa: E402
from arena.runner import run_sync  # noqa: E402
from engine.presets import PRESETS  # noqa: E402
from transcripts.writer import TranscriptWriter  # noqa: E402

SIZES = (5, 8, 12, 16)
AGENTS = ("heuristic", "random")
# Switched options, per preset, so the rarer branches are recorded too.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "millers_hollow": [{}, {"sheriff": False}, {"discussion": "bidding"}, {"discussion": "parallel", "discussion_turns": 2}],
    "millers_hollow_es": [{}],
    "best_of": [{}],
    "langrensha": [{}, {"sheriff_candidacy": True}],
    "village": [{}],
    "forum": [{}],
}


def plan(games: int) -> list[tuple[str, int, str, dict[str, Any], int]]:
    """The ``games`` games: (preset, players, agent, options, seed), by index."""
    out = []
    presets = sorted(PRESETS)
    i = 0
    while len(out) < games:
        preset = presets[i % len(presets)]
        p = PRESETS[preset]
        size = SIZES[(i // len(presets)) % len(SIZES)]
        size = max(p.min_players, min(p.max_players, size))
        agent = AGENTS[(i // (len(presets) * len(SIZES))) % len(AGENTS)]
        variants = VARIANTS.get(preset, [{}])
        options = variants[(i // len(presets)) % len(variants)]
        out.append((preset, size, agent, options, i))
        i += 1
    return out


def digest(preset: str, players: int, agent: str, options: dict[str, Any], seed: int, folder: Path) -> str:
    spec = GameSpec(preset=preset, seed=seed, options=dict(options), seats=[SeatSpec(name=n, agent=agent) for n in default_names(players)])
    game, agents = spec.build()
    path = folder / "game.jsonl"
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        writer.sync_events(game)
        run_sync(game, agents, on_answer=writer.on_answer)
    lines = path.read_bytes().split(b"\n", 1)
    return hashlib.sha256(lines[1] if len(lines) > 1 else b"").hexdigest()


def play_all(games: int, overrides: dict[str, Any] | None = None) -> dict[str, str]:
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        for preset, size, agent, options, seed in plan(games):
            key = f"{seed}:{preset}:{size}:{agent}:{json.dumps(options, sort_keys=True)}"
            found[key] = digest(preset, size, agent, {**options, **(overrides or {})}, seed, Path(tmp))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("record", "check"))
    ap.add_argument("file")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--set", action="append", default=[], metavar="OPTION=JSON", help="play every game with this rule option overridden")
    args = ap.parse_args(argv)
    overrides: dict[str, Any] = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--set wants OPTION=JSON, got {item!r}")
        try:
            overrides[name] = json.loads(value)
        except json.JSONDecodeError:
            overrides[name] = value  # a bare word: an enumerated option's value

    path = Path(args.file)
    if args.action == "record":
        found = play_all(args.games, overrides)
        path.write_text(json.dumps(found, indent=0))
        print(f"recorded {len(found)} games in {path}")
        return 0
    wanted = json.loads(path.read_text())
    found = play_all(len(wanted), overrides)
    differ = [k for k, v in wanted.items() if found.get(k) != v]
    print(f"{len(wanted) - len(differ)} of {len(wanted)} games byte-identical")
    for k in differ[:20]:
        print("  differs:", k)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How much one player's long words cost every later model request: figures, before
and after the engine's bound on words (``engine.words.MAX_CHARS``).

    python benchmarks/long_words.py                      # this checkout
    python benchmarks/long_words.py --code /work/main    # another checkout (an older commit)
    python benchmarks/long_words.py --chars 2000         # words at the bound

Two games of eight seats through ``werewolf play FILE`` (in this process), the model
seats on the local stand-in server (``arena/standin_server.py``, a real HTTP
server speaking the OpenAI wire protocol), seed 4, the Sheriff off:

- ``scripted``: Alice is a scripted villager who says ``--chars`` characters at every
  speech; Bob and Chloe are model seats, the others heuristic bots;
- ``model``: Alice, Bob and Chloe are model seats whose replies put ``--chars``
  characters in every speech and every private talk.

For each: how the command ended (its exit code, or the first line of its refusal),
then the HTTP request bodies the model seats sent: how many, the median and the
largest, and all of them together. Before the bound a game file's 100,000-character
speech went whole into every later request (about 111 KB each).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
SEED = 5
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
MODELS = ("Bob", "Chloe", "David", "Emma")  # and Alice, when she is a model


def game_file(folder: Path, by: str, words: str) -> Path:
    seats: list[dict[str, Any]] = []
    for n in NAMES:
        if n == "Alice" and by == "scripted":
            seats.append({"name": n, "role": "villager", "agent": "scripted", "answers": {"speak": [words] * 20}})
        elif n in MODELS or n == "Alice":
            seats.append({"name": n, "agent": "openai:standin", "options": {"max_reasks": 0}})
        else:
            seats.append({"name": n, "agent": "heuristic"})
    path = folder / f"{by}.json"
    path.write_text(json.dumps({"seed": SEED, "options": {"sheriff": False}, "seats": seats}))
    return path


def play(by: str, chars: int) -> None:
    import arena.standin_server as ss
    from arena.cli import main

    words = ("I am a plain villager. " * (chars // 23 + 1))[:chars]
    sizes: list[int] = []

    class Measured(ss.StandInServer):
        def _handler(self) -> Any:
            base = super()._handler()

            class Handler(base):  # type: ignore[valid-type,misc]
                def do_POST(self) -> None:
                    sizes.append(int(self.headers.get("Content-Length") or 0))
                    super().do_POST()

            return Handler

    speech = ss.SPEECH
    ss.SPEECH = words if by == "model" else speech
    try:
        with tempfile.TemporaryDirectory() as tmp, Measured(latency=0.0) as api:
            path = game_file(Path(tmp), by, words)
            err = io.StringIO()
            with redirect_stdout(io.StringIO()), redirect_stderr(err):
                code = main(["play", str(path), "--quiet", "--model-option", f"base_url={api.base_url}"])
    finally:
        ss.SPEECH = speech
    refusal = next((line for line in err.getvalue().splitlines() if line.startswith("error:")), "")
    ended = f"exit {code}" + (f": {refusal[:150]}" if refusal else "")
    print(f"\n{by}: Alice says {chars:,} characters at each speech ({ended})")
    if not sizes:
        print("  no model request was made")
        return
    print(
        f"  {len(sizes)} requests: median {statistics.median(sizes) / 1000:,.1f} KB, largest {max(sizes) / 1000:,.1f} KB, "
        f"all {sum(sizes) / 1e6:,.2f} MB"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code", type=Path, default=HERE, help="the checkout whose engine, agents and CLI are measured")
    ap.add_argument("--chars", type=int, default=100_000, help="characters Alice says at each speech (default 100,000)")
    args = ap.parse_args()
    sys.path[:0] = [str(args.code.resolve())]
    os.environ["OPENAI_API_KEY"] = "sk-benchmark-standin"
    os.environ.pop("OPENAI_BASE_URL", None)

    # What is measured is imported from the measured checkout, the stand-in with it.
    import agents.llm.vendor_cache  # noqa: F401
    import arena.cli  # noqa: F401
    import engine

    print(f"code measured: {Path(engine.__file__).resolve().parents[1]}")
    for by in ("scripted", "model"):
        play(by, args.chars)


if __name__ == "__main__":
    main()

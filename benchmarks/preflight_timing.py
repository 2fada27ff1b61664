"""How long ``werewolf play`` takes to refuse a model seat that cannot play (issue 48).

Runs the command a new user would, ``werewolf play --seed 4 --seat Alice=openai:MODEL
--model-option base_url=URL``, as a child process (``python -m arena.cli``, so this
checkout's code) against four servers on 127.0.0.1, and prints for each the wall time,
the exit code and the last line on stderr:

- ``dead``: nothing listens at the port (the issue's command, ``127.0.0.1:9``);
- ``hang``: a socket that accepts connections and never answers (the kernel completes
  the handshake for a listening socket's backlog), under the seat's default time
  limits and retries, and again with ``--model-option timeout=2 max_retries=1``;
- ``404``: the benchmark stand-in (``arena.standin_server``) knowing only another model;
- ``healthy``: the same stand-in knowing the model: the game is played (``--quiet``).

    python benchmarks/preflight_timing.py [--only dead,404]

Before the preflight, ``dead`` played a whole game of fallbacks (45-52 s on a loaded
2-core machine) and exited 0 in silence. Process start-up (the SDK's import) is part
of every figure; on this machine a bot game with the same flags takes 3-4 s alone.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from arena.standin_server import StandInServer  # noqa: E402


def play(base_url: str, model: str = "foo", *extra: str) -> tuple[float, int, str]:
    """Run the command; (seconds, exit code, last stderr line)."""
    cmd = [sys.executable, "-m", "arena.cli", "play", "--seed", "4", "--quiet", "--seat", f"Alice=openai:{model}", "--model-option", f"base_url={base_url}", *extra]
    env = {**os.environ, "OPENAI_API_KEY": "local"}
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    lines = [line for line in done.stderr.splitlines() if line.strip()] or [done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""]
    return time.monotonic() - started, done.returncode, lines[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated cases: dead, hang, hang-short, 404, healthy")
    args = ap.parse_args(argv)
    cases = set(args.only.split(",")) if args.only else {"dead", "hang", "hang-short", "404", "healthy"}
    rows: list[tuple[str, float, int, str]] = []
    if "dead" in cases:
        rows.append(("dead (127.0.0.1:9)", *play("http://127.0.0.1:9/v1")))
    if cases & {"hang", "hang-short"}:
        hang = socket.socket()
        hang.bind(("127.0.0.1", free_port()))
        hang.listen(64)  # never accepted, never answered
        url = f"http://127.0.0.1:{hang.getsockname()[1]}/v1"
        if "hang" in cases:
            rows.append(("hang, default limits", *play(url)))
        if "hang-short" in cases:
            rows.append(("hang, timeout=2 max_retries=1", *play(url, "foo", "--model-option", "timeout=2", "--model-option", "max_retries=1")))
        hang.close()
    if cases & {"404", "healthy"}:
        with StandInServer(latency=0, known={"standin-model"}) as api:
            if "404" in cases:
                rows.append(("unknown model (404)", *play(api.base_url, "foo")))
            if "healthy" in cases:
                rows.append(("healthy stand-in", *play(api.base_url, "standin-model")))
    for name, seconds, code, line in rows:
        print(f"{name:32} {seconds:6.1f} s  exit {code}  {line[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

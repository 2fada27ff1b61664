"""``werewolf a2a serve``: the arena as an A2A assessor, until Ctrl-C.

An assessment platform (or a script) sends the assessor a message naming the
participants, the preset, the table size and the games; the task plays them and
returns the result, the leaderboard and the transcripts (``arena.a2a.assessor``,
docs/REMOTE_AGENTS.md). The command needs the ``a2a`` extra; without it, it says so.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
from pathlib import Path

import uvicorn

from arena.command import CliError, Command, console_for

DEFAULT_PORT = 9200
HELP = "the arena over the A2A protocol (a2a serve: games and tournaments as tasks for other agents)"


def _configure(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="a2a_command", metavar="ACTION", required=True)
    s = sub.add_parser("serve", help="run the arena as an A2A assessor until Ctrl-C")
    s.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    s.add_argument("--url", help="the address the agent card gives for messages (default http://HOST:PORT; behind a proxy, the public one)")
    s.add_argument("--out", default="out/a2a", metavar="DIR", help="where each task's database and transcripts are kept (default out/a2a)")
    s.add_argument("--max-tasks", type=int, default=2, metavar="N", help="tasks played at once; a request beyond them is refused (default 2)")
    s.add_argument(
        "--local-agents",
        action="store_true",
        help="accept agents on this machine or a private network in requests (for testing: the assessor then reaches your network for whoever sends a request)",
    )


class _OneLine(logging.Filter):
    """The SDK logs a failed request with its traceback; the operator's console gets
    the line, not the traceback (``--log-level`` is for this project's loggers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("a2a"):
            record.exc_info, record.exc_text = None, None
        return True


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("a2a") is None:
        raise CliError("werewolf a2a serve needs the a2a-sdk package: pip install 'werewolf-arena[a2a]'")
    if not 1 <= args.port <= 65535:
        raise CliError(f"--port {args.port} is out of range (1 to 65535)")
    if not 1 <= args.max_tasks <= 64:
        raise CliError(f"--max-tasks needs 1 to 64 tasks, got {args.max_tasks}")
    if args.url is None and args.host in ("0.0.0.0", "::", ""):
        raise CliError("listening on every interface, the card needs the address clients reach: give --url http://NAME:PORT")
    url = (args.url or f"http://{args.host}:{args.port}").rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise CliError(f"--url must start with http:// or https://, got {url}")
    # here, not at the top: the assessor imports the A2A SDK, an optional extra (checked above)
    from arena.a2a.assessor import assessor_app

    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot use {out} for the tasks' files: {e.strerror or e}") from None
    for handler in logging.getLogger().handlers:
        handler.addFilter(_OneLine())
    console = console_for(True)
    console.print(f"[bold]Assessor[/bold] at {url} (its card: {url}/.well-known/agent-card.json), tasks kept in {out}. Ctrl-C stops it.")
    if args.local_agents:
        console.print("[yellow]Requests may name agents on this machine and its network (--local-agents).[/yellow]")
    app = assessor_app(url, out, max_tasks=args.max_tasks, local_agents=args.local_agents)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:
        pass
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0


COMMANDS = [Command("a2a", HELP, _configure, run)]

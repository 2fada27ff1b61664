"""``werewolf serve``: the local web server.

Why it binds the socket itself before starting uvicorn: the address printed must be
the one really listening (``--port 0`` picks a free port), and a port already taken
must be one clear sentence, not a traceback. Loopback by default, and a host key
printed at start (``arena.web.guard``): a game started here plays on this machine's
model keys.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

from arena.command import CliError, Command
from arena.web.app import create_app
from arena.web.guard import Policy
from arena.web.table_form import MAX_RUNNING
from arena.people_games import open_store
from arena.tournament.store import StoreError

DEFAULT_PORT = 8000
# Each game being played holds its agents, its model connections and its engine state: a
# local server for a few tables, not a hosting service.
MAX_RUNNING_LIMIT = 100


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--transcripts", metavar="DIR", default="out/web", help="where each game's transcript is written (default out/web)")
    p.add_argument(
        "--max-running",
        type=int,
        metavar="N",
        default=MAX_RUNNING,
        help=f"games played at once (default {MAX_RUNNING}, at most {MAX_RUNNING_LIMIT}); one more is refused with HTTP 429 until one ends",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        help="record every finished game with a person in this tournament database (SQLite), rated with the models by "
        "werewolf leaderboard --db PATH; a game stopped before its end is kept as abandoned, never rated",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        default=[],
        help="also answer requests addressed to host NAME (a DNS name this machine is reached by); repeatable",
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``CliError`` when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if port and e.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise CliError(f"port {port} on {host} is already in use; choose another with --port (0 picks a free one)") from None
        raise CliError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def transcripts_folder(path: str) -> None:
    """``--transcripts`` must be a folder this server can write in; ``CliError`` otherwise."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise CliError(f"--transcripts {path} is a file; it names the folder each game's transcript is written to")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"--transcripts {path}: cannot create the folder ({e.strerror or e})") from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise CliError(f"--transcripts {path}: this user cannot write in that folder")


def uvicorn_config(app: ASGIApp) -> uvicorn.Config:
    """How uvicorn serves the app, here and in the tests that run the real server.

    Why no permessage-deflate (RFC 7692) on the sockets, though browsers offer it: a
    socket that negotiates it holds a zlib compressor and decompressor of its own, about
    41 KiB of C memory (window 2**12, memLevel 5: uvicorn's settings) for as long as it
    is open. Freed at the close, they leave holes in the C heap that later small
    allocations pin, so a long-running server kept about 1.1 KiB of resident memory per
    closed spectator's socket (5.4 MiB over 5,000; ``benchmarks/web_soak.py
    --connections``), none of it Python objects. The bytes saved are few for a local
    server: a finished short game's snapshot is 8 KB (2 KB deflated), each later
    message a single event, and ``/api/…/state`` serves the same snapshot
    uncompressed. Declining is plain WebSocket: the server leaves the extension out
    of its handshake answer and the browser sends and receives uncompressed frames
    (RFC 6455, section 9.1)."""
    return uvicorn.Config(app, log_level="warning", ws="auto", lifespan="on", ws_per_message_deflate=False)


def run_serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port must be between 0 and 65535, got {args.port}")
    if not 1 <= args.max_running <= MAX_RUNNING_LIMIT:
        raise CliError(f"--max-running must be between 1 and {MAX_RUNNING_LIMIT}, got {args.max_running}")
    transcripts_folder(args.transcripts)
    for name in args.allow_host:
        if not name.strip() or any(c in name for c in "/ @?#"):
            raise CliError(f"--allow-host takes a host name such as arena.example.org, got '{name}'")
    if args.db:
        try:
            open_store(args.db).close()
        except StoreError as e:
            raise CliError(f"--db {args.db}: {e}") from None
    sock = bind(args.host, args.port)
    policy = Policy(bind_host=args.host, allow_hosts=tuple(args.allow_host))
    app = create_app(args.transcripts, say=lambda line: print(line, flush=True), policy=policy, max_running=args.max_running, people_db=args.db)
    print(f"Werewolf Arena is serving on {address(sock)}?key={policy.key}  (Ctrl-C stops it)", flush=True)
    print(
        "Open that address to start games: the key in it lets your browser start them"
        + (" (a browser on this machine gets it from the start page too)" if policy.loopback else "")
        + f"; programs send it as the X-Werewolf-Key header. Host key: {policy.key}",
        flush=True,
    )
    print(f"Transcripts are written to {args.transcripts}/", flush=True)
    if args.db:
        print(f"People's finished games are recorded in {args.db}: werewolf leaderboard --db {args.db} rates them", flush=True)
    if not policy.loopback:
        print(
            f"warning: listening on {args.host}: other machines can reach it; starting a game (on this machine's model keys) "
            "needs the host key above, seat pages their tokens; the traffic is not encrypted",
            file=sys.stderr,
            flush=True,
        )
    server = uvicorn.Server(uvicorn_config(app))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


COMMANDS = [Command("serve", "play in the browser: a local web server for a person among bots and models", _configure, run_serve)]

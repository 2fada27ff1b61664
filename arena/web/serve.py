"""``werewolf serve``: the local web server.

Why it binds the socket itself before starting uvicorn: the address printed must be
the one really listening (``--port 0`` picks a free port), and a port already taken
must be one clear sentence, not a traceback. Loopback by default: anyone who can
reach the server can start games on this machine's model keys.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys

from arena.cli import Command, CliError

DEFAULT_PORT = 8000


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--transcripts", metavar="DIR", default="out/web", help="where each game's transcript is written (default out/web)")


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


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from arena.web.app import create_app
    except ImportError as e:  # pragma: no cover - the dependencies are the package's own
        raise CliError(f"the web server needs its dependencies ({e.name}); reinstall with: pip install -e .") from None
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port must be between 0 and 65535, got {args.port}")
    sock = bind(args.host, args.port)
    app = create_app(args.transcripts, say=lambda line: print(f"Earlier game {line}", flush=True))
    print(f"Werewolf Arena is serving on {address(sock)}  (Ctrl-C stops it)", flush=True)
    print(f"Transcripts are written to {args.transcripts}/", flush=True)
    if not _is_loopback(args.host):
        print(
            f"warning: listening on {args.host}: anyone who can reach it can start games (with this machine's model keys); "
            "seat pages still need their tokens",
            file=sys.stderr,
            flush=True,
        )
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="auto", lifespan="on"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


COMMANDS = [Command("serve", "play in the browser: a local web server for a person among bots and models", _configure, run_serve)]

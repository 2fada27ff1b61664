"""Which game a token opens, kept on disk so that a finished game need not stay in memory.

Why an index at all: a server that has hosted a thousand games must still find any of
them by a token's digest, yet hold none of them (a finished game is read from its
transcript when a page asks for it, ``arena.web.session``). Why SQLite, in the
transcripts folder (``web-index.sqlite3``): a lookup by digest then costs the same
after ten games or ten thousand, and neither the server's memory nor its start grows
with the games it has hosted.

Why it is only a cache of the ``….session.json`` files: those stay the record (they
are copied, restored and deleted by hand, with their transcripts). At each start the
index is brought in line with them: a file whose size or time changed is read again,
one that vanished is dropped, and an index that cannot be read is rebuilt from them.
Nothing is lost if the index is deleted.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from arena.web import persist
from arena.web.persist import SUFFIX, Keys

log = logging.getLogger("werewolf.web")

NAME = "web-index.sqlite3"
SCHEMA_VERSION = 1

View = Literal["play", "watch", "host"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    file TEXT PRIMARY KEY,  -- the game file's name (….session.json), in this folder
    status TEXT NOT NULL,   -- as the file says: running, over, stopped, failed ('unreadable': skipped)
    created REAL NOT NULL,
    stamp TEXT NOT NULL,    -- size and time of the file when it was read
    sync TEXT NOT NULL      -- the start that last saw the file
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,  -- persist.digest of a token: never a token
    file TEXT NOT NULL REFERENCES games(file) ON DELETE CASCADE,
    view TEXT NOT NULL,       -- play, watch or host
    seat TEXT                 -- the seat a play token opens
);
CREATE INDEX IF NOT EXISTS tokens_file ON tokens(file);
"""


@dataclass(frozen=True)
class Found:
    """What a token's digest opens: the game file, the view and, for a seat, its name."""

    meta: Path
    view: View
    seat: str | None = None


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}"


class GameIndex:
    """The games of one transcripts folder, by the digests of their tokens."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.path = folder / NAME
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The open index (opened on first use, again after ``close``)."""
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        """The index, rebuilt from nothing when it is damaged or of another version."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for attempt in (1, 2):
            # One connection, used only from the server's event loop (one thread at a
            # time; the test client runs that loop in a thread of its own).
            db = sqlite3.connect(str(self.path), check_same_thread=False)
            try:
                db.execute("PRAGMA foreign_keys=ON")
                # A cache: what a crash could lose is read again from the game files at the
                # next start, so no write waits for the disk (a commit with fsync cost 25 ms).
                db.execute("PRAGMA synchronous=OFF")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                ok = db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
                if ok and version in (0, SCHEMA_VERSION):
                    db.executescript(SCHEMA)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                    return db
            except sqlite3.DatabaseError:
                if attempt == 2:
                    raise
            db.close()
            log.warning("%s cannot be read; it is rebuilt from the game files", self.path)
            self.path.unlink(missing_ok=True)
        raise sqlite3.DatabaseError(f"{self.path}: cannot be rebuilt")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # ------------------------------------------------------------------ keeping it in line
    def sync(self) -> None:
        """Bring the index in line with the game files of the folder (a start): new or
        changed files are read, vanished ones dropped. Reads the folder as a stream, one
        file at a time, so a large folder costs time, never memory."""
        mark = secrets.token_hex(8)
        with self.db:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if not entry.name.endswith(SUFFIX) or not entry.is_file():
                        continue
                    stamp = _stamp(entry.stat())
                    row = self.db.execute("SELECT stamp FROM games WHERE file = ?", (entry.name,)).fetchone()
                    if row is not None and row[0] == stamp:
                        self.db.execute("UPDATE games SET sync = ? WHERE file = ?", (mark, entry.name))
                    else:
                        self._put(Path(entry.path), stamp, mark)
            self.db.execute("DELETE FROM games WHERE sync != ?", (mark,))

    def record(self, meta: Path) -> None:
        """A game file this server has just written (a game created, a game ended)."""
        with self.db:
            self._put(meta, _stamp(meta.stat()), "recorded")

    def _put(self, meta: Path, stamp: str, mark: str) -> None:
        self.db.execute("DELETE FROM games WHERE file = ?", (meta.name,))
        loaded = persist.load(meta)
        if loaded is None:  # kept, so that the next start does not read it again
            self.db.execute("INSERT INTO games VALUES (?, 'unreadable', 0, ?, ?)", (meta.name, stamp, mark))
            return
        _, data = loaded
        status = str(data.get("status") or "failed")
        try:
            created = float(data.get("created") or 0)
        except (TypeError, ValueError):
            created = 0.0
        self.db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?)", (meta.name, status, created, stamp, mark))
        keys = Keys.from_json(data["keys"])
        rows: list[tuple[str, str, View, str | None]] = [(d, meta.name, "play", seat) for d, seat in keys.seats.items()]
        rows += [(keys.watch, meta.name, "watch", None), (keys.host, meta.name, "host", None)]
        # A digest already taken by another file (a copy of a game) keeps its first game.
        self.db.executemany("INSERT OR IGNORE INTO tokens VALUES (?, ?, ?, ?)", rows)

    # ------------------------------------------------------------------ reading it
    def find(self, digest: str) -> Found | None:
        row = self.db.execute("SELECT file, view, seat FROM tokens WHERE digest = ?", (digest,)).fetchone()
        if row is None:
            return None
        file, view, seat = row
        return Found(self.folder / file, view, seat)

    def running(self) -> list[Path]:
        """The game files of the games being played when the server stopped, oldest first."""
        rows = self.db.execute("SELECT file FROM games WHERE status = 'running' ORDER BY created, file")
        return [self.folder / file for (file,) in rows]

    def count(self) -> int:
        """How many games the index knows (unreadable files excluded)."""
        return int(self.db.execute("SELECT COUNT(*) FROM games WHERE status != 'unreadable'").fetchone()[0])

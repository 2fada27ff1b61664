"""The tournament database (SQLite): what was played, by whom, with what result and cost.

Durability rule: a game exists in the database only once it is over, and its game
row and seat rows are written in one transaction, after its transcript was moved to
its final name. Killing the process at any moment therefore leaves either the whole
game or none of it; a resumed run plays exactly the scheduled games that have no row.
WAL mode lets ``werewolf leaderboard`` read while a tournament writes.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Iterator

import transcripts.bounded as bounded

SCHEMA_VERSION = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS participants (name TEXT PRIMARY KEY, agent TEXT NOT NULL, options TEXT);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    idx INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    table_idx INTEGER NOT NULL,
    preset TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    digest TEXT NOT NULL,
    winner TEXT NOT NULL,
    days INTEGER NOT NULL,
    reason TEXT,
    transcript TEXT NOT NULL,
    started TEXT,
    finished TEXT,
    seconds REAL,
    calls INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL,
    metrics TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    participant TEXT NOT NULL,
    agent TEXT NOT NULL,
    initial_role TEXT NOT NULL,
    role TEXT NOT NULL,
    side TEXT NOT NULL,
    won INTEGER NOT NULL,
    alive INTEGER NOT NULL,
    calls INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL,
    violations INTEGER NOT NULL DEFAULT 0,
    fallbacks INTEGER NOT NULL DEFAULT 0,
    metrics TEXT,
    PRIMARY KEY (game_id, position)
);
CREATE INDEX IF NOT EXISTS seats_participant ON seats(participant);
CREATE TABLE IF NOT EXISTS failures (game_id TEXT NOT NULL, at TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    finished TEXT,
    planned INTEGER,
    played INTEGER,
    failed INTEGER,
    stopped TEXT,
    seconds REAL
);
"""


# Every seat in game then seat order. The loop runs over games in plan order (the
# ``games_order`` index) and reads each game's seats by the primary key, already in
# seat order: SQLite then sorts only within a game, not the whole table (the seats
# scanned first and joined to their games made it sort every row through a temporary
# B-tree). ``g.id`` breaks ties of ``idx``, which this program never writes twice.
GAMES_IN_ORDER = "g.idx, g.id"
SEATS_IN_ORDER = f"FROM games g CROSS JOIN seats s ON s.game_id = g.id ORDER BY {GAMES_IN_ORDER}, s.position"

# Indexes added after databases were written: created on open when missing (a read-only
# database is read without them, by the same queries, only slower).
MIGRATIONS = ("CREATE UNIQUE INDEX IF NOT EXISTS games_order ON games(idx, id)",)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class FinishedSeat:
    position: int
    name: str
    participant: str
    agent: str
    initial_role: str
    role: str
    side: str
    won: bool
    alive: bool
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    violations: int = 0
    fallbacks: int = 0
    metrics: dict[str, Any] = field(default_factory=dict)


@dataclass
class FinishedGame:
    """A game that reached its end, ready to be stored (picklable: workers return it)."""

    id: str
    idx: int
    deal: int
    rotation: int
    table_idx: int
    preset: str
    players: int
    seed: int
    digest: str
    winner: str
    days: int
    reason: str
    transcript: str  # relative to the database's folder
    started: str
    finished: str
    seconds: float
    seats: list[FinishedSeat]
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float | None = 0.0
    metrics: dict[str, Any] = field(default_factory=dict)


    def pack(self) -> "PackedGame":
        """The rows ``Store.record`` inserts, built where the game was played: a worker
        process hands the parent flat tuples of strings and numbers (cheap to unpickle,
        nothing left to convert), so the parent's share of a game stays small."""
        row = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "seats"}
        row["metrics"] = _dumps(row["metrics"])
        seat_rows = []
        for seat in self.seats:
            srow = {f.name: getattr(seat, f.name) for f in fields(seat)}
            srow["metrics"] = _dumps(srow["metrics"])
            srow["won"], srow["alive"] = int(srow["won"]), int(srow["alive"])
            seat_rows.append((self.id, *srow.values()))
        return PackedGame(
            self.id, self.winner, self.days, self.cost_usd, tuple(row), tuple(row.values()),
            ("game_id", *(f.name for f in fields(FinishedSeat))), seat_rows,
        )  # fmt: skip


@dataclass(slots=True)
class PackedGame:
    """A finished game as the rows of its ``games`` and ``seats`` tables (``FinishedGame.pack``)."""

    id: str
    winner: str
    days: int
    cost_usd: float | None
    columns: tuple[str, ...]
    row: tuple[Any, ...]
    seat_columns: tuple[str, ...]
    seat_rows: list[tuple[Any, ...]]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class StoreError(RuntimeError):
    """The database does not belong to this tournament, or cannot be used."""


def damaged(path: Path, detail: object) -> StoreError:
    """What to say, and what to do, when SQLite finds the file damaged."""
    first = " ".join(str(detail).split())[:120]
    return StoreError(
        f"{path} is damaged ({first}); restore it from a backup, or salvage what it holds with "
        f"`sqlite3 {path} .recover | sqlite3 NEW.db` and use --db NEW.db (the games' transcripts are kept beside it)"
    )


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        existed = self.path.exists()
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder; --db names the database file")
        if existed and not self.path.is_file():
            # A device or a pipe: SQLite would read /dev/zero as an empty database and wait on a pipe.
            raise StoreError(f"{self.path} is not a regular file (a device, a pipe or a socket); --db names the database file")
        if existed and self.path.stat().st_size == 0:
            # SQLite would take an empty file as a new database; an existing empty file is
            # more likely a database lost to a bad copy than a wish to start again.
            raise StoreError(f"{self.path} is an empty file (0 bytes), not a tournament database; delete it to start a new tournament there")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot create the folder of {self.path}: {e.strerror or e}") from None
        try:
            self.db = sqlite3.connect(str(self.path), timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # with WAL: a killed process loses nothing committed
            if existed:
                check = self.db.execute("PRAGMA quick_check").fetchone()
                if not check or check[0] != "ok":
                    self.db.close()
                    raise damaged(self.path, check[0] if check else "no answer to an integrity check")
            self.db.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as e:
            if "malformed" in str(e) or "corrupt" in str(e):
                raise damaged(self.path, e) from None
            raise StoreError(f"{self.path}: not a tournament database ({e})") from None
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot open the database ({e})") from None
        version = self.meta("schema_version")
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: database schema {version}, this version reads {SCHEMA_VERSION}")

    def _migrate(self) -> None:
        for statement in MIGRATIONS:
            try:
                with self.db:
                    self.db.execute(statement)
            except sqlite3.OperationalError as e:
                if "readonly" not in str(e) and "read-only" not in str(e):
                    raise

    @classmethod
    def open_existing(cls, path: str | Path) -> "Store":
        if not Path(path).exists():
            raise StoreError(f"no tournament database at {path}")
        return cls(path)

    def close(self) -> None:
        self.db.close()

    @property
    def folder(self) -> Path:
        return self.path.parent

    # ------------------------------------------------------------------ meta
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def set_participants(self, rows: list[tuple[str, str, dict | None]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO participants (name, agent, options) VALUES (?, ?, ?)",
                [(n, a, json.dumps(o) if o else None) for n, a, o in rows],
            )

    def participants(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT name, agent FROM participants").fetchall())

    # ------------------------------------------------------------------ games
    def finished(self) -> dict[str, str]:
        """Finished game id -> its plan digest."""
        return dict(self.db.execute("SELECT id, digest FROM games").fetchall())

    def record(self, g: "FinishedGame | PackedGame") -> None:
        """The game and its seats, in one transaction (or not at all)."""
        p = g if isinstance(g, PackedGame) else g.pack()
        marks = ", ".join("?" for _ in p.columns)
        seat_marks = ", ".join("?" for _ in p.seat_columns)
        with self.db:
            self.db.execute(f"INSERT INTO games ({', '.join(p.columns)}) VALUES ({marks})", p.row)
            self.db.executemany(f"INSERT INTO seats ({', '.join(p.seat_columns)}) VALUES ({seat_marks})", p.seat_rows)

    def record_failure(self, game_id: str, message: str) -> None:
        with self.db:
            self.db.execute("INSERT INTO failures (game_id, at, message) VALUES (?, ?, ?)", (game_id, now(), message))

    def totals(self) -> dict[str, Any]:
        games, calls, tin, tout, cost, unknown = self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(calls),0), COALESCE(SUM(input_tokens),0), COALESCE(SUM(output_tokens),0),"
            " COALESCE(SUM(cost_usd),0), SUM(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END) FROM games"
        ).fetchone()
        return {"games": games, "calls": calls, "input_tokens": tin, "output_tokens": tout, "cost_usd": cost, "unpriced_games": unknown or 0}

    def games(self) -> list[dict[str, Any]]:
        cur = self.db.execute("SELECT * FROM games ORDER BY idx")
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def seated_game_ids(self) -> list[str]:
        """The ids of the games that have seats, in the order ``seat_rows`` reads them."""
        return [r[0] for r in self.db.execute(
            f"SELECT g.id FROM games g WHERE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id) ORDER BY {GAMES_IN_ORDER}"
        )]  # fmt: skip

    def seat_rows(self, columns: str) -> sqlite3.Cursor:
        """``columns`` (of ``s``, the seat, and ``g``, its game) of every seat, in game
        then seat order."""
        return self.db.execute(f"SELECT {columns} {SEATS_IN_ORDER}")

    def seats(self) -> Iterator[dict[str, Any]]:
        cur = self.seat_rows("s.*, g.idx")
        cols = [c[0] for c in cur.description]
        for r in cur:
            yield dict(zip(cols, r))

    def seat_metrics(self) -> Iterator[tuple[str, str, str | None]]:
        """(participant, side, metrics JSON text) of every seat, in game then seat order."""
        yield from self.seat_rows("s.participant, s.side, s.metrics")

    def seat_outcomes(self) -> list[tuple[Any, ...]]:
        """What the ratings read of every seat, in game then seat order: (game id,
        participant, side, initial role, won, fallbacks, alive, decisions asked).
        The decisions come out of the stored metrics inside SQLite, so a leaderboard
        does not parse every seat's metrics in Python to get one number."""
        cols = "s.game_id, s.participant, s.side, s.initial_role, s.won, s.fallbacks, s.alive"
        try:
            return self.seat_rows(f"{cols}, json_extract(NULLIF(s.metrics, ''), '$.decisions_asked')").fetchall()
        except sqlite3.OperationalError:  # an SQLite built without its JSON functions
            rows = self.seat_rows(f"{cols}, s.metrics").fetchall()
            return [(*r[:-1], self.mapping(r[-1], f"game {r[0]}'s seat metrics").get("decisions_asked")) for r in rows]

    # ------------------------------------------------------------------ cache
    def stored(self, text: str | None, where: str) -> Any:
        """Stored JSON ``text`` as data (``None`` for none), read within the bounds of
        any input (``transcripts.bounded``: a database may come from elsewhere);
        ``StoreError`` naming the database and ``where`` otherwise."""
        try:
            return bounded.loads_json(text, fast=True) if text else None
        except bounded.InputError as e:
            raise StoreError(f"{self.path}: {where}: {e}") from None

    def mapping(self, text: str | None, where: str) -> dict[str, Any]:
        """``stored``, a mapping (``{}`` for none); ``StoreError`` for anything else."""
        data = self.stored(text, where)
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise StoreError(f"{self.path}: {where}: not a JSON object")
        return data

    def cached(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def cache(self, key: str, value: str) -> None:
        """Keep one computed result per kind (the key's prefix up to its first '|')."""
        kind = key.split("|", 1)[0]
        try:
            with self.db:
                self.db.execute("DELETE FROM cache WHERE key LIKE ?", (kind + "|%",))
                self.db.execute("INSERT OR REPLACE INTO cache (key, value) VALUES (?, ?)", (key, value))
        except sqlite3.OperationalError:
            pass  # a read-only database still gets its leaderboard, just not cached

    # ------------------------------------------------------------------ runs
    def start_run(self, planned: int) -> int:
        with self.db:
            cur = self.db.execute("INSERT INTO runs (started, planned) VALUES (?, ?)", (now(), planned))
        assert cur.lastrowid is not None  # set by every INSERT
        return cur.lastrowid

    def end_run(self, run_id: int, played: int, failed: int, stopped: str | None, seconds: float) -> None:
        with self.db:
            self.db.execute(
                "UPDATE runs SET finished = ?, played = ?, failed = ?, stopped = ?, seconds = ? WHERE id = ?",
                (now(), played, failed, stopped, seconds, run_id),
            )

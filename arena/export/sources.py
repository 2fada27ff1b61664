"""Where exported games come from: a tournament database, a folder, or one transcript.

A tournament database names each finished game's transcript (relative to the
database's folder); its game and seat rows add the schedule, timing and participant
names. A folder is read recursively for ``*.jsonl`` transcripts, each game named by its
path inside the folder. A transcript the reader refuses stops the export with the
file's name and the reason: a silently shorter table would bias an analysis.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from arena.metrics.load import GameRecord, MetricsError, load_transcript


class ExportError(ValueError):
    """A source that cannot be exported; the message says which and why."""


@dataclass
class SourceGame:
    game_id: str
    record: GameRecord
    db_game: dict[str, Any] | None = None
    db_seats: dict[str, dict[str, Any]] | None = None


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


@dataclass
class Games:
    """A source's games, counted before any is read (so a long export can show how far
    it is), then read one at a time."""

    total: int
    items: Iterator[SourceGame]
    where: str = ""  # the source, as named

    def __iter__(self) -> Iterator[SourceGame]:
        return self.items


def games_from(source: str | Path) -> Games:
    """The games of ``source``; ``ExportError`` at once for a source that is not there."""
    p = Path(source)
    if not p.exists():
        raise ExportError(f"{p}: no such database, folder or transcript")
    if p.is_dir():
        return _from_folder(p)
    if _is_sqlite(p):
        return _from_database(p)
    return Games(1, iter([SourceGame(p.stem, _load(p))]), str(p))


def _load(path: Path) -> GameRecord:
    try:
        return load_transcript(path)
    except MetricsError as e:
        raise ExportError(str(e)) from None


def _from_folder(folder: Path) -> Games:
    files = sorted(folder.rglob("*.jsonl"))
    if not files:
        raise ExportError(f"{folder}: no transcripts (*.jsonl) in this folder")
    return Games(len(files), (SourceGame(f.relative_to(folder).with_suffix("").as_posix(), _load(f)) for f in files), str(folder))


def _from_database(path: Path) -> Games:
    # Read-only, outside ``Store``: an export must never create tables or change the
    # schema marker of a database it reads (a running tournament may be writing it).
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)) as db:
            db.row_factory = sqlite3.Row
            games = [dict(r) for r in db.execute("SELECT * FROM games ORDER BY idx")]
            seats: dict[str, dict[str, dict]] = {}
            for r in db.execute("SELECT * FROM seats ORDER BY game_id, position"):
                seats.setdefault(r["game_id"], {})[r["name"]] = dict(r)
    except sqlite3.DatabaseError as e:
        raise ExportError(f"{path}: not a tournament database ({e})") from None

    def read() -> Iterator[SourceGame]:
        for g in games:
            transcript = path.parent / g["transcript"]
            if not transcript.exists():
                raise ExportError(f"{path}: game {g['id']}'s transcript {transcript} is missing")
            yield SourceGame(g["id"], _load(transcript), g, seats.get(g["id"], {}))

    return Games(len(games), read(), str(path))

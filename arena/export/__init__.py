"""Tidy tables out of played games: ``werewolf export DB_OR_DIR --format csv|parquet --out DIR``.

One file per table (games, seats, decisions, votes, claims, beliefs, calls, deaths,
persuasion),
one row per observation, typed as ``arena.export.schema`` says and documented in
docs/EXPORT.md. CSV is written with the standard library (``arena.export.csv_files``):
the Quick start's install exports it. Parquet, and ``tables(source)`` (the same tables
as pandas DataFrames for a notebook), need the ``data`` extra (pandas, pyarrow). In CSV
files a text cell that a spreadsheet would run as a formula is written with a leading
quote (``arena.export.spreadsheet``); Parquet files and the DataFrames keep the exact
text.
"""

from __future__ import annotations

import importlib.util
import logging
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

from arena.export.csv_files import write_csv
from arena.export.rows import game_rows
from arena.export.schema import TABLES
from arena.export.sources import ExportError, Games, games_from

FORMATS = ("csv", "parquet")
log = logging.getLogger("werewolf.export")


DATA_EXTRA = 'pip install -e ".[data]"'  # the extra that brings pandas and pyarrow


def _pandas() -> Any:
    # Imported here, not at the top: pandas is an optional extra (``.[data]``) and a
    # heavy import, needed only for Parquet and the DataFrames, never for CSV.
    try:
        import pandas as pd
    except ImportError:
        raise ExportError(f"Parquet files and DataFrames need pandas (the data extra): {DATA_EXTRA}; CSV needs nothing more") from None
    return pd


def rows(source: str | Path | Games, done: Callable[[], None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows (plain dicts), game after game in the source's order;
    ``done()`` is told of every game read (a progress bar)."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sg in source if isinstance(source, Games) else games_from(source):
        for name, table_rows in game_rows(sg.record, sg.game_id, sg.db_game, sg.db_seats).items():
            out[name].extend(table_rows)
        if done is not None:
            done()
    return {name: out.get(name, []) for name in TABLES}


def frames(table_rows: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The tables as pandas DataFrames, with the documented columns and dtypes."""
    pd = _pandas()
    out = {}
    for name, listed in table_rows.items():
        cols = TABLES[name]
        out[name] = pd.DataFrame.from_records(listed, columns=list(cols)).astype(cols)
    return out


def tables(source: str | Path) -> dict[str, Any]:
    """The tables of ``source`` as pandas DataFrames (needs pandas)."""
    _pandas()  # before reading every game: the message, at once
    return frames(rows(source))


def count(source: str | Path) -> Games:
    """The games of ``source``, counted (``Games.total``) and not read yet."""
    return games_from(source)


def export(source: str | Path | Games, fmt: str, out: str | Path, done: Callable[[], None] | None = None) -> dict[str, int]:
    """Write one file per table into ``out``; returns the row count of each. CSV needs
    nothing outside the standard library; Parquet needs pandas and pyarrow, asked for
    before any game is read so a missing one is a clear message, not a traceback."""
    if fmt not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "parquet":
        _pandas()
        if importlib.util.find_spec("pyarrow") is None:  # pandas imports it when it writes
            raise ExportError(f"Parquet files need pyarrow (the data extra): {DATA_EXTRA}; CSV needs nothing more") from None
    table_rows = rows(source, done)
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if fmt == "csv":  # a cell a spreadsheet would run as a formula gets a quote (OWASP)
            for name, listed in table_rows.items():
                write_csv(folder / f"{name}.csv", TABLES[name], listed)
        else:
            for name, df in frames(table_rows).items():
                df.to_parquet(folder / f"{name}.parquet", index=False)
    except OSError as e:
        raise ExportError(f"cannot write to {folder}: {e.strerror or e}") from None
    counts = {name: len(listed) for name, listed in table_rows.items()}
    log.info("exported %d games from %s to %s (%s)", counts["games"], source.where if isinstance(source, Games) else source, folder, fmt)
    return counts


__all__ = ["ExportError", "FORMATS", "TABLES", "Games", "count", "export", "rows", "tables"]

"""Tidy tables out of played games: ``werewolf export DB_OR_DIR --format csv|parquet --out DIR``.

One file per table (games, seats, decisions, votes, claims, beliefs, calls, deaths,
persuasion),
one row per observation, typed as ``arena.export.schema`` says and documented in
docs/EXPORT.md. ``tables(source)`` gives the same tables as pandas DataFrames for a
notebook. Needs the ``data`` extra (pandas, pyarrow). In CSV files a text cell that a
spreadsheet would run as a formula is written with a leading quote
(``arena.export.spreadsheet``); Parquet files and the DataFrames keep the exact text.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from pathlib import Path
from typing import Any

from arena.export.rows import game_rows
from arena.export.schema import TABLES
from arena.export.sources import ExportError, games_from
from arena.export.spreadsheet import neutralised

FORMATS = ("csv", "parquet")
log = logging.getLogger("werewolf.export")


def _pandas() -> Any:
    # Imported here, not at the top: pandas is an optional extra (``.[data]``) and a
    # heavy import, needed only for the tables (``werewolf export --format csv``).
    try:
        import pandas as pd
    except ImportError:
        raise ExportError('exporting tables needs pandas: pip install -e ".[data]"') from None
    return pd


def rows(source: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows (plain dicts), game after game in the source's order."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sg in games_from(source):
        for name, table_rows in game_rows(sg.record, sg.game_id, sg.db_game, sg.db_seats).items():
            out[name].extend(table_rows)
    return {name: out.get(name, []) for name in TABLES}


def tables(source: str | Path) -> dict[str, Any]:
    """The tables as pandas DataFrames, with the documented columns and dtypes."""
    pd = _pandas()
    frames = {}
    for name, table_rows in rows(source).items():
        cols = TABLES[name]
        df = pd.DataFrame.from_records(table_rows, columns=list(cols))
        frames[name] = df.astype(cols)
    return frames


def export(source: str | Path, fmt: str, out: str | Path) -> dict[str, int]:
    """Write one file per table into ``out``; returns the row count of each."""
    if fmt not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    frames = tables(source)
    if fmt == "parquet":
        try:  # optional too (``.[data]``): asked for here so a missing one is a clear message
            import pyarrow  # noqa: F401
        except ImportError:
            raise ExportError('Parquet needs pyarrow: pip install -e ".[data]"') from None
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, df in frames.items():
            path = folder / f"{name}.{fmt}"
            if fmt == "csv":  # a cell a spreadsheet would run as a formula gets a quote (OWASP)
                neutralised(df).to_csv(path, index=False)
            else:
                df.to_parquet(path, index=False)
    except OSError as e:
        raise ExportError(f"cannot write to {folder}: {e.strerror or e}") from None
    counts = {name: len(df) for name, df in frames.items()}
    log.info("exported %d games from %s to %s (%s)", counts["games"], source, folder, fmt)
    return counts


__all__ = ["ExportError", "FORMATS", "TABLES", "export", "rows", "tables"]

"""Writing one exported table as a CSV file, with the standard library alone.

Why not pandas: CSV is the format anybody asks for first, and the Quick start's
install (no ``data`` extra) must export it; pandas, a heavy optional import, is kept
for Parquet and DataFrames. The cells read as pandas wrote them before (``True``,
``3``, ``0.25``, an empty cell for a missing value), so ``pandas.read_csv`` with the
documented dtypes reads the same tables, and a text cell a spreadsheet would run as a
formula gets its leading quote (``arena.export.spreadsheet``).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any, Callable, Iterable

from arena.export.schema import B, F, N, S
from arena.export.spreadsheet import neutral


def _text(v: Any) -> str:
    return neutral(str(v))


def _whole(v: Any) -> str:
    return str(int(v))


def _real(v: Any) -> str:
    x = float(v)
    return "" if math.isnan(x) else repr(x)


def _truth(v: Any) -> str:
    return "True" if v else "False"


CELLS: dict[str, Callable[[Any], str]] = {S: _text, N: _whole, F: _real, B: _truth}


def write_csv(path: Path, columns: dict[str, str], rows: Iterable[dict[str, Any]]) -> None:
    """``rows`` as ``path``: a header of ``columns`` (name -> schema type), then one line
    per row; a missing value (``None``) is an empty cell."""
    cells = [(name, CELLS[kind]) for name, kind in columns.items()]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(columns)
        for row in rows:
            out.writerow(["" if (v := row.get(name)) is None else cell(v) for name, cell in cells])


__all__ = ["write_csv"]

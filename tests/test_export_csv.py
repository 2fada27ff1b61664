"""CSV tables with the Quick start's install: no pandas, no pyarrow (issue 50).

``pip install -e .`` brings neither; CSV export once refused with "exporting tables
needs pandas". Here both are made unimportable (``sys.modules[name] = None`` is what
Python reads as "not installed"): CSV is written by the standard library, and Parquet,
which needs the ``data`` extra, is refused with a sentence naming it.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

from arena.export import TABLES, export
from arena.export.sources import ExportError
from arena.gamefile import default_game
from transcript_tools import play_to_file


@pytest.fixture
def no_data_extra(monkeypatch):
    for name in ("pandas", "pyarrow"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.fixture
def folder(tmp_path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    for seed in (1, 2):
        play_to_file(default_game(players=8, seed=seed), games / f"g{seed}.jsonl")
    return games


def test_csv_needs_neither_pandas_nor_pyarrow(no_data_extra, folder, tmp_path):
    with pytest.raises(ImportError):
        import pandas  # noqa: F401  (the fixture works: pandas cannot be imported here)
    counts = export(folder, "csv", tmp_path / "csv")
    assert counts["games"] == 2 and counts["decisions"] > 50
    for name, cols in TABLES.items():
        with open(tmp_path / "csv" / f"{name}.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        assert rows[0] == list(cols) and len(rows) == counts[name] + 1, name
    with open(tmp_path / "csv" / "seats.csv", newline="", encoding="utf-8") as f:
        seats = list(csv.DictReader(f))
    assert {s["won"] for s in seats} == {"True", "False"} and all(s["position"].isdigit() for s in seats)


def test_parquet_without_the_data_extra_says_what_to_install(no_data_extra, folder, tmp_path, capsys):
    with pytest.raises(ExportError, match=r'need pandas \(the data extra\): pip install -e "\.\[data\]"; CSV needs nothing more'):
        export(folder, "parquet", tmp_path / "pq")
    assert not (tmp_path / "pq").exists()  # refused before anything is read or written
    from arena.cli import main

    assert main(["export", str(folder), "--format", "parquet", "--out", str(tmp_path / "pq")]) == 2
    err = capsys.readouterr().err
    assert "error: Parquet files and DataFrames need pandas" in err and "Traceback" not in err
    assert main(["export", str(folder), "--format", "csv", "--out", str(tmp_path / "csv")]) == 0
    assert f"wrote {len(TABLES)} tables" in capsys.readouterr().out  # every table, the persuasion one too

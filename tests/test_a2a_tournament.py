"""Remote participants (``a2a:URL``) in tournaments, against real A2A servers
(``a2a_standins``: the SDK's server in a process of its own on 127.0.0.1)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import yaml
from a2a_standins import free_port, serving

from arena.cli import main
from transcripts import read_transcript
from transcripts.schema import CallRecord

pytest.importorskip("a2a")


def tournament(tmp_path: Path, participants: list[dict[str, Any]], games: int = 3) -> Path:
    data = {"name": "remote", "seed": 4, "games": games, "tables": [{"players": 5}], "participants": participants}
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def run(capsys: Any, cfg: Path, db: Path, *args: str) -> tuple[int, dict[str, Any] | None, str]:
    code = main(["tournament", str(cfg), "--db", str(db), "--json", "--quiet", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def seat_rows(db: Path) -> list[sqlite3.Row]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    try:
        return con.execute("SELECT * FROM seats").fetchall()
    finally:
        con.close()


def test_a_tournament_of_remote_agents_runs_resumes_and_rates(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    with serving(module="examples.remote_agent") as url:
        cfg = tournament(
            tmp_path,
            [
                {"name": "Remote-A", "agent": f"a2a:{url}"},
                {"name": "Remote-B", "agent": f"a2a:{url}", "options": {"decision_timeout": 30}},
                {"name": "Heuristic", "agent": "heuristic"},
            ],
        )
        code, report, err = run(capsys, cfg, db, "--max-games", "2")
        assert code == 0, err
        assert report is not None and report["played"] == 2 and report["remaining"] == 1
        code, report, err = run(capsys, cfg, db)  # resumed: finishes what is missing, repeats nothing
        assert code == 0, err
        assert report is not None and report["played"] == 1 and report["already"] == 2 and report["remaining"] == 0
    rows = [r for r in seat_rows(db) if r["participant"].startswith("Remote")]
    assert rows and all(r["agent"] == f"a2a:{url}" for r in rows)
    assert sum(r["calls"] for r in rows) > 0 and sum(r["fallbacks"] for r in rows) == 0
    code = main(["leaderboard", "--db", str(db), "--json"])
    board = json.loads(capsys.readouterr().out)
    assert code == 0 and {"Remote-A", "Remote-B", "Heuristic"} <= {p["participant"] for p in board["participants"]}
    folder = tmp_path / "t_transcripts"
    for path in sorted(folder.glob("*.jsonl")):
        calls = [r for r in read_transcript(path).records if isinstance(r, CallRecord)]
        assert {c.display_name for c in calls} <= {"Remote-A", "Remote-B"}
        assert main(["verify", str(path)]) == 0
    capsys.readouterr()


def test_a_remote_agent_that_dies_mid_run(tmp_path, capsys):
    """The game it dies in finishes on fallbacks (counted); the next run refuses to
    start while it is gone, naming it; once it is back, the run finishes the rest."""
    db = tmp_path / "t.sqlite"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cfg = tournament(
        tmp_path,
        [
            {"name": "Mortal", "agent": f"a2a:{url}", "options": {"max_retries": 1, "retry_initial": 0.05}},
            {"name": "Heuristic", "agent": "heuristic"},
        ],
        games=2,
    )
    with serving("--behave", "*=die:3", port=port):
        code, report, err = run(capsys, cfg, db, "--max-games", "1")
    assert code == 0, err
    assert report is not None and report["played"] == 1 and report["failed"] == 0
    mortal = [r for r in seat_rows(db) if r["participant"] == "Mortal"]
    assert sum(r["fallbacks"] for r in mortal) > 0  # its decisions after the crash were the fallback bot's, and counted
    code, report, err = run(capsys, cfg, db)
    assert code == 2 and "Mortal" in err and url in err and "agent card" in err and "Traceback" not in err
    with serving(module="examples.remote_agent", port=port):
        code, report, err = run(capsys, cfg, db)
    assert code == 0, err
    assert report is not None and report["played"] == 1 and report["already"] == 1 and report["remaining"] == 0


@pytest.mark.parametrize(
    "participant,words",
    [
        ({"name": "R", "agent": "a2a:http://127.0.0.1:9", "options": {"temperature": 1}}, "options.temperature"),
        ({"name": "R", "agent": "a2a:ftp://127.0.0.1:9"}, "http:// or https://"),
        ({"name": "R", "agent": "a2a:https://agents.example.org"}, "participant R sends its view to the agent at https://agents.example.org"),
    ],
)
def test_remote_participants_are_checked_with_the_file(tmp_path, monkeypatch, participant, words):
    from arena.tournament.config import ConfigError, load_config

    monkeypatch.setenv("WEREWOLF_CONFIG", str(tmp_path / "none.yaml"))
    with pytest.raises(ConfigError, match=words.replace(".", r"\.").replace("/", "/")):
        load_config(tournament(tmp_path, [participant, {"name": "H", "agent": "heuristic"}]))

"""A person's games in the tournament store (``werewolf serve --db``), rated with the
models' by ``werewolf leaderboard --db``: finished games under the person's name, an
abandoned game kept apart and never rated, the person's cards rotated.

The web server runs under Starlette's TestClient; the person answers nothing and
every question plays its safe default after a short time limit, so a game ends
quickly and the same way a silent person's would.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from web_tools import web_client

from arena.cli import main
from arena.people_games import abandoned
from arena.web.app import create_app
from engine.presets import get_preset

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo"]


def table(seed: int, timeout: float = 0.01) -> dict[str, Any]:
    seats = [{"name": n, "agent": "human" if n == "Alice" else "heuristic"} for n in NAMES]
    return {"seed": seed, "seats": seats, "pace": 0, "timeout": timeout, "options": {"sheriff": False, "discussion_rounds": 1}}


def over(client, links: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.time() + timeout
    url = "/api" + links["watch"] + "/state"
    while time.time() < deadline:
        state = client.get(url).json()
        if state["status"] != "running":
            return state
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


def test_finished_games_are_rated_under_the_persons_name_and_an_abandoned_one_is_not(tmp_path, capsys):
    db = tmp_path / "people.sqlite"
    app = create_app(tmp_path / "games", people_db=db)
    with web_client(app) as client:
        for seed in range(1, 8):
            r = client.post("/api/games", json=table(seed))
            assert r.status_code == 201, r.text
            assert over(client, r.json())["status"] == "over"
        # A game the host stops before its end: abandoned.
        r = client.post("/api/games", json=table(99, timeout=600))
        links = r.json()
        time.sleep(0.3)
        assert client.post("/api" + links["host"] + "/stop", json={}).json() == {"stopped": True}
        assert over(client, links)["status"] == "stopped"
    games = rows(db, "SELECT id, transcript FROM games")
    assert len(games) == 7
    assert all((db.parent / t).exists() for _, t in games)  # each game's transcript is kept
    people = rows(db, "SELECT participant, agent FROM seats WHERE agent = 'human'")
    assert people == [("Alice", "human")] * 7
    assert ("Alice", "human") in rows(db, "SELECT name, agent FROM participants")
    # One rotation: the person drew each card of the deck once, as often as it holds it.
    cards = [r[0] for r in rows(db, "SELECT s.initial_role FROM seats s JOIN games g ON g.id = s.game_id WHERE s.agent = 'human' ORDER BY g.idx")]
    assert cards == sorted(get_preset("millers_hollow").deck(len(NAMES)))
    # The abandoned game is kept, transcript and reason, and is in no rated table.
    (left,) = abandoned(db)
    assert left["people"] == "Alice" and "stopped" in left["reason"] and (db.parent / left["transcript"]).exists()
    assert left["id"] not in {g for g, _ in games}
    # One scale for people and bots, with intervals.
    capsys.readouterr()
    assert main(["leaderboard", "--db", str(db), "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    names = {p["participant"]: p for p in board["participants"]}
    assert {"Alice", "heuristic"} <= set(names)
    rating = names["Alice"]["rating"]
    assert rating["low"] <= rating["value"] <= rating["high"] and rating["low"] < rating["high"]
    assert names["Alice"]["games"] == 7 and names["Alice"]["agent"] == "human"

    # The site says how many games a person needs before the interval means something.
    site = tmp_path / "site"
    capsys.readouterr()
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "40", "--html", str(site)]) == 0
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "Alice (a person) has played 7 games, at least one rotation of the deck at their table (7 games" in page


def test_the_site_counts_the_games_a_person_still_needs():
    from arena.site.index import people_note
    from arena.site.frame import Words

    seats = [{"participant": "Zoe"}, {"participant": "heuristic"}]
    d = {"participants": [{"participant": "Zoe", "agent": "human", "games": 3}, {"participant": "heuristic", "agent": "heuristic", "games": 3}],
         "game_list": [{"players": 8, "seats": seats}] * 3}  # fmt: skip
    note = people_note(d, Words("en"))
    assert "Zoe (a person) has played 3 games" in note and "8 games (each card once): 5 more." in note
    assert "heuristic" not in note


def test_serve_refuses_a_db_that_is_a_folder(tmp_path, capsys):
    assert main(["serve", "--db", str(tmp_path), "--port", "0"]) == 2
    assert "--db names the database file" in capsys.readouterr().err

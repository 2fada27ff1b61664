"""A finished web game leaves memory and is served from disk; no page is given where the
server keeps its files; the cap on games played at once is a clear 429 and a bounded
``serve`` flag. (Memory over a thousand games is measured by
``benchmarks/web_soak.py``.)"""

from __future__ import annotations

import gc
import json
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

from arena.web.app import create_app
from arena.web.index import NAME as INDEX
from arena.web.persist import SUFFIX
from test_web_api import answer, seat_url, start, table, token, wait_for
from web_tools import web_client

BOTS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def bots_game(client, seed: int) -> dict[str, Any]:
    body = {"seed": seed, "seats": [{"name": n, "agent": "heuristic"} for n in BOTS], "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def ended(client, links) -> dict[str, Any]:
    """The host's state once the game is over and the server has let it go."""
    store = client.app.state.store
    return wait_for(client, "/api" + links["host"] + "/state", lambda s: s["status"] != "running" and links["id"] not in store.sessions)


def released(client, links, ref: weakref.ref, within: float = 10.0) -> bool:
    """Whether the game ``ref`` points at leaves memory. The server's loop may still run
    what the game's end queued (its done-callbacks, its seats' last tasks) after the test
    thread sees it leave ``store.sessions``, so requests let the loop run until it is
    collected, or ``within`` seconds pass (a bound, not a measure of speed)."""
    deadline = time.monotonic() + within
    while True:
        gc.collect()
        if ref() is None:
            return True
        if time.monotonic() > deadline:
            return False
        client.get("/api" + links["host"] + "/state")


def play_out(client, links, name="Alice") -> dict[str, Any]:
    while True:
        state = wait_for(client, seat_url(links, name), lambda s: bool(s["pending"]) or s["status"] != "running")
        if state["status"] != "running":
            return state
        q = state["pending"][0]
        answer(client, links, q["id"], "Hello." if q["shape"] == "text" else q["options"][-1]["value"], name)


def test_a_finished_game_leaves_memory_and_is_served_from_disk(tmp_path):
    with web_client(create_app(tmp_path / "games")) as c:
        store = c.app.state.store
        links = bots_game(c, 3)
        live = weakref.ref(store.by_host(token(links["host"])))  # the game being played
        end = ended(c, links)
        assert end["status"] == "over" and not store.sessions
        assert released(c, links, live), "the finished game is still held somewhere"

        # Every lens still opens it, read again from its transcript, as it ended.
        host = c.get("/api" + links["host"] + "/state").json()
        full = c.get("/api" + links["watch"] + "/full/state").json()
        public = c.get("/api" + links["watch"] + "/state").json()
        assert host["status"] == full["status"] == public["status"] == "over"
        assert host["events"] == full["events"] == end["events"] and any(e["kind"] == "game_end" for e in host["events"])
        assert len(public["events"]) < len(full["events"])
        download = c.get(host["links"]["download"])
        assert download.status_code == 200 and download.content == Path(links["transcript"]).read_bytes()
        assert store.held() == 1 and not store.sessions


def test_only_a_few_finished_games_stay_at_hand(tmp_path):
    with web_client(create_app(tmp_path / "games")) as c:
        store = c.app.state.store
        games = [bots_game(c, seed) for seed in range(1, 13)]
        for links in games:
            ended(c, links)
        for links in games:  # each is opened, and opened again
            assert c.get("/api" + links["watch"] + "/full/state").json()["status"] == "over"
        assert store.held() == store.keep_finished < len(games)
        assert all(c.get("/api" + links["host"] + "/state").status_code == 200 for links in games)


def test_a_restart_reads_no_finished_game_until_a_page_asks(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        games = [bots_game(c, seed) for seed in (5, 6, 7)]
        for links in games:
            ended(c, links)
    told: list[str] = []
    with web_client(create_app(folder, say=told.append)) as c:
        store = c.app.state.store
        assert store.held() == 0 and told == [f"3 earlier games of {folder} open when a page asks for them"]
        assert c.get("/api" + games[1]["watch"] + "/state").json()["status"] == "over"
        assert store.held() == 1
        assert c.get("/api/watch/not-a-token/state").status_code == 404
        assert c.get("/api" + games[1]["host"].replace("/host/", "/watch/") + "/state").status_code == 404  # a host token is no watch token


def test_the_index_follows_the_folder_and_is_rebuilt_when_damaged(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        first, second = bots_game(c, 8), bots_game(c, 9)
        ended(c, first), ended(c, second)
    # A game whose files were deleted by hand is gone; a damaged index is rebuilt.
    gone = Path(second["transcript"])
    gone.unlink()
    gone.with_name(gone.stem + SUFFIX).unlink()
    (folder / INDEX).write_bytes(b"this is not a database")
    with web_client(create_app(folder)) as c:
        assert c.get("/api" + first["host"] + "/state").json()["status"] == "over"
        assert c.get("/api" + second["host"] + "/state").status_code == 404
        assert c.app.state.store.index.count() == 1
    # A game copied in from elsewhere is found at the next start.
    other = tmp_path / "other"
    with web_client(create_app(other)) as c:
        third = bots_game(c, 10)
        ended(c, third)
    for f in other.glob("web-*"):
        f.rename(folder / f.name)
    with web_client(create_app(folder)) as c:
        assert c.get("/api" + third["watch"] + "/state").json()["status"] == "over"


def test_no_lens_is_given_the_servers_path(tmp_path):
    """After the end every lens may download the transcript (the full view is open to
    anyone with the spectators' address, and a seat's page links there), and none is
    told where the server keeps it; while the game is played only the host may."""
    folder = (tmp_path / "games").resolve()
    with web_client(create_app(folder)) as c:
        links = start(c)
        seat, public, host = (c.get(u).json() for u in (seat_url(links), "/api" + links["watch"] + "/state", "/api" + links["host"] + "/state"))
        assert "download" not in seat["links"] and "download" not in public["links"]
        assert host["links"]["download"] == links["download"] == f"/api/host/{token(links['host'])}/transcript"
        assert c.get(f"/api/watch/{token(links['watch'])}/transcript").status_code == 403
        play_out(c, links)
        ended(c, links)
        w = token(links["watch"])
        lenses = {
            "seat": seat_url(links),
            "public": f"/api/watch/{w}/state",
            "full": f"/api/watch/{w}/full/state",
            "host": "/api" + links["host"] + "/state",
        }
        for lens, url in lenses.items():
            state = c.get(url).json()
            assert str(folder) not in json.dumps(state), f"the {lens} lens is given the server's path"
            assert state["links"]["file"] == Path(links["transcript"]).name
            got = c.get(state["links"]["download"])
            assert got.status_code == 200 and got.content == Path(links["transcript"]).read_bytes(), lens
        with c.websocket_connect(f"/ws/watch/{w}") as ws:
            assert str(folder) not in json.dumps(ws.receive_json())


def test_the_running_games_cap_is_a_clear_429(tmp_path):
    with web_client(create_app(tmp_path / "games", max_running=1)) as c:
        first = start(c)  # a person at the table: it waits for her
        r = c.post("/api/games", json=table())
        assert r.status_code == 429 and "1 game at once" in r.json()["error"] and "--max-running" in r.json()["error"]
        assert c.post("/api" + first["host"] + "/stop", json={}).json() == {"stopped": True}
        ended(c, first)
        assert c.post("/api/games", json=table()).status_code == 201


@pytest.mark.parametrize("n", ["0", "101", "-3"])
def test_serve_bounds_max_running(n, capsys):
    from arena.cli import main

    assert main(["serve", "--max-running", n, "--port", "0"]) == 2
    assert "--max-running must be between 1 and 100" in capsys.readouterr().err

"""Web games outlive the server: a restart takes up the games of its folder, a seat's
address opens the same game (its question asked again), a finished or stopped game
opens as it ended, and no token is ever written in clear."""

from __future__ import annotations

import json
import shutil
from pathlib import Path


from arena.web.app import create_app
from arena.web.persist import SUFFIX, Keys, digest, seal, unseal
from test_web_api import answer, play_until, seat_url, start, token, wait_for
from web_tools import web_client


def tokens_of(links) -> list[str]:
    return [token(p) for p in [*links["seats"].values(), links["watch"], links["host"]]]


def assert_no_clear_token(folder: Path, links) -> None:
    for f in folder.iterdir():  # the index (SQLite) included
        data = f.read_bytes()
        for t in tokens_of(links):
            assert t.encode() not in data, f"a token is written in clear in {f.name}"


def play_out(client, links, name="Alice") -> dict:
    while True:
        state = wait_for(client, seat_url(links, name), lambda s: bool(s["pending"]) or s["status"] != "running")
        if state["status"] != "running":
            return state
        q = state["pending"][0]
        answer(client, links, q["id"], "Hello again." if q["shape"] == "text" else q["options"][-1]["value"], name)


def test_the_seal_opens_only_with_its_key():
    keys = Keys.new(["Alice"])
    (alice,) = keys.seat_tokens.values()
    assert unseal(seal("abc", alice), alice) == "abc" and unseal(seal("abc", alice), "other") != "abc"
    again = Keys.from_json(json.loads(json.dumps(keys.to_json())))
    assert again.watch_token is None and again.seats == {digest(alice): "Alice"}
    again.learn("play", alice)
    assert again.watch_token == keys.watch_token and again.host_token is None


def test_a_restarted_server_plays_the_game_on(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        links = start(c)
        q = play_until(c, links, "vote")
        before = len(c.app.state.store.by_watch(token(links["watch"])).game.answer_log)
    assert_no_clear_token(folder, links)
    (meta,) = folder.glob("*" + SUFFIX)
    saved = json.loads(meta.read_text())
    assert saved["status"] == "running" and set(saved["keys"]["seats"].values()) == {"Alice"}
    assert "interrupted" in Path(links["transcript"]).read_text().splitlines()[-1]

    told: list[str] = []
    with web_client(create_app(folder, say=told.append)) as c:
        assert told and "played on" in told[0]
        state = wait_for(c, seat_url(links), lambda s: bool(s["pending"]))
        assert state["pending"][0]["id"] == q["id"] and state["pending"][0]["kind"] == "vote"  # the same question again
        assert state["links"]["watch"] == links["watch"]  # learnt from the seat's own token
        session = c.app.state.store.by_watch(token(links["watch"]))
        assert len(session.game.answer_log) == before
        host = c.get("/api" + links["host"] + "/state").json()
        assert host["view"] == "full" and host["links"]["download"].startswith("/api/host/")
        assert c.get("/api/play/wrong/state").status_code == 404
        end = play_out(c, links)
        assert end["status"] == "over"
    from arena.cli import main

    assert main(["verify", links["transcript"]]) == 0
    assert json.loads(meta.read_text())["status"] == "over"
    assert_no_clear_token(folder, links)

    # Once more: the finished game opens as it ended, the full view to spectators too.
    with web_client(create_app(folder)) as c:
        seat = c.get(seat_url(links)).json()
        assert seat["status"] == "over" and any(e["kind"] == "game_end" for e in seat["events"])
        assert c.get("/api" + links["watch"] + "/full/state").status_code == 200
        assert c.get("/api" + links["watch"] + "/transcript").status_code == 200
        assert answer(c, links, 1, None).status_code == 409


def test_a_killed_server_loses_only_the_open_batch(tmp_path):
    """No shutdown at all (the process was killed, a line cut off mid-write): the copy
    of the folder taken while the game ran is played on all the same."""
    folder, copy = tmp_path / "games", tmp_path / "copy"
    with web_client(create_app(folder)) as c:
        links = start(c, humans=("Alice", "Bob"))
        q = play_until(c, links, "vote")
        shutil.copytree(folder, copy)
    transcript = copy / Path(links["transcript"]).name
    with transcript.open("a") as f:
        f.write('{"type": "call", "seat": "Bo')  # the line being written when the process died
    with web_client(create_app(copy)) as c:
        state = wait_for(c, seat_url(links), lambda s: bool(s["pending"]))
        assert state["pending"][0]["id"] == q["id"]
        end = play_out_both(c, links)
        assert end["status"] == "over"
    from arena.cli import main

    assert main(["verify", str(transcript)]) == 0


def play_out_both(client, links) -> dict:
    while True:
        states = {n: client.get(seat_url(links, n)).json() for n in links["seats"]}
        if states["Alice"]["status"] != "running":
            return states["Alice"]
        for n, s in states.items():
            for q in s["pending"]:
                answer(client, links, q["id"], "Hi." if q["shape"] == "text" else q["options"][-1]["value"], n)


def test_a_stopped_game_stays_stopped(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        links = start(c)
        play_until(c, links, "speak")
        assert c.post("/api" + links["host"] + "/stop", json={}).json() == {"stopped": True}
        wait_for(c, seat_url(links), lambda s: s["status"] == "stopped")
    with web_client(create_app(folder)) as c:
        state = c.get(seat_url(links)).json()
        assert state["status"] == "stopped" and "stopped by the host" in state["error"] and not state["pending"]
        assert c.app.state.store.by_watch(token(links["watch"])).task is None


def test_an_unreadable_game_is_skipped_and_the_server_starts(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        links = start(c)
        play_until(c, links, "speak")
    Path(links["transcript"]).write_text("not a transcript\n")
    (folder / ("junk" + SUFFIX)).write_text("{")
    told: list[str] = []
    with web_client(create_app(folder, say=told.append)) as c:
        assert c.get(seat_url(links)).status_code == 404
        assert any("cannot be read" in line for line in told)
        assert c.post("/api/games", json={"seats": [{"name": n} for n in "ABCDE"], "pace": 0}).status_code == 201

"""The web server without a browser (Starlette's TestClient): tokens, visibility,
reconnection, answers, time limits, transcripts and the ``serve`` command."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from starlette.websockets import WebSocketDisconnect

from arena.web.app import STATIC, create_app
from web_tools import web_client

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma"]


def table(humans=("Alice",), roles=None, **extra: Any) -> dict[str, Any]:
    # Alice is the wolf by default: no night can take her before the day's questions.
    roles = roles or {"Alice": "werewolf", "Bob": "villager", "Chloe": "seer"}
    seats = [{"name": n, "agent": "human" if n in humans else "heuristic", **({"role": roles[n]} if n in roles else {})} for n in NAMES]
    return {"seed": 4, "seats": seats, "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}, **extra}


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "games", audit=True)  # the channels and what they were sent, kept to be checked
    with web_client(app) as c:
        yield c


def start(client, **kw) -> dict[str, Any]:
    r = client.post("/api/games", json=table(**kw))
    assert r.status_code == 201, r.text
    return r.json()


def token(path: str) -> str:
    return path.rstrip("/").split("/")[2]


def session_of(client, links):
    return client.app.state.store.by_watch(token(links["watch"]))


def wait_for(client, url: str, test: Callable[[dict], bool], timeout: float = 10.0) -> dict:
    deadline = time.time() + timeout
    while True:
        state = client.get(url).json()
        if test(state):
            return state
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting on {url}: {json.dumps(state)[:400]}")
        time.sleep(0.02)


def seat_url(links, name="Alice") -> str:
    return "/api" + links["seats"][name] + "/state"


def answer(client, links, decision: int, value: Any, name="Alice"):
    return client.post("/api" + links["seats"][name] + "/answer", json={"decision": decision, "answer": value})


def pending(kind: str | None = None):
    return lambda s: bool(s.get("pending")) and (kind is None or s["pending"][0]["kind"] == kind)


def play_until(client, links, kind: str, name="Alice") -> dict:
    """Answer every question of every person at the table (a line of speech, the last
    option: a wolf's victim is then Emma, never a person) until ``name`` is asked a
    question of ``kind``; the others' questions of that kind are left open."""
    deadline = time.time() + 15
    while time.time() < deadline:
        for seat in [name, *(n for n in links["seats"] if n != name)]:
            state = client.get(seat_url(links, seat)).json()
            for q in state["pending"]:
                if q["kind"] == kind:
                    if seat == name:
                        return q
                    continue
                value = "Good morning." if q["shape"] == "text" else q["options"][-1]["value"]
                r = answer(client, links, q["id"], value, seat)
                # under a time limit a question may close between the poll and the answer
                assert r.status_code == 200 or (q.get("seconds_left") is not None and r.status_code == 409), r.text
        time.sleep(0.02)
    raise AssertionError(f"{name} was never asked {kind}")


# ---------------------------------------------------------------------- tokens
def test_every_address_needs_its_token(client):
    links = start(client)
    seat, watch, host = token(links["seats"]["Alice"]), token(links["watch"]), token(links["host"])
    assert len({seat, watch, host}) == 3 and min(map(len, (seat, watch, host))) >= 20
    for path in ("/play/wrong", "/watch/wrong", "/host/wrong", "/api/play/wrong/state", "/api/watch/wrong/state", "/api/host/wrong/state", "/play/", "/play"):
        assert client.get(path).status_code == 404, path
    assert client.post("/api/play/wrong/answer", json={"decision": 0, "answer": None}).status_code == 404
    assert client.post(f"/api/play/{watch}/answer", json={"decision": 0, "answer": None}).status_code == 404  # a spectator cannot answer
    assert client.post(f"/api/host/{seat}/stop", json={}).status_code == 404
    for ws in ("/ws/play/wrong", f"/ws/play/{watch}", "/ws/host/nope", f"/ws/host/{seat}"):
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(ws) as s:
                s.receive_json()
    assert client.get(links["seats"]["Alice"]).status_code == 200
    assert client.get(links["watch"]).status_code == 200
    assert client.get(links["host"]).status_code == 200


def test_the_full_view_opens_at_the_end_or_to_the_host(client):
    links = start(client)
    w = token(links["watch"])
    assert client.get(f"/watch/{w}/full").status_code == 403
    assert client.get(f"/api/watch/{w}/full/state").status_code == 403
    assert client.get(f"/api/watch/{w}/transcript").status_code == 403
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/watch/{w}/full") as s:
            s.receive_json()
    host = client.get("/api" + links["host"] + "/state").json()
    assert host["view"] == "full" and any(not e["public"] for e in host["events"])
    while True:  # play to the end
        state = wait_for(client, seat_url(links), lambda s: bool(s["pending"]) or s["status"] != "running")
        if state["status"] != "running":
            break
        q = state["pending"][0]
        answer(client, links, q["id"], "" if q["shape"] == "text" else q["options"][0]["value"])
    assert state["status"] == "over"
    full = client.get(f"/api/watch/{w}/full/state").json()
    assert full["view"] == "full" and len(full["events"]) == len(session_of(client, links).game.events)
    assert client.get(f"/api/watch/{w}/transcript").status_code == 200
    assert state["links"]["full"] == f"/watch/{w}/full"


# ---------------------------------------------------------------------- visibility
def test_each_view_is_sent_only_what_it_may_see(client):
    links = start(client, roles={"Alice": "werewolf", "Bob": "werewolf", "Chloe": "seer"})
    play_until(client, links, "vote")
    game = session_of(client, links).game
    seat = client.get(seat_url(links)).json()
    public = client.get("/api" + links["watch"] + "/state").json()
    full = client.get("/api" + links["host"] + "/state").json()
    shown = {e["seq"] for e in seat["events"]}
    assert shown == {e.seq for e in game.observation("Alice") if e.seq < len(game.events)}
    assert {e["seq"] for e in public["events"]} == {e.seq for e in game.public_events()}
    assert {e["seq"] for e in full["events"]} == {e.seq for e in game.events}
    assert all("audience" not in e for e in seat["events"] + public["events"])
    kinds = {e["kind"] for e in seat["events"]}
    assert "wolf_pack" in kinds and "seer_result" not in kinds  # a wolf knows the pack, not the Seer's look
    assert not any(e["kind"] == "role" and e["data"]["player"] != "Alice" for e in seat["events"])
    cards = {p["name"]: p["role"] for p in seat["players"]}
    assert cards["Alice"] == "werewolf" and cards["Bob"] == "werewolf" and cards["Chloe"] is None  # the pack, nobody else
    assert all(p["role"] is None or not p["alive"] for p in public["players"])
    assert seat["card"]["role"] == "werewolf" and "werewolves" in seat["card"]["win"]
    assert "card" not in public and "pending" not in public and "thoughts" not in seat


def test_the_socket_streams_the_seat_its_own_events(client):
    links = start(client)
    with client.websocket_connect("/ws" + links["seats"]["Alice"]) as ws:
        first = ws.receive_json()
        assert first["type"] == "snapshot" and first["view"] == "seat" and first["me"] == "Alice"
        q = play_until(client, links, "speak")
        answer(client, links, q["id"], "I saw nothing last night.")
        said = None
        while said is None:
            msg = ws.receive_json()
            assert msg["type"] == "update"
            said = next((e for e in msg["events"] if e["kind"] == "speech" and e["data"]["speaker"] == "Alice"), None)
        assert said["data"]["text"] == "I saw nothing last night."
    session = session_of(client, links)
    game = session.game
    (channel,) = [ch for ch in session.history if ch.lens.seat == "Alice"]
    assert channel.sent and channel not in session.channels  # the record outlives the connection
    assert all(game.events[e["seq"]].visible_to("Alice") for m in channel.sent for e in m.get("events", []))


def test_model_reasoning_reaches_the_full_view_only(client):
    from transcripts.schema import CallRecord

    links = start(client)
    session = session_of(client, links)
    with client.websocket_connect("/ws" + links["host"]) as host, client.websocket_connect("/ws" + links["seats"]["Alice"]) as seat:
        host.receive_json(), seat.receive_json()
        record = CallRecord(seat="Bob", decision=1, kind="wolf_kill", backend="openai", model="m", parsed={"reasoning": "Alice is quiet: take her."})
        client.portal.call(_feed, session, record)  # the session lives in the client's loop
        msg = host.receive_json()
        assert msg["type"] == "thought" and msg["thought"]["text"] == "Alice is quiet: take her."
    assert client.get("/api" + links["host"] + "/state").json()["thoughts"][0]["seat"] == "Bob"
    assert "thoughts" not in client.get(seat_url(links)).json()
    alice = [ch for ch in session.history if ch.lens.seat == "Alice"]
    assert not any(m.get("type") == "thought" for ch in alice for m in ch.sent)
    assert not any("Alice is quiet" in json.dumps(m) for ch in alice for m in ch.sent)


async def _feed(session, record) -> None:
    session._on_call(record)


# ---------------------------------------------------------------------- reconnecting, answering
def test_a_reconnection_finds_the_question_and_the_given_answer(client):
    links = start(client, humans=("Alice", "Bob"))
    q = play_until(client, links, "vote")
    again = client.get(seat_url(links)).json()  # a reload: the same question, still open
    assert again["pending"][0]["id"] == q["id"]
    with client.websocket_connect("/ws" + links["seats"]["Alice"]) as ws:
        assert ws.receive_json()["pending"][0]["id"] == q["id"]
    target = q["options"][1]["value"]
    assert answer(client, links, q["id"], target).status_code == 200
    # Bob, the other person, has not voted: the batch is open and Alice's vote is kept.
    kept = client.get(seat_url(links)).json()
    assert kept["pending"] == [] and kept["given"][0]["answer"] == target and target in kept["given"][0]["text"]
    again = answer(client, links, q["id"], q["options"][0]["value"])
    assert again.status_code == 409 and "kept" in again.json()["error"]
    bq = play_until(client, links, "vote", name="Bob")
    answer(client, links, bq["id"], None, name="Bob")
    after = wait_for(client, seat_url(links), lambda s: not s["given"])
    assert any(e["kind"] == "vote_result" and e["data"]["votes"]["Alice"] == target for e in after["events"])


def test_refused_answers_say_why(client):
    links = start(client)
    q = play_until(client, links, "speak")
    assert answer(client, links, q["id"], {"text": 3}).json()["error"] == "a speech is text"
    assert "not secret" in answer(client, links, q["id"], {"text": "hi", "secret": 1}).json()["error"]
    assert "at most" in answer(client, links, q["id"], "x" * 5000).json()["error"]
    assert answer(client, links, q["id"] + 1000, "hi").status_code == 409
    bad = client.post("/api" + links["seats"]["Alice"] + "/answer", content=b"not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400
    assert answer(client, links, q["id"], "fine").status_code == 200
    v = play_until(client, links, "vote")
    refused = answer(client, links, v["id"], "Alice")
    assert refused.status_code == 400 and "not a legal vote" in refused.json()["error"]
    assert answer(client, links, v["id"], 3).status_code == 400


def test_a_time_limit_plays_the_safe_default(client):
    links = start(client, timeout=0.3)
    q = play_until(client, links, "vote")
    assert q["seconds_left"] is not None and q["default"]
    state = wait_for(client, seat_url(links), lambda s: bool(s["notes"]))
    assert "Time is up" in state["notes"][0]
    game = session_of(client, links).game
    wait_for(client, seat_url(links), lambda s: any(a[0] == q["id"] for a in game.answer_log))
    assert next(a for a in game.answer_log if a[0] == q["id"])[3] is None  # abstaining: passing is legal


# ---------------------------------------------------------------------- the record
def test_a_web_game_writes_a_transcript_that_verifies(client):
    from arena.cli import main

    links = start(client)
    session = session_of(client, links)
    while session.status == "running":
        state = client.get(seat_url(links)).json()
        if state["pending"]:
            q = state["pending"][0]
            answer(client, links, q["id"], "Hello." if q["shape"] == "text" else q["options"][-1]["value"])
        time.sleep(0.01)
    assert session.status == "over"
    lines = [json.loads(line) for line in Path(links["transcript"]).read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seats"][0]["agent"] == "human"
    assert lines[-1]["type"] == "result"
    assert main(["verify", links["transcript"]]) == 0


def test_the_host_can_stop_a_game(client):
    links = start(client)
    play_until(client, links, "speak")
    assert client.post("/api" + links["host"] + "/stop", json={}).json() == {"stopped": True}
    state = wait_for(client, seat_url(links), lambda s: s["status"] != "running")
    assert state["status"] == "stopped" and "stopped" in state["error"]
    last = json.loads(Path(links["transcript"]).read_text().splitlines()[-1])
    assert last["type"] == "error"


def test_a_table_the_rules_refuse_is_explained(client):
    def refused(body) -> str:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400
        return r.json()["error"]

    assert "unknown agent 'gpt'" in refused(table() | {"seats": [{"name": n, "agent": "gpt"} for n in NAMES]})
    assert "colour" in refused(table() | {"colour": "red"})
    assert "scripted" in refused(table() | {"seats": [{"name": n, "agent": "scripted"} for n in NAMES]})
    assert "unknown role" in refused(table(roles={"Alice": "dragon"}))
    assert client.post("/api/games", content=b"[", headers={"content-type": "application/json"}).status_code == 400


def test_the_start_page_is_offered_its_choices(client):
    page = client.get("/")
    assert page.status_code == 200 and "Set up a table" in page.text
    choices = client.get("/api/setup").json()
    assert any(p["id"] == "millers_hollow" for p in choices["presets"])
    assert "heuristic" in choices["bots"] and "en" in choices["languages"]
    # Every table size a preset plays is offered, up to 30 seats (the form once stopped at 18).
    from engine.presets import PRESETS

    for p in choices["presets"]:
        assert p["max_players"] == PRESETS[p["id"]].max_players
        assert max(int(n) for n in p["decks"]) == p["max_players"]
    assert len(choices["names"]) >= max(p["max_players"] for p in choices["presets"]) == 30


# ---------------------------------------------------------------------- pages and packaging
def test_pages_need_no_network_and_keep_their_tokens(client):
    for f in STATIC.iterdir():
        text = f.read_text(encoding="utf-8")
        assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in text, f.name
    r = client.get("/")
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["cache-control"] == "no-store"
    assert client.get("/static/table.js").status_code == 200


def test_the_assets_ship_with_the_package():
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]
    assert "static/*" in data["arena.web"]
    assert {"start.html", "table.html", "table.js", "start.js", "style.css"} <= {p.name for p in STATIC.iterdir()}


def test_serve_binds_loopback_and_names_a_busy_port():
    from arena.cli import build_parser
    from arena.command import CliError
    from arena.web.serve import address, bind

    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1"
    sock = bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert address(sock) == f"http://127.0.0.1:{port}/"
        with pytest.raises(CliError, match="already in use"):
            bind("127.0.0.1", port)
    finally:
        sock.close()


# ---------------------------------------------------------------------- claims and the pack's victim
def test_a_speech_carries_claims_and_a_malformed_one_is_refused(client):
    links = start(client)
    q = play_until(client, links, "speak")
    extras = q["extras"]
    assert extras["kind"] == "claims" and "Alice" not in extras["players"] and "Bob" in extras["players"]
    assert {r["value"] for r in extras["roles"]} >= {"werewolf", "seer", "villager"}
    bad = answer(client, links, q["id"], {"text": "Trust me.", "claims": {"role": "seer", "checks": [{"target": "Zed", "role": "werewolf"}]}})
    assert bad.status_code == 400 and bad.json()["error"] == "claimed check names an unknown player: 'Zed'"
    bad = answer(client, links, q["id"], {"text": "Trust me.", "claims": {"role": "wizard"}})
    assert bad.status_code == 400 and "is not a role id" in bad.json()["error"]
    bad = answer(client, links, q["id"], {"text": "Trust me.", "claims": {"checks": [{"target": "Bob"}]}})
    assert bad.status_code == 400 and "needs a target name and a role id" in bad.json()["error"]
    assert "takes text and claims only" in answer(client, links, q["id"], {"text": "x", "target": "Bob"}).json()["error"]
    # Typed in the speech box, the README's syntax is read as the terminal reads it, with its sentences.
    bad = answer(client, links, q["id"], "xxxxx /role dragon /accuse Nobody")
    assert bad.status_code == 400 and bad.json()["error"] == "'dragon' is not a role (for example: werewolf, seer, witch, villager)"
    assert "/rol is not a command" in answer(client, links, q["id"], "Trust me. /rol seer").json()["error"]
    assert client.get(seat_url(links)).json()["pending"][0]["id"] == q["id"]  # still open after the refusals
    claims = {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}], "accuses": ["Bob"]}
    ok = answer(client, links, q["id"], {"text": "I am the Seer: Bob is a wolf.", "claims": claims})
    assert ok.status_code == 200, ok.text
    said = wait_for(client, seat_url(links), lambda s: any(e["kind"] == "speech" and e["data"]["speaker"] == "Alice" for e in s["events"]))
    speech = next(e for e in said["events"] if e["kind"] == "speech" and e["data"]["speaker"] == "Alice")
    assert speech["data"]["text"] == "I am the Seer: Bob is a wolf." and speech["data"]["claims"] == claims
    public = client.get("/api" + links["watch"] + "/state").json()  # claims are public
    assert any(e["kind"] == "speech" and e["data"].get("claims") == claims for e in public["events"])


def test_the_pack_talk_proposes_a_victim_from_the_seat(client):
    links = start(client, roles={"Alice": "werewolf", "Bob": "werewolf", "Chloe": "seer"})
    q = play_until(client, links, "wolf_chat")
    assert q["extras"]["kind"] == "target" and q["extras"]["players"] == ["Chloe", "David", "Emma"]  # the kill's options
    bad = answer(client, links, q["id"], {"text": "Let's go.", "target": "Zed"})
    assert bad.status_code == 400 and bad.json()["error"] == "'Zed' is not a victim the pack may take tonight: Chloe, David, Emma"
    for mine in ("Alice", "Bob"):  # himself, his packmate: refused as typed and as sent by a program
        assert "is not a victim the pack may take tonight" in answer(client, links, q["id"], {"text": "x", "target": mine}).json()["error"]
        assert answer(client, links, q["id"], f"Let's take {mine}. /target {mine}").status_code == 400
    assert "takes text and target only" in answer(client, links, q["id"], {"text": "x", "claims": {}}).json()["error"]
    assert answer(client, links, q["id"], {"text": "Let's take Chloe.", "target": "Chloe"}).status_code == 200
    state = wait_for(client, seat_url(links), lambda s: any(e["kind"] == "wolf_chat" and e["data"]["speaker"] == "Alice" for e in s["events"]))
    talk = next(e for e in state["events"] if e["kind"] == "wolf_chat" and e["data"]["speaker"] == "Alice")
    assert talk["data"]["text"] == "Let's take Chloe." and talk["data"]["target"] == "Chloe"
    assert not any(e["kind"] == "wolf_chat" for e in client.get("/api" + links["watch"] + "/state").json()["events"])


def test_the_tables_default_opponent_is_one_constant(client, monkeypatch, tmp_path):
    """The bot a person's table gets when nothing else is named is ``TABLE_OPPONENT``,
    read by the terminal's default table, the web form and the start page alike, so
    that switching it (as to the reference player, issue 50) is one line."""
    from arena import gamefile, play_command
    from arena.cli import build_parser
    from arena.gamefile import TABLE_OPPONENT

    choices = client.get("/api/setup").json()
    assert choices["opponent"] == TABLE_OPPONENT and choices["bots"][0] == TABLE_OPPONENT
    script = (STATIC / "start.js").read_text(encoding="utf-8")
    assert '"heuristic"' not in script and "choices.opponent" in script  # the page names no bot of its own
    table = {"seed": 1, "seats": [{"name": "Alice", "agent": "human"}, {"name": "Bob"}, {"name": "Chloe"}, {"name": "David"}, {"name": "Emma"}]}
    from arena.web.table_form import table_spec

    spec, _ = table_spec(table)
    assert [s.agent for s in spec.seats[1:]] == [TABLE_OPPONENT] * 4
    monkeypatch.setattr(play_command, "TABLE_OPPONENT", "random")  # the terminal's default table reads it
    args = build_parser().parse_args(["play", "--human", "Alice", "--seed", "3", "--transcript", str(tmp_path / "t.jsonl")])
    spec, _, agents, _ = play_command._play_spec(args)
    assert [s.agent for s in spec.seats] == ["human"] + ["random"] * 7
    assert gamefile.DEFAULT_AGENT == "heuristic"  # a game file's seat without an agent is another matter: the contract's

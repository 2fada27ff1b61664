"""Who may start a game on this machine's keys (issue 12): the Host a request names,
the page it comes from, its body's type, the host key, and bounds on the start form.
Each refusal is checked against the request a foreign page, a DNS-rebinding page or
a careless client would really send."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from web_tools import BASE, web_client

from arena.cli import main
from arena.web.app import create_app
from arena.web.guard import KEY_COOKIE, KEY_HEADER, Policy

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma"]


def table(**extra: Any) -> dict[str, Any]:
    # A person at the table: the game waits for her, so it is still running when stopped.
    seats = [{"name": n, "agent": "human" if n == "Alice" else "random"} for n in NAMES]
    return {"seed": 3, "seats": seats, "pace": 0, **extra}


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "games", restore=False)


@pytest.fixture
def client(app):
    with web_client(app) as c:
        yield c


def games_in(app) -> int:
    return len(app.state.store.sessions)


# ---------------------------------------------------------------------- the defect as reported
def test_a_foreign_page_cannot_start_a_game(app):
    """The reported attack: text/plain from a foreign Origin with a foreign Host, a
    billion discussion rounds. Each part alone is refused; no game is created."""
    body = '{"seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"}], "options": {"discussion_rounds": 1000000000}}'
    with web_client(app, key=False) as c:
        r = c.post("/api/games", content=body, headers={"content-type": "text/plain", "origin": "http://evil.example", "host": "evil.example"})
        assert r.status_code == 400 and "--allow-host evil.example" in r.json()["error"]
        r = c.post("/api/games", content=body, headers={"content-type": "text/plain", "origin": "http://evil.example"})
        assert r.status_code == 403 and "another site" in r.json()["error"]
        r = c.post("/api/games", content=body, headers={"content-type": "text/plain"})
        assert r.status_code == 415 and "application/json" in r.json()["error"]
        r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 403 and "host key" in r.json()["error"]
    with web_client(app) as c:  # with the key, the bounds still hold
        r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "discussion_rounds' must be between 0 and 10" in r.json()["error"]
    assert games_in(app) == 0


# ---------------------------------------------------------------------- Host (DNS rebinding)
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil.example:8000", ""])
def test_a_wrong_host_gets_nothing(client, host):
    """A page whose name was rebound to 127.0.0.1 sends its own name as Host: every
    route refuses it, pages and reads included, and the socket handshake fails."""
    for path in ("/", "/api/setup", "/static/start.js"):
        r = client.get(path, headers={"host": host})
        assert r.status_code == 400, (path, host)
    r = client.post("/api/games", json=table(), headers={"host": host})
    assert r.status_code == 400 and "does not answer to the host name" in r.json()["error"]
    with pytest.raises(Exception):
        with client.websocket_connect("/ws/watch/anything", headers={"host": host}):
            pass


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_served(client, host):
    assert client.get("/api/setup", headers={"host": host}).status_code == 200


def test_allowed_hosts_are_the_bound_address_and_the_listed_names(tmp_path):
    p = Policy(bind_host="192.168.1.20", allow_hosts=("arena.example.org",))
    assert p.host_allowed("192.168.1.20:8000") and p.host_allowed("arena.example.org:8000") and p.host_allowed("localhost")
    assert not p.host_allowed("192.168.1.21") and not p.host_allowed("evil.example") and not p.host_allowed("")
    wild = Policy(bind_host="0.0.0.0")
    assert wild.host_allowed("10.0.0.7:8000") and wild.host_allowed("[fe80::1]:8000")  # an address is never rebound
    assert not wild.host_allowed("evil.example:8000")
    app = create_app(tmp_path / "g", restore=False, policy=p)
    with web_client(app) as c:
        assert c.get("/api/setup", headers={"host": "arena.example.org"}).status_code == 200
        assert c.get("/api/setup", headers={"host": "other.example.org"}).status_code == 400


# ---------------------------------------------------------------------- Origin, content type
@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "https://evil.example:8000", "null", "file://"])
def test_a_foreign_origin_cannot_change_anything(client, origin):
    """Starting, answering and stopping are refused from another origin, even with
    the key and a JSON body (a browser would have preflighted, but never trust that)."""
    links = client.post("/api/games", json=table()).json()
    for path, body in (("/api/games", table()), ("/api" + links["host"] + "/stop", {})):
        r = client.post(path, json=body, headers={"origin": origin})
        assert r.status_code == 403 and "another site" in r.json()["error"], (path, origin)
    assert not client.app.state.store.by_host(links["host"].rsplit("/", 1)[1]).over
    with pytest.raises(Exception):
        with client.websocket_connect("/ws" + links["watch"], headers={"origin": origin}):
            pass


def test_the_same_origin_is_served(client):
    r = client.post("/api/games", json=table(), headers={"origin": BASE})
    assert r.status_code == 201
    with client.websocket_connect("/ws" + r.json()["watch"], headers={"origin": BASE}) as ws:
        assert ws.receive_json()  # the socket opens and streams


def test_sec_fetch_site_cross_site_is_refused_without_an_origin(client):
    r = client.post("/api/games", json=table(), headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403


@pytest.mark.parametrize(
    "kind, body",
    [
        ("application/x-www-form-urlencoded", "seats=A"),
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n"),
        ("text/plain", '{"seats": []}'),
        (None, '{"seats": []}'),
    ],
)
def test_a_form_post_or_plain_text_is_refused(client, kind, body):
    headers = {"content-type": kind} if kind else {}
    r = client.post("/api/games", content=body, headers=headers)
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert games_in(client.app) == 0


def test_a_huge_body_is_refused(client):
    r = client.post("/api/games", content=b"[" + b" " * (300 * 1024) + b"]", headers={"content-type": "application/json"})
    assert r.status_code == 413


# ---------------------------------------------------------------------- the host key
def test_starting_a_game_needs_the_host_key(app):
    with web_client(app, key=False) as c:
        r = c.post("/api/games", json=table())
        assert r.status_code == 403 and "X-Werewolf-Key" in r.json()["error"]
        assert c.post("/api/games", json=table(), headers={KEY_HEADER: "wrong"}).status_code == 403
        c.cookies.set(KEY_COOKIE, "wrong")
        assert c.post("/api/games", json=table()).status_code == 403
    assert games_in(app) == 0


def test_the_printed_address_hands_the_key_to_the_browser(app):
    """``/?key=KEY`` sets the same-site cookie and drops the key from the address; the
    browser then starts games with no copy-paste. A wrong key sets nothing."""
    key = app.state.policy.key
    with web_client(app, key=False, follow_redirects=False) as c:
        assert c.get("/?key=wrong").status_code == 403 and KEY_COOKIE not in c.cookies
        r = c.get(f"/?key={key}")
        assert r.status_code == 303 and r.headers["location"] == "/"
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert c.post("/api/games", json=table(), headers={"origin": BASE}).status_code == 201


def test_a_browser_on_this_machine_gets_the_key_from_the_start_page(app, tmp_path):
    """Bound to loopback, a loopback browser needs no key in the address; a client
    from elsewhere, or any client of a server bound to another address, does."""
    with web_client(app, key=False, client=("127.0.0.1", 5000)) as c:
        assert KEY_COOKIE in c.get("/").headers.get("set-cookie", "")
        assert c.post("/api/games", json=table()).status_code == 201
    with web_client(app, key=False, client=("192.168.1.9", 5000)) as c:
        assert "set-cookie" not in c.get("/").headers
        assert c.post("/api/games", json=table()).status_code == 403
    lan = create_app(tmp_path / "lan", restore=False, policy=Policy(bind_host="0.0.0.0"))
    with web_client(lan, key=False, client=("127.0.0.1", 5000)) as c:
        assert "set-cookie" not in c.get("/").headers


def test_reading_needs_no_key_and_answers_keep_their_tokens(client):
    """The key guards starting a game; seats, spectators and the host use their tokens."""
    links = client.post("/api/games", json=table()).json()
    del client.headers[KEY_HEADER]
    assert client.post("/api/games", json=table()).status_code == 403
    assert client.get("/api/setup").status_code == 200
    assert client.get("/api" + links["watch"] + "/state").status_code == 200
    assert client.post("/api" + links["host"] + "/stop", json={}).json() == {"stopped": True}


# ---------------------------------------------------------------------- bounds on the form
@pytest.mark.parametrize(
    "change, words",
    [
        ({"seats": [{"name": f"P{i}"} for i in range(31)]}, "seats: List should have at most 30 items"),
        ({"seats": [{"name": f"P{i}"} for i in range(29)], "preset": "best_of"}, "at most 28"),
        ({"seats": [{"name": "A"}, {"name": "B"}]}, "at least 3"),
        ({"options": {"discussion_rounds": 1000000000}}, "between 0 and 10"),
        ({"options": {"discussion_rounds": 1e9}}, "must be a whole number"),
        ({"options": {"max_days": 100000}}, "'max_days' must be between 1 and 100"),
        ({"options": {"wolf_chat_rounds": -1}}, "between 0 and 10"),
        ({"options": {"vote_changes": 11}}, "between 0 and 10"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": 1e9}, "timeout"),
        ({"pace": 11}, "pace"),
        ({"pace": -1}, "pace"),
        ({"seed": 2**70}, "seed"),
        ({"seed": -1}, "seed"),
        ({"language": "../../x"}, "language"),
        ({"seats": [{"name": "x" * 41}] + [{"name": n} for n in NAMES]}, "name"),
        ({"seats": [{"name": n, "agent": "a" * 300} for n in NAMES]}, "agent"),
    ],
)
def test_out_of_range_options_are_refused_with_a_sentence(client, change, words):
    r = client.post("/api/games", json=table(**change))
    assert r.status_code == 400, r.text
    assert words in r.json()["error"], r.json()["error"]
    assert "\n" not in r.json()["error"] and len(r.json()["error"]) < 600


def test_the_start_form_offers_no_endpoint(client):
    """The start page cannot name a base URL or a key variable: a seat is a name, an
    agent and a role; anything else is an unknown key."""
    for extra in ({"base_url": "http://evil.example"}, {"api_key_env": "HOME"}, {"options": {"base_url": "x"}}):
        seats = [{"name": n, **extra} for n in NAMES]
        r = client.post("/api/games", json=table(seats=seats))
        assert r.status_code == 400 and "unknown key" in r.json()["error"].lower().replace("extra inputs are not permitted", "unknown key")


# ---------------------------------------------------------------------- the serve command
def test_serve_with_a_file_for_transcripts_is_a_clear_error(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    assert main(["serve", "--port", "0", "--transcripts", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --transcripts") and "is a file" in err and err.count("\n") == 1


def test_serve_prints_the_key_and_refuses_a_foreign_host(tmp_path):
    """The real server: the printed address carries the key; the key starts a game;
    a rebound name is refused."""
    import json
    import urllib.error
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "serve", "--port", "0", "--transcripts", str(tmp_path / "web"), "--allow-host", "arena.test"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert "serving on http://127.0.0.1:" in line and "?key=" in line, line
        url = line.split("serving on ", 1)[1].split()[0]
        base, key = url.split("/?key=")
        deadline = time.time() + 10

        def post(headers: dict[str, str]) -> tuple[int, dict]:
            req = urllib.request.Request(base + "/api/games", data=json.dumps(table()).encode(), headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=10) as res:
                    return res.status, json.load(res)
            except urllib.error.HTTPError as e:
                return e.code, json.load(e)

        while True:
            try:
                status, _ = post({"content-type": "application/json"})
                break
            except urllib.error.URLError:
                assert time.time() < deadline
                time.sleep(0.1)
        assert status == 403
        assert post({"content-type": "application/json", "x-werewolf-key": key, "host": "evil.example"})[0] == 400
        assert post({"content-type": "application/json", "x-werewolf-key": key, "host": "arena.test"})[0] == 201
        assert post({"content-type": "application/json", "x-werewolf-key": key})[0] == 201
    finally:
        proc.terminate()
        proc.wait(timeout=15)

"""No traceback on any input (issue 45): each row of the issue's table, run through the
real command, must exit 2 with one sentence naming the file and the line (the web: 400,
never 500); then every subcommand against every kind of malformed input.

A file that never ends (a link to ``/dev/zero``) is read by a command in a process of
its own with its address space capped (``RLIMIT_AS``): before the bounds, such a
command read until the memory ran out, which must not take the test run with it."""

from __future__ import annotations

import gc
import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from arena.persuasion.records import PersuasionFileError, read_records
from arena.web.app import create_app
from transcripts.bounded import MAX_DEPTH, MAX_DIGITS
from web_tools import web_client

ROOT = Path(__file__).resolve().parent.parent
SEATS = [{"name": n, "agent": "heuristic"} for n in ("Alice", "Bob", "Chloe", "David", "Emma", "Farah")]
GAME = {"preset": "millers_hollow", "seed": 3, "options": {"sheriff": False, "discussion_rounds": 1}, "seats": SEATS}
TOURNAMENT = {"name": "t", "games": 2, "seed": 1, "tables": [{"preset": "millers_hollow", "players": 6, "options": {"sheriff": False}}],
              "participants": [{"name": "h", "agent": "heuristic"}, {"name": "r", "agent": "random"}]}  # fmt: skip
HUGE = "1" + "0" * 5000  # 5,001 digits: beyond Python's 4,300 for int() from text


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, err


def refused(capsys, *argv, words: str | tuple[str, ...] = ()) -> str:
    """``argv`` exits 2 with one line on stderr, no traceback, holding every one of ``words``."""
    code, err = run(capsys, *argv)
    assert code == 2, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    assert err.count("\n") == 1 and (err.startswith("error: ") or err.startswith("UNREADABLE ")), err[-2000:]
    for w in (words,) if isinstance(words, str) else words:
        assert w in err, err
    return err


def capped(*argv, seconds: float = 120, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``werewolf argv`` in a process of its own, its address space capped at 3 GiB."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "arena.cli", *map(str, argv)], cwd=ROOT, env=env, preexec_fn=cap,
                       capture_output=True, text=True, timeout=seconds)  # fmt: skip
    return p.returncode, p.stderr


# ---------------------------------------------------------------------- files to read
def game_text(fmt: str, seed: str = "3") -> str:
    if fmt == "json":
        return json.dumps(GAME).replace('"seed": 3', f'"seed": {seed}')
    return yaml.safe_dump(GAME).replace("seed: 3", f"seed: {seed}")


def tournament_text(fmt: str, seed: str = "1") -> str:
    if fmt == "json":
        return json.dumps(TOURNAMENT).replace('"seed": 1', f'"seed": {seed}')
    return yaml.safe_dump(TOURNAMENT).replace("seed: 1", f"seed: {seed}")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("bounds")


@pytest.fixture(scope="module")
def finished(folder) -> Path:
    """A finished game's transcript."""
    g = folder / "g.yaml"
    g.write_text(game_text("yaml"))
    path = folder / "finished.jsonl"
    assert main(["play", str(g), "--transcript", str(path), "--json", "--quiet"]) == 0
    return path


@pytest.fixture(scope="module")
def partial(folder, finished) -> Path:
    """The same game cut half-way, to resume or fork."""
    lines = finished.read_text().splitlines(keepends=True)
    path = folder / "partial.jsonl"
    path.write_text("".join(lines[: len(lines) // 2]))
    return path


def with_line(src: Path, dest: Path, number: int, text: str) -> Path:
    """``src`` with line ``number`` (from 1) replaced by ``text``."""
    lines = src.read_text().splitlines()
    lines[number - 1] = text
    dest.write_text("\n".join(lines) + "\n")
    return dest


def huge_seed_line(src: Path) -> str:
    """``src``'s header with a seed of 5,001 digits."""
    head = src.read_text().splitlines()[0]
    assert '"seed":3' in head
    return head.replace('"seed":3', f'"seed":{HUGE}', 1)


def zero(folder: Path, name: str) -> Path:
    """``name`` in ``folder``: a link to a file that never ends."""
    path = folder / name
    if not path.is_symlink():
        path.symlink_to("/dev/zero")
    return path


# ---------------------------------------------------------------------- the rows
# Row 1: JSON nested 200,000 deep, YAML nested 50,000 deep: play, tournament.
@pytest.mark.parametrize("fmt, depth", [("json", 200_000), ("yaml", 50_000)])
def test_row1_deep_nesting_in_a_game_file(tmp_path, capsys, fmt, depth):
    path = tmp_path / f"deep.{fmt}"
    path.write_text("[" * depth + "]" * depth)
    refused(capsys, "play", path, "--json", "--quiet", words=(str(path), "line 1, column", f"nested deeper than {MAX_DEPTH} levels"))


@pytest.mark.parametrize("fmt, depth", [("json", 200_000), ("yaml", 50_000)])
def test_row1_deep_nesting_in_a_tournament_file(tmp_path, capsys, fmt, depth):
    path = tmp_path / f"deep.{fmt}"
    path.write_text("seed: 1\nname: " + "[" * depth + "]" * depth if fmt == "yaml" else '{"name":\n' + "[" * depth + "]" * depth + "}")
    refused(capsys, "tournament", path, "--db", tmp_path / "t.db", "--plan", words=(str(path), "line 2, column", "nested deeper"))


# Row 2: an integer of 5,001 digits in JSON, YAML or a transcript line.
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_row2_a_huge_number_in_a_game_file(tmp_path, capsys, fmt):
    path = tmp_path / f"g.{fmt}"
    path.write_text(game_text(fmt, HUGE))
    line = 1 if fmt == "json" else 1 + yaml.safe_dump(GAME).splitlines().index("seed: 3")
    refused(capsys, "play", path, "--json", "--quiet", words=(str(path), f"line {line}, column", f"more than {MAX_DIGITS} digits"))


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_row2_a_huge_number_in_a_tournament_file(tmp_path, capsys, fmt):
    path = tmp_path / f"t.{fmt}"
    path.write_text(tournament_text(fmt, HUGE))
    refused(capsys, "tournament", path, "--db", tmp_path / "t.db", "--plan", words=(str(path), "line", f"more than {MAX_DIGITS} digits"))


@pytest.mark.parametrize(
    "command",
    [["play", "--resume", "{}", "--json", "--quiet"], ["fork", "{}", "--day", "1", "--json", "--quiet"], ["metrics", "{}"], ["verify", "{}"],
     ["replay", "{}"], ["export", "--html", "OUT", "{}"], ["export", "--format", "csv", "--out", "OUT", "{}"]],
)  # fmt: skip
@pytest.mark.parametrize("where", ["header", "event"])
def test_row2_a_huge_number_in_a_transcript_line(tmp_path, capsys, partial, command, where):
    if where == "header":
        path = with_line(partial, tmp_path / "t.jsonl", 1, huge_seed_line(partial))
        line = 1
    else:
        second = partial.read_text().splitlines()[1]
        path = with_line(partial, tmp_path / "t.jsonl", 2, second.replace('"seq":0', f'"seq":{HUGE}', 1))
        line = 2
    argv = [str(path) if a == "{}" else str(tmp_path / "out") if a == "OUT" else a for a in command]
    refused(capsys, *argv, words=(str(path), f"line {line}", f"more than {MAX_DIGITS} digits"))


# Row 3: the same number in a JSON body to POST /api/games.
def test_row3_a_huge_number_in_a_request_body_is_400(tmp_path):
    with web_client(create_app(tmp_path / "games", restore=False), raise_server_exceptions=False) as c:
        body = json.dumps({"seed": 3, "seats": SEATS[:5], "pace": 0}).replace('"seed": 3', f'"seed": {HUGE}')
        r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert f"more than {MAX_DIGITS} digits" in r.json()["error"] and "line 1, column" in r.json()["error"]


# Row 4: a file that never ends, as a game file, a transcript, a --key, a tournament's sign_key.
def test_row4_a_game_file_that_never_ends(tmp_path):
    for name in ("zero.yaml", "zero.json"):
        code, err = capped("play", zero(tmp_path, name), "--json", "--quiet")
        assert code == 2 and "Traceback" not in err and "larger than 16 MiB, the most a game file may be" in err, err[-2000:]


def test_row4_a_transcript_that_never_ends(tmp_path):
    path = zero(tmp_path, "zero.jsonl")
    for argv in (["verify", path], ["metrics", path], ["play", "--resume", path, "--quiet"], ["fork", path, "--day", "1", "--quiet"]):
        code, err = capped(*argv)
        assert code == 2 and "Traceback" not in err and "line 1 is longer than 64 MiB" in err, (argv, err[-2000:])


def test_row4_a_key_that_never_ends(tmp_path, finished):
    code, err = capped("verify", finished, "--key", zero(tmp_path, "zero.pub"))
    assert code == 2 and "Traceback" not in err and "larger than 64 KiB, the most a key file may be" in err, err[-2000:]
    g = tmp_path / "g.yaml"
    g.write_text(game_text("yaml"))
    code, err = capped("play", g, "--transcript", tmp_path / "o.jsonl", "--sign-key", zero(tmp_path, "zero.pem"), "--quiet")
    assert code == 2 and "Traceback" not in err and "larger than 64 KiB" in err, err[-2000:]


def test_row4_a_tournament_whose_sign_key_never_ends(tmp_path):
    t = tmp_path / "t.yaml"
    t.write_text(yaml.safe_dump({**TOURNAMENT, "sign_key": str(zero(tmp_path, "zero.pem"))}))
    code, err = capped("tournament", t, "--db", tmp_path / "t.db", "--max-games", "1", "--quiet")
    assert code == 2 and "Traceback" not in err and "larger than 64 KiB" in err, err[-2000:]
    code, err = capped("tournament", zero(tmp_path, "zero.yaml"), "--db", tmp_path / "t2.db", "--plan")
    assert code == 2 and "Traceback" not in err and "larger than 16 MiB, the most a tournament file may be" in err, err[-2000:]


# Row 5: spectators' connections opened and closed on a finished game.
def test_row5_a_closed_connection_releases_what_it_held(tmp_path):
    """Every socket opened on a finished game and closed again leaves nothing behind:
    200 of them keep less than 200 KiB (before: about 37 KiB each, 7 MiB)."""
    body = {"seed": 3, "seats": SEATS[:5], "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}}
    with web_client(create_app(tmp_path / "games")) as c:
        links = c.post("/api/games", json=body).json()
        store = c.app.state.store
        deadline = time.monotonic() + 60
        while links["id"] in store.sessions or c.get("/api" + links["host"] + "/state").json()["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.02)

        def one() -> None:
            with c.websocket_connect("/ws" + links["watch"]) as ws:
                assert ws.receive_json()["type"] == "snapshot"

        for _ in range(5):  # the finished game read from disk, the server's caches warm
            one()
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            for _ in range(200):
                one()
            gc.collect()
            grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
        finally:
            tracemalloc.stop()
    assert grown < 200 * 1024, f"{grown / 1024:.0f} KiB kept by 200 closed connections"


def test_row5_a_spectators_socket_holds_no_compressor(tmp_path):
    """The served sockets decline permessage-deflate, which a browser offers: each socket
    that took it held a zlib compressor of its own (about 41 KiB of C memory, invisible
    to ``tracemalloc``) whose freed holes stayed in the server's heap, 1.1 KiB per
    closed socket (``benchmarks/web_soak.py --connections``)."""
    from websockets.sync.client import connect

    from test_web_browser import create, run_server

    _, base, stop = run_server(tmp_path / "games")
    try:
        links = create(base, seed=3, seats=SEATS[:5], pace=0, options={"sheriff": False, "discussion_rounds": 1})
        with connect("ws" + base.removeprefix("http") + "/ws" + links["watch"], compression="deflate", open_timeout=30) as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "snapshot"
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
            assert ws.protocol.extensions == []
    finally:
        stop()


# ---------------------------------------------------------------------- more of the same, elsewhere
def test_a_database_that_is_no_file(tmp_path, capsys):
    t = tmp_path / "t.yaml"
    t.write_text(yaml.safe_dump(TOURNAMENT))
    db = zero(tmp_path, "zero.db")
    for argv in (["leaderboard", "--db", db], ["tournament", t, "--db", db, "--quiet"]):
        refused(capsys, *argv, words=(str(db), "not a regular file"))
    for argv in (["export", "--format", "csv", "--out", tmp_path / "o", db], ["metrics", db]):  # read as a transcript: not SQLite's bytes
        refused(capsys, *argv, words=(str(db), "line 1 is longer than 64 MiB"))


def test_a_huge_number_in_a_stored_metric(tmp_path, capsys):
    t = tmp_path / "t.yaml"
    t.write_text(yaml.safe_dump(TOURNAMENT))
    db = tmp_path / "t.db"
    assert main(["tournament", str(t), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE seats SET metrics = ?", (json.dumps({"votes": 1}).replace("1", HUGE),))
    refused(capsys, "leaderboard", "--db", db, words=(str(db), f"more than {MAX_DIGITS} digits"))


def test_a_persuasion_file_is_read_within_a_transcripts_bounds(tmp_path):
    """A transcript's persuasion records (``werewolf persuasion``) are a file of lines
    like the transcript: a line that never ends is refused, not read to the end."""
    with pytest.raises(PersuasionFileError, match="line 1 is longer than 64 MiB"):
        read_records(zero(tmp_path, "g.persuasion.ndjson"))
    deep = tmp_path / "deep.persuasion.ndjson"
    deep.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    with pytest.raises(PersuasionFileError, match="line 1: not a persuasion record"):
        read_records(deep)


def test_a_web_servers_folder_of_hostile_game_files(tmp_path, caplog):
    """``serve --transcripts DIR`` reads every ``*.session.json`` there at start: one
    that never ends, nests too deep or holds a huge number is skipped (counted as
    unreadable), and the server starts and serves a game of its own."""
    games = tmp_path / "games"
    games.mkdir()
    zero(games, "web-zero.session.json")
    (games / "web-deep.session.json").write_text('{"format": ' + "[" * 200_000 + "]" * 200_000 + "}")
    (games / "web-huge.session.json").write_text('{"format": "werewolf-web-game", "seed": ' + HUGE + "}")
    with web_client(create_app(games), raise_server_exceptions=False) as c:
        assert c.app.state.store.index.count() == 0
        body = {"seed": 3, "seats": SEATS[:5], "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}}
        assert c.post("/api/games", json=body).status_code == 201
    assert "Traceback" not in caplog.text

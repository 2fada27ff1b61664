"""Remote seats (``a2a:URL``) in whole games, against real A2A servers.

Every agent here is a real A2A server (the official SDK's, in a process of its own on
127.0.0.1: ``a2a_standins``), and the arena's side is the same SDK: nothing of the
protocol is mocked. The example agent (``python -m examples.remote_agent``) plays
sensibly; the stand-ins misbehave on purpose (garbage, 10 MB, slow, another seat's
answer, a crash mid-game), and the games must still finish, with every decision
recorded and every fallback counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from a2a_standins import free_port, records, serving, serving_all

from arena.cli import main
from transcripts import read_transcript
from transcripts.schema import CallRecord

pytest.importorskip("a2a")

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah"]
FAST = {"max_retries": 1, "retry_initial": 0.05, "retry_total": 2.0}


@pytest.fixture(scope="module")
def example() -> Any:
    with serving(module="examples.remote_agent") as url:
        yield url


def game_file(
    tmp_path: Path,
    seats: dict[str, dict[str, Any]],
    *,
    seed: int = 3,
    preset: str = "millers_hollow",
    names: list[str] = NAMES,
    extra: dict | None = None,
    file: str = "game.yaml",
) -> Path:
    """A table of ``names`` (heuristic bots) with ``seats`` overriding some."""
    data = {"preset": preset, "seed": seed, "seats": [{"name": n, "agent": "heuristic", **seats.get(n, {})} for n in names], **(extra or {})}
    p = tmp_path / file
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def play(capsys: Any, path: Path, *args: str) -> tuple[int, dict[str, Any] | None, str, Path]:
    transcript = path.with_suffix(".jsonl")
    code = main(["play", str(path), "--json", "--quiet", "--transcript", str(transcript), *args])
    out, err = capsys.readouterr()
    result = json.loads(out) if code == 0 else None
    return code, result, err, transcript


def calls(transcript: Path) -> list[CallRecord]:
    return [r for r in read_transcript(transcript).records if isinstance(r, CallRecord)]


def decisions_of(records: list[CallRecord], seat: str) -> dict[int, list[CallRecord]]:
    out: dict[int, list[CallRecord]] = {}
    for r in records:
        if r.seat == seat:
            out.setdefault(r.decision, []).append(r)
    return out


# ---------------------------------------------------------------------- whole games
def test_example_agent_plays_whole_games_that_verify(example, tmp_path, capsys):
    path = game_file(tmp_path, {"Alice": {"agent": f"a2a:{example}", "role": "werewolf"}, "Chloe": {"agent": f"a2a:{example}", "role": "seer"},
                                "Emma": {"agent": f"a2a:{example}"}})
    code, result, err, transcript = play(capsys, path)
    assert code == 0, err
    assert result is not None and result["winner"] != "none"
    recs = calls(transcript)
    assert {r.seat for r in recs} <= {"Alice", "Chloe", "Emma"} and len({r.seat for r in recs}) >= 2
    assert all(r.backend == "a2a" and r.model == example and r.mode == "a2a" for r in recs)
    # Every decision the example answered was its own, and legal: no fallback, no re-ask.
    assert all(r.accepted and not r.fallback and r.error is None for r in recs), [r for r in recs if not r.accepted]
    assert main(["verify", str(transcript)]) == 0
    assert "0 fallback" not in capsys.readouterr().err  # (nothing to check: verify printed its own lines)


def test_each_seat_has_its_own_context_and_is_sent_each_event_once(tmp_path, capsys):
    log = tmp_path / "received.jsonl"
    with serving("--record", str(log)) as url:
        seats = {"Bob": {"agent": f"a2a:{url}", "role": "werewolf"}, "David": {"agent": f"a2a:{url}", "role": "seer"}}
        path = game_file(tmp_path, seats, seed=5)  # a wolf and the Seer: both asked every night
        code, result, err, transcript = play(capsys, path)
    assert code == 0, err
    got = records(log)
    by_seat: dict[str, list[dict]] = {}
    for m in got:
        by_seat.setdefault(m["data"]["seat"], []).append(m)
    assert set(by_seat) == {"Bob", "David"}
    game = read_transcript(transcript)
    for seat, msgs in by_seat.items():
        assert len({m["context_id"] for m in msgs}) == 1  # one context per seat and game
        sent = [e["seq"] for m in msgs for e in m["data"]["events"]]
        assert sent == sorted(set(sent))  # each event once, in order
        # ... and together they are exactly what the seat was shown before its last message
        shown = [r.seq for r in game.events if r.audience == "public" or (isinstance(r.audience, list) and seat in r.audience)]
        assert sent == shown[: len(sent)]
        first, later = msgs[0]["texts"][0], [m["texts"][0] for m in msgs[1:]]
        assert "## The rules of this game" in first and not any("## The rules of this game" in t for t in later)
        for m in msgs:
            d = m["data"]
            assert d["protocol"] == "werewolf-arena/decision@1" and d["seat"] == seat
            assert d["decision"]["kind"] and "options" in d["decision"] and d["answer_schema"]["type"] == "object"
            assert 0 < d["time_left_s"] <= 60
    assert len({msgs[0]["context_id"] for msgs in by_seat.values()}) == 2


# ---------------------------------------------------------------------- set-up
def test_an_unreachable_agent_stops_the_game_before_it_starts(tmp_path, capsys):
    dead = f"http://127.0.0.1:{free_port()}"
    path = game_file(tmp_path, {"Bob": {"agent": f"a2a:{dead}"}})
    code, _, err, transcript = play(capsys, path)
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Bob" in lines[0] and dead in lines[0] and "agent card" in lines[0], err
    assert "Traceback" not in err
    assert not transcript.exists() or not any(r.type == "answer" for r in read_transcript(transcript).records)


def test_seat_flag_and_a_missing_token(tmp_path, capsys, monkeypatch, example):
    monkeypatch.delenv("LAB_TOKEN", raising=False)
    path = game_file(tmp_path, {"Bob": {"agent": f"a2a:{example}", "options": {"token_env": "LAB_TOKEN"}}})
    code, _, err, _ = play(capsys, path)
    assert code == 2 and "LAB_TOKEN" in err and "Traceback" not in err
    code, result, err, transcript = play(capsys, game_file(tmp_path, {}), "--seat", f"Farah=a2a:{example}")
    assert code == 0, err
    assert {r.seat for r in calls(transcript)} == {"Farah"}


# ---------------------------------------------------------------------- chaos
def test_misbehaving_agents_cannot_stop_a_game(tmp_path, capsys):
    behave = ["--behave", "Alice=garbage", "--behave", "Bob=huge", "--behave", "Chloe=impostor", "--behave", "David=slow:1.5", "--behave", "Farah=big"]
    behave += ["--behave", "Hugo=fail"]
    with serving_all([behave, ["--behave", "Emma=die:2"]]) as (chaos, mortal):
        # Three wolves, the Seer and the Witch: each is asked on the first night.
        seats = {
            "Alice": {"agent": f"a2a:{chaos}", "role": "werewolf", "options": {"max_reasks": 1}},
            "Bob": {"agent": f"a2a:{chaos}", "role": "werewolf", "options": {"max_reply_bytes": 65536}},
            "Chloe": {"agent": f"a2a:{chaos}", "role": "seer", "options": {"max_reasks": 1}},
            "David": {"agent": f"a2a:{chaos}", "role": "witch", "options": {"decision_timeout": 0.5}},
            "Emma": {"agent": f"a2a:{mortal}", "role": "werewolf", "options": FAST},
            "Farah": {"agent": f"a2a:{chaos}", "role": "hunter", "options": {"max_reply_bytes": 65536}},
            "Hugo": {"agent": f"a2a:{chaos}", "role": "villager", "options": FAST},
        }
        roles = {"roles": ["werewolf"] * 3 + ["seer", "witch", "hunter"] + ["villager"] * 2}
        code, result, err, transcript = play(capsys, game_file(tmp_path, seats, seed=8, names=NAMES + ["Hugo", "Iris"], extra=roles))
    assert code == 0, err
    assert result is not None and result["winner"]
    recs = calls(transcript)
    assert main(["verify", str(transcript)]) == 0  # nothing played is lost: every answer is in the record
    capsys.readouterr()
    for seat, expect in (
        ("Alice", "could not read an answer"),
        ("Bob", "larger than 65,536 bytes (max_reply_bytes"),
        ("Chloe", "this reply is for seat"),
        ("David", "time limit"),
        ("Emma", "cannot be reached"),
        ("Farah", "200,"),  # announced by its length: refused before it is read
        ("Hugo", "InternalError"),  # the agent's code raised: the SDK answers with a JSON-RPC error
    ):
        decisions = {k: rs for k, rs in decisions_of(recs, seat).items() if any(r.messages or r.error for r in rs)}  # asked, not answered alone
        assert decisions, seat
        fallbacks = [rs for rs in decisions.values() if rs[-1].fallback]
        texts = " ".join(str(r.violation or "") + " " + str(r.error or "") for rs in decisions.values() for r in rs)
        assert expect in texts, (seat, texts[:500])
        if seat != "Emma":  # Emma answered until she died
            assert len(fallbacks) == len(decisions), seat  # every decision ended in a fallback, recorded as such
    emma = decisions_of(recs, "Emma")
    assert any(not rs[-1].fallback for rs in emma.values()) and any(rs[-1].fallback for rs in emma.values())
    # a re-ask says why, in the same context, before the fallback
    alice = next(iter(decisions_of(recs, "Alice").values()))
    assert len(alice) == 2 and alice[1].attempt == 2
    assert "refused" in alice[1].messages[0]["parts"][0]["text"]


# ---------------------------------------------------------------------- trust
def test_a_file_may_not_send_a_view_off_this_machine_unless_trusted(tmp_path, monkeypatch):
    from arena.errors import GameFileError
    from arena.gamefile import load_game_file

    monkeypatch.setenv("WEREWOLF_CONFIG", str(tmp_path / "none.yaml"))
    remote = game_file(tmp_path, {"Bob": {"agent": "a2a:https://agents.example.org/werewolf"}}, file="remote.yaml")
    with pytest.raises(GameFileError, match=r"seat 2 \(Bob\) sends its view to the agent at https://agents.example.org/werewolf"):
        load_game_file(remote)
    load_game_file(remote, trust_endpoints=True)
    local_token = game_file(tmp_path, {"Bob": {"agent": "a2a:http://127.0.0.1:9", "options": {"token_env": "HOME"}}})
    with pytest.raises(GameFileError, match=r"token in \$HOME"):
        load_game_file(local_token)
    load_game_file(game_file(tmp_path, {"Bob": {"agent": "a2a:http://localhost:9"}}))  # this machine, no token: fine
    (tmp_path / "config.yaml").write_text(
        "trusted_endpoints:\n  - {base_url: 'https://agents.example.org/werewolf/', api_key_env: LAB}\n", encoding="utf-8"
    )
    monkeypatch.setenv("WEREWOLF_CONFIG", str(tmp_path / "config.yaml"))
    with pytest.raises(GameFileError):  # trusted with the variable LAB, not without it
        load_game_file(remote)
    load_game_file(game_file(tmp_path, {"Bob": {"agent": "a2a:https://agents.example.org/werewolf", "options": {"token_env": "LAB"}}}))


@pytest.mark.parametrize(
    "spec,why",
    [
        ("a2a:", "names no agent address"),
        ("a2a:ftp://x", "http:// or https://"),
        ("a2a:http://user:pw@127.0.0.1:9", "holds credentials"),
        ("a2a:http://127.0.0.1:9/?x=1", "query or fragment"),
    ],
)
def test_bad_addresses_are_refused_with_the_seat_named(tmp_path, capsys, spec, why):
    code, _, err, _ = play(capsys, game_file(tmp_path, {"Chloe": {"agent": spec}}))
    assert code == 2 and "Chloe" in err and why in err and "Traceback" not in err


def test_unknown_option_names_the_allowed_keys(tmp_path, capsys):
    code, _, err, _ = play(capsys, game_file(tmp_path, {"Chloe": {"agent": "a2a:http://127.0.0.1:9", "options": {"temperature": 1}}}))
    assert code == 2 and "unknown key 'temperature'" in err and "token_env" in err


# ---------------------------------------------------------------------- the web form
def test_the_start_form_seats_a_remote_agent(example, tmp_path, monkeypatch):
    import time

    from web_tools import web_client

    from arena.web.app import create_app

    monkeypatch.setenv("WEREWOLF_CONFIG", str(tmp_path / "none.yaml"))
    seats = [{"name": n, "agent": "heuristic"} for n in NAMES]
    seats[1] = {"name": "Bob", "agent": f"a2a:{example}", "role": "werewolf"}
    form = {"seed": 4, "seats": seats, "pace": 0}
    with web_client(create_app(tmp_path / "games")) as client:
        dead = f"http://127.0.0.1:{free_port()}"
        r = client.post("/api/games", json={**form, "seats": [*seats[:2], {"name": "Chloe", "agent": f"a2a:{dead}"}, *seats[3:]]})
        assert r.status_code == 400 and "Chloe" in r.json()["error"] and dead in r.json()["error"]
        r = client.post("/api/games", json={**form, "seats": [*seats[:2], {"name": "Chloe", "agent": "a2a:https://agents.example.org"}, *seats[3:]]})
        assert r.status_code == 400 and "trusted_endpoints" in r.json()["error"]
        assert not list((tmp_path / "games").glob("*.jsonl"))  # nothing was written for a refused table
        r = client.post("/api/games", json=form)
        assert r.status_code == 201, r.text
        watch = r.json()["watch"]
        deadline = time.time() + 60
        while client.get("/api" + watch + "/state").json().get("status") == "running" and time.time() < deadline:
            time.sleep(0.1)
        assert client.get("/api" + watch + "/state").json()["status"] == "over"
    (transcript,) = (tmp_path / "games").glob("*.jsonl")
    bob = [r for r in calls(transcript) if r.seat == "Bob"]
    assert bob and all(r.backend == "a2a" and r.accepted for r in bob)

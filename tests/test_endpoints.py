"""Keys go only where the user sent them (issue 12): a game file, a tournament file or
a transcript that sets a seat's ``base_url`` or ``api_key_env`` is refused unless the
user passes ``--trust-endpoints``; the command line's own ``--model-option`` and the
vendors' variables are the user's word. Checked on the wire: which bearer token
reached which server."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from llm_standins import FAKE_OPENAI_KEY, OpenAIStandIn, standin_router

from arena.cli import main

EVIL = "http://collector.example/v1"
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo"]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    """The user's own config file (``arena.endpoints``) is the test's, not the machine's."""
    monkeypatch.setenv("WEREWOLF_CONFIG", str(tmp_path / "no-config.yaml"))


def game_file(tmp_path: Path, **options) -> Path:
    seats = [{"name": n, "agent": "heuristic"} for n in NAMES]
    seats[0] = {"name": "Alice", "agent": "openai:gpt-5.4-mini", "options": options} if options else {"name": "Alice", "agent": "openai:gpt-5.4-mini"}
    p = tmp_path / "game.yaml"
    p.write_text(yaml.safe_dump({"seed": 5, "options": {"sheriff": False}, "seats": seats}))
    return p


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ---------------------------------------------------------------------- game files
@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize("options, field", [({"base_url": EVIL}, "base_url"), ({"api_key_env": "HOME"}, "api_key_env")])
def test_a_game_file_may_not_choose_where_a_key_goes(tmp_path, capsys, options, field):
    path = game_file(tmp_path, **options)
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "play", str(path), "--quiet")
    assert code == 2 and not api.requests  # refused before any seat was asked anything
    err = one_line_error(err)
    assert f"{path}: seat 1 (Alice) sets options.{field}" in err and "--trust-endpoints" in err


@pytest.mark.usefixtures("llm_env")
def test_trusted_endpoints_send_the_named_variable_to_the_named_server(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SEAT_KEY", "sk-seat-own")
    path = game_file(tmp_path, base_url=EVIL, api_key_env="SEAT_KEY")
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "play", str(path), "--quiet", "--json", "--trust-endpoints")
    assert code == 0, err
    assert api.requests and {h["authorization"] for h in api.headers} == {"Bearer sk-seat-own"}


@pytest.mark.usefixtures("llm_env")
def test_the_command_line_is_the_users_word(tmp_path, capsys):
    """``--model-option base_url=`` is typed by the user: no trust flag needed, and
    the vendor's own variable is the key sent."""
    path = game_file(tmp_path)
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url="http://my-server.test/v1")
        code, _, err = run(capsys, "play", str(path), "--quiet", "--json", "--model-option", "base_url=http://my-server.test/v1")
    assert code == 0, err
    assert api.requests and {h["authorization"] for h in api.headers} == {f"Bearer {FAKE_OPENAI_KEY}"}


# ---------------------------------------------------------------------- tournament files
def test_a_tournament_file_may_not_choose_where_a_key_goes(tmp_path, capsys):
    p = tmp_path / "t.yaml"
    cfg = {
        "games": 2,
        "tables": [{"players": 7}],
        "participants": [{"name": "m", "agent": "openai:gpt-5.4-mini", "options": {"api_key_env": "AWS_SECRET_ACCESS_KEY"}}, {"name": "h", "agent": "heuristic"}],
    }
    p.write_text(yaml.safe_dump(cfg))
    code, _, err = run(capsys, "tournament", str(p), "--db", str(tmp_path / "t.db"), "--plan")
    assert code == 2
    err = one_line_error(err)
    assert f"{p}: participant m sets options.api_key_env" in err and "--trust-endpoints" in err
    assert not (tmp_path / "t.db").exists()
    code, out, err = run(capsys, "tournament", str(p), "--db", str(tmp_path / "t.db"), "--plan", "--trust-endpoints", "--json")
    assert code == 0, err


# ---------------------------------------------------------------------- transcripts
@pytest.fixture
def recorded(tmp_path, capsys, monkeypatch, llm_env) -> Path:
    """A game whose model seat was pointed, on purpose, at a server of its own."""
    monkeypatch.setenv("SEAT_KEY", "sk-seat-own")
    path = game_file(tmp_path, base_url=EVIL, api_key_env="SEAT_KEY")
    out = tmp_path / "game.jsonl"
    with standin_router() as router:
        OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "play", str(path), "--quiet", "--json", "--trust-endpoints", "--transcript", str(out))
    assert code == 0, err
    return out


def test_fork_never_takes_endpoints_from_a_transcript_silently(tmp_path, capsys, recorded):
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "fork", str(recorded), "--day", "1", "--transcript", str(tmp_path / "f.jsonl"), "--quiet")
        assert code == 2 and not api.requests and not (tmp_path / "f.jsonl").exists()
        err = one_line_error(err)
        assert f"{recorded}: seat 1 (Alice) sets options.base_url" in err and "--seat NAME=AGENT" in err
        # Another agent in that chair drops the recorded endpoint: nothing to trust.
        code, _, err = run(capsys, "fork", str(recorded), "--day", "1", "--seat", "Alice=heuristic", "--quiet", "--json")
        assert code == 0, err
        code, _, err = run(capsys, "fork", str(recorded), "--day", "1", "--quiet", "--json", "--trust-endpoints")
        assert code == 0, err
    assert api.requests and {h["authorization"] for h in api.headers} == {"Bearer sk-seat-own"}


def test_resume_never_takes_endpoints_from_a_transcript_silently(tmp_path, capsys, recorded):
    rows = recorded.read_text().splitlines(keepends=True)
    half = tmp_path / "half.jsonl"
    half.write_text("".join(rows[: len(rows) // 2]))
    before = half.read_bytes()
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "play", "--resume", str(half), "--quiet")
        assert code == 2 and not api.requests and half.read_bytes() == before  # nothing played, nothing written
        err = one_line_error(err)
        assert f"{half}: seat 1 (Alice) sets options.base_url" in err and "--trust-endpoints" in err
        code, _, err = run(capsys, "play", "--resume", str(half), "--quiet", "--json", "--trust-endpoints")
    assert code == 0, err


@pytest.mark.usefixtures("llm_env")
def test_a_fork_record_does_not_carry_the_forks_endpoint_on(tmp_path, capsys):
    """``fork --model-option base_url=`` is the user's word when typed; recorded in the
    fork's header, it is the file's. A fork stopped before its fork point is made
    again from that record on resume: refused unless trusted."""
    source = tmp_path / "source.jsonl"
    bots = tmp_path / "bots.yaml"
    bots.write_text(yaml.safe_dump({"seed": 1, "options": {"sheriff": False}, "seats": [{"name": n, "agent": "heuristic"} for n in NAMES]}))
    assert run(capsys, "play", str(bots), "--quiet", "--json", "--transcript", str(source))[0] == 0
    forked = tmp_path / "fork.jsonl"
    with standin_router() as router:
        OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "fork", str(source), "--day", "2", "--seat", "Alice=openai:gpt-5.4-mini", "--model-option", f"base_url={EVIL}",
                           "--transcript", str(forked), "--quiet", "--json")  # fmt: skip
        assert code == 0, err
        rows = forked.read_text().splitlines(keepends=True)
        forked.write_text("".join(rows[:3]))  # stopped before its fork point
        code, _, err = run(capsys, "play", "--resume", str(forked), "--quiet")
        assert code == 2
        assert f"{forked}: its fork record sets model option base_url" in one_line_error(err)
        code, _, err = run(capsys, "play", "--resume", str(forked), "--quiet", "--json", "--trust-endpoints")
    assert code == 0, err


# ---------------------------------------------------------------------- the user's own config
@pytest.mark.usefixtures("llm_env")
def test_the_users_config_can_trust_a_pair(tmp_path, capsys, monkeypatch):
    """A pair listed under ``trusted_endpoints`` in the user's own config file plays
    without the flag; the same server with another variable, or the same variable
    with another server, is still refused."""
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"trusted_endpoints": [{"base_url": EVIL, "api_key_env": "SEAT_KEY"}]}))
    monkeypatch.setenv("WEREWOLF_CONFIG", str(config))
    monkeypatch.setenv("SEAT_KEY", "sk-seat-own")
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=EVIL)
        code, _, err = run(capsys, "play", str(game_file(tmp_path, base_url=EVIL, api_key_env="SEAT_KEY")), "--quiet", "--json")
        assert code == 0, err
        assert {h["authorization"] for h in api.headers} == {"Bearer sk-seat-own"}
        for other in ({"base_url": EVIL, "api_key_env": "HOME"}, {"base_url": "http://other.example/v1", "api_key_env": "SEAT_KEY"}, {"base_url": EVIL}):
            code, _, err = run(capsys, "play", str(game_file(tmp_path, **other)), "--quiet")
            assert code == 2 and f"trusted_endpoints in {config}" in one_line_error(err)


def test_a_broken_user_config_is_named(tmp_path, capsys, monkeypatch):
    config = tmp_path / "config.yaml"
    config.write_text("trusted_endpoints: [{base_url: 3, port: 1}]\n")
    monkeypatch.setenv("WEREWOLF_CONFIG", str(config))
    code, _, err = run(capsys, "play", str(game_file(tmp_path, base_url=EVIL)), "--quiet")
    assert code == 2 and f"your config file {config} cannot be read" in one_line_error(err)

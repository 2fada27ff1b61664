"""``werewolf --log-level``: the project's log lines, and what they must never hold (a
key, a role, a night action, a prompt, a private reasoning)."""

from __future__ import annotations

import logging

import pytest
import yaml

from arena.cli import main
from arena.logs import configure
from engine.roles import ROLES
from llm_standins import FAKE_OPENAI_KEY, OpenAIStandIn, Status, reset_llm_state, set_fake_keys, standin_router

# Decision kinds that tell who holds which card (asked at night, or of one role).
PUBLIC_KINDS = {"speak", "vote", "sheriff_vote", "sheriff_successor", "sheriff_tiebreak", "vote_change"}


@pytest.fixture(autouse=True)
def _restore_levels():
    yield
    configure("warning")


def test_debug_logs_name_no_key_and_no_hidden_fact(tmp_path, monkeypatch, capsys):
    set_fake_keys(monkeypatch)
    reset_llm_state()
    seats = [{"name": n, "agent": "heuristic"} for n in ("Ann", "Bo", "Cy", "Di", "Ed")]
    seats[0] = {"name": "Ann", "agent": "openai:gpt-5.4-mini", "options": {"max_retries": 2, "retry_initial": 0, "timeout": 5}}
    game = tmp_path / "g.yaml"
    game.write_text(yaml.safe_dump({"preset": "millers_hollow", "seed": 3, "roles": ["seer", "werewolf", "villager", "villager", "villager"],
                                    "options": {"sheriff": False}, "seats": seats}))  # fmt: skip
    try:
        with standin_router() as router:
            api = OpenAIStandIn(router)
            # A server that quotes the key back in its error: the retry's log line carries it.
            api.push(Status(429, {"retry-after": "0"}, f"slow down, key {FAKE_OPENAI_KEY}"))
            code = main(["--log-level", "debug", "play", str(game), "--transcript", str(tmp_path / "g.jsonl"), "--json"])
    finally:
        reset_llm_state()
    assert code == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if " werewolf." in line]
    assert any("transient failure, retry 1" in line for line in lines)  # the project logged at INFO
    assert FAKE_OPENAI_KEY not in err and "key [redacted]" in err  # scrubbed, tracebacks and all
    secret_kinds = {k for r in ROLES.values() for k in r.decisions} - PUBLIC_KINDS
    for line in lines:
        for kind in secret_kinds:
            assert kind not in line, line
        assert "Your card is" not in line and "reasoning" not in line
    # Third-party loggers stay quiet: the OpenAI SDK logs whole prompts at DEBUG.
    assert logging.getLogger("openai").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("werewolf").getEffectiveLevel() == logging.DEBUG


def test_a_log_line_with_a_key_is_scrubbed(monkeypatch, capsys):
    monkeypatch.setenv("SOME_PROVIDER_API_KEY", "prov-1234567890abcdef")
    configure("info")
    log = logging.getLogger("werewolf.test")
    log.info("calling with %s", "prov-1234567890abcdef")
    fake = "sk-" + "abcdefghijklmnopqrstuvwx"  # built here, so no key-shaped string is committed
    try:
        raise RuntimeError(f"auth failed for {fake}")
    except RuntimeError:
        log.exception("failed")
    err = capsys.readouterr().err
    assert "prov-1234567890abcdef" not in err and fake not in err
    assert err.count("[redacted]") >= 2


def test_the_level_flag_is_checked(capsys):
    assert main(["--log-level", "loud", "roles"]) == 2  # a bad argument is one line and exit 2, not SystemExit
    assert "invalid choice" in capsys.readouterr().err
    assert main(["--log-level", "INFO", "roles"]) == 0
    with pytest.raises(ValueError, match="log level must be one of"):
        configure("loud")

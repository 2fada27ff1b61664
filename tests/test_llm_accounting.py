"""Accounting: prices, per-seat totals, call records in the transcript, the closing
table of ``werewolf play``, and keys that never reach a record or a log."""

from __future__ import annotations

import json
import logging

import pytest
from llm_standins import (
    FAKE_ANTHROPIC_KEY,
    FAKE_OPENAI_KEY,
    NAMES,
    AnthropicStandIn,
    OpenAIStandIn,
    Reply,
    Status,
    asks_a_move,
    standin_router,
)

from agents.llm.accounting import CallLog, CallRecord, redact, summarize
from agents.llm.pricing import ModelPrice, PriceError, PriceTable, load_prices
from arena.cli import main
from arena.gamefile import GameFileError, spec_from_data
from transcripts.schema import read_transcript


pytestmark = pytest.mark.usefixtures("llm_env")


# ---------------------------------------------------------------------- prices
def test_prices_per_million_tokens_with_cache_rates():
    p = ModelPrice(input=3.0, output=15.0, cached_input=0.3, cache_write=3.75)
    # 1M prompt tokens of which 600k read from cache and 100k written; 10k out.
    assert p.cost(input_tokens=1_000_000, output_tokens=10_000, cached_tokens=600_000, cache_write_tokens=100_000) == pytest.approx(
        0.3 * 3.0 + 0.6 * 0.3 + 0.1 * 3.75 + 0.01 * 15.0
    )


def test_lookup_exact_snapshot_router_and_backend_specific():
    t = PriceTable({"openai:llama3": ModelPrice(input=0, output=0)})
    assert t.lookup("gpt-5.4-mini-2026-03-17") == t.prices["gpt-5.4-mini"]  # dated snapshot
    assert t.lookup("gpt-5.4-2026-03-05") == t.prices["gpt-5.4"]  # not gpt-5.4-mini
    assert t.lookup("claude-haiku-4-5-20251001") == t.prices["claude-haiku-4-5"]
    assert t.lookup("claude-opus-5-5-latest") == t.prices["claude-opus-5-5"] != t.prices["claude-opus-5"]
    # A later version is not a snapshot of an earlier one: unknown, not mispriced.
    assert t.lookup("claude-opus-5-6") is None and t.lookup("gpt-5.4-mini-search") is None
    assert t.lookup("claude-sonnet-4-5") is None and t.lookup("o4-mini") is None  # retired: out of the table
    assert t.lookup("openai/gpt-5.4-mini") == t.prices["gpt-5.4-mini"]  # router naming
    assert t.lookup("llama3", "openai") is not None and t.lookup("llama3", "anthropic") is None
    assert t.cost("my-local-model", "openai", input_tokens=10, output_tokens=10) is None  # unknown: no guess


def test_user_price_file_overrides_and_errors(tmp_path):
    f = tmp_path / "prices.yaml"
    f.write_text("gpt-5.4-mini: {input: 1.0, output: 2.0}\nmy-model: {input: 0.1, output: 0.2, cached_input: 0.01}\n")
    t = PriceTable.from_file(f)
    assert t.lookup("gpt-5.4-mini").input == 1.0 and t.lookup("my-model").cached_input == 0.01
    assert t.lookup("claude-haiku-4-5-20251001") is not None  # built-ins remain
    j = tmp_path / "p.json"
    j.write_text(json.dumps({"models": {"x": {"input": 1, "output": 1}}}))
    assert "x" in load_prices(j)
    bad = tmp_path / "bad.yaml"
    bad.write_text("gpt-5.4-mini: {input: 1.0, outptu: 2.0}\n")
    with pytest.raises(PriceError, match="gpt-5.4-mini"):
        load_prices(bad)
    with pytest.raises(PriceError, match="cannot read"):
        load_prices(tmp_path / "missing.yaml")


# ---------------------------------------------------------------------- records
def rec(**kw) -> CallRecord:
    base = dict(seat="Alice", decision=1, kind="vote", backend="openai", model="gpt-5.4-mini", messages=[{"role": "user", "content": "x"}])
    return CallRecord(**{**base, **kw})


def test_summary_per_seat():
    rows = summarize(
        [
            rec(input_tokens=100, output_tokens=10, cached_tokens=50, cost_usd=0.001, price_known=True, accepted=True),
            rec(input_tokens=100, output_tokens=10, violation="dead", cost_usd=0.001, price_known=True),
            rec(input_tokens=100, output_tokens=10, violation="dead", fallback=True, cost_usd=0.001, price_known=True, retries=2),
            rec(seat="Bob", model="local", input_tokens=5, output_tokens=5, cost_usd=None),
            rec(seat="Bob", model="local", messages=[], error="not asked: HTTP 401", fallback=True),
        ]
    )
    alice, bob = rows
    assert (alice.calls, alice.input_tokens, alice.cached_tokens, alice.violations, alice.fallbacks, alice.retries) == (3, 300, 50, 2, 1, 2)
    assert alice.cost_usd == pytest.approx(0.003)
    assert bob.calls == 1 and bob.cost_usd is None and bob.fallbacks == 1 and bob.errors == 1


def test_redaction_of_env_secrets_and_key_shapes(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok_abcdefgh12345")
    value = {"a": [f"key {FAKE_OPENAI_KEY} here", "tok_abcdefgh12345", "sk-proj-ABCDEF123456", "sk-ab***wxyz"], "b": 3}
    out = json.dumps(redact(value))
    for secret in (FAKE_OPENAI_KEY, "tok_abcdefgh12345", "sk-proj-ABCDEF123456", "sk-ab***wxyz"):
        assert secret not in out
    assert '"b": 3' in out



@pytest.mark.parametrize(
    "value",
    [
        {"messages": [{"text": "a clean message", "data": {"events": [{"seq": 1, "text": "Alice speaks."}], "n": 3.5}}]},
        {"reply": "Bearer\tabcdefgh12345"},  # a key shape across a character JSON escapes
        {"reply": "sk-ab***wxyz"},
        {"reply": "\ud800 an unpaired surrogate"},
        {"reply": "tok\nwith a line break"},  # a secret JSON escapes
        [("a tuple", "tok_abcdefgh12345")],
        {"reply": "written as task-1"},  # looks like a key's start, is none
    ],
)
def test_redaction_reads_whole_records_as_it_reads_each_string(monkeypatch, value):
    """``redact``'s shortcut (the record read as one JSON text, returned untouched when
    nothing in it can change) gives what the string-by-string walk gives."""
    from agents.llm.accounting import _redact, secret_values

    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok_abcdefgh12345")
    monkeypatch.setenv("OTHER_SECRET", "tok\nwith a line")
    secrets = secret_values()
    assert json.dumps(redact(value)) == json.dumps(_redact(value, secrets))


def test_call_log_scrubs_and_notifies():
    log = CallLog()
    seen = []
    log.subscribe(seen.append)
    log.add_secret("a-key-given-in-code")
    log.add(rec(error="401: a-key-given-in-code is wrong", reply=f"{FAKE_ANTHROPIC_KEY}"))
    assert seen == log.records
    dumped = log.records[0].model_dump_json()
    assert "a-key-given-in-code" not in dumped and FAKE_ANTHROPIC_KEY not in dumped


# ---------------------------------------------------------------------- game files
def test_seat_options_are_checked_and_named():
    data = {"seats": [{"name": n, "agent": "openai:gpt-5.4-mini", "options": {"temperature": 0.2}} for n in NAMES]}
    spec = spec_from_data(data)
    assert spec.seats[0].options.temperature == 0.2 and spec.seats[0].options.public() == {"temperature": 0.2}
    data["seats"][2]["options"] = {"temprature": 0.2}
    with pytest.raises(GameFileError, match=r"unknown key 'temprature' in seat 3 \(Chloe\), at options.*allowed: temperature"):
        spec_from_data(data)
    data["seats"][2] = {"name": "Chloe", "agent": "heuristic", "options": {"temperature": 0.2}}
    with pytest.raises(GameFileError, match="only model seats"):
        spec_from_data(data)
    with pytest.raises(GameFileError, match="language 'fr'"):
        spec_from_data({"language": "fr", "seats": [{"name": n, "agent": "openai:gpt-5.4-mini"} for n in NAMES]})


def test_keyless_game_file_names_the_seat_and_the_variable(monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY")
    spec = spec_from_data({"seats": [{"name": n, "agent": "openai:gpt-5.4-mini"} for n in NAMES]})
    with pytest.raises(GameFileError, match="Alice: openai:gpt-5.4-mini needs an API key: set OPENAI_API_KEY"):
        spec.build()
    f = tmp_path / "g.yaml"
    f.write_text("seats:\n" + "".join(f"  - {{name: {n}, agent: 'openai:gpt-5.4-mini'}}\n" for n in NAMES))
    assert main(["play", str(f), "--quiet"]) == 2


def test_keyless_cli_seat_override(monkeypatch, capsys):
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    assert main(["play", "--seat", "Bob=anthropic:claude-haiku-4-5", "--quiet"]) == 2
    assert "set ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_bad_seat_override_names_the_seats(capsys):
    assert main(["play", "--seat", "Zoe=openai:gpt-5.4-mini", "--quiet"]) == 2
    assert "no seat named 'Zoe'" in capsys.readouterr().err


# ---------------------------------------------------------------------- werewolf play
def test_play_with_model_seats_writes_call_records_and_a_summary(tmp_path, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    game = tmp_path / "game.yaml"
    prices = tmp_path / "prices.yaml"
    prices.write_text("claude-haiku-4-5: {input: 1.0, output: 5.0, cached_input: 0.1, cache_write: 1.25}\n")
    seats = "".join(f"  - {{name: {n}, agent: heuristic}}\n" for n in NAMES[4:])
    game.write_text(
        "seed: 3\nprices: prices.yaml\nseats:\n"
        "  - {name: Alice, agent: 'openai:gpt-5.4-mini', options: {temperature: 0.5, display_name: mini, retry_initial: 0.001}}\n"
        "  - {name: Bob, agent: 'openai:gpt-5.4-mini', options: {retry_initial: 0.001}}\n"
        "  - {name: Chloe, agent: heuristic}\n"
        "  - {name: David, agent: heuristic}\n" + seats
    )
    transcript = tmp_path / "t.jsonl"
    with standin_router() as router:
        oa = OpenAIStandIn(router)
        an = AnthropicStandIn(router, cache_min=64)
        oa.push(Status(429, {"retry-after": "0"}))
        oa.push(Status(401, message=f"Incorrect API key provided: {FAKE_OPENAI_KEY}"), when=lambda b: "You are Bob " in b["messages"][0]["content"])
        an.push(Reply('{"action": "Nobody-Here"}'), when=asks_a_move)
        code = main(
            ["play", str(game), "--json", "--transcript", str(transcript), "--seat", "Chloe=anthropic:claude-haiku-4-5", "--model-option", "retry_initial=0.001"]
        )
    out, err = capsys.readouterr()
    assert code == 0
    result = json.loads(out)  # stdout holds exactly the result
    assert result["winner"] in ("village", "werewolves")
    assert "Model seats" in err and "mini" in err and "Chloe" in err and "Estimated cost: $" in err

    t = read_transcript(transcript)
    assert t.complete
    seats = {s.name: s for s in t.header.seats}
    assert seats["Chloe"].agent == "anthropic:claude-haiku-4-5"
    assert seats["Alice"].options == {"temperature": 0.5, "display_name": "mini", "retry_initial": 0.001}
    calls = t.calls
    assert {c.seat for c in calls} == {"Alice", "Bob", "Chloe"}
    assert sum(c.retries for c in calls) == 1
    assert any(c.violation for c in calls if c.seat == "Chloe")
    bob = [c for c in calls if c.seat == "Bob"]
    assert "HTTP 401" in bob[0].error and all(c.fallback for c in bob)
    assert all(not c.messages for c in bob[1:])  # never asked again after the 401
    assert sum("You are Bob " in b["messages"][0]["content"] for b in oa.requests) == 1
    chloe = [c for c in calls if c.seat == "Chloe"]
    assert sum(c.cached_tokens or 0 for c in chloe) > 0 and all(c.cost_usd is not None for c in chloe if c.messages)
    assert all(c.display_name == "mini" for c in calls if c.seat == "Alice")
    # Every model answer in the transcript is the one the call log says was played.
    played = {c.decision: c.answer for c in calls if c.accepted or c.fallback}
    answers = {a.decision: a.answer for a in t.answers}
    for decision, answer in played.items():
        assert answers[decision] == answer

    # The keys were sent (the servers saw them) but were written nowhere.
    assert any(FAKE_OPENAI_KEY in h.get("authorization", "") for h in oa.headers)
    text = transcript.read_text()
    for key in (FAKE_OPENAI_KEY, FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY[3:], FAKE_ANTHROPIC_KEY[7:]):
        assert key not in text
        assert key not in err and key not in out
        assert key not in caplog.text


def test_play_default_table_of_models_with_agents_flag(capsys, tmp_path):
    transcript = tmp_path / "t.jsonl"
    with standin_router() as router:
        api = OpenAIStandIn(router)
        code = main(["play", "--agents", "openai:gpt-5.4-mini", "--quiet", "--transcript", str(transcript), "--concurrency", "4", "--language", "zh"])
    assert code == 0
    assert api.peak_in_flight <= 4
    t = read_transcript(transcript)
    assert t.header.language == "zh" and len({c.seat for c in t.calls}) == 8
    assert "狼" in api.requests[0]["messages"][0]["content"]  # the Chinese prompts
    assert "Model seats" not in capsys.readouterr().err  # --quiet: no table either


def test_play_caps_the_calls_per_model(capsys):
    with standin_router() as router:
        api = OpenAIStandIn(router, latency=0.02)
        assert main(["play", "--agents", "openai:gpt-5.4-mini", "--quiet", "--model-concurrency", "2"]) == 0
    assert api.peak_in_flight == 2  # a batch of eight votes, two at a time


@pytest.mark.parametrize("flag", ["--concurrency", "--model-concurrency"])
def test_concurrency_caps_must_be_positive(capsys, flag):
    assert main(["play", "--agents", "openai:gpt-5.4-mini", "--quiet", flag, "0"]) == 2
    assert f"{flag} needs a positive number" in capsys.readouterr().err


def test_reasoning_tokens_are_recorded_shown_and_measured(tmp_path, capsys):
    """A reasoning model's hidden tokens: in each call record, in the closing table, in
    ``metrics`` (per seat, per game, per agent) and in the exported calls; priced as
    the output they are part of."""
    from arena.export.rows import _call
    from arena.metrics.game import game_metrics
    from arena.metrics.load import load_transcript

    game = tmp_path / "game.yaml"
    seats = "".join(f"  - {{name: {n}, agent: heuristic}}\n" for n in NAMES[2:])
    game.write_text(
        "seed: 4\nseats:\n"
        "  - {name: Alice, agent: 'openai:gpt-5.4-mini', options: {reasoning_effort: low, retry_initial: 0.001}}\n"
        "  - {name: Bob, agent: 'openai:gpt-5.4-mini', options: {reasoning_effort: low, retry_initial: 0.001}}\n" + seats
    )
    transcript = tmp_path / "t.jsonl"
    with standin_router() as router:
        OpenAIStandIn(router).reasoning_tokens = 23
        assert main(["play", str(game), "--json", "--transcript", str(transcript)]) == 0
    err = capsys.readouterr().err
    assert "reasoning" in err and "hidden reasoning within out" in err
    calls = [c for c in read_transcript(transcript).calls if c.messages]
    assert calls and all(c.reasoning_tokens == 23 and c.output_tokens > 23 for c in calls)
    m = game_metrics(load_transcript(transcript))
    for seat in ("Alice", "Bob"):
        n = sum(1 for c in calls if c.seat == seat)
        assert m["seats"][seat]["reasoning_tokens"] == 23 * n == m["cost"]["seats"][seat]["reasoning_tokens"]
    assert m["cost"]["total"]["reasoning_tokens"] == 23 * len(calls)
    assert main(["metrics", str(transcript)]) == 0
    assert "reasoning" in capsys.readouterr().out
    assert _call(calls[0].model_dump(), "g", {})["reasoning_tokens"] == 23

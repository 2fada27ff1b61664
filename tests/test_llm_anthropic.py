"""The Anthropic back end: the real ``anthropic`` client against a local stand-in of the
Messages API (respx): forced tool use, cache breakpoints, errors, a whole game."""

from __future__ import annotations

import json
from functools import partial

import httpx
import pytest
from llm_standins import FAKE_ANTHROPIC_KEY, NAMES, AnthropicStandIn, Raise, Reply, SleepRecorder, Status, ask, game_at, model_seat
from llm_standins import assert_every_asked_seat_recorded, model_game, standin_fixture

from agents.llm.accounting import CallLog
from agents.llm.config import LLMOptions
from arena.runner import view_for

MODEL = "anthropic:claude-haiku-4-5"
pytestmark = pytest.mark.usefixtures("llm_env")

api = standin_fixture(AnthropicStandIn, cache_min=64)
seat = partial(model_seat, MODEL)


async def test_forced_tool_use_with_cache_breakpoints(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    answer = await ask(seat(d, log, max_tokens=300, temperature=0.7), game, d)
    d.validate(answer)
    body = api.requests[0]
    h = api.headers[0]
    assert FAKE_ANTHROPIC_KEY in (h.get("x-api-key"), h.get("authorization", "").removeprefix("Bearer "))
    assert body["max_tokens"] == min(300, LLMOptions().budget("choice")) and body["temperature"] == 0.7  # a vote's budget and body["model"] == "claude-haiku-4-5"
    # The cache layout: the game's one tool, forced the same way in every call.
    assert body["tool_choice"] == {"type": "tool", "name": "answer"}
    assert body["tools"][0]["input_schema"]["properties"]["action"]["anyOf"]
    fields = json.loads(body["messages"][0]["content"][-1]["text"].rsplit(": ", 1)[1])
    assert fields["properties"]["action"]["enum"][:-1] == list(d.options)
    # Breakpoints: the end of the system part every seat shares, the end of the history.
    shared, own = body["system"]
    assert shared["cache_control"] == {"type": "ephemeral"} and "cache_control" not in own
    assert f"You are {d.seat} " in own["text"] and f"You are {d.seat} " not in shared["text"]
    (user,) = body["messages"]
    assert user["role"] == "user"
    *history, question = user["content"]
    assert history and history[-1]["cache_control"] == {"type": "ephemeral"}  # end of the history
    assert "cache_control" not in question and question["text"] != ""
    (rec,) = log.records
    assert rec.mode == "tool" and rec.accepted and rec.parsed["action"] == answer
    assert rec.cache_write_tokens > 0 and rec.cached_tokens == 0
    assert rec.input_tokens == api.responses[0]["usage"]["input_tokens"] + rec.cache_write_tokens  # the whole prompt


async def test_each_call_reads_the_previous_calls_cache(api):
    """History blocks, once sent, are re-sent byte-identical, so the previous request's
    breakpoint is a block boundary of the next one and its cache is read."""
    log = CallLog()
    await model_game(MODEL, 8, log)
    by_seat: dict[str, list[list[dict]]] = {}
    for body in api.requests:
        by_seat.setdefault(body["system"][1]["text"], []).append(body["messages"][0]["content"][:-1])
    for histories in by_seat.values():
        for earlier, later in zip(histories, histories[1:]):
            strip = [{"type": b["type"], "text": b["text"]} for b in earlier]
            assert [{"type": b["type"], "text": b["text"]} for b in later[: len(earlier)]] == strip
            assert sum("cache_control" in b for b in later) == 1 and "cache_control" in later[-1]
    for seat_name in NAMES:
        calls = [r for r in log.records if r.seat == seat_name]
        assert all(r.cached_tokens > 0 for r in calls[1:])  # from the second call on


async def test_refused_tool_call_is_answered_with_an_error_tool_result(api):
    game, d = game_at("vote", after_death=True)
    dead = next(iter(view_for(game, d.seat).dead))
    log = CallLog()
    api.push(Reply(json.dumps({"reasoning": "", "action": dead})))
    answer = await ask(seat(d, log), game, d)
    d.validate(answer)
    msgs = api.requests[1]["messages"]
    assert msgs[1]["role"] == "assistant" and msgs[1]["content"][0]["type"] == "tool_use"
    result = msgs[2]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == msgs[1]["content"][0]["id"] and f"{dead} is dead" in result["content"]
    assert log.records[0].violation and log.records[1].accepted


async def test_text_reply_instead_of_tool_is_parsed(api):
    game, d = game_at("vote", after_death=True)
    target = d.options[-1]
    api.push(Reply(f"My vote goes to {target}.", as_tool=False))
    assert await ask(seat(d, CallLog()), game, d) == target


async def test_overloaded_rate_limited_and_timeouts_are_retried(api):
    game, d = game_at("vote", after_death=True)
    log, sleep = CallLog(), SleepRecorder()
    api.push(Status(529, message="Overloaded"), Status(429, {"retry-after": "1"}), Raise(httpx.ReadTimeout), Status(500))
    answer = await ask(seat(d, log, sleep, retry_max_wait=10), game, d)
    d.validate(answer)
    assert log.records[0].retries == 4 and 1.0 <= sleep.waits[1] <= 1.2


async def test_proxy_without_tools_gets_text(api):
    api.reject_tools = True
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    d.validate(await ask(seat(d, log), game, d))
    assert "tools" not in api.requests[-1] and log.records[0].mode == "text"


async def test_full_game_of_eight_anthropic_seats_finishes_with_caching(api):
    api.push(Status(529), Raise(httpx.ConnectError))
    api.push(Reply('{"action": "Nobody-Here"}'), Reply("garbage"))
    log = CallLog()
    game = await model_game(MODEL, 5, log, seat_seeds=True)
    assert_every_asked_seat_recorded(game, log)
    assert sum(r.retries for r in log.records) == 2 and sum(1 for r in log.records if r.violation) == 2
    read = sum(r.cached_tokens or 0 for r in log.records)
    total = sum(r.input_tokens or 0 for r in log.records)
    assert read / total > 0.5  # most of every prompt is read from the cache
    assert all(r.cost_usd is not None for r in log.records)

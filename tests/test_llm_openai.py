"""The OpenAI back end: the real ``openai`` client against a local stand-in of the Chat
Completions API (respx), through every way a call can go wrong."""

from __future__ import annotations

import asyncio
import json
from functools import partial

import httpx
import pytest
from llm_standins import (
    FAKE_OPENAI_KEY,
    FAST,
    OpenAIStandIn,
    Raise,
    Reply,
    SleepRecorder,
    Sleep,
    Status,
    ask,
    asks_a_move,
    assert_every_asked_seat_recorded,
    game_at,
    model_game,
    model_seat,
    standin_fixture,
    standin_router,
)

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.config import LLMOptions
from arena.runner import view_for

MODEL = "openai:gpt-5.4-mini"
pytestmark = pytest.mark.usefixtures("llm_env")

api = standin_fixture(OpenAIStandIn)
seat = partial(model_seat, MODEL)


# ---------------------------------------------------------------------- the request
async def test_structured_output_request_and_recorded_call(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    answer = await ask(seat(d, log, temperature=0.3), game, d)
    d.validate(answer)
    body = api.requests[0]
    assert body["model"] == "gpt-5.4-mini" and body["temperature"] == 0.3
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    # api.openai.com: the cache layout. One schema for the game, the legal answers in
    # the question's last line, a stable routing key per seat.
    assert body["response_format"]["json_schema"]["name"] == "answer"
    fields = json.loads(body["messages"][1]["content"].rsplit(": ", 1)[1])
    assert fields["properties"]["action"]["enum"][:-1] == list(d.options)
    assert body["prompt_cache_key"].startswith("werewolf-")
    assert body["max_completion_tokens"] == LLMOptions().budget("choice")  # OpenAI's own servers: the new name; a vote's budget
    # Cache layout: [static system] + one user message, history first, question last.
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"].rstrip().endswith(body["messages"][1]["content"].rstrip().split("\n")[-1])
    assert api.headers[0]["authorization"] == f"Bearer {FAKE_OPENAI_KEY}"
    (rec,) = log.records
    assert rec.accepted and rec.answer == answer and rec.mode == "json_schema"
    assert rec.input_tokens > 0 and rec.output_tokens > 0 and rec.cached_tokens == 0
    assert rec.cost_usd and rec.cost_usd > 0 and rec.price_known
    assert rec.retries == 0 and not rec.violation and not rec.fallback
    assert rec.parsed["reasoning"].startswith("stand-in reasoning")
    assert rec.messages == body["messages"]


async def test_history_is_a_growing_prefix_and_cached_tokens_are_recorded():
    with standin_router() as router:
        api = OpenAIStandIn(router, cache_min=128)
        log = CallLog()
        game = await model_game(MODEL, 4, log)
    assert game.over
    by_seat: dict[str, list[str]] = {}
    for body in api.requests:
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        by_seat.setdefault(system, []).append(user)
    for users in by_seat.values():
        histories = [u.rsplit("\n\n", 2)[0] for u in users]
        for earlier, later in zip(histories, histories[1:]):
            assert later.startswith(earlier.rsplit("\n", 1)[0])  # append-only
    assert sum(r.cached_tokens or 0 for r in log.records) > 0
    assert all(r.cached_tokens <= r.input_tokens for r in log.records)


# ---------------------------------------------------------------------- malformed and illegal replies
async def test_not_json_is_read_tolerantly_or_asked_again(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    target = d.options[0]
    api.push(Reply(f"I vote for {target}, obviously."))
    assert await ask(seat(d, log), game, d) == target  # prose naming one option is an answer
    api.push(Reply("hmm, let me think... no idea"))
    answer = await ask(seat(d, log), game, d)
    d.validate(answer)
    refused, accepted = log.records[1], log.records[2]
    assert refused.violation and not refused.accepted and refused.reply.startswith("hmm")
    assert accepted.accepted and accepted.attempt == 2


async def test_unknown_name_is_asked_again_with_the_reason(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    api.push(Reply('{"reasoning": "", "action": "Zed"}'))
    answer = await ask(seat(d, log), game, d)
    d.validate(answer)
    retry = api.requests[1]["messages"]
    assert retry[:2] == api.requests[0]["messages"]  # the prefix is kept: the cache still hits
    assert retry[2] == {"role": "assistant", "content": '{"reasoning": "", "action": "Zed"}'}
    assert retry[3]["role"] == "user" and '"Zed" is not a player' in retry[3]["content"]
    assert [r.violation is not None for r in log.records] == [True, False]


async def test_dead_target_three_times_ends_in_a_recorded_fallback(api):
    game, d = game_at("vote", after_death=True)
    view = view_for(game, d.seat)
    dead = next(iter(view.dead))
    log = CallLog()
    api.push(*[Reply(json.dumps({"reasoning": "", "action": dead}))] * 3)
    answer = await ask(seat(d, log), game, d)
    d.validate(answer)  # the heuristic bot's legal answer
    assert len(api.requests) == 3  # the first ask and max_reasks=2 re-asks
    assert all(f"{dead} is dead" in r.violation for r in log.records)
    assert log.records[-1].fallback and log.records[-1].answer == answer
    assert [r.attempt for r in log.records] == [1, 2, 3]
    game.submit(d.id, answer)


async def test_empty_speech_is_asked_again(api):
    game, d = game_at("speak")
    log = CallLog()
    api.push(Reply('{"reasoning": "", "text": "", "claims": {"role": null, "checks": [], "accuses": []}}'))
    answer = await ask(seat(d, log), game, d)
    assert answer["text"] and "speech is empty" in log.records[0].violation
    # The question said so: it never offers silence a model seat is then refused.
    question = api.requests[0]["messages"][-1]["content"]
    assert "an empty speech is refused" in question and "An empty text means" not in question
    game.submit(d.id, answer)


# ---------------------------------------------------------------------- transient failures
async def test_429_honours_retry_after_and_counts_retries(api):
    game, d = game_at("vote", after_death=True)
    log, sleep = CallLog(), SleepRecorder()
    api.push(Status(429, {"retry-after": "2"}, "Rate limit reached"), Status(429, {"retry-after-ms": "1500"}))
    answer = await ask(seat(d, log, sleep, retry_max_wait=30), game, d)
    d.validate(answer)
    assert len(api.requests) == 3
    assert 2.0 <= sleep.waits[0] <= 2.3 and 1.5 <= sleep.waits[1] <= 1.75
    (rec,) = log.records
    assert rec.retries == 2 and rec.accepted and not rec.error


async def test_retry_after_is_capped(api):
    game, d = game_at("vote", after_death=True)
    sleep = SleepRecorder()
    api.push(Status(429, {"retry-after": "3600"}))
    await ask(seat(d, CallLog(), sleep, retry_max_wait=5, retry_total=60), game, d)
    assert sleep.waits == [5]


async def test_500_and_529_are_retried_with_growing_jittered_backoff(api):
    game, d = game_at("vote", after_death=True)
    log, sleep = CallLog(), SleepRecorder()
    api.push(Status(500), Status(503), Status(502))
    await ask(seat(d, log, sleep, retry_initial=1.0, retry_max_wait=100), game, d)
    assert log.records[0].retries == 3
    assert 0 <= sleep.waits[0] <= 1 and 0 <= sleep.waits[1] <= 2 and 0 <= sleep.waits[2] <= 4


async def test_timeouts_and_connection_errors_are_retried(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    api.push(Raise(httpx.ReadTimeout), Raise(httpx.ConnectError), Raise(httpx.ReadTimeout))
    answer = await ask(seat(d, log), game, d)
    d.validate(answer)
    assert log.records[0].retries == 3 and log.records[0].accepted


async def test_total_retry_time_is_capped(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    api.push(*[Status(429, {"retry-after": "1"})] * 10)
    await ask(seat(d, log, SleepRecorder(), max_retries=20, retry_total=0.05, retry_max_wait=1.0), game, d)
    assert log.records[0].fallback and log.records[0].retries < 3


async def test_decision_time_limit_ends_in_the_fallback(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    api.push(Sleep(5))
    answer = await ask(seat(d, log, decision_timeout=0.2), game, d)
    d.validate(answer)
    (rec,) = log.records
    assert rec.fallback and "time limit" in rec.error and rec.messages  # the request that was cut off


async def test_bad_key_disables_the_seat_without_crashing(api):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    agent = seat(d, log)
    api.push(Status(401, message=f"Incorrect API key provided: {FAKE_OPENAI_KEY[:8]}***{FAKE_OPENAI_KEY[-4:]}"))
    d.validate(await ask(agent, game, d))
    d.validate(await ask(agent, game, d))
    assert len(api.requests) == 1  # not asked again: every later decision would fail the same way
    assert log.records[0].fallback and "HTTP 401" in log.records[0].error
    assert FAKE_OPENAI_KEY[-4:] not in log.records[0].error  # the SDK's masked key is scrubbed too
    assert log.records[1].fallback and log.records[1].messages == []


# ---------------------------------------------------------------------- format negotiation
async def test_server_without_json_schema_falls_back_to_tools_and_remembers(api):
    api.reject_json_schema = True
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    a1 = await ask(seat(d, log), game, d)
    d.validate(a1)
    assert [("response_format" in b, "tools" in b) for b in api.requests] == [(True, False), (False, True)]
    assert api.requests[1]["tool_choice"] == {"type": "function", "function": {"name": "answer"}}
    assert log.records[0].mode == "tool" and log.records[0].retries == 0
    other = make_llm_agent(MODEL, d.seat, log=log, **FAST)  # another seat on the same server
    await ask(other, game, d)
    assert "tools" in api.requests[2] and len(api.requests) == 3  # learnt: no second refusal


async def test_a_refused_schema_shape_only_downgrades_that_shape(api):
    """A server that cannot enforce ``minItems`` (Cupid's pair) keeps JSON schemas for
    every other decision."""
    api.reject_when = lambda b: "minItems" in json.dumps(b.get("response_format", {}))
    game, d = game_at("cupid_lovers", roles=["werewolf", "werewolf", "seer", "cupid"] + ["villager"] * 4)
    d.validate(await ask(seat(d, CallLog(), prompt_layout="grammar"), game, d))
    assert "tools" in api.requests[-1]
    game2, v = game_at("vote", after_death=True)
    await ask(seat(v, CallLog(), prompt_layout="grammar"), game2, v)
    assert api.requests[-1]["response_format"]["type"] == "json_schema"


async def test_tool_call_refusal_is_answered_with_a_tool_message(api):
    api.reject_json_schema = True
    game, d = game_at("vote", after_death=True)
    api.push(Reply('{"reasoning": "", "action": "Zed"}'), when=lambda b: "tools" in b)
    await ask(seat(d, CallLog()), game, d)
    retry = api.requests[-1]["messages"]
    assert retry[2]["role"] == "assistant" and retry[2]["tool_calls"][0]["function"]["arguments"].endswith('"Zed"}')
    assert retry[3]["role"] == "tool" and retry[3]["tool_call_id"] == retry[2]["tool_calls"][0]["id"]


async def test_server_without_schemas_or_tools_gets_text_and_the_tolerant_parser():
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url="http://localhost:8080/v1")
        api.reject_json_schema = api.reject_tools = True
        game, d = game_at("vote", after_death=True)
        log = CallLog()
        answer = await ask(seat(d, log, base_url="http://localhost:8080/v1"), game, d)
    d.validate(answer)
    text_body = api.requests[-1]
    assert "response_format" not in text_body and "tools" not in text_body
    assert "JSON schema" in text_body["messages"][1]["content"]
    assert text_body["max_tokens"] == LLMOptions().budget("choice", layout="grammar")  # compatible servers know the classic name
    assert log.records[0].mode == "text" and log.records[0].reply.startswith("Sure!")


async def test_forced_text_mode_and_per_seat_base_url():
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url="http://127.0.0.1:9999/v1")
        game, d = game_at("vote", after_death=True)
        answer = await ask(seat(d, CallLog(), base_url="http://127.0.0.1:9999/v1", mode="text"), game, d)
    d.validate(answer)
    assert len(api.requests) == 1 and "response_format" not in api.requests[0]


@pytest.mark.parametrize(
    "spec, url, free",
    [
        ("openai:smollm2", "http://127.0.0.1:8080/v1", True),  # werewolf model serve: nobody bills it
        ("openai:smollm2", "http://localhost:8080/v1", True),
        ("openai:smollm2", "http://10.1.2.3:8080/v1", False),  # a private network's server may be a paid gateway
        (MODEL, "http://127.0.0.1:4000/v1", False),  # a priced model keeps its price behind a local proxy
    ],
)
async def test_a_model_served_on_this_machine_costs_nothing(spec, url, free):
    """A local model's cost read "no price known" where a local server costs nothing."""
    with standin_router() as router:
        OpenAIStandIn(router, base_url=url)
        game, d = game_at("vote", after_death=True)
        log = CallLog()
        await ask(model_seat(spec, d, log, base_url=url), game, d)
    (rec,) = log.records
    if free:
        assert rec.cost_usd == 0.0 and rec.price_known
    elif spec == MODEL:
        assert rec.cost_usd and rec.cost_usd > 0 and rec.price_known
    else:
        assert rec.cost_usd is None and not rec.price_known


# ---------------------------------------------------------------------- keys (and test_llm_backends)
async def test_api_key_env_names_the_seats_own_key(monkeypatch, api):
    monkeypatch.setenv("MY_SERVER_KEY", "sk-other-server-key-123456")
    game, d = game_at("vote", after_death=True)
    await ask(seat(d, CallLog(), api_key_env="MY_SERVER_KEY"), game, d)
    assert api.headers[0]["authorization"] == "Bearer sk-other-server-key-123456"


# ---------------------------------------------------------------------- a whole game
async def test_full_game_of_eight_openai_seats_with_failures_finishes(api):
    api.push(Status(429, {"retry-after": "0"}), Status(500), Raise(httpx.ReadTimeout))
    api.push(Reply("not json at all, sorry"), Reply('{"reasoning": "", "action": "Nobody-Here"}'), when=asks_a_move)
    log = CallLog()
    game = await model_game(MODEL, 11, log, seat_seeds=True)
    assert_every_asked_seat_recorded(game, log)
    assert game.winner in ("village", "werewolves")
    assert sum(r.retries for r in log.records) == 3
    assert sum(1 for r in log.records if r.violation) == 2
    assert all(r.input_tokens and r.output_tokens for r in log.records)
    answered = {r.decision for r in log.records if r.accepted or r.fallback}
    assert len(answered) == len(game.answer_log)  # every decision was asked of the model


async def test_a_batch_is_asked_concurrently_within_the_limits():
    from agents.llm.limits import configure

    limits = configure(global_limit=3)
    with standin_router() as router:
        api = OpenAIStandIn(router, latency=0.02)
        await model_game(MODEL, 2)
    assert api.peak_in_flight == 3 and limits.peak["*"] == 3


async def test_per_model_limit(api):
    from agents.llm.limits import configure

    configure(global_limit=10, per_model={"openai:gpt-5.4-mini": 2})
    api.latency = 0.02
    await model_game(MODEL, 2)
    assert api.peak_in_flight == 2


def test_sync_decide_works_outside_an_event_loop(api):
    game, d = game_at("vote", after_death=True)
    agent = seat(d, CallLog())
    d.validate(agent.decide(view_for(game, d.seat), d))


async def test_an_exception_inside_the_agent_never_escapes(api, monkeypatch):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    agent = seat(d, log)

    def boom(*a, **k):
        raise RuntimeError("template missing")

    monkeypatch.setattr(agent, "prompt", boom)
    answer = await ask(agent, game, d)
    d.validate(answer)
    assert log.records[0].fallback and "template missing" in log.records[0].error and not api.requests


async def test_cancellation_is_not_swallowed(api):
    game, d = game_at("vote", after_death=True)
    api.push(Sleep(5))
    task = asyncio.ensure_future(ask(seat(d, CallLog()), game, d))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

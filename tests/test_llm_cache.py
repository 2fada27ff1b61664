"""Prompt caching as the vendors bill it: the cache-exact stand-ins' rules
(``agents.llm.vendor_cache``), the cache layout the seats send, the shared SDK
clients, and the reasoning-model options."""

from __future__ import annotations

import json

import pytest
from llm_standins import (
    FAST,
    NAMES,
    AnthropicStandIn,
    OpenAIStandIn,
    Reply,
    ask,
    game_at,
    model_game,
    model_seat,
    standin_router,
)

from agents.llm.accounting import CallLog
from agents.llm.config import LLMOptions
from agents.llm.pricing import DEFAULT_TABLE
from agents.llm.vendor_cache import AnthropicPromptCache, CacheRequestError, OpenAIPromptCache, anthropic_min

pytestmark = pytest.mark.usefixtures("llm_env")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def chat(system: str, user: str, *, schema: dict | None = None, key: str | None = None) -> dict:
    body: dict = {"model": "gpt-5.4-mini", "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}
    if schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
    if key:
        body["prompt_cache_key"] = key
    return body


def served(cache, body):
    got = cache.lookup(body)
    cache.commit(got)
    return got


# ---------------------------------------------------------------------- OpenAI's rules
def test_openai_caches_from_1024_tokens_in_128_token_blocks():
    cache = OpenAIPromptCache(clock=Clock())
    system = "s" * 4 * 1100  # 1,100 tokens
    assert served(cache, chat(system, "first question")).cached_tokens == 0  # nothing cached yet
    again = served(cache, chat(system, "another question"))
    assert again.cached_tokens == 1024  # the match (~1,102 tokens) rounded down to whole blocks
    short = OpenAIPromptCache(clock=Clock())
    served(short, chat("s" * 4 * 900, "q"))
    assert served(short, chat("s" * 4 * 900, "q2")).cached_tokens == 0  # under the minimum
    longer = OpenAIPromptCache(clock=Clock())
    served(longer, chat("s" * 4 * 1400, "q"))
    assert served(longer, chat("s" * 4 * 1400, "other")).cached_tokens == 1024 + 2 * 128  # ~1,402 matched


def test_openai_schema_is_part_of_the_prefix_and_the_key_routes():
    cache = OpenAIPromptCache(clock=Clock())
    system = "s" * 4 * 2000
    served(cache, chat(system, "q", schema={"enum": ["Bob", "Chloe"]}))
    assert served(cache, chat(system, "q", schema={"enum": ["Bob", "Hugo"]})).cached_tokens == 0  # the schema comes first
    assert served(cache, chat(system, "q2", schema={"enum": ["Bob", "Hugo"]})).cached_tokens >= 1024
    keyed = OpenAIPromptCache(clock=Clock())
    served(keyed, chat(system, "q", key="seat-a"))
    assert served(keyed, chat(system, "q2", key="seat-b")).cached_tokens == 0  # another machine
    assert served(keyed, chat(system, "q3", key="seat-a")).cached_tokens >= 1024


def test_openai_entries_expire_after_their_ttl():
    clock = Clock()
    cache = OpenAIPromptCache(clock=clock, ttl=300)
    system = "s" * 4 * 2000
    served(cache, chat(system, "q"))
    clock.now = 200
    assert served(cache, chat(system, "q2")).cached_tokens > 0  # a hit refreshes the entry
    clock.now = 450
    assert served(cache, chat(system, "q3")).cached_tokens > 0
    clock.now = 1000
    assert served(cache, chat(system, "q4")).cached_tokens == 0


def test_openai_routes_overflow_to_machines_without_the_entry_above_the_rate():
    """About 15 requests a minute per prefix and key: the 16th in a minute lands on a
    further machine, which has none of the first one's entries; a minute later the
    route's own machine serves again. Off unless asked (a clock at the vendor's pace)."""
    clock = Clock()
    cache = OpenAIPromptCache(clock=clock, overflow_rate=15)
    system = "s" * 4 * 2000
    got = [served(cache, chat(system, f"q{i}", key="seat-a")) for i in range(16)]
    assert [g.machine for g in got] == [0] * 15 + [1]
    assert got[14].cached_tokens > 0 and got[15].cached_tokens == 0  # the overflow machine starts empty
    assert served(cache, chat(system, "q16", key="seat-a")).machine == 1  # and now holds that prefix
    assert served(cache, chat(system, "q17", key="seat-b")).machine == 0  # another key, another route
    clock.now = 61
    assert served(cache, chat(system, "q18", key="seat-a")).machine == 0
    unlimited = OpenAIPromptCache(clock=Clock())
    assert {served(unlimited, chat(system, f"q{i}")).machine for i in range(40)} == {0}


def test_the_step_clock_advances_one_vendor_latency_per_round_trip():
    from agents.llm.vendor_cache import StepClock

    clock = StepClock(2.5)
    assert clock() == 0
    clock.arrive()
    clock.arrive()  # parallel: the same round trip
    clock.leave()
    clock.arrive()  # still one in flight: the same round trip
    assert clock() == 2.5
    clock.leave()
    clock.leave()
    clock.arrive()  # nothing was in flight: the next round trip
    assert clock() == 5.0


# ---------------------------------------------------------------------- Anthropic's rules
def messages(system_blocks: list[dict], user_blocks: list[dict], *, model="claude-sonnet-4-6", tools=None, tool_choice=None) -> dict:
    body = {"model": model, "system": system_blocks, "messages": [{"role": "user", "content": user_blocks}]}
    if tools:
        body["tools"] = tools
        body["tool_choice"] = tool_choice or {"type": "tool", "name": tools[0]["name"]}
    return body


def text(n_tokens: int, ch: str = "x", bp: bool = False) -> dict:
    b = {"type": "text", "text": ch * 4 * n_tokens}
    if bp:
        b["cache_control"] = {"type": "ephemeral"}
    return b


def test_anthropic_minimum_depends_on_the_model():
    assert anthropic_min("claude-haiku-4-5-20251001") == 4096 and anthropic_min("claude-sonnet-4-6") == 1024
    assert anthropic_min("claude-opus-4-7") == 4096 and anthropic_min("claude-opus-4-8") == 1024
    assert anthropic_min("claude-opus-5") == 512 and anthropic_min("claude-opus-5-5") == 1024  # 5.5 is not Opus 5
    for model, written in (("claude-sonnet-4-6", 1500), ("claude-haiku-4-5", 0)):
        got = AnthropicPromptCache(clock=Clock()).lookup(messages([text(1500, bp=True)], [text(10)], model=model))
        assert got.cache_creation_input_tokens == written
        assert got.input_tokens + got.cache_creation_input_tokens == 1510  # input_tokens excludes the write


def test_anthropic_reads_at_a_boundary_within_the_lookback_and_bills_writes_apart():
    cache = AnthropicPromptCache(clock=Clock())
    first = served(cache, messages([text(1200)], [text(100, "a", bp=True), text(20, "q")]))
    assert (first.cache_read_input_tokens, first.cache_creation_input_tokens, first.input_tokens) == (0, 1300, 20)
    second = served(cache, messages([text(1200)], [text(100, "a"), text(50, "b", bp=True), text(20, "r")]))
    assert (second.cache_read_input_tokens, second.cache_creation_input_tokens, second.input_tokens) == (1300, 50, 20)
    # 25 new blocks between the breakpoints: the previous entry is out of the lookback.
    far = [text(100, "a"), text(50, "b")] + [text(2, c) for c in "cdefghijklmnopqrstuvwxyz0"]
    far[-1]["cache_control"] = {"type": "ephemeral"}
    got = cache.lookup(messages([text(1200)], far + [text(20, "r")]))
    assert got.cache_read_input_tokens == 0


def test_anthropic_writes_are_readable_once_answered_and_expire():
    clock = Clock()
    cache = AnthropicPromptCache(clock=clock)
    body = messages([text(1200, bp=True)], [text(20, "q")])
    pending = cache.lookup(body)
    assert cache.lookup(body).cache_read_input_tokens == 0  # a parallel request sees nothing yet
    cache.commit(pending)
    assert cache.lookup(body).cache_read_input_tokens == 1200
    clock.now = 301 + 0.0
    clock.now += 300
    assert cache.lookup(body).cache_read_input_tokens == 0  # five minutes without a hit


def test_anthropic_tool_choice_invalidates_messages_not_system_and_tools_come_first():
    cache = AnthropicPromptCache(clock=Clock())
    tools = [{"name": "vote", "input_schema": {"type": "object"}}]
    body = messages([text(1200, bp=True)], [text(200, "h", bp=True), text(10, "q")], tools=tools)
    served(cache, body)
    other_choice = messages([text(1200, bp=True)], [text(200, "h", bp=True), text(10, "q")], tools=tools, tool_choice={"type": "any"})
    got = cache.lookup(other_choice)
    assert got.cache_read_input_tokens == cache.lookup(body).cache_read_input_tokens - 200  # system still read
    other_tools = messages([text(1200, bp=True)], [text(200, "h", bp=True)], tools=[{"name": "speak", "input_schema": {"type": "object"}}])
    assert cache.lookup(other_tools).cache_read_input_tokens == 0  # tools are the first bytes of the prefix


def test_anthropic_more_than_four_breakpoints_is_a_400():
    with pytest.raises(CacheRequestError):
        AnthropicPromptCache().lookup(messages([text(10, bp=True)], [text(10, c, bp=True) for c in "abcd"]))


async def test_the_stand_in_refuses_a_fifth_breakpoint():
    with standin_router() as router:
        api = AnthropicStandIn(router)
        import anthropic

        client = anthropic.AsyncAnthropic(max_retries=0)
        with pytest.raises(anthropic.BadRequestError, match="maximum of 4"):
            await client.messages.create(
                model="claude-sonnet-4-6", max_tokens=10, system=[text(5, bp=True)], messages=[{"role": "user", "content": [text(5, c, bp=True) for c in "abcd"]}]
            )
        await client.close()
    assert api.responses == []


# ---------------------------------------------------------------------- the layout the seats send
async def test_a_seat_sends_the_same_schema_and_key_all_game_on_openai():
    with standin_router() as router:
        api = OpenAIStandIn(router)
        log = CallLog()
        await model_game("openai:gpt-5.4-mini", 3, log)
    by_seat: dict[str, set[str]] = {}
    keys: dict[str, set[str]] = {}
    for body in api.requests:
        seat = next(n for n in NAMES if f"You are {n} " in body["messages"][0]["content"])
        by_seat.setdefault(seat, set()).add(json.dumps(body["response_format"]))
        keys.setdefault(seat, set()).add(body["prompt_cache_key"])
    assert all(len(v) == 1 for v in by_seat.values())
    assert len({json.dumps(sorted(v)) for v in by_seat.values()}) == 1  # the table's schema: the same for every seat
    # One routing key per seat for the whole game, shared by neighbours in seat order
    # (``cache_key_seats`` 2): Alice and Bob, Chloe and David, ...
    assert all(len(v) == 1 for v in keys.values())
    key = {seat: next(iter(v)) for seat, v in keys.items()}
    pairs = {tuple(NAMES[i : i + 2]) for i in range(0, len(NAMES), 2)}
    for a, b in pairs:
        if a in key and b in key:
            assert key[a] == key[b]
    assert len(set(key.values())) == len({p for p in pairs if set(p) & set(key)})
    # The rules every seat reads come first: the seats' system texts share a long prefix.
    systems = {b["messages"][0]["content"] for b in api.requests}
    common = min(len(__import__("os").path.commonprefix([a, b])) for a in systems for b in systems if a != b)
    assert common > 0.6 * min(len(s) for s in systems)


def test_the_routing_key_is_the_seats_own_or_its_groups():
    """``cache_key_seats`` 1: a digest of the seat's own system text; N: of the shared
    text and the N neighbours' names, so a group's seats share one machine."""
    from agents.base import SeatView
    from agents.llm import make_llm_agent

    game, d = game_at("vote", after_death=True)

    def key(seat: str, n: int) -> str:
        agent = make_llm_agent("openai:gpt-5.4-mini", seat, cache_key_seats=n)
        return agent.prompt(SeatView(seat, game.observation(seat)), d).cache_key

    names = [p.name for p in game.players]
    assert len({key(n, 1) for n in names[:4]}) == 4
    assert key(names[0], 2) == key(names[1], 2) != key(names[2], 2) == key(names[3], 2)
    assert len({key(n, 4) for n in names[:4]}) == 1 and key(names[4], 4) != key(names[0], 4)
    assert all(k.startswith("werewolf-") and names[0] not in k for k in (key(names[0], 1), key(names[0], 2)))


@pytest.mark.parametrize("spec", ["openai:gpt-5.4-mini", "anthropic:claude-sonnet-4-6"])
async def test_a_whole_game_is_billed_mostly_as_cache_reads(spec):
    """The goal of the layout, on the vendors' documented rules: at least 85% of a
    game's input tokens are billed as cache reads, writes are few, and nothing is
    refused or re-asked."""
    with standin_router() as router:
        (OpenAIStandIn if spec.startswith("openai") else AnthropicStandIn)(router)
        log = CallLog()
        await model_game(spec, 6, log)
    made = [r for r in log.records if r.messages]
    total = sum(r.input_tokens for r in made)
    read = sum(r.cached_tokens or 0 for r in made)
    written = sum(r.cache_write_tokens or 0 for r in made)
    assert read / total >= 0.85, (read, total)  # issue 14's goal (measured: 87.2% OpenAI, 91.1% Anthropic Sonnet)
    assert written / total <= 0.15
    assert not any(r.violation or r.fallback for r in log.records)
    # The accounting bills what the vendor would: reads and writes at their own prices.
    r = next(r for r in made if r.cached_tokens)
    price = DEFAULT_TABLE.lookup(r.model, r.backend)
    fresh = r.input_tokens - (r.cached_tokens or 0) - (r.cache_write_tokens or 0)
    expected = (fresh * price.input + r.cached_tokens * price.cached_input + (r.cache_write_tokens or 0) * (price.cache_write or price.input) + r.output_tokens * price.output) / 1e6
    assert r.cost_usd == pytest.approx(expected, abs=1e-8)


async def test_a_local_server_gets_each_decisions_own_schema():
    """The grammar layout: llama.cpp and the like enforce the schema outside the prompt,
    so the legal options stay in it (constrained decoding), and no routing key is sent."""
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url="http://127.0.0.1:8080/v1")
        game, d = game_at("vote", after_death=True)
        await ask(model_seat("openai:smollm2", d, CallLog(), base_url="http://127.0.0.1:8080/v1"), game, d)
    body = api.requests[0]
    assert body["response_format"]["json_schema"]["schema"]["properties"]["action"]["enum"][:-1] == list(d.options)
    assert "prompt_cache_key" not in body and '{"properties":' not in body["messages"][1]["content"]


async def test_an_illegal_answer_under_the_game_schema_is_refused_and_asked_again():
    with standin_router() as router:
        api = OpenAIStandIn(router)
        game, d = game_at("vote", after_death=True)
        dead = next(p.name for p in game.players if not p.alive)
        api.push(Reply(json.dumps({"reasoning": "", "action": dead, "text": "", "target": None, "claims": {"role": None, "checks": [], "accuses": []}})))
        log = CallLog()
        answer = await ask(model_seat("openai:gpt-5.4-mini", d, log), game, d)
    d.validate(answer)
    assert log.records[0].violation and log.records[1].accepted
    first, again = api.requests
    assert again["response_format"] == first["response_format"] and again["messages"][:2] == first["messages"]


# ---------------------------------------------------------------------- shared clients
async def test_seats_on_one_endpoint_and_key_share_one_client(monkeypatch):
    from agents.llm import make_llm_agent

    with standin_router() as router:
        OpenAIStandIn(router)
        seats = [make_llm_agent("openai:gpt-5.4-mini", n) for n in NAMES[:3]]
        other = make_llm_agent("openai:gpt-5.4-mini", "Iris", api_key="sk-another-key-0123456789")
        clients = {id(s.backend.client()) for s in seats}
        assert len(clients) == 1 and id(other.backend.client()) not in clients
        for s in seats[:2]:
            await s.aclose()
        assert not seats[2].backend.client().is_closed()  # still in use by the third seat
        for s in [*seats[2:], other]:
            await s.aclose()
        assert not any(s.backend.open for s in seats)


# ---------------------------------------------------------------------- reasoning models
async def test_openai_reasoning_options_budget_and_extra_body():
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.reasoning_tokens = 37
        game, d = game_at("vote", after_death=True)
        log = CallLog()
        await ask(model_seat("openai:gpt-5.4-mini", d, log, reasoning_effort="low", max_tokens=500, extra_body={"service_tier": "flex"}), game, d)
    body = api.requests[0]
    assert body["reasoning_effort"] == "low" and body["max_completion_tokens"] == min(500, LLMOptions().budget("choice")) + 4096  # the answer plus the reasoning
    assert body["service_tier"] == "flex"
    (rec,) = log.records
    assert rec.reasoning_tokens == 37 and rec.output_tokens >= 37  # priced as output


async def test_anthropic_extended_thinking_with_its_budget():
    with standin_router() as router:
        api = AnthropicStandIn(router)
        game, d = game_at("vote", after_death=True)
        await ask(model_seat("anthropic:claude-sonnet-4-6", d, CallLog(), reasoning_budget=2048, max_tokens=400, temperature=0.5), game, d)
    body = api.requests[0]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048} and body["max_tokens"] == 2048 + min(400, LLMOptions().budget("choice"))
    assert body["tool_choice"] == {"type": "auto"} and "temperature" not in body  # what the API takes with thinking


# ---------------------------------------------------------------------- other back ends' layouts
def test_litellm_lays_out_hosted_providers_for_their_cache_and_local_servers_for_grammars(monkeypatch):
    """LiteLLM's hosted providers get the cache layout (OpenAI with its routing key,
    Anthropic with its breakpoints in the content blocks); its servers of one's own
    and any local base URL keep each decision's schema. Only requests are built here,
    so LiteLLM itself (25 s to import on a loaded machine) is not imported."""
    from agents.base import SeatView
    from agents.llm import make_llm_agent
    from agents.llm.backends import litellm_backend

    monkeypatch.setattr(litellm_backend, "import_litellm", lambda: None)

    game, d = game_at("vote", after_death=True)
    view = SeatView(d.seat, game.observation(d.seat))

    def request(model: str, **options):
        agent = make_llm_agent(f"litellm:{model}", d.seat, **FAST, **options)
        b = agent.backend
        return b.layout(), b.build(agent.prompt(view, d), [], "json_schema")

    layout, req = request("openai/gpt-5.4-mini")
    assert layout == "cache" and req["prompt_cache_key"].startswith("werewolf-")
    assert req["response_format"]["json_schema"]["name"] == "answer"
    layout, req = request("anthropic/claude-haiku-4-5")
    system, user = req["messages"][0]["content"], req["messages"][1]["content"]
    assert layout == "cache" and "prompt_cache_key" not in req
    assert system[0]["cache_control"] == {"type": "ephemeral"} and "cache_control" not in user[-1]
    assert user[-2]["cache_control"] == {"type": "ephemeral"} and user[-1]["text"].rsplit("\n", 1)[1].startswith("Fields: ")
    layout, req = request("groq/llama-3.1-8b-instant")
    assert layout == "cache" and "prompt_cache_key" not in req
    for model, options in (("ollama/smollm2", {}), ("hosted_vllm/qwen", {}), ("openai/smollm2", {"base_url": "http://127.0.0.1:8080/v1"})):
        layout, req = request(model, **options)
        assert layout == "grammar" and "prompt_cache_key" not in req, model
        assert req["response_format"]["json_schema"]["name"] == d.kind  # the decision's own schema


def test_langchain_models_of_ones_own_keep_the_grammar_layout_hosted_ones_the_cache():
    from llm_standins import schema_chat_model

    from agents.base import SeatView
    from agents.llm import from_langchain

    hosted = from_langchain(schema_chat_model(1), "Alice").backend
    assert hosted.layout() == "cache"
    model = schema_chat_model(1)
    Local = type("ChatOllama", (type(model),), {})  # an integration of one's own server, by its class
    assert from_langchain(Local(rng=model.rng), "Alice").backend.layout() == "grammar"
    # ChatAnthropic: breakpoints in the content blocks, as the Anthropic back end sends them.
    Claude = type("ChatAnthropic", (type(model),), {"__module__": "langchain_anthropic.chat_models"})
    game, d = game_at("vote", after_death=True)
    seat = from_langchain(Claude(rng=model.rng), d.seat)
    req = seat.backend.build(seat.prompt(SeatView(d.seat, game.observation(d.seat)), d), [], "tool")
    system, human = req["messages"][0].content, req["messages"][1].content
    assert system[0]["cache_control"] == {"type": "ephemeral"} and human[-2]["cache_control"] == {"type": "ephemeral"}
    assert req["name"] == "answer"

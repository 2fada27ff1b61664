"""A 200 whose answer arrives cut or empty is the server's fault, retried like a
dropped connection, for every back end; only an answer the model did give counts
against it.

The server is ``arena/standin_server.py``: a real HTTP server on 127.0.0.1, so
the vendors' SDKs and LangChain read its bytes as they read a vendor's, and it can do
what a mock cannot: promise a Content-Length it never sends, drop a chunked stream.
Each fault (``Fault``) is served to the first attempts, then a good answer.
"""

from __future__ import annotations

import importlib.util
import socket
from typing import Any, Iterator

import httpx
import pytest
from llm_standins import ANTHROPIC_URL, FAST, OPENAI_URL, AnthropicStandIn, OpenAIStandIn, ask, game_at, standin_router

from agents.llm import from_langchain, make_llm_agent
from agents.llm.accounting import CallLog
from arena.metrics.rule_following import rule_metrics

from arena.standin_server import Fault, StandInServer  # noqa: E402

pytestmark = pytest.mark.usefixtures("llm_env")

RETRIES = 3  # the seat's budget: each test's faults fit in it, or exhaust it on purpose
# The back ends, as a seat names them; ``langchain-stream`` is LangChain's ChatOpenAI
# with ``streaming=True``, the one back end here that reads server-sent events.
BACKENDS = ["openai", "anthropic", "litellm", "langchain", "langchain-stream"]


@pytest.fixture
def server() -> Iterator[StandInServer]:
    # One per test: langchain-openai keeps one HTTP client per base URL for the
    # process, bound to the event loop of its first call, and each test has its own.
    with StandInServer(latency=0) as api:
        yield api


def seat(backend: str, server: StandInServer, decision: Any, log: CallLog, **options: Any) -> Any:
    """A seat for ``decision`` on ``backend``, talking to ``server``."""
    opts = {**FAST, "max_retries": RETRIES, **options}
    if backend == "openai":
        return make_llm_agent("openai:standin", decision.seat, log=log, base_url=server.base_url, **opts)
    if backend == "anthropic":
        return make_llm_agent("anthropic:claude-haiku-4-5", decision.seat, log=log, base_url=server.anthropic_url, **opts)
    if backend == "litellm":
        if importlib.util.find_spec("litellm") is None:
            pytest.skip("litellm is not installed")
        return make_llm_agent("litellm:openai/standin", decision.seat, log=log, base_url=server.base_url, api_key_env="OPENAI_API_KEY", **opts)
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="standin", base_url=server.base_url, api_key="sk-test-langchain", max_retries=0, streaming=backend == "langchain-stream")
    return from_langchain(model, decision.seat, log=log, **opts)


async def decide(backend: str, server: StandInServer, faults: list[Fault], **options: Any) -> tuple[Any, CallLog, int]:
    """One vote on ``backend``, its first answers suffering ``faults``: (the answer, the
    call log, the requests the server received)."""
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    agent = seat(backend, server, d, log, **options)
    server.faults.clear()
    server.push(*faults)
    before = len(server.requests)
    try:
        answer = await ask(agent, game, d)
    finally:
        await agent.aclose()
        server.faults.clear()
    d.validate(answer)
    return answer, log, len(server.requests) - before


@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_answer_cut_after_200_is_retried_and_the_decision_is_the_models(backend, fault, server):
    answer, log, requests = await decide(backend, server, [fault, fault])
    assert requests == 3  # two cut answers, then the good one
    (rec,) = log.records
    assert rec.accepted and rec.answer == answer and not rec.fallback
    assert rec.retries == 2 and rec.violation is None and rec.error is None
    (usage,) = log.summary()
    assert (usage.violations, usage.errors, usage.fallbacks, usage.retries) == (0, 0, 0, 2)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_decision_whose_every_answer_is_cut_is_the_servers_error_not_a_violation(backend, server):
    _, log, requests = await decide(backend, server, [Fault.CUT] * (RETRIES + 1))
    assert requests == RETRIES + 1
    (rec,) = log.records
    assert rec.fallback and not rec.accepted and rec.violation is None
    assert rec.retries == RETRIES and f"gave up after {RETRIES + 1} attempts" in rec.error
    if backend != "litellm":  # LiteLLM words the fault its own way (an InternalServerError)
        assert "answer cut after HTTP 200" in rec.error
    (usage,) = log.summary()
    assert (usage.violations, usage.errors, usage.fallbacks) == (0, 1, 1)
    rules = rule_metrics(_Game([r.model_dump() for r in log.records]))["seats"][rec.seat]
    assert rules["violations"] == 0 and rules["violation_rate"] == 0 and rules["errors"] == 1


async def test_a_dead_server_is_an_error_of_the_server_for_every_decision():
    """Nothing listens at the address: every attempt fails to connect."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed at once: nothing listens there
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    agent = make_llm_agent("openai:standin", d.seat, log=log, base_url=f"http://127.0.0.1:{port}/v1", **{**FAST, "max_retries": 1})
    try:
        d.validate(await ask(agent, game, d))
    finally:
        await agent.aclose()
    (rec,) = log.records
    assert rec.fallback and rec.violation is None and "connection error" in rec.error and rec.retries == 1
    (usage,) = log.summary()
    assert (usage.violations, usage.errors, usage.fallbacks) == (0, 1, 1)


async def test_the_models_refused_reply_counts_and_the_servers_cut_answer_does_not(server):
    """A reply the model gave and the rules refused is its violation; the cut answers
    of the re-ask that follows are the server's, ending in the fallback as an error."""
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    agent = seat("openai", server, d, log, max_retries=1)
    server.faults.clear()
    dead = next(p.name for p in game.players if not p.alive)
    original = agent.backend.reply

    def first_reply_names_the_dead(response: Any, mode: str) -> Any:
        reply = original(response, mode)
        if not log.records:  # the model's first answer: a dead player, refused by the rules
            reply.text, reply.data = f'{{"action": "{dead}"}}', {"action": dead}
            server.push(Fault.EMPTY, Fault.EMPTY)  # the re-ask's answers are lost on the way
        return reply

    agent.backend.reply = first_reply_names_the_dead  # type: ignore[method-assign]
    try:
        d.validate(await ask(agent, game, d))
    finally:
        await agent.aclose()
        server.faults.clear()
    first, second = log.records
    assert first.violation and "dead" in first.violation and not first.fallback and first.error is None
    assert second.fallback and second.violation is None and "answer cut after HTTP 200" in second.error
    (usage,) = log.summary()
    assert (usage.violations, usage.errors, usage.fallbacks) == (1, 1, 1)


# ---------------------------------------------------------------------- whole bodies that are not answers
# A proxy may answer 200 with a page of its own, or with an error object where the
# API's answer should be: the SDKs hand the first back as text and build an empty
# answer object from the second. Neither is the model's.
PAGE = "<html><body>Please sign in to the network</body></html>"
ERROR_BODY = {
    "openai": {"error": {"message": "upstream failed", "type": "server_error"}},
    "anthropic": {"type": "error", "error": {"type": "api_error", "message": "upstream failed"}},
}
VENDORS = {
    "openai": ("openai:gpt-5.4-mini", OpenAIStandIn, f"{OPENAI_URL}/chat/completions"),
    "anthropic": ("anthropic:claude-haiku-4-5", AnthropicStandIn, f"{ANTHROPIC_URL}/v1/messages"),
}


@pytest.mark.parametrize("body", ["page", "error"])
@pytest.mark.parametrize("vendor", sorted(VENDORS))
async def test_a_200_that_is_not_the_apis_answer_is_retried(vendor, body):
    spec, standin, endpoint = VENDORS[vendor]
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    with standin_router() as router:
        api = standin(router)
        bad = 2

        async def answer(request: httpx.Request) -> httpx.Response:
            nonlocal bad
            if not bad:
                return await api._handle(request)
            bad -= 1
            if body == "page":
                return httpx.Response(200, text=PAGE, headers={"content-type": "text/html"})
            return httpx.Response(200, json=ERROR_BODY[vendor])

        router.post(endpoint).mock(side_effect=answer)
        agent = make_llm_agent(spec, d.seat, log=log, **{**FAST, "max_retries": RETRIES})
        d.validate(await ask(agent, game, d))
    (rec,) = log.records
    assert rec.accepted and rec.retries == 2 and rec.violation is None and rec.error is None
    assert len(api.requests) == 1  # the third request reached the stand-in's model


class _Game:
    """Just enough of ``arena.metrics.load.GameRecord`` for ``rule_metrics``."""

    def __init__(self, calls: list[dict[str, Any]]):
        self.calls = calls
        self.answers: list[dict[str, Any]] = []  # no agent of one's own at this table

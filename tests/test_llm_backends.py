"""What the OpenAI and Anthropic back ends share, each test run against both vendors'
stand-ins (respx): the key and base-URL variables, and retries that run out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from llm_standins import ANTHROPIC_URL, OPENAI_URL, AnthropicStandIn, OpenAIStandIn, ask, game_at, model_seat, standin_router

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.backends.base import MissingKey

pytestmark = pytest.mark.usefixtures("llm_env")


@dataclass(frozen=True)
class Vendor:
    model: str
    standin: Any  # the stand-in API's class
    endpoint: str  # where its requests go
    key_env: str
    base_url_env: str
    proxy: str  # a base URL of a server of one's own
    max_retries: int  # for the test of retries that run out


VENDORS = {
    "openai": Vendor(
        "openai:gpt-5.4-mini", OpenAIStandIn, f"{OPENAI_URL}/chat/completions", "OPENAI_API_KEY", "OPENAI_BASE_URL",
        "http://vllm.local:8000/v1", 3,
    ),
    "anthropic": Vendor(
        "anthropic:claude-haiku-4-5", AnthropicStandIn, f"{ANTHROPIC_URL}/v1/messages", "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL", "http://proxy.local:4000", 2,
    ),
}  # fmt: skip


@pytest.fixture(params=sorted(VENDORS))
def vendor(request) -> Vendor:
    return VENDORS[request.param]


def test_keyless_environment_is_a_clear_error(vendor, monkeypatch):
    monkeypatch.delenv(vendor.key_env)
    with pytest.raises(MissingKey, match=f"set {vendor.key_env}"):
        make_llm_agent(vendor.model, "Alice")
    monkeypatch.setenv("MY_SERVER_KEY", "")
    with pytest.raises(MissingKey, match="set MY_SERVER_KEY"):
        make_llm_agent(vendor.model, "Alice", api_key_env="MY_SERVER_KEY")


async def test_base_url_env_is_honoured(vendor, monkeypatch):
    monkeypatch.setenv(vendor.base_url_env, vendor.proxy)
    with standin_router() as router:
        api = vendor.standin(router, base_url=vendor.proxy)
        game, d = game_at("vote", after_death=True)
        d.validate(await ask(model_seat(vendor.model, d, CallLog()), game, d))
    assert len(api.requests) == 1


async def test_read_timeouts_until_attempts_run_out_end_in_the_fallback(vendor):
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    retries = vendor.max_retries
    with standin_router() as router:
        route = router.post(vendor.endpoint).mock(side_effect=httpx.ReadTimeout)
        answer = await ask(model_seat(vendor.model, d, log, max_retries=retries), game, d)
    d.validate(answer)
    assert route.call_count == retries + 1
    (rec,) = log.records
    assert rec.fallback and rec.retries == retries
    assert f"gave up after {retries + 1} attempts" in rec.error and "timeout" in rec.error


@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize(
    "base_url, options, expected",
    [
        ("https://api.openai.com/v1", {}, 60.0),  # a vendor: a lost call is retried after a minute
        ("http://127.0.0.1:8080/v1", {}, 300.0),  # a server of one's own: the decision's whole time limit
        ("http://127.0.0.1:8080/v1", {"decision_timeout": 90.0}, 90.0),
        ("http://127.0.0.1:8080/v1", {"timeout": 20.0}, 20.0),  # set: as set
        ("https://api.openai.com/v1", {"timeout": 20.0}, 20.0),
    ],
)
async def test_a_local_server_is_given_the_decisions_time_for_one_call(base_url, options, expected):
    """A slow call to a server of one's own is the server still working on that very
    request (a small model's first prompt on a busy CPU takes minutes): a per-call
    timeout below the decision's limit only drops it and asks again from scratch,
    which turned every call of a loaded game into a fallback."""
    seat = make_llm_agent("openai:smollm2", "Alice", base_url=base_url, **options)
    sent: list[Any] = []

    async def create(client: Any, request: dict[str, Any]) -> Any:
        sent.append(request["timeout"])
        raise httpx.ReadTimeout("stopped here")  # the SDK's call is not under test

    seat.backend.create = create  # type: ignore[method-assign]
    game, d = game_at("vote", after_death=True)
    try:
        d.validate(await ask(seat, game, d))
    finally:
        await seat.backend.aclose()
    assert sent and set(sent) == {expected}

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
        "openai:gpt-4o-mini", OpenAIStandIn, f"{OPENAI_URL}/chat/completions", "OPENAI_API_KEY", "OPENAI_BASE_URL",
        "http://vllm.local:8000/v1", 3,
    ),
    "anthropic": Vendor(
        "anthropic:claude-3-5-haiku-latest", AnthropicStandIn, f"{ANTHROPIC_URL}/v1/messages", "ANTHROPIC_API_KEY",
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

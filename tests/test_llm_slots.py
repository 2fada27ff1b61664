"""A seat keeps its own slot on a llama.cpp server (``agents.llm.backends.slots``): the
real ``openai`` client against a stand-in that answers llama.cpp's ``/props``."""

from __future__ import annotations

import httpx
import pytest
from llm_standins import NAMES, OpenAIStandIn, model_game, standin_router

from agents.llm.accounting import CallLog
from agents.llm.backends import slots

pytestmark = pytest.mark.usefixtures("llm_env")

LOCAL = "http://127.0.0.1:8093/v1"
MODEL = "openai:smollm2"


def seat_of(body: dict) -> str:
    system = body["messages"][0]["content"]
    return next(n for n in NAMES if f"You are {n} (seat" in system)


async def play(monkeypatch, props: httpx.Response | None) -> tuple[OpenAIStandIn, list[httpx.Request]]:
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        probes = router.get("http://127.0.0.1:8093/props")
        if props is not None:
            probes.mock(return_value=props)
        else:
            probes.mock(side_effect=httpx.ConnectError("refused"))
        game = await model_game(MODEL, 3, CallLog())
    assert game.over
    return api, [call.request for call in probes.calls]


async def test_each_seat_names_its_own_slot_on_a_llama_cpp_server(monkeypatch):
    api, probes = await play(monkeypatch, httpx.Response(200, json={"total_slots": 5, "model_alias": "smollm2"}))
    assert len(probes) == 1  # asked once for the endpoint, not once per seat or call
    assert probes[0].headers["authorization"].startswith("Bearer ")  # the seat's own credentials, to its own server
    assert api.requests
    for body in api.requests:
        assert body["id_slot"] == NAMES.index(seat_of(body)) % 5


@pytest.mark.parametrize(
    "props",
    [httpx.Response(404, json={"error": "not found"}), httpx.Response(200, json={"total_slots": 0}), httpx.Response(200, text="<html>"), None],
    ids=["vllm-like 404", "no slots", "not json", "refused"],
)
async def test_a_server_without_slots_is_sent_nothing_extra(monkeypatch, props):
    api, probes = await play(monkeypatch, props)
    assert len(probes) == 1
    assert api.requests and all("id_slot" not in body for body in api.requests)


def test_slot_count_and_url():
    assert slots.props_url("http://127.0.0.1:8093/v1") == "http://127.0.0.1:8093/props"
    assert slots.props_url("http://host:1/llm/v1/") == "http://host:1/llm/props"
    assert slots.props_url("http://host:1") == "http://host:1/props"
    assert [slots.slot_count(v) for v in ({"total_slots": 8}, {"total_slots": True}, {"total_slots": "8"}, [], None)] == [8, None, None, None, None]


def test_a_vendor_api_is_never_probed(monkeypatch):
    """api.openai.com uses the cache layout: no ``/props`` request, no ``id_slot``."""
    import asyncio

    with standin_router() as router:
        api = OpenAIStandIn(router)
        game = asyncio.run(model_game("openai:gpt-4o-mini", 3, CallLog()))
    assert game.over and api.requests
    assert all("id_slot" not in body for body in api.requests)

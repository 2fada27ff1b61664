"""Speech streamed by the back ends that reach many vendors: LiteLLM and LangChain.

Each game plays on the local stand-in server (``arena/standin_server.py``, a real HTTP
server) in the wire format of the vendor the seat reaches (through LiteLLM, or through
LangChain's ``ChatOpenAI`` and ``ChatOllama``): OpenAI's
``chat.completion.chunk`` server-sent events, Gemini's ``streamGenerateContent?alt=sse``
and Ollama's ``/api/chat`` newline-delimited JSON (the stand-in's docstrings cite the
vendors' documentation). The first public speech of each game is one the checks
refuse (private reasoning first, then words, then JSON that breaks); every other one
is answered well. What the people watching were sent is checked: every speech grew
in at least three steps and ended as the speech the transcript records; the refused
one was withdrawn and the checked speech replaced it; no chunk ever held the private
reasoning; the record holds only checked speeches.
"""

from __future__ import annotations

import importlib.util
import json
import re
from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from llm_standins import FAST, NAMES, ask, game_at, schema_chat_model

from agents.llm import from_langchain, make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.streaming import Draft
from arena.standin_server import BROKEN_SPEECH, REASONING, WITHDRAWN, Fault, StandInServer, gemini_events, ollama_lines
from arena.runner import run_async
from engine import Game, GameSetup
from engine.presets import get_preset

pytestmark = pytest.mark.usefixtures("llm_env")

# Private text a draft must never hold: the stand-in's reasoning, the refused reply's.
PRIVATE = re.compile(re.escape(REASONING[:30]) + r"|SECRET PLAN|\"reasoning\"")


def litellm_seat(model: str, path: str = ""):
    """A LiteLLM seat on ``model``, the stand-in as its base URL (plus ``path``)."""

    def make(name: str, seed: int, api: StandInServer, log: CallLog) -> Any:
        if importlib.util.find_spec("litellm") is None:
            pytest.skip("litellm is not installed")
        return make_llm_agent(f"litellm:{model}", name, log=log, seed=seed, base_url=api.anthropic_url + path, api_key_env="STANDIN_KEY", **FAST)

    return make


def langchain_seat(name: str, seed: int, api: StandInServer, log: CallLog) -> Any:
    model = ChatOpenAI(model="standin", base_url=api.base_url, api_key="sk-test-langchain", max_retries=0)
    return from_langchain(model, name, log=log, seed=seed, **FAST)


def ollama_seat(name: str, seed: int, api: StandInServer, log: CallLog) -> Any:
    chat = pytest.importorskip("langchain_ollama")
    return from_langchain(chat.ChatOllama(model="qwen3", base_url=api.anthropic_url), name, log=log, seed=seed, **FAST)


SEATS = [
    pytest.param(litellm_seat("openai/standin", "/v1"), "openai", id="litellm-openai"),
    pytest.param(litellm_seat("gemini/gemini-2.5-flash", "/v1beta"), "gemini", id="litellm-gemini"),
    pytest.param(litellm_seat("ollama_chat/qwen3"), "ollama", id="litellm-ollama"),
    pytest.param(langchain_seat, "openai", id="langchain-openai"),
    pytest.param(ollama_seat, "ollama", id="langchain-ollama"),
]


async def play(seat: Any, *, broken: int = 1, seed: int = 5) -> tuple[Game, CallLog, StandInServer, list[Draft]]:
    """A game of eight seats made by ``seat``, every speech streamed to the drafts; the
    first ``broken`` speeches are replies the checks refuse."""
    game = Game(GameSetup(names=list(NAMES), seed=seed, options=get_preset("millers_hollow").options({"last_words": "all"})))
    log, drafts = CallLog(), []
    with StandInServer(latency=0) as api:
        api.broken_speeches = broken
        agents = {n: seat(n, i, api, log) for i, n in enumerate(NAMES)}
        for agent in agents.values():
            agent.drafts = drafts.append
        await run_async(game, agents)
    return game, log, api, drafts


def by_decision(drafts: list[Draft]) -> dict[int, list[Draft]]:
    out: dict[int, list[Draft]] = {}
    for d in drafts:
        out.setdefault(d.decision, []).append(d)
    return out


@pytest.mark.slow  # a whole game through LiteLLM or LangChain: 15-40 s on a loaded 2-core machine
@pytest.mark.parametrize("seat,vendor", SEATS)
async def test_speech_streams_and_a_refused_one_is_withdrawn(seat, vendor, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", "sk-standin-secret")
    game, log, api, drafts = await play(seat)
    assert game.over and {r.vendor for r in api.requests} == {vendor}
    spoken = [e.data["text"] for e in game.events if e.kind == "speech"]
    steps = by_decision(drafts)
    assert len(steps) == len(spoken) > 0
    first = min(steps)
    for decision, seen in steps.items():
        states = [d.state for d in seen]
        assert "unstreamed" not in states, seen[0].note
        growing = [d.text for d in seen if d.state == "speaking"]
        if decision == first:
            # The refused reply was shown as it came, withdrawn with the reason; the
            # re-ask's checked speech streamed after it and stood.
            withdrawn = states.index("withdrawn")
            assert WITHDRAWN in [d.text for d in seen[:withdrawn]]
            assert "failed the checks" in seen[withdrawn].note
            growing = [d.text for d in seen[withdrawn + 1 :] if d.state == "speaking"]
        assert len(growing) >= 3, f"decision {decision}: {len(growing)} steps"
        assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(growing, growing[1:]))
        assert seen[-1].state == "done" and not seen[-1].replaced
        assert seen[-1].text == growing[-1] and growing[-1] in spoken
    # No chunk ever held the private reasoning; the record holds only checked speeches.
    assert not any(PRIVATE.search(d.text) or PRIVATE.search(d.note) for d in drafts)
    assert not any(WITHDRAWN in t for t in spoken)
    refused = [r for r in log.records if r.kind == "speak" and not r.accepted]
    assert len(refused) == 1 and refused[0].decision == first


@pytest.mark.slow  # LiteLLM's import: 10-25 s on a loaded 2-core machine
@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("seat", [pytest.param(litellm_seat("openai/standin", "/v1"), id="litellm"), pytest.param(langchain_seat, id="langchain")])
async def test_a_stream_cut_on_the_way_is_asked_again_not_charged_to_the_model(seat, fault, monkeypatch):
    """A stream with no event, one ended half-way or one whose connection dropped is the
    server's fault: the speech shown so far is withdrawn and the request retried, and
    the model's record holds no refused answer (LiteLLM fills in a ``finish_reason``
    for a stream that had no event: nothing arrived is what tells it)."""
    monkeypatch.setenv("STANDIN_KEY", "sk-standin-secret")
    game, d = game_at("speak")
    log, drafts = CallLog(), []
    with StandInServer(latency=0) as api:
        agent = seat(d.seat, 0, api, log)
        agent.drafts = drafts.append
        api.push(fault)
        try:
            answer = await ask(agent, game, d)
        finally:
            await agent.aclose()
    d.validate(answer)
    (record,) = log.records
    assert record.accepted and record.retries == 1 and not record.violation
    states = [x.state for x in drafts]
    assert states[-1] == "done" and drafts[-1].text == answer["text"]
    assert ("withdrawn" in states) == (fault is not Fault.EMPTY)  # an empty stream showed nothing to withdraw


async def test_a_langchain_model_without_streaming_says_so():
    """A chat model that implements no streaming answers whole, and the viewers are told why."""
    game = Game(GameSetup(names=list(NAMES), seed=2))
    drafts: list[Draft] = []
    agents = {n: from_langchain(schema_chat_model(seed=i), n, seed=i, **FAST) for i, n in enumerate(NAMES)}
    for agent in agents.values():
        agent.drafts = drafts.append
    await run_async(game, agents)
    assert game.over and drafts and not any(d.state == "speaking" for d in drafts)
    told = [d for d in drafts if d.state == "unstreamed"]
    assert told and all("implements no streaming" in d.note for d in told)


async def test_a_langchain_model_with_streaming_switched_off_says_so():
    with StandInServer(latency=0) as api:
        model = ChatOpenAI(model="standin", base_url=api.base_url, api_key="sk-test-langchain", max_retries=0, disable_streaming=True)
        game = Game(GameSetup(names=list(NAMES), seed=2))
        drafts: list[Draft] = []
        agents = {n: from_langchain(model, n, seed=i, **FAST) for i, n in enumerate(NAMES)}
        for agent in agents.values():
            agent.drafts = drafts.append
        await run_async(game, agents)
    assert game.over and not any(d.state == "speaking" for d in drafts)
    assert all("switched off" in d.note for d in drafts if d.state == "unstreamed")


def test_the_gemini_and_ollama_streams_rebuild_the_whole_answer():
    """The stand-in's pieces join into the answer it would have sent whole, the
    finish reason and the token counts on the last piece, as the vendors send them."""
    text = BROKEN_SPEECH
    response = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 3, "totalTokenCount": 12},
        "modelVersion": "gemini-2.5-flash",
    }
    events = [json.loads(e) for e in gemini_events(response, text, call=False)]
    assert len(events) >= 3 and "".join(e["candidates"][0]["content"]["parts"][0]["text"] for e in events) == text
    assert [("finishReason" in e["candidates"][0], "usageMetadata" in e) for e in events][-2:] == [(False, False), (True, True)]
    done = {"model": "qwen3", "created_at": "t", "message": {"role": "assistant", "content": text}, "done": True, "done_reason": "stop", "eval_count": 3}
    lines = [json.loads(line) for line in ollama_lines(done, text)]
    assert "".join(line["message"]["content"] for line in lines) == text
    assert [line["done"] for line in lines] == [False] * (len(lines) - 1) + [True] and lines[-1]["eval_count"] == 3

"""Model seats under each discussion protocol, on the local stand-in (the real SDK
client pointed at a local server): whole games end, the bid is asked and answered as
an integer, and no prompt of a parallel round holds another speech of that round.
The stand-in writes a unique text per speech, so each can be traced to its prompt."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from llm_standins import FAST, NAMES, OpenAIStandIn, standin_router

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from arena.runner import run_async
from engine import Game, GameSetup, get_preset

pytestmark = pytest.mark.usefixtures("llm_env")


async def play(protocol: str, seed: int) -> tuple[Game, CallLog, dict, OpenAIStandIn]:
    options = get_preset("millers_hollow").options({"discussion": protocol, "discussion_rounds": 2 if protocol == "parallel" else 1})
    game = Game(GameSetup(names=list(NAMES), seed=seed, options=options))
    log = CallLog()
    decisions: dict = {}

    def remember(g, d, answer, agent):
        decisions[d.id] = d

    with standin_router() as router:
        standin = OpenAIStandIn(router, seed=seed, latency=0.005)  # so that concurrent calls overlap
        agents = {
            n: make_llm_agent("openai:gpt-5.4-mini", n, seed=i, log=log, preset=game.preset, rules=game.options, **FAST)
            for i, n in enumerate(NAMES)
        }
        await run_async(game, agents, on_answer=remember)
    return game, log, decisions, standin


def schema_of(body: dict) -> dict:
    """The answer schema a request carried (structured output or a forced tool), as
    its question narrows it in the cache layout."""
    from agents.llm.vendor_cache import narrowed_schema, user_text

    rf = body.get("response_format") or {}
    if rf.get("type") == "json_schema":
        schema = rf["json_schema"]["schema"]
    else:
        schema = body["tools"][0]["function"]["parameters"] if body.get("tools") else {"properties": {}}
    return narrowed_schema(schema, user_text(body.get("messages") or []))


@pytest.mark.parametrize("protocol,seed", [("round_robin", 41), ("bidding", 42), ("parallel", 43)])
async def test_a_model_game_plays_through_under_each_protocol(protocol, seed):
    game, log, decisions, standin = await play(protocol, seed)
    assert game.over and log.records
    assert not [r for r in log.records if r.fallback], "a model seat fell back to a bot"
    kinds = {r.kind for r in log.records}
    assert ("bid" in kinds) == (protocol == "bidding")
    if protocol == "bidding":
        bids = [r for r in log.records if r.kind == "bid"]
        schemas = [schema_of(b) for b in standin.requests]
        bid_schemas = [s for s in schemas if s["properties"].get("action", {}).get("enum") == [0, 1, 2, 3, 4]]
        assert bid_schemas and all(s["properties"]["action"]["type"] == "integer" for s in bid_schemas)
        answered = [a for (_, _, kind, a) in game.answer_log if kind == "bid"]
        assert len(answered) == len([r for r in bids if r.accepted]) and all(type(a) is int for a in answered)
        speeches = [e for e in game.events if e.kind == "speech" and e.phase == "discussion"]
        assert speeches and all(game.events[e.seq - 1].kind == "bids" for e in speeches)


async def test_no_model_prompt_of_a_parallel_round_holds_that_rounds_other_speeches():
    game, log, decisions, standin = await play("parallel", 44)
    assert game.over
    # the orchestrator asked a round's speakers at once: their calls overlap in time
    spans: dict[tuple, list[tuple[float, float]]] = {}
    for r in log.records:
        d = decisions.get(r.decision)
        if d is not None and d.kind == "speak" and d.context.get("protocol") == "parallel" and r.attempt == 1:
            t = datetime.fromisoformat(r.started).timestamp()
            spans.setdefault((r.day, d.context["phase"], d.context["round"]), []).append((t, t + r.latency_s))
    def overlapping(v: list[tuple[float, float]]) -> bool:
        v = sorted(v)
        return any(later < end for (_, end), (later, _) in zip(v, v[1:]))

    assert spans and all(overlapping(v) for v in spans.values() if len(v) > 1)
    rounds: dict[tuple, dict[str, str]] = {}  # (day, phase, round) -> speaker -> text
    for e in game.events:
        if e.kind == "speech" and not e.data.get("last_words"):
            rounds.setdefault((e.day, e.phase, e.data["round"]), {})[e.data["speaker"]] = e.data["text"]
    checked = later = 0
    for r in log.records:
        d = decisions.get(r.decision)
        if d is None or d.kind != "speak" or d.context.get("protocol") != "parallel":
            continue
        prompt = json.dumps(r.messages, ensure_ascii=False)
        day, rnd = r.day, d.context["round"]
        same = rounds[(day, d.context["phase"], rnd)]
        for speaker, text in same.items():
            if speaker != r.seat and text.strip():
                assert text not in prompt, f"{r.seat}'s round-{rnd} prompt holds {speaker}'s round-{rnd} speech"
                checked += 1
        before = rounds.get((day, d.context["phase"], rnd - 1), {})
        if before:  # the previous round was heard: the check above could have failed
            assert all(t in prompt for s, t in before.items() if s != r.seat and t.strip())
            later += 1
    assert checked > 20 and later > 0

"""Replies cut at ``max_tokens`` (and replies that do not parse) never become public.

A local model with a small budget stops in the middle of its JSON, often inside
``"reasoning"``. Such a reply is unfinished whatever it holds: the seat re-asks with
the reason and a larger budget (up to ``max_tokens_cap``), then falls back to the
heuristic bot, a recorded violation. These games play on stand-ins that cut replies
exactly as the vendors do (``finish_reason: "length"``, ``stop_reason: "max_tokens"``)
and check every place a seat's words can reach: every other seat's prompt (as sent on
the wire), the events a transcript records, the terminal narration, and every draft
of a speech streamed to the people watching (``agents.llm.streaming``).
"""

from __future__ import annotations

import io
import json
import re

import pytest
from llm_standins import (
    FAST,
    NAMES,
    AnthropicStandIn,
    OpenAIStandIn,
    SleepRecorder,
    standin_router,
)

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.streaming import Draft
from arena.runner import run_async
from engine import Game, GameSetup
from engine.presets import get_preset

# What the stand-in writes in ``reasoning``: ``stand-in reasoning <12 hex digits>``.
PRIVATE = re.compile(r"stand-in reas|\"reasoning\"|'reasoning'")

VENDORS = [
    pytest.param(OpenAIStandIn, "openai:stand-in", None, id="openai-json_schema"),
    pytest.param(OpenAIStandIn, "openai:stand-in", "tool", id="openai-tool"),
    pytest.param(OpenAIStandIn, "openai:stand-in", "text", id="openai-text"),
    pytest.param(AnthropicStandIn, "anthropic:stand-in", None, id="anthropic-tool"),
    # LangChain's ChatOpenAI on the same stand-in: its speeches stream through
    # ``astream_events``, so its drafts are scanned too.
    pytest.param(OpenAIStandIn, "langchain:openai:stand-in", None, id="langchain-openai"),
]


pytestmark = pytest.mark.usefixtures("llm_env")


def _said(game: Game) -> list[str]:
    """Every word a seat made public or passed on: speeches, last words, night talk, notes."""
    return [str(e.data.get("text", "")) for e in game.events if "text" in (e.data or {})]


def _read_by_seats(api) -> list[str]:
    """Every text a seat was given to read, as sent: system, history, question and
    corrections; not the seat's own earlier replies replayed to it (its own words)."""
    out: list[str] = []
    for body in api.requests:
        system = body.get("system")
        if system is not None:
            out.append(json.dumps(system, ensure_ascii=False))
        for m in body["messages"]:
            if m["role"] == "assistant":
                continue
            out.append(json.dumps(m.get("content"), ensure_ascii=False))
    return out


def _narration(game: Game) -> str:
    from rich.console import Console

    from prompts.narrate import Narrator

    buf = io.StringIO()
    Narrator(Console(file=buf, width=200, color_system=None), god=True).feed(game.events)
    return buf.getvalue()


async def play_cut_game(standin, spec: str, mode: str | None, *, seed: int = 3, **cutting):
    """A game of eight model seats whose server cuts replies (``cutting``: the stand-in's
    ``honour_max_tokens`` / ``cut_at``); seat options in ``cutting['seat']``."""
    seat = cutting.pop("seat", {})
    options = get_preset("millers_hollow").options({"last_words": "all"})
    game = Game(GameSetup(names=list(NAMES), seed=seed, options=options))
    log = CallLog()
    drafts: list[Draft] = []
    with standin_router() as router:
        api = standin(router, seed=seed)
        for k, v in cutting.items():
            setattr(api, k, v)
        agents = {
            n: make_llm_agent(spec, n, log=log, seed=i, sleep=SleepRecorder(), **{**FAST, **({"mode": mode} if mode else {}), **seat})
            for i, n in enumerate(NAMES)
        }
        for agent in agents.values():
            agent.drafts = drafts.append  # every speech streamed, as a web table follows it
        await run_async(game, agents)
    api.drafts = drafts
    return game, log, api


def leaks(game: Game, api) -> dict[str, int]:
    """Private text found where others read: in words made public, in what seats were
    sent to read, in the narration, in every streamed draft of a speech."""
    return {
        "drafts": sum(1 for d in getattr(api, "drafts", []) if PRIVATE.search(d.text) or PRIVATE.search(d.note)),
        "speeches": sum(1 for t in _said(game) if PRIVATE.search(t)),
        "prompts": sum(1 for t in _read_by_seats(api) if "stand-in reas" in t),
        "narration": len(re.findall(r"stand-in reas|\"reasoning\"", _narration(game))),
    }


# Not LangChain: its chat models take no completion budget per request, so a re-ask
# cannot be given a larger one (the next test holds it to the rest).
@pytest.mark.parametrize("standin,spec,mode", VENDORS[:4])
async def test_cut_replies_are_reasked_with_a_larger_budget_and_never_published(standin, spec, mode):
    # 16 tokens (64 characters) holds no whole answer; the re-ask gets 32, which holds
    # a vote but no speech (its words and claims are longer), so speeches fall back.
    game, log, api = await play_cut_game(
        standin,
        spec,
        mode,
        honour_max_tokens=True,
        # Budgets sized for each decision's own schema (the game-wide one's answers
        # carry its empty fields too: a vote no longer fits in 32 tokens).
        seat={"max_tokens": 16, "max_tokens_cap": 32, "max_reasks": 2, "prompt_layout": "grammar"},
    )
    assert game.over and api.cuts > 0
    assert leaks(game, api) == {"drafts": 0, "speeches": 0, "prompts": 0, "narration": 0}
    cut = [r for r in log.records if r.violation and "cut off at the length limit" in r.violation]
    assert cut and all(not r.accepted for r in cut)
    # Each re-ask after a cut doubles the budget, up to the cap.
    budgets = [b.get("max_tokens") or b.get("max_completion_tokens") for b in api.requests]
    assert set(budgets) == {16, 32}
    # Some answers came through on a larger budget; the rest fell back, recorded.
    assert any(r.accepted and r.attempt > 1 for r in log.records)
    assert any(r.fallback and r.kind == "speak" for r in log.records)
    answered = {r.decision for r in log.records if r.accepted or r.fallback}
    assert len(answered) == len(game.answer_log)
    for r in log.records:
        if r.fallback:
            assert r.violation or r.error


@pytest.mark.parametrize("standin,spec,mode", VENDORS[:1] + VENDORS[3:])
async def test_a_model_that_is_always_cut_is_played_by_the_fallback(standin, spec, mode):
    game, log, api = await play_cut_game(standin, spec, mode, cut_at=120, seat={"max_reasks": 1})
    assert game.over
    assert leaks(game, api) == {"drafts": 0, "speeches": 0, "prompts": 0, "narration": 0}
    decisions = {r.decision for r in log.records}
    # Choices short enough to fit may pass; no speech does (its JSON is longer), so
    # every speech is the fallback bot's, each counted as a violation.
    speeches = {r.decision for r in log.records if r.kind == "speak"}
    assert speeches and all(any(r.fallback and r.violation for r in log.records if r.decision == d) for d in speeches)
    assert not any(r.accepted for r in log.records if r.kind == "speak")
    assert len({r.decision for r in log.records if r.accepted or r.fallback}) == len(decisions)


async def test_a_langchain_reply_cut_at_its_budget_is_asked_again():
    """LangChain models say it in ``response_metadata`` (``finish_reason`` or
    ``stop_reason``, as the provider names it)."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from llm_standins import ask, game_at

    from agents.llm import from_langchain

    game, d = game_at("speak")
    log = CallLog()
    replies = [
        AIMessage(content='{"reasoning": "I am the wolf, so I will', response_metadata={"finish_reason": "length"}),
        AIMessage(content='{"reasoning": "keep it short", "text": "Good morning, all.", "claims": {}}', response_metadata={"stop_reason": "end_turn"}),
    ]
    model = GenericFakeChatModel(messages=iter(replies))
    answer = await ask(from_langchain(model, d.seat, log=log, **FAST), game, d)
    assert answer["text"] == "Good morning, all."
    first, second = log.records
    assert "cut off at the length limit" in first.violation and not first.accepted and second.accepted

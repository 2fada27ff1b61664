"""A remote seat's speech streamed over A2A (``message/stream``), when its card says so.

The stand-in agents of ``tests/a2a_standins.py`` are real A2A servers (the official
SDK's). In ``stream`` mode the card says ``capabilities.streaming: true`` and every
answer comes as server-sent events: a task, then its answer's JSON text in pieces
appended to one artifact, the private reasoning first, then the completed status;
its first public speech is a reply the checks refuse. An agent whose card does not
stream is sent its messages whole, and the viewers are told so.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from a2a_standins import serving
from llm_standins import NAMES

from agents.a2a.agent import A2AAgent
from agents.llm.streaming import Draft
from arena.standin_server import WITHDRAWN
from arena.runner import run_async
from engine import Game, GameSetup
from engine.presets import get_preset

pytest.importorskip("a2a")

PRIVATE = re.compile(r"private note of|SECRET PLAN|\"reasoning\"")


async def play(url: str) -> tuple[Game, list[Draft], list[Any]]:
    """A game of eight seats played by the agent at ``url``, every speech streamed to the drafts."""
    game = Game(GameSetup(names=list(NAMES), seed=5, options=get_preset("millers_hollow").options({"last_words": "all"})))
    drafts: list[Draft] = []
    agents = {n: A2AAgent(n, url, seed=i) for i, n in enumerate(NAMES)}
    for agent in agents.values():
        agent.drafts = drafts.append
    try:
        await run_async(game, agents)
    finally:
        for agent in agents.values():
            await agent.aclose()
    return game, drafts, [r for a in agents.values() for r in a.calls.records]


def by_decision(drafts: list[Draft]) -> dict[int, list[Draft]]:
    out: dict[int, list[Draft]] = {}
    for d in drafts:
        out.setdefault(d.decision, []).append(d)
    return out


def test_a_streaming_agents_speech_grows_and_a_refused_one_is_withdrawn():
    with serving("--behave", "*=stream:1") as url:
        game, drafts, records = asyncio.run(play(url))
    assert game.over
    spoken = [e.data["text"] for e in game.events if e.kind == "speech"]
    steps = by_decision(drafts)
    assert len(steps) == len(spoken) > 0
    refused = [r for r in records if r.kind == "speak" and not r.accepted]
    assert len(refused) == 1
    for decision, seen in steps.items():
        states = [d.state for d in seen]
        assert "unstreamed" not in states
        growing = [d.text for d in seen if d.state == "speaking"]
        if decision == refused[0].decision:
            withdrawn = states.index("withdrawn")
            assert WITHDRAWN in [d.text for d in seen[:withdrawn]] and "failed the checks" in seen[withdrawn].note
            growing = [d.text for d in seen[withdrawn + 1 :] if d.state == "speaking"]
        assert len(growing) >= 3, f"decision {decision}: {len(growing)} steps"
        assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(growing, growing[1:]))
        assert seen[-1].state == "done" and not seen[-1].replaced and seen[-1].text == growing[-1] in spoken
    # Every other decision's answer, read from the streamed task, was accepted.
    assert all(r.accepted for r in records if r is not refused[0])
    assert not any(PRIVATE.search(d.text) or PRIVATE.search(d.note) for d in drafts)
    assert not any(WITHDRAWN in t for t in spoken)


def test_an_agent_that_does_not_stream_says_so():
    with serving() as url:
        game, drafts, records = asyncio.run(play(url))
    assert game.over and records and all(r.accepted for r in records)
    assert drafts and not any(d.state == "speaking" for d in drafts)
    told = [d for d in drafts if d.state == "unstreamed"]
    assert told and all("does not stream its replies" in d.note for d in told)

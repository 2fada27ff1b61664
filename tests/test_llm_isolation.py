"""Isolation on real prompts: in full games of model seats, no request a seat's model
receives holds anything that seat was not shown.

Three checks on every recorded call: the history in the prompt is exactly a prefix of
the rendering of that seat's own observation (so it can only say what the engine
showed the seat); the system prompt is the one built from the seat's own dealt role;
and no private text (wolf talk, anybody's private reasoning) appears in the prompt of
a seat outside its audience. The stand-in models write unique strings, so each text
can be traced to the call that wrote it.
"""

from __future__ import annotations

import json

import pytest
from llm_standins import FAST, NAMES, AnthropicStandIn, OpenAIStandIn, standin_router, without_fields_line

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from arena.runner import run_async
from engine import Game, GameSetup
from prompts.render import decision_prompt, history_entries, system_prompt

DECK = ["werewolf", "werewolf", "seer", "witch", "cupid", "little_girl", "hunter", "villager"]
pytestmark = pytest.mark.usefixtures("llm_env")


def prompt_parts(vendor: str, messages: list[dict]) -> tuple[str, str]:
    """(system text, first user message text) of a recorded request."""
    if vendor == "openai":
        return messages[0]["content"], messages[1]["content"]
    system = "".join(b["text"] for b in messages[0]["content"])
    user = "".join(b["text"] for b in messages[1]["content"])
    return system, user


@pytest.mark.parametrize("vendor,seed,language", [("openai", 21, "en"), ("anthropic", 22, "en"), ("openai", 23, "zh")])
async def test_no_prompt_holds_another_seats_secrets(vendor, seed, language):
    game = Game(GameSetup(names=list(NAMES), seed=seed, roles=list(DECK)))
    log = CallLog()
    decisions = {}

    def remember(g, d, answer, agent):
        decisions[d.id] = d

    with standin_router() as router:
        (OpenAIStandIn if vendor == "openai" else AnthropicStandIn)(router, seed=seed)
        spec = "openai:gpt-5.4-mini" if vendor == "openai" else "anthropic:claude-haiku-4-5"
        agents = {
            n: make_llm_agent(spec, n, seed=i, log=log, language=language, preset=game.preset, rules=game.options, **FAST)
            for i, n in enumerate(NAMES)
        }
        await run_async(game, agents, on_answer=remember)
    assert game.over and log.records

    dealt = {p.name: p.initial_role for p in game.players}
    start = next(e for e in game.events if e.kind == "game_start").data

    # Which seats may read a private text: the audiences of every event carrying it.
    readers: dict[str, set[str]] = {}
    for e in game.events:
        text = e.data.get("text")
        if isinstance(text, str) and len(text) > 20:
            audience = set(NAMES) if e.is_public else set() if e.audience == "narrator" else set(e.audience)
            readers.setdefault(text, set()).update(audience)
    assert any(len(allowed) < len(NAMES) for allowed in readers.values())  # wolf talk was checked
    reasonings: dict[str, list[str]] = {r.seat: [] for r in log.records}
    for r in log.records:
        if isinstance(r.parsed, dict) and r.parsed.get("reasoning"):
            reasonings[r.seat].append(r.parsed["reasoning"])

    for seat in NAMES:
        entries = [x for x in history_entries(game.observation(seat), seat, language=language) if x]
        full = "\n".join(entries)
        expected_system = system_prompt(
            preset=game.preset,
            options=game.options,
            seat=seat,
            role=dealt[seat],
            players=list(NAMES),
            language=language,
            deck=start.get("roles_in_play"),
            layout="cache",
            limits=agents[seat]._stated_limits(),  # the seat's own options: what one reply may spend
        )
        for r in (r for r in log.records if r.seat == seat and r.messages):
            system, user = prompt_parts(vendor, r.messages)
            user = without_fields_line(user)
            assert system.strip() == expected_system.strip()
            question = decision_prompt(decisions[r.decision], language=language, reminder=False, listed=False)  # the cache layout
            # The question is last (a Witch's heal carries tonight's poison question after it).
            assert user.endswith(question) or (r.kind == "witch_heal" and question in user)
            history = user[: user.rindex(question)].rstrip("\n")
            assert full.startswith(history), f"{seat}'s prompt for decision {r.decision} is not its own history"
            everything = json.dumps(r.messages, ensure_ascii=False)
            for text, allowed in readers.items():
                if seat not in allowed:
                    assert json.dumps(text, ensure_ascii=False)[1:-1] not in everything, f"{seat} read a private text"
            for other, secrets in reasonings.items():
                if other != seat:
                    for secret in secrets:
                        assert secret not in everything, f"{seat} read {other}'s private reasoning"

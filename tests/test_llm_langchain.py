"""The LangChain back end, through langchain_core's own fake chat models and a
schema-aware fake that implements tool binding like a provider integration."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.language_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage
from llm_standins import FAST, NAMES, ask, game_at, schema_chat_model

from agents.llm import from_langchain
from agents.llm.accounting import CallLog
from arena.cli import main
from arena.gamefile import spec_from_data
from arena.play_loop import run_game
from arena.runner import run_async, view_for
from engine import Game, GameSetup

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.usefixtures("llm_state")


async def test_structured_output_where_the_model_binds_tools():
    game, d = game_at("vote", after_death=True)
    log = CallLog()
    model = schema_chat_model(1)
    answer = await from_langchain(model, d.seat, log=log, **FAST).adecide(view_for(game, d.seat), d)
    d.validate(answer)
    (rec,) = log.records
    assert rec.backend == "langchain" and rec.mode == "tool" and rec.accepted
    assert rec.input_tokens > 0 and rec.output_tokens > 0
    assert [m["role"] for m in rec.messages] == ["system", "human"]
    assert rec.price_known is False and rec.cost_usd is None  # no price for this model: never guessed


async def test_fake_list_model_text_path_with_tolerant_parser():
    game, d = game_at("vote", after_death=True)
    target = d.options[0]
    log = CallLog()
    model = FakeListChatModel(responses=[f"```json\n{{'action': '{target.lower()}'}}\n```"])
    answer = await ask(from_langchain(model, d.seat, log=log, **FAST), game, d)
    assert answer == target
    assert log.records[0].mode == "text" and "JSON schema" in log.records[0].messages[1]["content"][-1]["text"]


async def test_generic_fake_model_bad_answers_are_reasked_then_fall_back():
    game, d = game_at("vote", after_death=True)
    dead = next(iter(view_for(game, d.seat).dead))
    log = CallLog()
    model = GenericFakeChatModel(messages=iter([AIMessage(content="Zed"), AIMessage(content=dead), AIMessage(content="{}")]))
    answer = await ask(from_langchain(model, d.seat, log=log, **FAST), game, d)
    d.validate(answer)
    assert [bool(r.violation) for r in log.records] == [True, True, True]
    assert '"Zed" is not a player' in log.records[0].violation and f"{dead} is dead" in log.records[1].violation
    assert log.records[-1].fallback
    # The re-ask carries the bad reply and the reason.
    last = log.records[-1].messages
    assert last[-2] == {"role": "ai", "content": dead} and "is dead" in last[-1]["content"]


async def test_provider_errors_are_classified_by_shape():
    class RateLimitError(Exception):
        status_code = 429

    class Flaky(GenericFakeChatModel):
        fails: int = 2

        def _generate(self, *a, **k):
            if self.fails:
                self.fails -= 1
                raise RateLimitError("slow down")
            return super()._generate(*a, **k)

    game, d = game_at("vote", after_death=True)
    log = CallLog()
    model = Flaky(messages=iter([AIMessage(content=d.options[0])]))
    assert await ask(from_langchain(model, d.seat, log=log, **FAST), game, d) == d.options[0]
    assert log.records[0].retries == 2


async def test_model_that_raises_something_else_falls_back_without_crashing():
    class Broken(GenericFakeChatModel):
        def _generate(self, *a, **k):
            raise ValueError("provider said no")

    game, d = game_at("vote", after_death=True)
    log = CallLog()
    d.validate(await ask(from_langchain(Broken(messages=iter([])), d.seat, log=log, **FAST), game, d))
    assert log.records[0].fallback and "provider said no" in log.records[0].error and log.records[0].retries == 0


def test_only_chat_models_are_accepted():
    with pytest.raises(TypeError, match="BaseChatModel"):
        from_langchain(object(), "Alice")


@pytest.mark.parametrize("structured", [True, False])
async def test_full_game_of_eight_langchain_seats_finishes(structured):
    game = Game(GameSetup(names=list(NAMES), seed=6))
    log = CallLog()
    agents = {n: from_langchain(schema_chat_model(i, structured=structured), n, seed=i, log=log, **FAST) for i, n in enumerate(NAMES)}
    await run_async(game, agents)
    assert game.over
    assert {r.seat for r in log.records} == {seat for _, seat, _, _ in game.answer_log}  # every seat that was asked
    assert {r.mode for r in log.records} == ({"tool"} if structured else {"text"})
    assert not any(r.fallback for r in log.records)
    assert sum(r.cached_tokens or 0 for r in log.records) > 0
    assert all(r.input_tokens and r.output_tokens for r in log.records)


async def test_full_game_of_fake_list_models_that_answer_nonsense_still_finishes():
    """The worst table: models that never answer in the required form. Every
    decision ends in the heuristic fallback, recorded, and the game reaches its end;
    their prose is never published as a speech (it could be private thinking)."""
    game = Game(GameSetup(names=list(NAMES), seed=9))
    log = CallLog()
    agents = {n: from_langchain(FakeListChatModel(responses=["I refuse to play."]), n, log=log, **{**FAST, "max_reasks": 1}) for n in NAMES}
    await run_async(game, agents)
    assert game.over
    decisions = {r.decision for r in log.records}
    assert decisions and {r.decision for r in log.records if r.fallback} == decisions
    assert not any(r.accepted for r in log.records)
    spoken = [e.data.get("text") for e in game.events if e.kind in ("speech", "wolf_chat")]
    assert spoken and "I refuse to play." not in spoken


def test_a_langchain_openai_seat_plays_one_loop_after_another(tmp_path, monkeypatch, capsys):
    """langchain-openai gives every ``ChatOpenAI`` on one base URL the same async HTTP
    client for the whole process, whose pooled connections belong to the event loop of
    their first request. Games played one after another in one process (a tournament's,
    each in an ``asyncio.run`` of its own) and the check made before a game in its own
    loop must not inherit them ("Event loop is closed"). Against the real-socket
    stand-in (``arena/standin_server.py``), whose keep-alive connections the client
    pools as it would a vendor's (HTTP/1.1 persistent connections, RFC 9112 section 9.3)."""
    from arena.standin_server import StandInServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-standin-local")
    spec = "langchain:openai:gpt-5.4-mini"
    with StandInServer(latency=0) as api:
        options = {**FAST, "base_url": api.base_url}
        for seed in (1, 2):  # two games, two event loops, one process
            seats = [{"name": n, "agent": spec, "options": options} if n == NAMES[0] else {"name": n, "agent": "heuristic"} for n in NAMES]
            calls = CallLog()
            game, agents = spec_from_data({"seed": seed, "seats": seats}).build(calls=calls)
            asyncio.run(run_game(game, agents, on_answer=None))
            assert game.over and calls.records
            assert all(r.accepted and r.error is None for r in calls.records), {r.error for r in calls.records}
            assert not agents[NAMES[0]].backend.open  # its client closed in the loop that opened it
        # ``werewolf play``: the check before the game in one loop, the game in another
        # (among heuristic bots, as above: at seed 4 among them Alice lives to be asked).
        out = tmp_path / "g.jsonl"
        code = main(["play", "--players", "8", "--seed", "4", "--agents", "heuristic", "--seat", f"Alice={spec}", "--model-option", f"base_url={api.base_url}",
                     "--model-option", "max_retries=0", "--transcript", str(out), "--json", "--quiet"])  # fmt: skip
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0
    (seat,) = result["model_seats"]
    assert seat["calls"] > 0 and seat["fallbacks"] == 0 and seat["errors"] == 0

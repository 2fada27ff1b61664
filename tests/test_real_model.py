"""A real model, not only stand-ins: SmolLM2-135M-Instruct served by llama.cpp on
127.0.0.1, reached through the real ``openai`` client and the project's own model seat.

The model plays badly. What is tested is that the real wire protocol, a real server's
quirks (its JSON-schema grammar, its usage block, its prompt cache, requests decoded
side by side) and a real model's odd answers all pass through the agent, and that the
game still ends, with every call accounted for. CI runs these tests; see
``tests/real_model.py`` for the fixture and the one way to skip them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest
from real_model import MODEL, NAMES, SEAT_OPTIONS, SLOTS, SPEC, point_openai_at, serve, tell

from agents.llm.accounting import CallLog
from agents.registry import make_agent
from arena.local_model import GGUF_SIZE, LocalModelServer, cache_dir, cached_model, fetch_model
from arena.runner import run_async
from engine import Game, GameSetup
from engine.presets import get_preset

# Past this, the seats stop asking the model and the fallback bot finishes the game: a
# machine far slower than expected must cost a slow test, never a hung CI.
GAME_BUDGET_S = 300.0


def _raw_json(text: object) -> bool:
    """Words that are a reply's JSON rather than a speech."""
    t = str(text or "").strip()
    return '"reasoning"' in t or t.startswith(("{", "```"))


@pytest.fixture(scope="module")
def server(request):
    yield from serve(request)


@pytest.fixture(autouse=True)
def _fresh_llm_state():
    """Process-wide state other tests may have changed: learned answer modes, limits."""
    from agents.llm.backends.base import forget_learned_modes
    from agents.llm.limits import configure

    forget_learned_modes()
    configure(global_limit=SLOTS, per_model={}, default_per_model=SLOTS)
    yield
    forget_learned_modes()
    configure(global_limit=32, per_model={}, default_per_model=8)


# ---------------------------------------------------------------------- the model file
def test_model_cache_is_reused_and_checked_by_size(tmp_path, monkeypatch):
    from real_model import model_file

    real = model_file()  # fetched into the usual cache if it is not there yet
    monkeypatch.setenv("WEREWOLF_MODEL_CACHE", str(tmp_path / "cache"))
    assert cache_dir() == tmp_path / "cache"
    assert cached_model() is None
    (tmp_path / "cache").mkdir()
    partial = tmp_path / "cache" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    partial.write_bytes(b"GGUF" + b"\0" * 100)  # a fetch cut short is not the model
    assert cached_model() is None
    monkeypatch.setenv("WEREWOLF_MODEL_CACHE", os.path.dirname(real))
    found = cached_model()
    assert found is not None and found.stat().st_size == GGUF_SIZE
    assert fetch_model() == found  # no download when the cache holds it


# ---------------------------------------------------------------------- the server
def test_server_speaks_openai_with_schema_constrained_output(server, monkeypatch):
    """The plain ``openai`` client: the model list, a JSON-schema answer restricted to
    an enum, and the usage block a seat's accounting reads."""
    import openai

    point_openai_at(monkeypatch, server)
    assert server.base_url.startswith("http://127.0.0.1:")
    client = openai.OpenAI(base_url=server.base_url, api_key="sk-local-test", max_retries=0, timeout=120)
    assert MODEL in [m.id for m in client.models.list().data]
    schema = {
        "type": "object",
        "properties": {"reasoning": {"type": "string"}, "action": {"type": ["string", "null"], "enum": ["Bob", "Chloe", None]}},
        "required": ["reasoning", "action"],
        "additionalProperties": False,
    }
    resp = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "You are Alice, a villager in a game of Werewolf."},
            {"role": "user", "content": "Vote to eliminate Bob or Chloe. Answer in JSON."},
        ],
        response_format={"type": "json_schema", "json_schema": {"name": "vote", "schema": schema, "strict": True}},
        max_tokens=96,
        temperature=0,
    )
    text = resp.choices[0].message.content
    assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0
    if resp.choices[0].finish_reason == "stop":  # cut at max_tokens, the JSON may be unfinished
        assert json.loads(text)["action"] in ("Bob", "Chloe", None)


def test_server_stops_when_its_parent_goes_away():
    """The server watches its standard input: a parent killed outright (no ``stop``)
    must not leave a model server running on the machine."""
    from real_model import model_file

    s = LocalModelServer(model_file(), n_parallel=1, n_ctx=512, verbosity=1)
    s.start()
    proc = s._proc
    assert proc is not None and s.running
    proc.stdin.close()  # what the parent's death does to the pipe
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the server outlived its parent's pipe")
    finally:
        s.stop()


# ---------------------------------------------------------------------- a cut reply
async def test_a_reply_cut_at_max_tokens_is_asked_again_and_never_published(server, monkeypatch):
    """llama.cpp stops at the budget with ``finish_reason: "length"``: the seat reads
    nothing from that reply, asks again with twice the budget, and what it finally
    says (the model's or the fallback bot's) holds no JSON and no reasoning."""
    from llm_standins import ask, game_at

    point_openai_at(monkeypatch, server)
    game, d = game_at("speak")
    log = CallLog()
    # One seat, one question: patient limits, so a busy machine still gets its replies.
    options = {**SEAT_OPTIONS, "max_tokens": 16, "max_tokens_cap": 32, "max_reasks": 1, "timeout": 240.0, "decision_timeout": 600.0}
    agent = make_agent(SPEC, d.seat, log=log, preset="millers_hollow", rules=game.options, **options)
    try:
        answer = await ask(agent, game, d)
    finally:
        await agent.backend.aclose()
    d.validate(answer)
    first = log.records[0]
    assert first.reply and first.violation and "cut off at the length limit (16 tokens)" in first.violation, first
    assert not first.accepted
    if len(log.records) > 1:
        assert "(32 tokens)" in (log.records[1].violation or "(32 tokens)")
    assert not _raw_json(answer["text"]) and "reasoning" not in answer["text"], answer


# ---------------------------------------------------------------------- what a reply may spend
@pytest.mark.parametrize("language", ["en", "zh"])
def test_each_kinds_budget_holds_the_longest_reply_the_grammar_allows(server, language):
    """A local seat's default limits are enforced by the server's grammar; the token
    budget is only the net under the longest reply they let through. Counted by the
    model's own tokenizer (llama.cpp's ``/tokenize``), that reply fits, so no reply
    the grammar allows is cut and asked again (measured before: 3 of 7 speeches cut
    at 198 tokens; later 4 of 242 replies cut at 298, runs of brackets or numbers)."""
    import urllib.request

    from agents.llm.config import LLMOptions

    o = LLMOptions()
    reasoning, text = o.chars("grammar")

    def tokens(value: object) -> int:
        body = json.dumps({"content": json.dumps(value, indent=2, ensure_ascii=False)}).encode()
        request = urllib.request.Request(server.base_url.rsplit("/v1", 1)[0] + "/tokenize", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as r:
            return len(json.loads(r.read())["tokens"])

    # n characters of what a small model repeats: words, and the runs of brackets and
    # numbers a token each that SmolLM2 wrote in measured games (cut at the budget then).
    # At most a token a character in English; in Chinese the budget is max_tokens, under
    # which the game's own words fit (a run of one rare character would not: 3 a character).
    repeated = ["我们投票给他吧，" if language == "zh" else "You die. ", "}", "2021 } ", "1."]
    for unit in repeated:
        def words(n: int) -> str:
            return (unit * n)[:n]

        longest_speech = {
            "reasoning": words(reasoning),
            "text": words(text),
            "claims": {"role": "werewolf", "checks": [{"target": "Chloe", "role": "werewolf"}] * 3, "accuses": ["Alice", "Bob", "Chloe"]},
        }
        longest_choice = {"reasoning": words(reasoning), "action": "Chloe"}
        assert tokens(longest_speech) <= o.budget("words", language=language, layout="grammar"), unit
        assert tokens(longest_choice) <= o.budget("choice", language=language, layout="grammar"), unit


# ---------------------------------------------------------------------- a whole game
@pytest.mark.slow
async def test_full_game_of_eight_real_model_seats_ends(server, monkeypatch, tmp_path, request):
    point_openai_at(monkeypatch, server)
    # The recommended 8-player deck. No Sheriff and one debate round keep the game
    # short; a tied vote is settled by lot, nobody may abstain and the pack's plurality
    # decides, so every day and every night kill, and the game ends within four days
    # however badly the model plays.
    options = get_preset("millers_hollow").options().updated(
        {"sheriff": False, "discussion_rounds": 1, "tie": "random", "allow_abstain": False, "wolf_pack": "plurality"}
    )
    game = Game(GameSetup(names=list(NAMES), seed=5, options=options))
    log = CallLog()
    agents = {
        n: make_agent(SPEC, n, seed=i, log=log, preset="millers_hollow", rules=game.options, **SEAT_OPTIONS)
        for i, n in enumerate(NAMES)
    }
    started = time.monotonic()
    tell(request, f"playing a whole game of {len(NAMES)} model seats (at most {GAME_BUDGET_S:g} s, then the fallback bot finishes it)")
    told = {"day": -1}

    def budget(game, decision, answer, agent):
        if game.day != told["day"]:
            told["day"] = game.day
            tell(request, f"day {game.day}: {len(game.answer_log)} decisions answered, {time.monotonic() - started:.0f} s")
        if time.monotonic() - started > GAME_BUDGET_S:
            for a in agents.values():
                a.disabled = a.disabled or f"the test's game budget ({GAME_BUDGET_S:g}s) is spent"

    try:
        await run_async(game, agents, on_answer=budget)
    finally:
        for a in agents.values():
            await a.backend.aclose()
    elapsed = time.monotonic() - started

    records = log.records
    asked = [r for r in records if r.messages]
    replied = [r for r in asked if r.reply is not None]
    accepted = [r for r in records if r.accepted]
    summary = {
        "seconds": round(elapsed, 1),
        "server_startup_s": round(getattr(server, "startup_s", 0.0), 1),
        "threads": server.threads,
        "winner": game.winner,
        "days": game.day,
        "decisions": len(game.answer_log),
        "calls": len(asked),
        "accepted": len(accepted),
        "violations": sum(1 for r in records if r.violation),
        "fallbacks": sum(1 for r in records if r.fallback),
        "errors": sum(1 for r in records if r.error),
        "input_tokens": sum(r.input_tokens or 0 for r in records),
        "cached_tokens": sum(r.cached_tokens or 0 for r in records),
        "output_tokens": sum(r.output_tokens or 0 for r in records),
        "modes": sorted({r.mode for r in asked if r.mode}),
        "budget_spent": any(a.disabled for a in agents.values()),
        # Public words holding a reply's raw JSON (a reply cut at max_tokens, read leniently).
        "json_speeches": sum(1 for e in game.events if e.kind in ("speech", "wolf_chat") and _raw_json(e.data.get("text"))),
        "cut_replies": sum(1 for r in records if r.violation and "cut off at the length limit" in r.violation),
    }
    calls_file = tmp_path / "calls.jsonl"  # every record, to read when this test fails
    calls_file.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    print("\nreal-model game:", json.dumps(summary), "records:", calls_file)

    # No reply's raw text, private reasoning included, is ever made public: a reply
    # cut at max_tokens is asked again with a larger budget, then played by the fallback.
    assert summary["json_speeches"] == 0, summary

    # The game ended, with a legal outcome.
    assert game.over and game.winner in ("village", "werewolves"), summary
    # Real calls went over the wire and came back with real usage figures. (On a
    # machine busy enough to spend the budget, only a few calls may finish: the
    # fallback bot plays the rest, which is the behaviour under test too.)
    assert replied, summary
    assert all(r.input_tokens and r.input_tokens > 0 and r.output_tokens and r.output_tokens > 0 for r in replied), summary
    # The model's answers were read: some were taken as the seat's move.
    assert accepted, summary
    # llama.cpp takes the JSON schema: the seats' first choice of answer format works.
    assert "json_schema" in summary["modes"], summary
    # The server's prompt cache serves this layout: a seat's later calls reuse the
    # prefix of its earlier ones, and the usage block says so.
    seats_heard_twice = [n for n in NAMES if sum(1 for r in replied if r.seat == n) >= 2]
    if seats_heard_twice:
        assert summary["cached_tokens"] > 0, summary
    # Every decision of the game is accounted for: taken from the model or played by
    # the fallback bot, and a fallback always says why.
    answered = {r.decision for r in records if r.accepted or r.fallback}
    assert len(answered) == len(game.answer_log), summary
    for r in records:
        if r.fallback:
            assert r.violation or r.error, r
        if r.violation:
            assert r.reply is not None and not r.accepted, r
    # The odd answers were refused for a stated reason, not crashed on.
    assert all(isinstance(r.violation, str) and r.violation for r in records if r.violation)
    # No key ever reaches the record.
    assert "sk-local-test" not in json.dumps([r.model_dump() for r in records])

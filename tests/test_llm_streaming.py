"""A model seat's speech streamed as it is written (``agents.llm.streaming``).

Every game here plays on the stand-ins of ``tests/llm_standins.py``, which stream as
the vendors document it (OpenAI's ``chat.completion.chunk`` events, Anthropic's named
events), and checks what the people watching were sent: the public ``text`` field
growing piece by piece, never the private reasoning; a reply that then fails the
checks withdrawn and replaced by the checked speech; the record holding only the
checked speech; a server that cannot stream a schema saying so.
"""

from __future__ import annotations

from typing import Any

import pytest
from llm_standins import FAST, NAMES, AnthropicStandIn, OpenAIStandIn, Reply, SleepRecorder, standin_router

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.streaming import Draft, visible_text
from arena.runner import run_async
from engine import Game, GameSetup
from engine.presets import get_preset

pytestmark = pytest.mark.usefixtures("llm_env")

VENDORS = [
    pytest.param(OpenAIStandIn, "openai:stand-in", None, id="openai-json_schema"),
    pytest.param(OpenAIStandIn, "openai:stand-in", "tool", id="openai-tool"),
    pytest.param(OpenAIStandIn, "openai:stand-in", "text", id="openai-text"),
    pytest.param(AnthropicStandIn, "anthropic:stand-in", None, id="anthropic-tool"),
]
SECRET = "stand-in reasoning SECRET-7f3a"
# A speech the checks refuse (its JSON breaks after the words: no answer can be read),
# sent as message text whatever format was asked, with private reasoning first.
REFUSED = '{"reasoning": "%s", "text": "Hugo is the wolf, I know it, vote Hugo today", "claims": {"role": }}' % SECRET


def test_only_the_text_field_is_ever_visible():
    assert visible_text('{"reasoning": "I am the wolf", "te') is None
    assert visible_text('{"reasoning": "I am the wolf", "text": "Good mor') == "Good mor"
    assert visible_text('Sure! ```json\n{"text": "Hello", "reasoning": "sec') == "Hello"
    assert visible_text('{"claims": {"text": "nested"}, "reasoning": "x"') is None
    assert visible_text('{"text": 3}') is None
    assert visible_text("no object at all") is None


async def play(standin, spec: str, mode: str | None, *, seed: int = 5, setup=None, **seat: Any):
    """A game of eight model seats whose speeches are streamed to ``drafts``."""
    options = get_preset("millers_hollow").options({"last_words": "all"})
    game = Game(GameSetup(names=list(NAMES), seed=seed, options=options))
    log, drafts = CallLog(), []
    with standin_router() as router:
        api = standin(router, seed=seed)
        if setup is not None:
            setup(api)
        agents = {
            n: make_llm_agent(spec, n, log=log, seed=i, sleep=SleepRecorder(), **{**FAST, **({"mode": mode} if mode else {}), **seat})
            for i, n in enumerate(NAMES)
        }
        for agent in agents.values():
            agent.drafts = drafts.append
        await run_async(game, agents)
    return game, log, api, drafts


def speeches(game: Game) -> dict[tuple[str, int], str]:
    """Each speech event's words, by speaker and its position among their speeches."""
    out: dict[tuple[str, int], str] = {}
    counts: dict[str, int] = {}
    for e in game.events:
        if e.kind == "speech":
            n = counts[e.data.speaker] = counts.get(e.data.speaker, 0) + 1
            out[(e.data.speaker, n)] = e.data.text
    return out


def by_decision(drafts: list[Draft]) -> dict[int, list[Draft]]:
    out: dict[int, list[Draft]] = {}
    for d in drafts:
        out.setdefault(d.decision, []).append(d)
    return out


@pytest.mark.parametrize("standin,spec,mode", VENDORS)
async def test_speech_grows_piece_by_piece_and_ends_as_the_recorded_speech(standin, spec, mode):
    game, log, api, drafts = await play(standin, spec, mode)
    assert game.over
    assert any(b.get("stream") for b in api.requests)
    # Only speeches stream: one streamed request per speech call, nothing else.
    assert sum(1 for b in api.requests if b.get("stream")) == sum(1 + r.retries for r in log.records if r.kind == "speak" and r.messages)
    steps = by_decision(drafts)
    spoken = list(speeches(game).values())
    assert len(steps) == len(spoken) > 0
    for decision, seen in steps.items():
        growing = [d.text for d in seen if d.state == "speaking"]
        assert len(growing) >= 3, f"decision {decision}: {len(growing)} steps"
        assert all(a and b.startswith(a) and len(b) > len(a) for a, b in zip(growing, growing[1:]))
        assert seen[-1].state == "done" and not seen[-1].replaced
        assert seen[-1].text == growing[-1] and growing[-1] in spoken
    assert not any(SECRET in d.text or "stand-in reas" in d.text for d in drafts)


@pytest.mark.parametrize("standin,spec,mode", VENDORS)
async def test_a_streamed_reply_that_fails_the_checks_is_withdrawn(standin, spec, mode):
    def bad_first_speech(api):
        api.push(Reply(REFUSED, as_tool=False), when=lambda body: bool(body.get("stream")))

    game, log, api, drafts = await play(standin, spec, mode, setup=bad_first_speech)
    assert game.over
    first = by_decision(drafts)[min(by_decision(drafts))]
    states = [d.state for d in first]
    shown = [d.text for d in first if d.state == "speaking"]
    # The refused speech was shown as it came, then withdrawn with the reason, then the
    # re-ask's checked speech streamed and stood.
    assert "Hugo is the wolf" in shown[0] or any("Hugo is the wolf" in t for t in shown)
    withdrawn = states.index("withdrawn")
    assert "failed the checks" in first[withdrawn].note
    assert states[-1] == "done" and "withdrawn" not in states[withdrawn + 1 : -1]
    assert first[-1].text != "Hugo is the wolf, I know it, vote Hugo today"
    assert first[-1].text in speeches(game).values()
    # The viewers never saw the reasoning; the record holds only the checked speech.
    assert not any(SECRET in d.text or SECRET in d.note for d in drafts)
    assert not any("Hugo is the wolf, I know it" in (e.data.get("text") or "") for e in game.events if e.kind == "speech")
    refused = [r for r in log.records if r.kind == "speak" and not r.accepted and r.violation]
    assert refused and refused[0].decision == first[0].decision


async def test_a_server_that_cannot_stream_a_schema_says_so_and_is_asked_unstreamed():
    def refuse(api):
        api.refuse_stream = True

    game, log, api, drafts = await play(OpenAIStandIn, "openai:stand-in", None, setup=refuse)
    assert game.over
    # One refusal is enough: the server's refusal is remembered for the game.
    assert sum(1 for b in api.requests if b.get("stream")) == 1
    assert not any(d.state == "speaking" for d in drafts)
    told = [d for d in drafts if d.state == "unstreamed"]
    assert told and all("cannot stream" in d.note for d in told)
    assert all(r.accepted for r in log.records if r.kind == "speak")


async def test_streaming_switched_off_for_a_seat_says_so():
    game, log, api, drafts = await play(OpenAIStandIn, "openai:stand-in", None, stream=False)
    assert game.over and not any(b.get("stream") for b in api.requests)
    assert drafts and all(d.state in ("unstreamed", "done") for d in drafts)
    assert "stream: false" in next(d for d in drafts if d.state == "unstreamed").note


async def test_a_parallel_round_is_not_streamed():
    options = get_preset("millers_hollow").options({"discussion": "parallel"})
    game = Game(GameSetup(names=list(NAMES), seed=4, options=options))
    drafts: list[Draft] = []
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=4)
        agents = {n: make_llm_agent("openai:stand-in", n, seed=i, sleep=SleepRecorder(), **FAST) for i, n in enumerate(NAMES)}
        for agent in agents.values():
            agent.drafts = drafts.append
        await run_async(game, agents)
    assert game.over and not drafts and not any(b.get("stream") for b in api.requests)


async def test_the_terminal_writes_the_speech_out_as_it_grows_and_says_when_it_is_withdrawn():
    import io

    from rich.console import Console

    from arena.terminal_drafts import TerminalDrafts

    def bad_first_speech(api):
        api.push(Reply(REFUSED, as_tool=False), when=lambda body: bool(body.get("stream")))

    game, log, api, drafts = await play(OpenAIStandIn, "openai:stand-in", None, setup=bad_first_speech)
    out = io.StringIO()
    screen = TerminalDrafts(Console(file=out, width=100_000, color_system=None))
    for d in drafts:
        screen(d)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("🗣 ") and "(speaking): Hugo is the wolf, I know it, vote Hugo today" in lines[0]
    assert "withdrew a reply that failed the checks" in lines[1]
    written = [line.split("(speaking): ", 1)[1] for line in lines if "(speaking): " in line]
    assert written[1:] == [t for t in speeches(game).values()][: len(written) - 1]
    assert SECRET not in out.getvalue()

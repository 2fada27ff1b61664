"""No seat's words lose a game (``engine.words``): a model's, a person's at the web
table, a person's at the terminal.

Issue 48 found each of these failing on a lone surrogate (JSON's ``"\\ud800"``): a
model's speech ended ``play --transcript`` with a traceback, a person's made the web
server answer 500 and fail the game for everyone. Each test plays the real entry (the
CLI against stand-ins that speak the vendors' wire protocol, the web server through
Starlette's client, the terminal seat reading a pipe) and then checks the transcript
with ``verify``. A model's words are repaired and the repair recorded as its violation;
a person is told why and asked again. Hypothesis feeds random Unicode (surrogates and
control characters drawn often, words past the bound) through each entry.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from llm_standins import FAST, AnthropicStandIn, OpenAIStandIn, standin_router
from rich.console import Console
from words_strategies import WORDS

from agents.human import HumanAgent
from agents.human_io import LineReader
from agents.llm.accounting import CallLog
from arena.cli import main
from arena.gamefile import GameSpec, SeatSpec, header_for
from arena.runner import run_async
from arena.web.app import create_app
from engine.words import MAX_CHARS, problem, repair, unencodable
from transcripts.schema import read_transcript
from transcripts.verify import Status, verify_file
from transcripts.writer import TranscriptWriter
from web_tools import web_client

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
MODEL_SEATS = ("Alice", "Bob")


def said_by(path: Path, seat: str) -> list[str]:
    return [e.payload.text for e in read_transcript(path).events if e.kind in ("speech", "wolf_chat") and getattr(e.payload, "speaker", None) == seat]


# ---------------------------------------------------------------------- a model
# The wire formats whose stand-ins speak ``say`` (a text-mode reply is read by the same
# ``agents.llm.interpret``).
VENDORS = [
    pytest.param(OpenAIStandIn, "openai:stand-in", None, id="openai-json_schema"),
    pytest.param(OpenAIStandIn, "openai:stand-in", "tool", id="openai-tool"),
    pytest.param(AnthropicStandIn, "anthropic:stand-in", None, id="anthropic-tool"),
]


def model_table(tmp_path: Path, spec: str, mode: str | None = None) -> Path:
    """A game file: two model seats (fast retries and time limits), six bots."""
    options = {**FAST, **({"mode": mode} if mode else {})}
    seats = [{"name": n, "agent": spec, "options": options} if n in MODEL_SEATS else {"name": n, "agent": "heuristic"} for n in NAMES]
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"seed": 3, "options": {"last_words": "all"}, "seats": seats}))
    return path


def play_models(capsys, tmp_path: Path, standin, spec: str, said: list[str], mode: str | None = None) -> tuple[Path, Any]:
    """``werewolf play FILE --transcript T`` with the model seats' words replaced by
    ``said`` in turn; the command must end the game (exit 0) and the file verify."""
    transcript = tmp_path / "t.jsonl"
    with standin_router() as router:
        api = standin(router, seed=3)
        api.say = list(said)
        code = main(["play", str(model_table(tmp_path, spec, mode)), "--transcript", str(transcript), "--quiet"])
    _, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err
    assert main(["verify", str(transcript)]) == 0, capsys.readouterr()
    return transcript, api


pytestmark = pytest.mark.usefixtures("llm_env")


@pytest.mark.parametrize("standin,spec,mode", VENDORS)
def test_a_models_lone_surrogate_is_repaired_and_recorded_as_a_violation(tmp_path, capsys, standin, spec, mode):
    """Issue 48 (b): this reply ended ``play --transcript`` with a traceback."""
    transcript, api = play_models(capsys, tmp_path, standin, spec, ["I am \ud800 the Seer"], mode)
    assert api._said > 0  # the stand-in spoke the surrogate (JSON's escape on the wire)
    words = said_by(transcript, "Alice") + said_by(transcript, "Bob")
    assert words and all(w == "I am \ufffd the Seer" for w in words)
    calls = [c for c in read_transcript(transcript).calls if c.accepted and c.kind in ("speak", "wolf_chat")]
    assert calls and all(c.violation == "the words were repaired: 1 unpaired surrogate replaced by U+FFFD" for c in calls)


def test_a_models_overlong_speech_is_cut_and_later_requests_stay_bounded(tmp_path, capsys):
    """Issue 48 point 4: a 100,000-character speech went whole into every later
    request; it is cut to the bound, and no request carries more of it."""
    long = "x" * 100_000
    transcript, api = play_models(capsys, tmp_path, OpenAIStandIn, "openai:stand-in", [long])
    words = said_by(transcript, "Alice") + said_by(transcript, "Bob")
    assert words and all(w == "x" * MAX_CHARS for w in words)
    calls = [c for c in read_transcript(transcript).calls if c.accepted and c.kind in ("speak", "wolf_chat")]
    assert all(c.violation == f"the words were repaired: cut from 100,000 to {MAX_CHARS:,} characters" for c in calls)
    later = [json.dumps(b) for b in api.requests[1:]]
    assert later and all("x" * (MAX_CHARS + 1) not in body for body in later)
    assert max(map(len, later)) < 60_000  # the history holds a few bounded speeches, not 100 KB each


def test_a_models_escape_sequences_reach_no_screen(tmp_path, capsys):
    transcript, _ = play_models(capsys, tmp_path, OpenAIStandIn, "openai:stand-in", ["ok\x1b[2J\rHost: Chloe is the wolf\x00"])
    words = said_by(transcript, "Alice")
    assert words and all(w == "ok\ufffd[2J\nHost: Chloe is the wolf\ufffd" for w in words)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=WORDS)
def test_no_model_words_lose_a_game(tmp_path_factory, text):
    """Any words a model writes: the game ends and its transcript verifies, the words
    published being the repair of what it wrote."""
    folder = tmp_path_factory.mktemp("m")
    spec = GameSpec(
        seed=3,
        seats=[SeatSpec(name=n, agent="openai:stand-in", options=FAST) if n in MODEL_SEATS else SeatSpec(name=n, agent="heuristic") for n in NAMES],
    )
    log = CallLog()
    path = folder / "t.jsonl"
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=3)
        api.say = [text]
        game, agents = spec.build(calls=log)
        with TranscriptWriter(path, header_for(spec, game)) as writer:
            log.subscribe(writer.call)
            writer.sync_events(game)
            asyncio.run(run_async(game, agents, on_answer=writer.on_answer))
            writer.result(game)
    assert game.over and api._said > 0
    v = verify_file(path)
    assert v.status is Status.OK, v.summary()
    expected = repair(text.strip()).text
    for w in said_by(path, "Alice") + said_by(path, "Bob"):
        assert w == expected or not expected  # an empty speech is asked again, then the bot speaks


# ---------------------------------------------------------------------- the web table
@pytest.fixture
def web(tmp_path):
    with web_client(create_app(tmp_path / "games")) as c:
        yield c


def web_game(client) -> dict[str, Any]:
    seats = [{"name": n, "agent": "human" if n == "Alice" else "heuristic", **({"role": "werewolf"} if n == "Alice" else {})} for n in NAMES[:6]]
    r = client.post("/api/games", json={"seed": 4, "seats": seats, "pace": 0, "options": {"sheriff": False, "last_words": "all"}})
    assert r.status_code == 201, r.text
    return r.json()


def post_raw(client, links, body: bytes):
    """A page's answer as bytes: JSON's escape of a lone surrogate is what a browser's
    ``JSON.stringify`` writes for one."""
    return client.post("/api" + links["seats"]["Alice"] + "/answer", content=body, headers={"content-type": "application/json"})


def play_web_game(client, links, words: list[str]) -> Path:
    """Play Alice to the end: each question of words gets the next of ``words`` (a
    refusal must be a 400 saying why, and the question stays open for "Good."),
    every other question its first option. Returns the game's transcript."""
    from test_web_api import seat_url, session_of

    queue = list(words)
    deadline = time.time() + 60
    while time.time() < deadline:
        state = client.get(seat_url(links)).json()
        if state["status"] != "running":
            break
        for q in state["pending"]:
            if q["shape"] == "text":
                assert q["max_chars"] == MAX_CHARS
                text = queue.pop(0) if queue else "Good."
                r = post_raw(client, links, json.dumps({"decision": q["id"], "answer": text}).encode())
                read = json.loads(json.dumps(text))  # as the server reads the page's JSON
                unsayable = unencodable(read) is not None or problem(read.strip()) is not None
                assert r.status_code == (400 if unsayable else 200), r.text
                if unsayable:
                    assert r.json()["error"]
                    assert post_raw(client, links, json.dumps({"decision": q["id"], "answer": "Good."}).encode()).status_code == 200
            else:
                options = [o["value"] for o in q["options"]]
                value = options[: q["count"]] if q["shape"] == "multi" else options[0] if options else None
                assert post_raw(client, links, json.dumps({"decision": q["id"], "answer": value}).encode()).status_code == 200
        time.sleep(0.01)
    state = client.get(seat_url(links)).json()
    assert state["status"] == "over", state["status"]
    return Path(session_of(client, links).transcript)


def test_a_persons_lone_surrogate_is_refused_and_the_game_goes_on(web):
    """Issue 48 (c): this answer made the server answer 500 and fail the game."""
    from test_web_api import pending, play_until, seat_url, wait_for

    links = web_game(web)
    q = play_until(web, links, "speak")
    r = post_raw(web, links, b'{"decision": %d, "answer": "hi \\ud800 there"}' % q["id"])
    assert r.status_code == 400
    assert r.json()["error"] == "the request's answer holds an unpaired UTF-16 surrogate (U+D800), which no transcript can store"
    again = wait_for(web, seat_url(links), pending("speak"))
    assert again["pending"][0]["id"] == q["id"] and again["status"] == "running"  # asked again
    r = post_raw(web, links, b'{"decision": %d, "answer": {"text": "\\udfff", "claims": null}}' % q["id"])
    assert r.status_code == 400 and "answer.text holds" in r.json()["error"]
    for bad, why in (("x" * (MAX_CHARS + 1), "at most"), ("hi \x1b[2J", "U+001B"), ("a\x00", "U+0000")):
        r = post_raw(web, links, json.dumps({"decision": q["id"], "answer": bad}).encode())
        assert r.status_code == 400 and why in r.json()["error"], r.text
    assert post_raw(web, links, json.dumps({"decision": q["id"], "answer": "Fine words."}).encode()).status_code == 200
    transcript = play_web_game(web, links, [])
    assert "Fine words." in said_by(transcript, "Alice")
    assert verify_file(transcript).status is Status.OK


def test_a_start_form_holding_a_lone_surrogate_is_refused(web):
    seats = [{"name": n, "agent": "heuristic"} for n in NAMES[:5]]
    seats[1]["agent"] = "heuristic\ud800"
    r = web.post("/api/games", content=json.dumps({"seed": 1, "seats": seats}).encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "the request's seats.1.agent holds an unpaired UTF-16 surrogate (U+D800), which no transcript can store"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=WORDS.map(lambda t: [t, t[::-1], t + " end"]))
def test_no_persons_words_lose_a_web_game(tmp_path_factory, texts):
    with web_client(create_app(tmp_path_factory.mktemp("web"))) as client:
        transcript = play_web_game(client, web_game(client), texts)
    v = verify_file(transcript)
    assert v.status is Status.OK, v.summary()
    assert said_by(transcript, "Alice")  # the person spoke: the words met the server


# ---------------------------------------------------------------------- the terminal
def piped(timeout: float | None = None) -> tuple[HumanAgent, int, io.StringIO]:
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    return HumanAgent("Alice", console=Console(file=out, width=200, color_system=None), reader=LineReader(read_fd), timeout=timeout), write_fd, out


def a_speech() -> tuple[Any, Any]:
    from arena.runner import view_for
    from test_words import at_first

    game, _ = at_first("speak")
    d = game.waiting[0]
    return game, (view_for(game, d.seat), d)


@pytest.mark.parametrize(
    "typed, why",
    [
        (b"hi \x1b[2J there", "control character U+001B at character 4"),
        (b"x" * (MAX_CHARS + 1), f"at most {MAX_CHARS:,} characters"),
        (b"ok \x00", "U+0000"),
        (b"ok\rHost: Alice is the wolf", "U+000D"),
    ],
)
async def test_a_person_is_told_why_and_asked_again(typed, why):
    """Issue 48 (d): the terminal seat took ESC sequences and any length."""
    agent, w, out = piped()
    game, (view, d) = a_speech()
    agent.name = d.seat
    os.write(w, typed + b"\nFine words.\n")
    assert await agent.adecide(view, d) == "Fine words."
    text = out.getvalue()
    assert why in text and "Try again." in text
    assert f"at most {MAX_CHARS:,} characters" in text  # the hint says the bound before anything is typed
    game.submit(d.id, "Fine words.")


async def test_bytes_that_are_not_utf8_reach_no_transcript_as_surrogates():
    """A terminal's bytes are decoded with U+FFFD for what is not UTF-8 (the encoded
    surrogate ED A0 80 included), so they are words like any other."""
    agent, w, _ = piped()
    game, (view, d) = a_speech()
    agent.name = d.seat
    os.write(w, b"caf\xe9 \xed\xa0\x80 ok\n")
    said = await agent.adecide(view, d)
    assert problem(said) is None and "\ufffd" in said
    game.submit(d.id, said)


class Typist:
    """What a person types, line after line, whatever is asked: ``first``, then a
    number, yes, no, two numbers, words; a refused line is followed by the next."""

    fd = -1  # not a terminal: nothing typed earlier to discard

    def __init__(self, first: str):
        self.lines = [first, "1", "y", "n", "1 2", "Good."]
        self.n = 0

    async def readline(self, timeout: float | None = None) -> str:
        line = self.lines[self.n % len(self.lines)]
        self.n += 1
        return line

    def discard_pending(self) -> list[str]:
        return []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=WORDS)
def test_no_typed_words_lose_a_terminal_game(tmp_path_factory, text):
    spec = GameSpec(seed=5, options={"last_words": "all"}, seats=[SeatSpec(name=n, agent="human" if n == "Alice" else "heuristic") for n in NAMES])
    game, agents = spec.build()
    person = HumanAgent("Alice", console=Console(file=io.StringIO(), width=200, color_system=None), reader=Typist(text))  # type: ignore[arg-type]
    agents["Alice"] = person
    path = tmp_path_factory.mktemp("tty") / "t.jsonl"
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        writer.sync_events(game)
        asyncio.run(run_async(game, agents, on_answer=writer.on_answer))
        writer.result(game)
    assert game.over and person.reader.n > 0  # type: ignore[attr-defined]
    v = verify_file(path)
    assert v.status is Status.OK, v.summary()
    assert all(problem(w) is None for w in said_by(path, "Alice"))

"""A model seat that stops answering is said while the game is played, once per
streak: by the narrator, on a person's screen at the terminal (counting only the
decisions asked in the open) and in the web host's view; never as an event of the
game, never to another seat.

The failing seats are real model seats (``openai:``) aimed at an address where
nothing listens, with no retries, so each decision fails at once as a dead server
fails it; a working seat talks to the real-socket stand-in
(``arena/standin_server.py``).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from agents.human import HumanAgent
from agents.human_io import LineReader
from agents.human_view import SeatScreen
from agents.llm.accounting import CallLog
from arena.gamefile import header_for, spec_from_data
from arena.model_trouble import OPEN_KINDS, FailureWatch, ModelFailing, ModelRecovered, notice_line
from prompts.narrate import Narrator
from arena.play_loop import Screen, failure_watch, play_to_end
from arena.web.lens import FULL_LENS, PUBLIC_LENS, Lens
from arena.web.session import GameSession
from engine.decisions import Decision
from engine.speech import SPEAK
from transcripts.schema import CallRecord
from transcripts.writer import TranscriptWriter

from llm_standins import OpenAIStandIn, Status, standin_router  # noqa: E402
from arena.standin_server import StandInServer  # noqa: E402
from test_web_browser import browser, page  # noqa: E402,F401  (the browser fixtures, used by name)
from test_web_browser import create, run_server  # noqa: E402
from test_web_browser import table as browser_table  # noqa: E402

pytestmark = pytest.mark.usefixtures("llm_env")

NOTICE = "No answer from"  # the English notice of a failing seat starts so
FAST = {"max_retries": 0, "retry_initial": 0.001, "retry_max_wait": 0.01, "timeout": 5.0, "decision_timeout": 10.0}


# ---------------------------------------------------------------------- the watch
def rec(kind: str = "vote", *, seat: str = "Bob", failed: bool = True, refused: bool = False, error: str = "connection error") -> CallRecord:
    """A decision's last record: failed for want of an answer, else answered (or, with
    ``refused``, played by the fallback bot after replies the rules refused)."""
    common = dict(seat=seat, decision=1, kind=kind, backend="openai", model="m", messages=[{"role": "user", "content": "?"}])
    if refused:
        return CallRecord(**common, violation="not a player", fallback=True)
    if failed:
        return CallRecord(**common, error=error, fallback=True)
    return CallRecord(**common, accepted=True)


def watched(*records: CallRecord, **kw: Any) -> list[Any]:
    watch = FailureWatch(**kw)
    for r in records:
        watch(r)
    return watch.told


def test_a_streak_is_told_once_at_three_then_its_end_then_the_next_streak():
    told = watched(
        rec(), rec(error="timeout"), rec(error="HTTP 503: busy"), rec(), rec(),  # five failures: one notice, at the third
        rec(failed=False),  # the model answers again
        rec(), rec(), rec(),  # a new streak
    )
    assert told == [
        ModelFailing("Bob", "openai:m", 3, "HTTP 503: busy"),
        ModelRecovered("Bob", "openai:m", 5),
        ModelFailing("Bob", "openai:m", 3, "connection error"),
    ]


def test_only_a_decision_no_answer_came_for_counts_as_failed():
    # A fallback after refused replies is the model's answer (its violation), not a
    # failure: it ends the streak. A refused reply that was re-asked, a decision with
    # one legal answer (no call) and the private beliefs question change nothing.
    reask = CallRecord(seat="Bob", decision=1, kind="vote", backend="openai", model="m", messages=[{}], violation="no")
    no_call = CallRecord(seat="Bob", decision=1, kind="witch_poison", backend="openai", model="m", accepted=True)
    beliefs = CallRecord(seat="Bob", decision=1, kind="beliefs", backend="openai", model="m", error="timeout")
    assert watched(rec(), rec(), rec(refused=True), rec(), rec()) == []
    assert watched(rec(), rec(), reask, no_call, beliefs, rec()) == [ModelFailing("Bob", "openai:m", 3, "connection error")]


def test_each_seat_has_its_own_streak():
    told = watched(rec(seat="Bob"), rec(seat="Chloe"), rec(seat="Bob"), rec(seat="Chloe", failed=False), rec(seat="Bob"))
    assert told == [ModelFailing("Bob", "openai:m", 3, "connection error")]


def test_a_disabled_seat_is_told_at_once():
    told = watched(rec(error="HTTP 401: Incorrect API key provided: [redacted]"), rec(error="not asked"), disabled=lambda seat: seat == "Bob")
    assert told == [ModelFailing("Bob", "openai:m", 1, "HTTP 401: Incorrect API key provided: [redacted]", disabled=True)]
    assert told[0].kind == "disabled"


def test_a_persons_screen_counts_only_the_decisions_asked_in_the_open():
    """Bob, a wolf whose model is down: two nights of failed wolf decisions and two
    failed open ones say nothing; the third open one does. Counting the night would
    have told the person, at night, that Bob was woken: a wolf, or a power."""
    night = [rec("wolf_chat"), rec("wolf_kill")]
    assert watched(*night, rec(SPEAK), *night, rec("vote"), *night, kinds=OPEN_KINDS) == []
    told = watched(*night, rec(SPEAK), *night, rec("vote"), *night, rec(SPEAK), kinds=OPEN_KINDS)
    assert told == [ModelFailing("Bob", "openai:m", 3, "connection error")]
    # A success at night ends no streak the screen counts either.
    assert watched(rec(SPEAK), rec("wolf_kill", failed=False), rec("vote"), rec(SPEAK), kinds=OPEN_KINDS) == told
    assert watched(*night, rec(SPEAK), rec(SPEAK), rec("vote"), disabled=lambda s: True, kinds=OPEN_KINDS)[0].decisions == 1


def test_the_error_is_one_short_line_and_keys_stay_scrubbed():
    key = os.environ["OPENAI_API_KEY"]  # a fake key the fixture put in the environment
    log = CallLog()
    watch = FailureWatch()
    log.subscribe(watch)
    long = f"HTTP 401: Incorrect API key provided: {key}.\n" + "x" * 400
    for _ in range(3):
        log.add(rec(error=long))
    (notice,) = watch.told
    assert key not in notice.error and "[redacted]" in notice.error
    assert "\n" not in notice.error and len(notice.error) <= 240


@pytest.mark.parametrize("language, words", [("en", "No answer from Bob's model (openai:m) for 3 decisions in a row"), ("zh", "Bob 的模型（openai:m）已连续 3 个决定没有回答")])
def test_the_notice_is_in_the_games_language_and_its_error_cannot_be_markup(language, words):
    out = io.StringIO()
    narrator = Narrator(Console(file=out, width=400, color_system=None), language=language)
    narrator.say(notice_line(ModelFailing("Bob", "openai:m", 3, "HTTP 500: [bold]oops[/bold]"), narrator.term))
    narrator.say(notice_line(ModelRecovered("Bob", "openai:m", 3), narrator.term))
    text = out.getvalue()
    assert words in text and "[bold]oops[/bold]" in text
    assert ("answers again" if language == "en" else "恢复回答") in text


# ---------------------------------------------------------------------- the terminal
def dead_address() -> str:
    """A base URL where nothing listens: every request is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def dead_table(seat: str = "Bob", role: str = "werewolf", *, people: tuple[str, ...] = (), also: dict[str, Any] | None = None) -> Any:
    names = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah"]
    seats: list[dict[str, Any]] = [{"name": n, "agent": "heuristic"} for n in names]
    for s in seats:
        if s["name"] == seat:
            s.update(agent="openai:foo", role=role, options={**FAST, "base_url": dead_address()})
        if s["name"] in people:
            s.update(agent="human", timeout=0.01)
        s.update((also or {}).get(s["name"], {}))
    return spec_from_data({"preset": "millers_hollow", "seed": 4, "options": {"sheriff": True}, "seats": seats})


def play(spec: Any, screen: Screen, *, quiet: bool = False, json_out: bool = False, transcript: Path | None = None) -> CallLog:
    calls = CallLog()
    game, agents = spec.build(calls=calls)
    writer = TranscriptWriter(transcript, header_for(spec, game)) if transcript is not None else None
    if writer is not None:
        calls.subscribe(writer.call)
    assert play_to_end(game, agents, screen, writer=writer, calls=calls, json_out=json_out, quiet=quiet) == 0
    return calls


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=400, color_system=None), out


def test_the_narrator_says_a_failing_seat_once_and_the_game_does_not_hear_it(tmp_path):
    with StandInServer(latency=0) as api:
        # Alice's model works: what it is sent is every other seat's prompt.
        also = {"Alice": {"agent": "openai:standin", "options": {**FAST, "base_url": api.base_url}}}
        con, out = console()
        transcript = tmp_path / "g.jsonl"
        calls = play(dead_table(also=also), Screen(con, Narrator(con)), transcript=transcript)
        prompts = [r.text for r in api.requests]
    text = out.getvalue()
    failed = [r for r in calls.records if r.seat == "Bob" and r.fallback and r.error]
    assert len(failed) >= 3 and text.count(NOTICE) == 1
    line = next(x for x in text.splitlines() if NOTICE in x)
    assert "Bob's model (openai:foo) for 3 decisions in a row" in line and "connection error" in line
    # The arena's news, not the game's: no event, no record, no other seat's prompt.
    lines = [json.loads(x) for x in transcript.read_text().splitlines()]
    assert {x["type"] for x in lines} <= {"header", "event", "answer", "call", "result"}
    assert not any("fallback bot" in json.dumps(x) for x in lines if x["type"] != "call")
    told = next(i for i, r in enumerate(calls.records) if sum(1 for x in calls.records[: i + 1] if x in failed) == 3)
    assert any(r.seat == "Alice" for r in calls.records[told + 1 :])  # she was asked after the notice
    assert prompts and not any("fallback bot" in p or NOTICE in p or "connection error" in p for p in prompts)


def test_a_refused_key_is_said_at_once(tmp_path):
    """A 401 disables the seat (no later call could cure it): the first failure is news."""
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push(Status(401, message="Incorrect API key provided"))
        spec = dead_table(also={"Bob": {"options": FAST}})  # Bob talks to the stand-in of api.openai.com
        con, out = console()
        calls = play(spec, Screen(con, Narrator(con)))
    bob = [r for r in calls.records if r.seat == "Bob"]
    assert len(api.requests) == 1 and len(bob) >= 3 and all(r.fallback for r in bob)
    line = next(x for x in out.getvalue().splitlines() if "will not be asked again" in x)
    assert line.startswith("⚠ Bob's model (openai:foo) will not be asked again this game") and "HTTP 401: Incorrect API key provided" in line
    assert out.getvalue().count("⚠") == 1


def test_a_quiet_run_says_it_on_standard_error(capsys):
    con, out = console()
    play(dead_table(), Screen(con), quiet=True)
    captured = capsys.readouterr()
    assert captured.err.count(NOTICE) == 1 and "Bob" in captured.err
    assert NOTICE not in captured.out and NOTICE not in out.getvalue()


def test_a_persons_screen_is_told_once_counting_the_open_decisions():
    """Alice plays at the terminal (her time runs out at once, every question); Bob is
    a werewolf whose model is down: his night decisions fail too, but her screen counts
    only the ones asked in the open."""
    read_fd, write_fd = os.pipe()
    try:
        con, out = console()
        spec = dead_table(role="werewolf", people=("Alice",))
        calls = CallLog()
        game, agents = spec.build(calls=calls)
        alice = agents["Alice"]
        assert isinstance(alice, HumanAgent)
        alice.reader = LineReader(read_fd)
        alice.attach(con)
        assert play_to_end(game, agents, Screen(con, None, [alice]), writer=None, calls=calls, json_out=False, quiet=False) == 0
    finally:
        os.close(write_fd)
        os.close(read_fd)
    text = out.getvalue()
    assert text.count(NOTICE) == 1 and "Bob's model (openai:foo) for 3 decisions in a row" in text
    bob = [r for r in calls.records if r.seat == "Bob" and r.fallback and r.error]
    assert bob[0].kind == "wolf_kill" and [r.kind for r in bob[1:4]] == ["speak", "sheriff_vote", "speak"]
    # Counting his night, the news would have come with his Sheriff vote, before the
    # count; counting what the table saw him asked, it comes with his next speech.
    assert text.index(NOTICE) > text.index("is elected Sheriff")


def test_who_is_told_counts_what_they_may_know():
    con, _ = console()
    _, agents = dead_table(people=("Alice",)).build()
    person = failure_watch(agents, Screen(con, None, [agents["Alice"]]))
    operator = failure_watch(agents, Screen(con, Narrator(con)))
    assert person is not None and person.kinds == OPEN_KINDS
    assert operator is not None and operator.kinds is None
    _, bots = spec_from_data({"seed": 1, "seats": [{"name": n, "agent": "heuristic"} for n in "ABCDEF"]}).build()
    assert failure_watch(bots, Screen(con, Narrator(con))) is None


def test_news_at_an_open_prompt_asks_the_question_again():
    con, out = console()
    screen = SeatScreen(con, "Alice")
    d = Decision(id=3, seat="Alice", kind="vote", shape="choice", options=("Bob", "Chloe"))
    screen.prompt(d)
    screen.news(notice_line(ModelFailing("Bob", "openai:m", 3, "timeout"), screen.term))
    screen.closed()
    con.print()  # the person's Enter, echoed by the terminal
    screen.news(notice_line(ModelRecovered("Bob", "openai:m", 3), screen.term))
    lines = out.getvalue().splitlines()
    assert lines[0].strip() == "Your choice ›" and lines[1].startswith("⚠ No answer from Bob's model")
    assert lines[2].strip() == "Your choice ›" and lines[3].startswith("✓ Bob's model (openai:m) answers again")


# ---------------------------------------------------------------------- the web
async def test_the_web_host_is_told_and_nobody_else(tmp_path):
    spec = dead_table(people=("Alice",))
    session = GameSession.new(spec, transcripts_dir=tmp_path)
    host, public, alice = (session.subscribe(lens) for lens in (FULL_LENS, PUBLIC_LENS, Lens(seat="Alice")))
    session.start()
    assert session.task is not None
    await asyncio.wait_for(session.task, 60)
    assert session.status == "over"

    def sent(ch: Any) -> list[dict[str, Any]]:
        out = []
        while not ch.queue.empty():
            out.append(ch.queue.get_nowait())
        return out

    to_host, to_public, to_alice = sent(host), sent(public), sent(alice)
    troubles = [m["trouble"] for m in to_host if m["type"] == "trouble"]
    assert len(troubles) == 1
    (t,) = troubles
    assert (t["kind"], t["seat"], t["model"], t["count"]) == ("failing", "Bob", "openai:foo", 3) and "connection error" in t["error"]
    assert t["after"] > 0  # in its place among the events
    for m in to_public + to_alice:
        assert m["type"] != "trouble" and "troubles" not in m and "connection error" not in json.dumps(m)
    assert session.snapshot(FULL_LENS)["troubles"] == troubles
    assert "troubles" not in session.snapshot(Lens(seat="Alice"))
    assert not any("fallback bot" in repr(e) or "connection error" in repr(e) for e in session.game.events)


def test_the_host_page_shows_the_notice_in_its_place(tmp_path, page):  # noqa: F811  (the fixture)
    """The page words the server's notice in the table's language, among the events;
    a reload finds it again; the seat's page never shows one."""
    app, base, stop = run_server(tmp_path)
    try:
        links = create(base, **browser_table({}))  # Alice is asked, and waits: the game holds still
        session = app.state.store.by_watch(links["watch"].rsplit("/", 1)[1])

        def feed(*records: CallRecord) -> None:
            async def go() -> None:
                assert session.failures is not None
                for r in records:
                    session.failures(r)

            asyncio.run_coroutine_threadsafe(go(), session.task.get_loop()).result(10)

        page.goto(base + links["host"])
        page.wait_for_selector("#conn.live")
        feed(rec(), rec(), rec(error="HTTP 503: the model is overloaded"))
        notice = page.wait_for_selector(".trouble.failing")
        assert notice.text_content() == (
            "⚠ No answer from Bob's model (openai:m) for 3 decisions in a row: the fallback bot played them. "
            "Last error: HTTP 503: the model is overloaded"
        )
        feed(rec(failed=False))
        assert "answers again, after 3 decisions" in page.wait_for_selector(".trouble.recovered").text_content()
        page.reload()
        page.wait_for_selector(".trouble.recovered")
        assert page.locator(".trouble").count() == 2
        page.goto(base + links["seats"]["Alice"])
        page.wait_for_selector(".question")
        assert page.locator(".trouble").count() == 0
    finally:
        stop()

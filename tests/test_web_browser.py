"""The web table in a real browser: Debian's Chromium, headless, driven by Playwright.

A person's whole game is played by clicking and typing; a reload in the middle of a
vote still casts it; and every frame the seat's socket delivered (and every state the
page fetched) is checked against the engine's visibility. Screenshots of the start
page, a night, a day vote and the final reveal go to ``artifacts/screenshots/``.

Without Chromium or Playwright these tests are skipped on a developer's machine and
fail under CI (``CI=true``), where ``.ci/run`` installs both.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = os.environ.get("WEREWOLF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
CSP_LISTENER = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""
STEP_MS = 15_000  # the longest a step of a bot game may take before the page is wrong


def _browser_or_skip():
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[test]')"
    if missing is None and not os.path.exists(CHROMIUM):
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    return sync_playwright


# ---------------------------------------------------------------------- fixtures
def run_server(folder: Path, port: int = 0):
    """The real server (uvicorn, WebSockets) on a loopback port, in a thread: the app,
    its base address and a function that stops it."""
    import uvicorn

    from arena.web.app import create_app
    from arena.web.serve import address, bind, uvicorn_config

    app = create_app(folder, audit=True)  # what each page was sent, kept to be checked
    sock = bind("127.0.0.1", port)
    srv = uvicorn.Server(uvicorn_config(app))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 15
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "the server did not start"

    def stop() -> None:
        srv.should_exit = True
        thread.join(timeout=15)
        sock.close()

    base = address(sock).rstrip("/")
    KEYS[base] = app.state.policy.key
    return app, base, stop


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, Any]]:
    app, base, stop = run_server(tmp_path_factory.mktemp("web-transcripts"))
    yield base, app
    stop()


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _browser_or_skip()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    pg = context.new_page()
    pg.set_default_timeout(STEP_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # What a person would see in the console: a refused inline style or script is a
    # page that does not look the way its code says (the vote bars once drew full width).
    violations: list[str] = []
    pg.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    context.add_init_script(CSP_LISTENER)
    yield pg
    if not pg.is_closed():
        violations += pg.evaluate("window.__csp || []")
    context.close()
    assert not errors, f"the page raised: {errors}"
    assert not violations, f"the page broke its Content-Security-Policy: {violations}"


# ---------------------------------------------------------------------- helpers
KEYS: dict[str, str] = {}  # base address -> the host key of the server there


def create(base: str, **table: Any) -> dict[str, Any]:
    """Start a game as a program does: JSON, no Origin, the host key in its header."""
    headers = {"content-type": "application/json", "x-werewolf-key": KEYS[base]}
    req = urllib.request.Request(base + "/api/games", data=json.dumps(table).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.load(res)


def table(roles: dict[str, str], *, seed: int = 11, human: str = "Alice") -> dict[str, Any]:
    names = ["Alice", "Bob", "Chloe", "David", "Emma"]
    seats = [{"name": n, "agent": "human" if n == human else "heuristic", **({"role": roles[n]} if n in roles else {})} for n in names]
    return {"seed": seed, "seats": seats, "pace": 0, "options": {"sheriff": False, "discussion_rounds": 1}}


def session_of(app, links: dict[str, Any]):
    return app.state.store.by_watch(links["watch"].rsplit("/", 1)[1])


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def assert_vote_bars_are_proportional(page) -> None:
    """Every vote card's bars are as long as their counts say, the longest full: what
    a person reads off the chart, measured on the rendered page."""
    cards = page.evaluate(
        """() => [...document.querySelectorAll('.card.votes')].map((card) =>
            [...card.querySelectorAll('.vrow')].map((row) => ({
              count: Number(row.querySelector('.vcount').textContent),
              fill: row.querySelector('.vfill').getBoundingClientRect().width,
              bar: row.querySelector('.vbar').getBoundingClientRect().width,
            })))"""
    )
    assert cards, "no vote was drawn"
    spread = False
    for rows in cards:
        top = max(r["count"] for r in rows)
        for r in rows:
            assert r["bar"] > 0
            assert abs(r["fill"] / r["bar"] - r["count"] / top) < 0.03, (rows, r)
        spread |= len({r["count"] for r in rows}) > 1
    assert spread, f"every vote was unanimous or tied, nothing to compare: {cards}"


def answer_next(page, *, speech: str = "I am a simple villager. Let us find the wolf.") -> str | None:
    """Answer whatever the page asks next, as a person would; the question's kind, or
    None once the game is over."""
    page.wait_for_selector(".question, #reveal:not([hidden])")
    if page.is_visible("#reveal"):
        return None
    q = page.locator(".question").first
    kind, qid = q.get_attribute("data-kind"), q.get_attribute("data-id")
    if page.locator("#speech").count():
        page.fill("#speech", speech)
        page.click("#speak")
    else:
        q.locator("button.option:not(.pass)").first.click()
    page.wait_for_selector(f".question[data-id='{qid}']", state="detached")
    return kind


def until_vote(page, **speech: str) -> str:
    """Answer the page's questions until it asks for a vote; that question's id."""
    while True:
        page.wait_for_selector(".question")
        if page.get_attribute(".question", "data-kind") == "vote":
            return page.get_attribute(".question", "data-id")
        answer_next(page, **speech)


def play_to_end(page, on_question=None, limit: int = 40) -> list[str]:
    kinds = []
    for _ in range(limit):
        if on_question is not None and page.locator(".question").count():
            on_question(page, page.locator(".question").first.get_attribute("data-kind"))
        kind = answer_next(page)
        if kind is None:
            return kinds
        kinds.append(kind)
    raise AssertionError(f"the game did not end after {limit} answers: {kinds}")


# ---------------------------------------------------------------------- tests
def test_a_person_plays_a_whole_game_from_the_start_page(server, page):
    base, app = server
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows tr")
    page.fill("#players", "5")
    page.dispatch_event("#players", "change")
    page.uncheck("#sheriff")
    page.fill("#rounds", "1")
    page.fill("#pace", "0")
    page.fill("#seed", "11")
    page.select_option("#seat-rows tr:nth-child(1) .role", "werewolf")  # no night can take her
    assert page.input_value("#seat-rows tr:nth-child(1) .agent") == "human"
    shoot(page, "1-start-page")
    page.click("#start")
    page.click("#take-seat")

    page.wait_for_selector("#card:not([hidden])")
    assert page.inner_text("#card-name") == "Werewolf"
    assert "werewolves" in page.inner_text("#card-win")
    shots: set[str] = set()

    def screenshots(pg, kind: str) -> None:
        if kind == "wolf_kill" and "night" not in shots:
            assert "night" in (pg.get_attribute("body", "class") or "")
            shoot(pg, "2-night")
            shots.add("night")
        if kind == "vote" and "vote" not in shots:
            shoot(pg, "3-day-vote")
            shots.add("vote")

    kinds = play_to_end(page, screenshots)
    assert "wolf_kill" in kinds and "speak" in kinds and "vote" in kinds
    page.wait_for_selector("#reveal:not([hidden])")
    reveal = page.inner_text("#reveal")
    assert " win" in reveal
    for name in ("Alice", "Bob", "Chloe", "David", "Emma"):
        assert name in reveal
    assert "Werewolf" in reveal and "Seer" in reveal  # every card is turned over
    page.wait_for_selector("#full-link")
    assert_vote_bars_are_proportional(page)
    shoot(page, "4-final-reveal")

    # The person's words reached the table, and the game left a transcript that verifies.
    assert page.locator(".speech.mine .words").first.inner_text().startswith("I am a simple villager")
    found = app.state.store.by_seat(page.url.rsplit("/", 1)[1])  # read again from disk: the game has ended
    assert found is not None
    session = found[0]
    assert session.status == "over" and not app.state.store.sessions
    assert str(session.transcript.parent) not in page.content()  # a download, never the server's path
    assert page.locator(f"a[href='/api/watch/{session.keys.watch_token}/transcript']").count() == 1
    from arena.cli import main

    assert main(["verify", str(session.transcript)]) == 0

    # After the end the full view opens, with the replay.
    page.click("#full-link")
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator(".secret").count() > 0
    page.click("#rp-first")
    assert page.locator("[data-kind='speech']").count() == 0
    page.click("#rp-last")
    assert page.locator("[data-kind='speech']").count() > 0
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "5-full-view")


def test_reloading_in_the_middle_of_a_vote_keeps_the_question(server, page):
    base, app = server
    links = create(base, **table({"Alice": "werewolf", "Bob": "villager"}, seed=5))
    page.goto(base + links["seats"]["Alice"])
    before = until_vote(page)
    page.reload()
    page.wait_for_selector(f".question[data-kind='vote'][data-id='{before}']")
    target = page.locator(".question button.option:not(.pass)").nth(1)
    name = target.inner_text()
    target.click()
    page.wait_for_selector("[data-kind='vote_result']")
    session = session_of(app, links)
    votes = [a for a in session.game.answer_log if a[1] == "Alice" and a[2] == "vote"]
    assert votes[0][3] == name
    assert name in page.locator("[data-kind='vote_result']").first.inner_text()


def test_the_page_never_receives_another_seats_secret(server, page):
    base, app = server
    links = create(base, **table({"Alice": "villager", "Bob": "werewolf", "Chloe": "seer"}, seed=3))
    frames: list[str] = []
    states: list[str] = []

    def on_socket(ws) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else payload.decode()))

    page.on("websocket", on_socket)
    page.on("response", lambda r: states.append(r.text()) if "/state" in r.url else None)
    page.goto(base + links["seats"]["Alice"])
    session = session_of(app, links)  # the game being played: its record of what it sent
    play_to_end(page)
    game = session.game
    assert frames, "the socket delivered nothing"

    received = [json.loads(f) for f in frames] + [json.loads(s) for s in states]
    by_seq = {e.seq: e for e in game.events}
    seen_kinds = set()
    ended = False
    for msg in received:
        for ev in msg.get("events", []):
            assert by_seq[ev["seq"]].visible_to("Alice"), f"event {ev['seq']} ({ev['kind']}) is not Alice's to see"
            assert "audience" not in ev
            seen_kinds.add(ev["kind"])
            ended = ended or ev["kind"] == "game_end"
        if msg.get("type") == "thought":
            raise AssertionError("a model's reasoning reached a seat's page")
        if not any(ev["kind"] == "game_end" for ev in msg.get("events", [])) and not msg.get("status") == "over":
            for p in msg.get("players", []):  # before the reveal: only Alice's own card and the dead
                assert p["role"] is None or p["name"] == "Alice" or not p["alive"], f"{p['name']}'s card reached Alice's page"
    assert ended
    assert not seen_kinds & {"wolf_pack", "wolf_votes", "wolf_victim", "seer_result", "wolf_chat"}
    others_cards = [e for e in game.events if e.kind == "role" and e.data["player"] != "Alice"]
    assert others_cards and not any(f'"seq": {e.seq},' in f or f'"seq":{e.seq},' in f for f in frames for e in others_cards)

    # The spectators' page shows the public game only.
    watcher = page.context.new_page()
    watcher.goto(base + links["watch"])
    watcher.wait_for_selector("#reveal:not([hidden])")
    assert watcher.locator(".secret").count() == 0 and watcher.locator("#action .question").count() == 0
    watcher.evaluate("window.scrollTo(0, 0)")
    shoot(watcher, "6-spectator")

    # The server's own record of what it sent on Alice's sockets says the same.
    channels = [ch for ch in session.history if ch.lens.seat == "Alice"]
    assert channels
    for ch in channels:
        for msg in ch.sent:
            assert all(by_seq[ev["seq"]].visible_to("Alice") for ev in msg.get("events", []))


def test_a_chinese_table_with_beliefs(server, page):
    """The start page turns Chinese with the game's language; the seat's page speaks
    Chinese; after the end the full view shows each bot's private beliefs."""
    base, app = server
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows tr")
    page.select_option("#language", "zh")
    assert page.inner_text("#start") == "开始游戏" and page.inner_text("h1") == "开一桌"
    from arena.gamefile import TABLE_OPPONENT
    from arena.web.app import STATIC

    zh = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))["zh"]
    default = page.locator("#seat-rows tr:nth-child(2) .agent option:checked")  # the table's opponent, in Chinese
    assert default.get_attribute("value") == TABLE_OPPONENT and default.inner_text() == zh[f"start.agent.{TABLE_OPPONENT}"]
    page.check("#beliefs")
    shoot(page, "7-start-page-zh")
    page.select_option("#language", "en")
    assert page.inner_text("#start") == "Start the game"

    links = create(base, **table({"Alice": "werewolf", "Bob": "villager"}, seed=7), language="zh", beliefs=True)
    page.goto(base + links["seats"]["Alice"])
    page.wait_for_selector("#card:not([hidden])")
    assert page.inner_text("#card .label") == "你的身份牌" and page.inner_text(".players-box h2") == "玩家"
    until_vote(page, speech="我是好人，我们一起找狼。")
    assert page.inner_text(".question .qhead strong") == "投票"
    shoot(page, "8-vote-zh")
    play_to_end(page)
    assert "赢" in page.inner_text("#reveal h2") or "获胜" in page.inner_text("#reveal h2")
    assert page.locator(".belief").count() == 0  # a person gives no beliefs, and never sees another seat's
    page.click("#full-link")
    page.wait_for_selector(".belief")
    assert "私下的判断" in page.locator(".belief").first.inner_text()
    page.locator(".belief").first.scroll_into_view_if_needed()
    shoot(page, "9-full-view-beliefs-zh")


def test_a_restart_keeps_the_seat_page_playing(tmp_path, page):
    """The server stops in the middle of a game and starts again on the same port: the
    open seat page reconnects by itself and the game goes on to its end."""
    app, base, stop = run_server(tmp_path / "games")
    links = create(base, **table({"Alice": "werewolf", "Bob": "villager"}, seed=5))
    page.goto(base + links["seats"]["Alice"])
    before = until_vote(page)
    stop()
    page.wait_for_selector("#conn.down")
    app, _, stop = run_server(tmp_path / "games", int(base.rsplit(":", 1)[1]))
    try:
        page.wait_for_selector("#conn.live", timeout=20_000)
        page.wait_for_selector(f".question[data-kind='vote'][data-id='{before}']")
        play_to_end(page)
        session = session_of(app, links)
        assert session.status == "over"
        from arena.cli import main

        assert main(["verify", str(session.transcript)]) == 0
    finally:
        stop()


def test_a_person_attaches_claims_and_proposes_the_victim(server, page):
    """The speech box reads the README's claim syntax as the terminal does: a bad claim
    is refused with the terminal's sentence and nothing is published; the helper under
    the box writes the syntax into it; the pack's helper lists exactly the victims the
    kill will offer (once "You" and the packmate were offered)."""
    base, app = server
    setup = table({"Alice": "werewolf", "Bob": "werewolf", "Chloe": "seer"}, seed=7)
    setup["options"]["discussion_rounds"] = 2  # two speeches on the first day
    links = create(base, **setup)
    page.goto(base + links["seats"]["Alice"])
    session = session_of(app, links)

    def until(kind: str) -> None:
        while True:
            page.wait_for_selector(".question")
            if page.get_attribute(".question", "data-kind") == kind:
                return
            answer_next(page)

    until("wolf_chat")
    assert "/target NAME" in page.inner_text("#speech-hint")
    page.click(".extras[data-extras='target'] summary")
    offered = page.eval_on_selector_all("#claim-target option", "os => os.map(o => o.value).filter(Boolean)")
    (chat,) = [d for d in session.game.waiting if d.seat == "Alice"]
    assert offered == list(chat.context["victims"]) == ["Chloe", "David", "Emma"]
    page.fill("#speech", "Let us take Bob. /target Bob")  # a packmate: refused, as the kill would refuse him
    page.click("#speak")
    page.wait_for_selector(".qerror:has-text(\"'Bob' is not a victim the pack may take tonight: Chloe, David, Emma\")")
    page.fill("#speech", "Chloe smells like a Seer.")
    page.select_option("#claim-target", "Chloe")
    page.click("#claim-add-target")
    assert page.input_value("#speech") == "Chloe smells like a Seer. /target Chloe"
    page.click("#speak")
    page.wait_for_selector(".question[data-kind='wolf_chat']", state="detached")
    talk = [a[3] for a in session.game.answer_log if a[1] == "Alice" and a[2] == "wolf_chat"]
    assert talk == [{"text": "Chloe smells like a Seer.", "target": "Chloe"}]

    until("speak")
    qid = page.get_attribute(".question", "data-id")
    published = len([e for e in session.game.events if e.kind == "speech"])
    page.fill("#speech", "xxxxx /role dragon /accuse Nobody")  # the line: once published word for word
    page.click("#speak")
    page.wait_for_selector(".qerror:has-text(\"'dragon' is not a role\")")
    assert page.locator(".question[data-kind='speak']").count() == 1
    assert len([e for e in session.game.events if e.kind == "speech"]) == published
    page.fill("#speech", "I am the Seer. /check David werewolf /accuse David")  # typed, as the README says
    page.click("#speak")
    page.wait_for_selector(f".question[data-id='{qid}']", state="detached")
    said = [a[3] for a in session.game.answer_log if a[1] == "Alice" and a[2] == "speak"]
    assert said[0] == {"text": "I am the Seer.", "claims": {"role": None, "checks": [{"target": "David", "role": "werewolf"}], "accuses": ["David"]}}

    until("speak")  # the helper writes the same syntax into the box
    qid = page.get_attribute(".question", "data-id")
    page.fill("#speech", "I am the Seer.")
    page.click(".extras[data-extras='claims'] summary")
    assert page.is_disabled("#claim-add-check")  # a check needs a player and a role
    page.select_option("#claim-role", "seer")
    page.click("#claim-add-role")
    page.select_option("#claim-check-player", "David")
    page.select_option("#claim-check-role", "werewolf")
    page.click("#claim-add-check")
    page.select_option("#claim-accuse", "David")
    page.click("#claim-add-accuse")
    assert page.input_value("#speech") == "I am the Seer. /role seer /check David werewolf /accuse David"
    page.click("#speak")
    page.wait_for_selector(f".question[data-id='{qid}']", state="detached")
    said = [a[3] for a in session.game.answer_log if a[1] == "Alice" and a[2] == "speak"]
    assert said[1] == {"text": "I am the Seer.", "claims": {"role": "seer", "checks": [{"target": "David", "role": "werewolf"}], "accuses": ["David"]}}


def test_the_start_form_offers_every_table_size_a_preset_plays(server, page):
    base, _ = server
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows tr")
    page.fill("#players", "24")
    page.dispatch_event("#players", "change")
    assert page.locator("#seat-rows tr").count() == 24  # the form once stopped at 18
    page.select_option("#preset", "best_of")
    assert page.get_attribute("#players", "max") == "28"
    page.fill("#players", "40")
    page.dispatch_event("#players", "change")
    assert page.locator("#seat-rows tr").count() == 28


@pytest.mark.parametrize("width", [390, 1280])
def test_the_start_page_fits_a_phone_and_a_desktop(server, browser, width):
    """On a 390-pixel phone the start page was 759 pixels wide, its fields off the
    screen; every field now fits the width there is."""
    base, _ = server
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seat-rows tr")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"start-page-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    beyond = page.evaluate(
        """(w) => [...document.querySelectorAll('input, select, button')]
            .filter((e) => e.getBoundingClientRect().right > w + 0.5).map((e) => e.id || e.className)""",
        width,
    )
    assert not beyond, f"fields past the screen's edge: {beyond}"
    context.close()


@pytest.mark.parametrize("locale, title", [("en-US", "No game at this address"), ("zh-CN", "这个地址没有对局")])
def test_a_mistyped_seat_link_says_what_may_be_wrong(server, browser, locale, title):
    """A mistyped seat link answered a bare ``404: Not Found``."""
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    res = page.goto(base + "/play/not-a-seat-token")
    assert res is not None and res.status == 404
    assert page.inner_text("h1") == title
    page.screenshot(path=str(SHOTS / f"missing-{locale}.png"), full_page=False)
    page.click("a.button")
    page.wait_for_selector("#seat-rows tr")  # the way on: the start page
    assert page.url == base + "/"
    context.close()


def test_the_spectators_badge_leaves_live_when_the_game_ends(server, page):
    """The public page kept its green "live" badge after the game ended."""
    base, _ = server
    waiting = create(base, **table({}, seed=5))  # Alice, a person who has not answered: still running
    page.goto(base + waiting["watch"])
    page.wait_for_selector("#conn.live")
    assert page.inner_text("#conn") == "● live"
    over = create(base, **table({}, seed=5, human="nobody"))  # five bots at pace 0: over at once
    page.goto(base + over["watch"])
    page.wait_for_selector("#reveal:not([hidden])")
    page.wait_for_selector("#conn.ended")
    assert page.inner_text("#conn") == "game over" and "live" not in (page.get_attribute("#conn", "class") or "")
    shoot(page, "spectator-ended")


def test_the_pages_socket_is_not_compressed(server, page):
    """Chromium offers permessage-deflate on the page's socket; the server declines it
    (``arena.web.serve.uvicorn_config``: a compressor per socket is memory a long-running
    server kept after the close) and the page plays on plain frames."""
    base, _ = server
    waiting = create(base, **table({}, seed=5))
    page.goto(base + waiting["watch"])
    page.wait_for_selector("#conn.live")
    assert page.evaluate("socket.extensions") == ""
    page.wait_for_selector("#players li")  # the snapshot, read off plain frames, drawn
    assert page.evaluate("window.__received[0].type") == "snapshot"

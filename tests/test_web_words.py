"""The web table in the game's language, and the beliefs option from the browser: the
page's words come from one data file in both languages; a seat is sent its own
beliefs and never another seat's."""

from __future__ import annotations

import json
import re

import pytest

from arena.web.app import STATIC, create_app
from prompts.catalog import catalog
from test_web_api import answer, play_until, seat_url, start, token, wait_for
from web_tools import web_client


@pytest.fixture
def client(tmp_path):
    with web_client(create_app(tmp_path / "games", audit=True)) as c:  # what each page was sent, kept to be checked
        yield c


def test_every_word_the_pages_use_is_in_both_languages():
    table = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))
    assert set(table) >= {"en", "zh"} and set(table["en"]) == set(table["zh"])
    assert all(v.strip() for lang in table.values() for v in lang.values() if v not in ("#",))
    used = set()
    for f in STATIC.iterdir():
        text = f.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bT\("([a-z_.]+)"', text))  # T("key") in the scripts
        used |= set(re.findall(r'data-i18n(?:-placeholder|-title)?="([a-z_.]+)"', text))  # marked elements
    used = {k for k in used if not k.endswith(".") and k != "key"}  # composed keys are listed below
    used |= {f"start.agent.{a}" for a in ("human", "heuristic", "random", "model")}
    used |= {f"sub.{p}" for p in ("campaign", "sheriff_election", "discussion", "vote", "dusk", "last_words")}
    used |= {f"view.{v}" for v in ("seat", "public", "full")} | {f"win.{w}" for w in ("village", "werewolves", "lovers", "none")}
    used |= {f"known.{k}" for k in ("card", "card.you", "pack", "seen", "revealed")} | {"a.time_up"}
    assert used and not used - set(table["en"]), sorted(used - set(table["en"]))
    for key in ("won", "lost", "phase.over", "status.night"):
        assert re.search(r"[\u4e00-\u9fff]", table["zh"][key]), key  # translated, not copied


def test_a_chinese_table_speaks_chinese(client):
    links = start(client, language="zh", timeout=30)
    q = play_until(client, links, "vote")
    assert q["title"] == catalog("zh").word("kinds", "vote") == "投票" and q["pass_label"] == "弃票" and "你弃票" in q["default"]
    assert re.search(r"[\u4e00-\u9fff]", " ".join(q["lines"]))  # the question itself: the prompts' words
    state = client.get(seat_url(links)).json()
    assert state["language"] == "zh" and re.search(r"[\u4e00-\u9fff]", state["card"]["name"])
    target = q["options"][1]["value"]
    assert answer(client, links, q["id"], target).status_code == 200
    done = wait_for(client, seat_url(links), lambda s: any(e["kind"] == "vote_result" for e in s["events"]))
    dead = [p for p in done["players"] if not p["alive"]]
    assert dead and all(re.search(r"[\u4e00-\u9fff]", p["cause"]) for p in dead)
    english = start(client)
    assert client.get(seat_url(english)).json()["language"] == "en"


def test_the_words_read_back_follow_the_language():
    from arena.web.web_agent import WebAgent
    from engine.decisions import CHOICE, Decision

    vote = Decision(id=3, seat="Alice", kind="vote", shape=CHOICE, options=("Bob", "Chloe"), allow_pass=True)
    en, zh = WebAgent("Alice"), WebAgent("Alice", language="zh")
    assert en.describe_answer(vote, "Bob") == "You chose Bob." and en.describe_answer(vote, None) == "You abstain."
    assert zh.describe_answer(vote, "Bob") == "你选择了Bob。" and zh.describe_answer(vote, None) == "你弃票。"


# ---------------------------------------------------------------------- beliefs
def test_the_beliefs_option_is_offered_and_recorded(client):
    links = start(client, beliefs=True)
    header = json.loads(open(links["transcript"]).readline())
    assert header["beliefs"] is True
    q = play_until(client, links, "vote")
    host = wait_for(client, "/api" + links["host"] + "/state", lambda s: len(s["beliefs"]) >= 1)
    bots = {b["seat"] for b in host["beliefs"]}
    assert bots and "Alice" not in bots  # heuristic bots give beliefs; a person is not asked
    assert all(b["seat"] not in b["probabilities"] and all(0 <= v <= 1 for v in b["probabilities"].values()) for b in host["beliefs"])
    seat = client.get(seat_url(links)).json()
    assert seat["beliefs"] == [] and seat["beliefs_option"] is True
    public = client.get("/api" + links["watch"] + "/state").json()
    assert "beliefs" not in public
    assert answer(client, links, q["id"], None).status_code == 200
    plain = start(client)
    assert json.loads(open(plain["transcript"]).readline())["beliefs"] is False


def test_a_seat_is_sent_its_own_beliefs_only(client):
    from transcripts.schema import BeliefRecord

    links = start(client, humans=("Alice", "Bob"), beliefs=True)
    session = client.app.state.store.by_watch(token(links["watch"]))
    mine = BeliefRecord(day=1, seat="Alice", decision=9, probabilities={"Bob": 0.25, "Chloe": 0.75})
    theirs = BeliefRecord(day=1, seat="Bob", decision=9, probabilities={"Alice": 0.9, "Chloe": 0.1})
    with client.websocket_connect("/ws" + links["seats"]["Alice"]) as alice, client.websocket_connect("/ws" + links["host"]) as host:
        alice.receive_json(), host.receive_json()
        client.portal.call(_feed, session, theirs)
        client.portal.call(_feed, session, mine)
        got = alice.receive_json()
        assert got["type"] == "belief" and got["belief"]["seat"] == "Alice" and got["belief"]["probabilities"]["Chloe"] == 0.75
        assert [host.receive_json()["belief"]["seat"] for _ in range(2)] == ["Bob", "Alice"]
    assert [b["seat"] for b in client.get(seat_url(links)).json()["beliefs"]] == ["Alice"]
    assert [b["seat"] for b in client.get(seat_url(links, "Bob")).json()["beliefs"]] == ["Bob"]
    sent = [m for ch in session.history if ch.lens.seat == "Alice" for m in ch.sent]
    assert not any("0.9" in json.dumps(m.get("belief", {})) for m in sent)


async def _feed(session, record) -> None:
    session._on_belief(record)


def test_beliefs_come_back_after_a_restart(tmp_path):
    folder = tmp_path / "games"
    with web_client(create_app(folder)) as c:
        links = start(c, beliefs=True)
        play_until(c, links, "vote")
        before = wait_for(c, "/api" + links["host"] + "/state", lambda s: bool(s["beliefs"]))["beliefs"]
    with web_client(create_app(folder)) as c:
        after = c.get("/api" + links["host"] + "/state").json()["beliefs"]
        assert [(b["seat"], b["probabilities"]) for b in after][: len(before)] == [(b["seat"], b["probabilities"]) for b in before]
        assert c.get(seat_url(links)).json()["beliefs"] == []

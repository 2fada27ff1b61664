"""The seats under the discussion protocols: a person at the terminal and in the
browser is asked the bid and speaks in a parallel round; the heuristic bot bids from
what it has to say; the random bot bids on the scale."""

from __future__ import annotations

import random

import pytest
from test_web_api import answer, client, play_until, seat_url, start, wait_for  # noqa: F401  (``client`` is a fixture)

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from agents.human_input import BadInput, input_hint, numbered, parse_answer
from agents.random_agent import random_answer
from engine.decisions import CHOICE, Decision
from engine.events import PUBLIC, Event
from engine.flow.protocols import BIDS
from prompts.decisions_text import decision_prompt


def bid_decision(seat: str = "Ann", last: str | None = None) -> Decision:
    return Decision(id=1, seat=seat, kind="bid", shape=CHOICE, options=BIDS, context={"turn": 2, "turns": 5, "last": last})


# ---------------------------------------------------------------------- the terminal
def test_a_person_types_the_bid_itself():
    d = bid_decision()
    assert numbered(d) == [(0, "nothing to add"), (1, "I may add something"), (2, "I would like to speak"),
                           (3, "I have something important to say"), (4, "I must speak now")]  # fmt: skip
    assert numbered(d, "zh")[4] == (4, "我必须马上发言")
    assert "0 (nothing to add) to 4 (I must speak now)" in input_hint(d)
    assert parse_answer(d, " 3 ") == 3 and parse_answer(d, "0") == 0
    for bad in ("5", "-1", "loud", ""):
        with pytest.raises(BadInput):
            parse_answer(d, bad)


def test_the_bid_question_reads_in_both_languages():
    en = decision_prompt(bid_decision(last="Cal"))
    assert "turn 2 of at most 5" in en and "The last speaker was Cal." in en and "4 (I must speak now)" in en
    zh = decision_prompt(bid_decision(), language="zh")
    assert "第 2 次（最多 5 次）" in zh and "今天还没有人发言。" in zh


# ---------------------------------------------------------------------- the bots
def _events(*items: tuple[str, dict, str]) -> list[Event]:
    return [Event.recorded(i, kind, day, "discussion" if kind == "speech" else "night", aud, data) for i, (kind, data, aud, day) in enumerate(items)]


BASE = [
    ("game_start", {"players": ["Ann", "Ben", "Cal", "Dee", "Eve"], "preset": "millers_hollow", "roles_in_play": ["seer", "villager", "werewolf"], "set_aside": 0}, PUBLIC, 0),
    ("day_start", {"day": 1, "alive": ["Ann", "Ben", "Cal", "Dee", "Eve"], "sheriff": None}, PUBLIC, 1),
]


def heuristic_bid(seat: str, role: str, extra: list[tuple] = ()) -> int:
    events = _events(*BASE[:1], ("role", {"player": seat, "role": role}, frozenset({seat}), 0), *extra, *BASE[1:])
    bot = HeuristicAgent(seat, seed=1)
    bot.strict = True
    return bot.decide(SeatView(seat, events), bid_decision(seat))


def test_the_heuristic_bids_high_with_news_and_low_with_nothing():
    found = [("seer_result", {"target": "Dee", "role": "werewolf"}, frozenset({"Ben"}), 1)]
    assert heuristic_bid("Ben", "seer", found) == 4  # a werewolf found: the Seer must speak
    assert heuristic_bid("Cal", "villager") <= 2  # nothing known: a low bid
    accused = [("speech", {"speaker": "Dee", "text": "Cal is a wolf.", "round": 1, "claims": {"role": None, "checks": [], "accuses": ["Cal"]}}, PUBLIC, 1)]
    assert heuristic_bid("Cal", "villager", accused) >= 3  # accused: a defence
    spoke = [("speech", {"speaker": "Ben", "text": "I am the Seer.", "round": 1, "claims": {"role": "seer", "checks": [{"target": "Dee", "role": "werewolf"}], "accuses": ["Dee"]}}, PUBLIC, 1)]
    assert heuristic_bid("Ben", "seer", found + spoke) < 4  # told already, today: others' turn


def test_the_random_bot_bids_on_the_scale():
    rng = random.Random(3)
    seen = {random_answer(rng, bid_decision()) for _ in range(200)}
    assert seen == set(BIDS)


# ---------------------------------------------------------------------- the browser
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma"]


def test_the_web_seat_is_asked_the_bid_with_words_for_each_level(client):  # noqa: F811
    links = start(client, options={"sheriff": False, "discussion": "bidding", "speaking_order": "seat"})
    q = play_until(client, links, "bid")  # the night's questions answered on the way
    assert q["title"] == "Bid for the floor" and [o["value"] for o in q["options"]] == list(BIDS)
    assert q["options"][4]["label"] == "4 · I must speak now" and not q["allow_pass"]
    assert answer(client, links, q["id"], True).status_code == 400  # ``true`` is no bid
    assert answer(client, links, q["id"], 4).status_code == 200
    done = wait_for(client, seat_url(links), lambda s: any(e["kind"] == "bids" for e in s["events"]))
    bids = next(e for e in done["events"] if e["kind"] == "bids")
    assert bids["data"]["bids"]["Alice"] == 4 and bids["data"]["speaker"] == "Alice"  # first in order among the 4s
    assert "you 4" in bids["text"] and "You speak next." in bids["text"]  # in her own words


def test_two_people_speak_in_one_parallel_round_without_hearing_each_other(client):  # noqa: F811
    links = start(client, humans=("Alice", "Bob"), options={"sheriff": False, "discussion": "parallel"})
    speak = lambda s: [q for q in s["pending"] if q["kind"] == "speak"]  # noqa: E731
    play_until(client, links, "speak")
    alice = client.get(seat_url(links)).json()
    wait_for(client, seat_url(links, "Bob"), lambda s: bool(speak(s)))
    assert set(alice["speaking_together"]) >= {"Alice", "Bob"}
    assert any(e["kind"] == "discussion_round" for e in alice["events"])
    assert answer(client, links, speak(alice)[0]["id"], "Alice's own words.").status_code == 200
    bob = client.get(seat_url(links, "Bob")).json()
    assert speak(bob) and {"Alice", "Bob"} <= set(bob["speaking_together"])  # the round is not heard yet
    assert not any("Alice's own words." in str(e) for e in bob["events"])  # not heard before Bob speaks
    assert answer(client, links, speak(bob)[0]["id"], "Bob's words.", "Bob").status_code == 200
    heard = wait_for(client, seat_url(links, "Bob"), lambda s: any(e["kind"] == "speech" and e["data"]["speaker"] == "Alice" for e in s["events"]))
    assert heard["speaking_together"] == []


async def test_a_person_at_the_terminal_bids_through_the_menu():
    import io
    import os

    from rich.console import Console

    from agents.human import HumanAgent
    from agents.human_io import LineReader
    from engine import Game, GameSetup, get_preset

    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    agent = HumanAgent("Ann", console=Console(file=out, width=120, color_system=None), reader=LineReader(read_fd))
    roles = {"Ann": "werewolf", "Ben": "villager", "Cal": "seer", "Dee": "villager", "Eve": "villager"}  # the pack spares Ann
    options = get_preset("millers_hollow").options({"sheriff": False, "discussion": "bidding", "speaking_order": "seat"})
    game = Game(GameSetup(names=list(roles), seed=1, forced=roles, options=options))
    from helpers import drive, pending

    bots = {n: HeuristicAgent(n, seed=2) for n in roles}
    d = drive(game, bots, until=pending("bid", "Ann"))
    assert d is not None
    os.write(write_fd, b"7\n3\n")
    assert await agent.adecide(SeatView("Ann", game.observation("Ann")), d) == 3
    text = out.getvalue()
    assert " 0  nothing to add" in text and " 4  I must speak now" in text
    assert "'7' is not on the scale" in text and "turn 1 of at most" in text

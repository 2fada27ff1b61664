"""Isolation over A2A: every message a remote agent received, over several presets,
holds nothing its seat was not shown, and carries that seat's own token only.

The scan the model prompts pass (``test_llm_isolation``), on what a real A2A server
(``a2a_standins``, recording every message with the token it came with) received:

- each event sent is one of the seat's own observation, as the engine recorded it;
- the text is the model seat's text: its first message opens with the system prompt
  built from the seat's own dealt role, and the history lines it carries are the
  lines of the events sent with it;
- no private text (wolf talk, a night's private words) reaches a seat outside its
  audience, and no remote seat's private reasoning reaches another seat;
- each request carries its own seat's bearer token, no message holds another's, and
  no token is written to the transcript.
"""

from __future__ import annotations

import json

import pytest
import yaml
from a2a_standins import records, serving

from agents.a2a import make_a2a_agent
from arena.cli import main
from prompts.render import system_prompt
from transcripts import read_transcript
from transcripts.schema import CallRecord
from transcripts.verify import build_game

pytest.importorskip("a2a")

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
REMOTE = ["Alice", "Chloe", "Emma", "Hugo"]
TABLES = [  # the wolves talk at night in each: private words to scan for
    ("millers_hollow", 21, "en", ["werewolf", "werewolf", "seer", "witch", "cupid", "little_girl", "hunter", "villager"]),
    ("langrensha", 22, "zh", None),
    ("village", 23, "en", None),
]
WOLF_TALK = {"wolf_chat_rounds": 1}


def token(seat: str) -> str:
    return f"tok-{seat.lower()}-7f3a9c21"


@pytest.mark.parametrize("preset,seed,language,roles", TABLES)
def test_a_remote_agent_receives_only_its_seats_view(tmp_path, capsys, monkeypatch, preset, seed, language, roles):
    for seat in REMOTE:
        monkeypatch.setenv(f"SEAT_{seat.upper()}_AUTH", token(seat))
    log = tmp_path / "received.jsonl"
    with serving("--record", str(log), *(a for s in REMOTE for a in ("--token", f"{s}={token(s)}"))) as url:
        seats = [
            {"name": n, "agent": f"a2a:{url}", "options": {"token_env": f"SEAT_{n.upper()}_AUTH"}} if n in REMOTE else {"name": n, "agent": "heuristic"}
            for n in NAMES
        ]
        game = {"preset": preset, "seed": seed, "language": language, "seats": seats, "options": WOLF_TALK, **({"roles": roles} if roles else {})}
        path = tmp_path / "game.yaml"
        path.write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
        transcript = tmp_path / "game.jsonl"
        code = main(["play", str(path), "--quiet", "--json", "--trust-endpoints", "--transcript", str(transcript)])
        err = capsys.readouterr().err
    assert code == 0, err
    t = read_transcript(transcript)
    calls = [r for r in t.records if isinstance(r, CallRecord)]
    assert calls and all(not r.fallback for r in calls)  # every token was right: no seat was refused
    got = records(log)
    assert {m["data"]["seat"] for m in got} <= set(REMOTE) and len(got) == len([c for c in calls if c.messages])

    events = {e.seq: e for e in t.events}
    sees = {n: {e.seq for e in t.events if e.audience == "public" or (isinstance(e.audience, list) and n in e.audience)} for n in NAMES}
    private_texts: dict[str, set[str]] = {}  # a private event's words -> who may read them
    said_aloud = {e.data.get("text") for e in t.events if e.audience == "public"}
    for e in t.events:
        text = e.data.get("text")
        if isinstance(text, str) and len(text) >= 6 and e.audience != "public" and text not in said_aloud:
            private_texts.setdefault(text, set()).update(e.audience if isinstance(e.audience, list) else [])
    assert private_texts  # the scan has something to find (wolf talk, a night's words)
    notes = {m["data"]["seat"]: [] for m in got}
    for c in calls:
        if isinstance(c.parsed, dict) and c.parsed.get("reasoning"):
            notes.setdefault(c.seat, []).append(c.parsed["reasoning"])
    assert any(notes.values())

    start = next(e for e in t.events if e.kind == "game_start").data
    dealt: dict[str, str] = {}
    for e in t.events:
        if e.kind == "role":
            dealt.setdefault(e.data["player"], e.data["role"])  # the deal's card: the system part is built once, from it
    options = build_game(t.header).options
    for i, m in enumerate(got):
        seat = m["data"]["seat"]
        everything = json.dumps(m, ensure_ascii=False)
        # the seat's own token, and no other seat's
        assert m["authorization"] == f"Bearer {token(seat)}"
        for other in REMOTE:
            if other != seat:
                assert token(other) not in everything, f"{seat} was sent {other}'s token"
        # only its own events, as the engine recorded them
        for e in m["data"]["events"]:
            assert e["seq"] in sees[seat], f"{seat} was sent event {e['seq']} ({e['kind']}), not shown to it"
            assert e["data"] == events[e["seq"]].data and e["kind"] == events[e["seq"]].kind
        # the text: the history lines are those events' lines, after the system part on the first message
        text = m["texts"][0]
        for line in (e["text"] for e in m["data"]["events"] if e["text"]):
            assert line in text
        if m["data"]["attempt"] == 1 and i == next(j for j, x in enumerate(got) if x["data"]["seat"] == seat):
            limits = make_a2a_agent(f"a2a:{url}", seat, language=language, token="x")._stated_limits()
            expected = system_prompt(
                preset=preset, options=options, seat=seat, role=dealt[seat], players=NAMES, language=language,
                deck=start.get("roles_in_play"), layout="grammar", limits=limits,
            )  # fmt: skip
            assert text.startswith(expected.rstrip("\n")), f"{seat}'s first message does not open with its own system prompt"
        # no private words outside their audience, no other seat's private notes
        for words, readers in private_texts.items():
            if seat not in readers:
                assert json.dumps(words, ensure_ascii=False)[1:-1] not in everything and words not in everything, f"{seat} read a private text"
        for other, secrets in notes.items():
            if other != seat:
                for secret in secrets:
                    assert secret not in everything, f"{seat} was sent {other}'s private reasoning"
    raw = transcript.read_text(encoding="utf-8")
    assert not any(token(s) in raw for s in REMOTE)  # no token in the record
    assert all(f"SEAT_{s.upper()}_AUTH" in raw for s in REMOTE)  # (its variable's name is: where the token came from)

"""The ``beliefs`` game option: every seat that gives beliefs privately rates, as each
day's vote opens, each other living player's chance of being a werewolf.

What must hold: one record per living seat per day with a probability in [0, 1] for
each other living player; no belief ever reaches another seat (view, prompt, replay);
play is the same with beliefs on or off; a model that fails is recorded as missing,
never guessed, and never stops the game; verify still passes; metrics score them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from llm_standins import FAST, NAMES, OpenAIStandIn, Reply, Sleep, Status, reset_llm_state, set_fake_keys, standin_router

from agents.heuristic import HeuristicAgent
from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from agents.llm.beliefs import belief_schema, read_beliefs
from arena.beliefs import BeliefPoll
from arena.cli import main
from arena.metrics.game import aggregate, game_metrics
from arena.metrics.load import load_transcript
from arena.runner import run_async, run_sync
from engine import Game, GameSetup, get_preset
from prompts.beliefs_text import beliefs_prompt
from transcripts.schema import read_transcript
from transcripts.verify import Status as Verdict
from transcripts.verify import verify_file
from transcripts.views import Lens, timeline

MODEL = "openai:gpt-5.4-mini"


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    set_fake_keys(monkeypatch)
    reset_llm_state()
    yield
    reset_llm_state()


def game_file(tmp_path: Path, *, seed: int, agent: str = "heuristic", beliefs: bool = True, players: int = 8, **extra) -> Path:
    data = {
        "seed": seed,
        "options": {"sheriff": False},
        "seats": [{"name": n, "agent": agent} for n in NAMES[:players]],
        **extra,
    }
    if beliefs:
        data["beliefs"] = True
    p = tmp_path / f"g{seed}{'b' if beliefs else ''}.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def play(tmp_path: Path, gf: Path, *flags: str) -> Path:
    out = tmp_path / (gf.stem + ".jsonl")
    assert main(["play", str(gf), "--quiet", "--transcript", str(out), *flags]) == 0
    return out


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def check_beliefs(records: list[dict], expected_seats=None) -> dict[int, set[str]]:
    """Walk a transcript's records: each belief is given by a living seat, about exactly
    the other living players in seat order, in [0, 1], before any answer of the vote it
    was asked at; and each day has one belief per living seat (of ``expected_seats``,
    default every seat). Returns the seats that gave beliefs, per day."""
    players = [s["name"] for s in records[0]["seats"]]
    dead: set[str] = set()
    answered: set[int] = set()
    given: dict[int, list[str]] = {}
    expected: dict[int, set[str]] = {}
    for r in records[1:]:
        if r["type"] == "event" and r["kind"] == "death":
            dead.add(r["data"]["player"])
        elif r["type"] == "answer":
            answered.add(r["decision"])
        elif r["type"] == "belief":
            alive = [p for p in players if p not in dead]
            assert r["seat"] in alive
            assert r["decision"] not in answered, "a belief after its vote was answered"
            probs = r["probabilities"]
            assert probs is not None, r
            assert list(probs) == [p for p in alive if p != r["seat"]]
            assert all(isinstance(v, float) and 0 <= v <= 1 for v in probs.values())
            given.setdefault(r["day"], []).append(r["seat"])
            expected.setdefault(r["day"], set(expected_seats or players) & set(alive))
    for day, seats in given.items():
        assert len(seats) == len(set(seats)), f"day {day}: two beliefs of one seat"
        assert set(seats) == expected[day], f"day {day}: beliefs from {sorted(seats)}, expected {sorted(expected[day])}"
    return {d: set(s) for d, s in given.items()}


def vote_days(records: list[dict]) -> set[int]:
    return {r["day"] for r in records if r["type"] == "event" and r["kind"] == "vote_result" and r["data"].get("round", 1) == 1}


# ---------------------------------------------------------------------- bots
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_bot_game_records_one_belief_per_living_seat_per_day(tmp_path, seed):
    out = play(tmp_path, game_file(tmp_path, seed=seed))
    records = lines(out)
    assert records[0]["beliefs"] is True
    by_day = check_beliefs(records)
    assert set(by_day) == vote_days(records) and by_day
    v = verify_file(out)
    assert v.status is Verdict.OK, v.summary()
    assert v.beliefs == sum(len(s) for s in by_day.values())
    assert "beliefs checked" in v.summary()


def test_the_play_flag_turns_beliefs_on(tmp_path):
    out = tmp_path / "flag.jsonl"
    assert main(["play", "--beliefs", "--quiet", "--seed", "7", "--transcript", str(out)]) == 0
    records = lines(out)
    assert records[0]["beliefs"] is True and check_beliefs(records)


def test_beliefs_off_writes_none_and_keeps_old_headers(tmp_path):
    out = play(tmp_path, game_file(tmp_path, seed=5, beliefs=False))
    records = lines(out)
    assert not any(r["type"] == "belief" for r in records)
    assert "beliefs" not in json.dumps(records[0]) or records[0]["beliefs"] is False
    assert verify_file(out).ok


@pytest.mark.parametrize("seed", range(6))
def test_beliefs_never_change_play(seed):
    """The same table with beliefs on and off: the same events, answers and result."""
    for preset, n in (("millers_hollow", 8), ("millers_hollow", 12)):
        runs = []
        for on in (False, True):
            opts = get_preset(preset).options({})
            game = Game(GameSetup(names=[f"P{i}" for i in range(n)], preset=preset, seed=seed, options=opts))
            bots = {p.name: HeuristicAgent(p.name, seed=seed * 100 + i) for i, p in enumerate(game.players)}
            poll = BeliefPoll() if on else None
            run_sync(game, bots, beliefs=poll)
            runs.append(([e.to_json() for e in game.events], game.answer_log, game.winner))
            if on:
                assert poll.records and all(r.probabilities is not None for r in poll.records)
        assert runs[0] == runs[1]


async def test_beliefs_never_change_play_async():
    opts = get_preset("millers_hollow").options({"sheriff": True})
    runs = []
    for on in (False, True):
        game = Game(GameSetup(names=list(NAMES), seed=11, options=opts))
        bots = {n: HeuristicAgent(n, seed=i) for i, n in enumerate(NAMES)}
        await run_async(game, bots, beliefs=BeliefPoll() if on else None)
        runs.append(([e.to_json() for e in game.events], game.answer_log))
    assert runs[0] == runs[1]


def test_transcripts_with_and_without_beliefs_hold_the_same_game(tmp_path):
    on = lines(play(tmp_path, game_file(tmp_path, seed=8)))
    off = lines(play(tmp_path, game_file(tmp_path, seed=8, beliefs=False)))

    def game_only(records):
        return [{k: v for k, v in r.items() if k != "digest"} for r in records[1:] if r["type"] != "belief"]

    assert game_only(on) == game_only(off)


def test_a_bot_belief_is_its_suspicion_model():
    """The heuristic bot's belief is what its judge thinks: a wolf knows its pack."""
    game = Game(GameSetup(names=list(NAMES), seed=2, options=get_preset("millers_hollow").options({"sheriff": False})))
    bots = {n: HeuristicAgent(n, seed=i) for i, n in enumerate(NAMES)}
    poll = BeliefPoll()
    run_sync(game, bots, beliefs=poll)
    wolves = {p.name for p in game.players if p.role == "werewolf"}
    for r in poll.records:
        if r.seat in wolves:
            assert all(r.probabilities[n] == (1.0 if n in wolves else 0.0) for n in r.probabilities)


def test_agents_without_beliefs_are_not_asked(tmp_path):
    gf = game_file(tmp_path, seed=3, agent="random")
    data = yaml.safe_load(gf.read_text())
    data["seats"][0]["agent"] = "heuristic"
    gf.write_text(yaml.safe_dump(data))
    records = lines(play(tmp_path, gf))
    assert {r["seat"] for r in records if r["type"] == "belief"} <= {NAMES[0]}
    check_beliefs(records, expected_seats=[NAMES[0]])


# ---------------------------------------------------------------------- privacy
def test_beliefs_are_private_to_their_seat_in_views_and_replays(tmp_path, capsys):
    out = play(tmp_path, game_file(tmp_path, seed=4))
    t = read_transcript(out)
    assert t.beliefs
    assert not [r for r in timeline(t, Lens.public()) if getattr(r, "type", None) == "belief"]
    for name in NAMES:
        seen = [r for r in timeline(t, Lens.of(name)) if getattr(r, "type", None) == "belief"]
        assert seen == [b for b in t.beliefs if b.seat == name]
    assert len([r for r in timeline(t, Lens.full()) if getattr(r, "type", None) == "belief"]) == len(t.beliefs)
    capsys.readouterr()
    assert main(["replay", str(out), "--as", "Bob"]) == 0
    text = capsys.readouterr().out
    assert "Bob's private beliefs" in text and "Alice's private beliefs" not in text
    assert main(["replay", str(out)]) == 0
    assert "private beliefs" not in capsys.readouterr().out
    assert main(["replay", str(out), "--god"]) == 0
    assert capsys.readouterr().out.count("private beliefs") == len(t.beliefs)


def test_verify_refuses_a_belief_moved_after_its_vote(tmp_path):
    out = play(tmp_path, game_file(tmp_path, seed=1))
    raw = out.read_text().splitlines()
    i = next(i for i, x in enumerate(raw) if json.loads(x)["type"] == "belief")
    j = next(j for j in range(i, len(raw)) if json.loads(raw[j])["type"] == "answer" and json.loads(raw[j])["kind"] == "vote")
    moved = [json.loads(x) for x in raw]
    for r in moved:
        r.pop("digest", None)
    belief = moved.pop(i)
    moved.insert(j + 3, belief)
    bad = tmp_path / "moved.jsonl"
    bad.write_text("\n".join(json.dumps(r) for r in moved) + "\n")
    v = verify_file(bad)
    assert v.status is Verdict.MISMATCH and "belief" in v.summary()
    rated = [json.loads(x) for x in raw]
    for r in rated:
        r.pop("digest", None)
    first = next(r for r in rated if r["type"] == "belief")
    first["probabilities"][first["seat"]] = 0.5  # a seat rating itself
    (tmp_path / "self.jsonl").write_text("\n".join(json.dumps(r) for r in rated) + "\n")
    assert "not another living player" in verify_file(tmp_path / "self.jsonl").summary()


def test_resume_mid_poll_asks_only_the_seats_not_yet_recorded(tmp_path):
    whole = play(tmp_path, game_file(tmp_path, seed=3))
    raw = whole.read_text().splitlines(keepends=True)
    firsts = [i for i, x in enumerate(raw) if json.loads(x)["type"] == "belief"]
    for cut in (firsts[0], firsts[2], firsts[-1] + 1):
        part = tmp_path / f"cut{cut}.jsonl"
        part.write_text("".join(raw[:cut]))
        assert main(["play", "--resume", str(part), "--quiet"]) == 0
        assert part.read_text() == whole.read_text(), f"cut at line {cut + 1}"


def test_a_fork_keeps_the_option(tmp_path):
    src = play(tmp_path, game_file(tmp_path, seed=6))
    out = tmp_path / "fork.jsonl"
    assert main(["fork", str(src), "--day", "2", "--seat", "Alice=random", "--transcript", str(out), "--quiet"]) == 0
    records = lines(out)
    assert records[0]["beliefs"] is True and verify_file(out).ok
    late = [r for r in records if r["type"] == "belief" and r["day"] >= 2]
    assert late and all(r["seat"] != "Alice" for r in late)
    assert any(r["seat"] == "Alice" and r["day"] == 1 for r in records if r["type"] == "belief")


def test_resume_refuses_the_flag(tmp_path, capsys):
    src = play(tmp_path, game_file(tmp_path, seed=6))
    assert main(["play", "--resume", str(src), "--beliefs"]) == 2
    assert "--beliefs" in capsys.readouterr().err


# ---------------------------------------------------------------------- metrics
def test_metrics_score_a_bot_game(tmp_path, capsys):
    out = play(tmp_path, game_file(tmp_path, seed=2))
    m = game_metrics(load_transcript(out))
    seats = m["beliefs"]["seats"]
    assert set(seats) == {b["seat"] for b in lines(out) if b.get("type") == "belief"}
    for s in seats.values():
        assert s["n"] > 0 and s["missing"] == 0 and 0 <= s["brier"] <= 1
    scored = [s for s in seats.values() if s["auc"] is not None]
    assert scored and all(0 <= s["auc"] <= 1 for s in scored)
    wolves = [s for s in seats.values() if s["role"] == "werewolf"]
    assert all(s["brier"] == 0 for s in wolves)  # a wolf knows its pack
    assert all(m["seats"][n]["belief_n"] == s["n"] for n, s in seats.items())
    agg = aggregate([load_transcript(out)])
    assert agg["by_label"]["heuristic"]["auc"] is not None and agg["by_label"]["heuristic"]["brier"] is not None
    assert main(["metrics", str(out)]) == 0
    assert "Brier" in capsys.readouterr().out


def test_the_bot_baseline_separates_wolves_better_than_chance():
    """Pooled over games, a village bot's beliefs rank wolves above innocents (AUC)."""
    from arena.metrics.beliefs import auc

    pairs = []
    for seed in range(10):
        game = Game(GameSetup(names=list(NAMES), seed=seed, options=get_preset("millers_hollow").options({"sheriff": False})))
        poll = BeliefPoll()
        run_sync(game, {n: HeuristicAgent(n, seed=i) for i, n in enumerate(NAMES)}, beliefs=poll)
        wolves = {p.name for p in game.players if p.role == "werewolf"}
        pairs += [(p, int(n in wolves)) for r in poll.records if r.seat not in wolves for n, p in r.probabilities.items()]
    assert auc(pairs) > 0.6


def test_a_tournament_can_ask_for_beliefs(tmp_path):
    from arena.tournament.config import config_from_data
    from arena.tournament.run import run_tournament, transcripts_dir

    data = {"name": "b", "seed": 1, "games": 2, "tables": [{"players": 7}], "beliefs": True,
            "participants": [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}]}  # fmt: skip
    db = tmp_path / "b.sqlite"
    run_tournament(config_from_data(data), db, progress=False)
    for path in sorted(transcripts_dir(db).glob("*.jsonl")):
        records = lines(path)
        assert verify_file(path).ok and records[0]["beliefs"] is True
        givers = {s["name"] for s in records[0]["seats"] if s["agent"] == "heuristic"}
        assert {r["seat"] for r in records if r["type"] == "belief"} <= givers
        check_beliefs(records, expected_seats=givers)
    # the leaderboard scores them per side and draws each participant's reliability diagram
    from arena.cli import main as cli_main

    assert cli_main(["leaderboard", "--db", str(db), "--markdown", "--bootstrap", "20", "--plot", str(tmp_path / "plots")]) == 0
    assert (tmp_path / "plots" / "beliefs.png").read_bytes()[:4] == b"\x89PNG"


# ---------------------------------------------------------------------- model seats
BELIEFS_HEADING = beliefs_prompt(["X"]).splitlines()[0]


def is_belief_request(body: dict) -> bool:
    """The beliefs question, in either layout (in the cache layout it shares the
    game's one schema, so only its question tells it apart)."""
    return BELIEFS_HEADING in json.dumps(body.get("messages"), ensure_ascii=False)


def model_game(tmp_path: Path, seed: int, *flags: str, setup=None, **options) -> tuple[Path, OpenAIStandIn]:
    gf = game_file(tmp_path, seed=seed, agent=MODEL)
    data = yaml.safe_load(gf.read_text())
    for s in data["seats"]:
        s["options"] = {**FAST, **options}
    gf.write_text(yaml.safe_dump(data))
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=seed)
        if setup is not None:
            setup(api)
        out = play(tmp_path, gf, *flags)
    return out, api


def test_model_seats_answer_the_belief_schema_and_metrics_score_them(tmp_path):
    out, api = model_game(tmp_path, 5)
    records = lines(out)
    by_day = check_beliefs(records)
    assert set(by_day) == vote_days(records)
    calls = [r for r in records if r["type"] == "call" and r["kind"] == "beliefs"]
    beliefs = [r for r in records if r["type"] == "belief"]
    assert len(calls) == len(beliefs) and all(c["accepted"] and c["answer"] for c in calls)
    for b in beliefs:
        call = next(c for c in calls if c["seat"] == b["seat"] and c["day"] == b["day"])
        assert call["answer"] == b["probabilities"] and call["decision"] == b["decision"]
    # The request: the seat's system and history, then the question; the schema is the
    # game's one (the cache layout), the same as the seat's decisions', holding a
    # number for every player at the table; the question names the living others.
    body = next(b for b in api.requests if is_belief_request(b))
    schema = body["response_format"]["json_schema"]["schema"]
    decisions = [b for b in api.requests if not is_belief_request(b)]
    assert all(b["response_format"] == body["response_format"] for b in decisions)
    table = schema["properties"]["probabilities"]["anyOf"][0]
    assert table["required"] == list(table["properties"]) == [s["name"] for s in records[0]["seats"]]
    seat = next(n for n in table["properties"] if f"You are {n} (seat" in body["messages"][0]["content"])
    asked = next(r for r in records if r["type"] == "belief" and r["seat"] == seat)
    question, fields = body["messages"][-1]["content"].rsplit("\n", 1)
    assert question.endswith(beliefs_prompt(list(asked["probabilities"]), reminder=False))
    assert fields == 'Fields: {"properties":{"probabilities":{"$ref":"#/properties/probabilities"}}}'
    v = verify_file(out)
    assert v.status is Verdict.OK, v.summary()
    m = game_metrics(load_transcript(out))
    assert all(s["brier"] is not None for s in m["beliefs"]["seats"].values())
    assert any(s["auc"] is not None for s in m["beliefs"]["seats"].values())
    # A belief is no decision: rule-following counts the game's decisions only.
    for seat, r in m["rule_following"].items():
        asked = {c["decision"] for c in records if c["type"] == "call" and c["seat"] == seat and c["kind"] != "beliefs"}
        assert r["decisions"] == len(asked)
    assert m["cost"]["total"]["calls"] == sum(1 for r in records if r["type"] == "call")


def test_no_belief_reaches_any_prompt(tmp_path):
    """A belief's reasoning and numbers are in no later request, the seat's own
    included; the belief question is in no request but the seat's own belief call."""
    out, api = model_game(tmp_path, 9)
    records = lines(out)
    belief_calls = [r for r in records if r["type"] == "call" and r["kind"] == "beliefs"]
    secrets = [c["parsed"]["reasoning"] for c in belief_calls]
    assert secrets and all(s.startswith("stand-in reasoning") for s in secrets)
    question = BELIEFS_HEADING
    for body in api.requests:
        sent = json.dumps(body["messages"], ensure_ascii=False)
        if is_belief_request(body):
            assert sent.count(question) == 1
            continue
        assert question not in sent
        for s in secrets:
            assert s not in sent
    # Each seat's belief call shares its prefix (system + history) with the vote after it.
    for c in belief_calls:
        vote = next(r for r in records if r["type"] == "call" and r["seat"] == c["seat"] and r["kind"] == "vote" and r["day"] == c["day"])
        assert vote["messages"][0] == c["messages"][0]
        history = c["messages"][1]["content"].split("## A private question")[0]
        assert vote["messages"][1]["content"].startswith(history.rstrip("\n"))


def asked_of(seat: str):
    return lambda body: is_belief_request(body) and f"You are {seat} (seat" in body["messages"][0]["content"]


def test_unreadable_beliefs_are_missing_not_guessed_and_the_game_goes_on(tmp_path):
    def setup(api):
        api.push(*[Reply("I think Bob, maybe.")] * 3, when=asked_of("Chloe"))

    out, api = model_game(tmp_path, 6, setup=setup, max_reasks=2)
    records = lines(out)
    missing = [r for r in records if r["type"] == "belief" and r["probabilities"] is None]
    assert [(r["seat"], r["day"]) for r in missing] == [("Chloe", 1)]
    assert "no readable answer after 3 attempts" in missing[0]["error"]
    refused = [r for r in records if r["type"] == "call" and r["kind"] == "beliefs" and r["seat"] == missing[0]["seat"] and r["day"] == missing[0]["day"]]
    assert [c["attempt"] for c in refused] == [1, 2, 3] and all(c["violation"] and not c["fallback"] for c in refused)
    assert refused[1]["messages"][-1]["content"].startswith("Your answer was refused")
    assert records[-1]["type"] == "result" and verify_file(out).ok
    m = game_metrics(load_transcript(out))
    assert m["beliefs"]["seats"][missing[0]["seat"]]["missing"] == 1


def test_failed_calls_and_time_limits_are_missing(tmp_path):
    def setup(api):
        api.push(Status(401, message="bad key"), when=asked_of("Bob"))  # Bob's seat is disabled from then on
        api.push(Sleep(2.0), when=asked_of("David"))

    out, _ = model_game(tmp_path, 7, setup=setup, decision_timeout=0.5, max_retries=0)
    records = lines(out)
    missing = {(r["seat"], r["day"]): r["error"] for r in records if r["type"] == "belief" and r["probabilities"] is None}
    assert "HTTP 401" in missing[("Bob", 1)] and "time limit (0.5s)" in missing[("David", 1)]
    assert all(seat in ("Bob", "David") for seat, _ in missing)
    assert all("not asked" in why for (seat, day), why in missing.items() if seat == "Bob" and day > 1)
    cut = [r for r in records if r["type"] == "call" and r["seat"] == "David" and r["kind"] == "beliefs"][0]
    assert "time limit" in cut["error"] and cut["messages"]
    assert records[-1]["type"] == "result" and verify_file(out).ok


async def test_a_disabled_seat_is_not_asked_and_an_exception_never_escapes(monkeypatch):
    game = Game(GameSetup(names=list(NAMES), seed=3, options=get_preset("millers_hollow").options({"sheriff": False})))
    log = CallLog()
    with standin_router() as router:
        OpenAIStandIn(router, seed=3)
        agents = {n: make_llm_agent(MODEL, n, seed=i, log=log, **FAST) for i, n in enumerate(NAMES)}
        agents["Alice"].disabled = "HTTP 401: bad key"

        async def boom(*a, **k):
            raise RuntimeError("bug")

        monkeypatch.setattr(agents["Bob"], "_ask_beliefs", boom)
        poll = BeliefPoll()
        try:
            await run_async(game, agents, beliefs=poll)
        finally:
            for a in agents.values():
                await a.aclose()
    assert game.over
    alice = [r for r in poll.records if r.seat == "Alice"]
    bob = [r for r in poll.records if r.seat == "Bob"]
    assert alice and all(r.probabilities is None and "not asked" in r.error for r in alice)
    assert bob and all(r.probabilities is None and "RuntimeError" in r.error for r in bob)
    assert not [c for c in log.records if c.seat == "Alice" and c.kind == "beliefs"]


def test_sync_beliefs_outside_an_event_loop():
    game = Game(GameSetup(names=list(NAMES), seed=1, options=get_preset("millers_hollow").options({"sheriff": False})))
    with standin_router() as router:
        OpenAIStandIn(router, seed=1)
        agent = make_llm_agent(MODEL, "Alice", log=CallLog(), **FAST)
        from arena.runner import view_for

        probs = agent.beliefs(view_for(game, "Alice"), 0)
    assert list(probs) == [n for n in NAMES if n != "Alice"] and all(0 <= p <= 1 for p in probs.values())


# ---------------------------------------------------------------------- reading replies
PLAYERS = ["Bob", "Chloe", "David"]


@pytest.mark.parametrize(
    "text",
    [
        '{"reasoning": "x", "probabilities": {"Bob": 0.2, "Chloe": 0.9, "David": 0}}',
        'Sure!\n```json\n{"probabilities": {"bob": "20%", "CHLOE": "0.9", "David": 0}}\n```',
        '{"Bob": 0.2, "Chloe": 0.9, "David": 0.0, "Alice": 0.5}',
        '{"probabilities": [{"player": "Bob", "probability": 0.2}, {"player": "Chloe", "probability": 0.9}, {"name": "David", "p": 0}]}',
        "<think>hmm</think> {'probabilities': {'Bob': 0.2, 'Chloe': 0.9, 'David': 0,}}",
    ],
)
def test_tolerant_reading(text):
    r = read_beliefs(None, text, PLAYERS)
    assert r.ok, r.reason
    assert r.answer == {"Bob": 0.2, "Chloe": 0.9, "David": 0.0}


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"probabilities": {"Bob": 0.2, "Chloe": 0.9}}', "no probability for David"),
        ('{"probabilities": {"Bob": 20, "Chloe": 0.9, "David": 0}}', "Bob: 20"),
        ('{"probabilities": {"Bob": "high", "Chloe": 0.9, "David": 0}}', "Bob: 'high'"),
        ('{"probabilities": {"Bob": true, "Chloe": 0.9, "David": 0}}', "Bob: True"),
        ("I cannot say.", "could not read an answer"),
        ('{"reasoning": "no idea"}', "no 'probabilities'"),
    ],
)
def test_unreadable_replies_say_why(text, words):
    r = read_beliefs(None, text, PLAYERS)
    assert not r.ok and words in r.reason and r.answer is None


def test_schema_and_question_in_both_languages():
    s = belief_schema(PLAYERS)
    probs = s["properties"]["probabilities"]
    assert s["required"] == ["reasoning", "probabilities"] and s["additionalProperties"] is False
    assert probs["required"] == PLAYERS and probs["additionalProperties"] is False
    assert all(v == {"type": "number", "minimum": 0, "maximum": 1} for v in probs["properties"].values())
    for lang in ("en", "zh"):
        q = beliefs_prompt(PLAYERS, language=lang)
        assert all(p in q for p in PLAYERS) and "probabilities" in q


def test_the_game_file_key(tmp_path, capsys):
    gf = game_file(tmp_path, seed=1)
    data = yaml.safe_load(gf.read_text())
    data["belief"] = data.pop("beliefs")
    gf.write_text(yaml.safe_dump(data))
    assert main(["play", str(gf), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown key 'belief'" in err and "beliefs" in err


def test_heuristic_villagers_beat_the_constant_answer(tmp_path):
    """The heuristic bot is the yardstick for others' beliefs: as a villager (its own
    card and what it has seen left out) it must score better than always answering the
    table's share of wolves."""
    from arena.cli import main as cli_main
    from arena.metrics.game import behaviour, seat_summary
    from arena.ratings.behaviour import sum_summaries
    from arena.metrics.load import load_transcript

    village, wolves = [], []
    for seed in range(24):
        out = tmp_path / f"{seed}.jsonl"
        players = "8" if seed % 2 else "12"
        assert cli_main(["play", "--players", players, "--seed", str(seed), "--beliefs", "--quiet", "--transcript", str(out)]) == 0
        g = load_transcript(out)
        for n in g.names:
            (wolves if g.is_wolf(n) else village).append(seat_summary(g, n))
    v = behaviour(sum_summaries(village))
    assert v["belief_ratings"] > 1000
    assert v["brier"] < v["baseline_brier"] and v["brier_skill"] > 0.03, v
    assert v["belief_auc"] > 0.65
    high = [r for r in v["reliability"] if r["low"] >= 0.8]
    assert high and all(r["wolf_rate"] > 0.6 for r in high)  # when it is sure, it is mostly right
    w = behaviour(sum_summaries(wolves))
    assert w["belief_ratings"] < v["belief_ratings"] / 2  # its pack is never scored

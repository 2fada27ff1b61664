"""Metrics on a hand-made transcript, against values computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.metrics import aggregate, game_metrics, load_transcript
from arena.metrics.beliefs import auc, brier
from arena.metrics.cost import cost_metrics
from arena.metrics.load import GameRecord, MetricsError
from transcripts.call_counts import by_seat, made_request
from transcripts.schema import CallRecord

ROLES = {"Ann": "werewolf", "Ben": "seer", "Cat": "villager", "Dan": "villager", "Eve": "villager"}


def ev(seq, kind, day, phase, data, audience="public"):
    return {"type": "event", "seq": seq, "kind": kind, "day": day, "phase": phase, "audience": audience, "data": data}


def vote(decision, seat, options, answer):
    return {"type": "answer", "decision": decision, "seat": seat, "kind": "vote", "shape": "choice", "options": options,
            "allow_pass": True, "count": 1, "answer": answer, "agent": "heuristic"}  # fmt: skip


def speech(seq, speaker, role=None, checks=(), accuses=()):
    claims = {"role": role, "checks": [{"target": t, "role": r} for t, r in checks], "accuses": list(accuses)}
    return ev(seq, "speech", 1, "discussion", {"speaker": speaker, "text": "...", "round": 1, "claims": claims})


def call(decision, attempt, tokens_in, tokens_out, cost, latency, violation=None, fallback=False):
    return {"type": "call", "seat": "Ben", "decision": decision, "kind": "vote", "day": 1, "attempt": attempt, "backend": "openai",
            "model": "m1", "display_name": "Model-1", "messages": [{"role": "user", "content": "?"}], "violation": violation,
            "fallback": fallback, "input_tokens": tokens_in, "output_tokens": tokens_out, "cost_usd": cost, "latency_s": latency,
            "accepted": violation is None}  # fmt: skip


def records() -> list[dict]:
    seats = [{"name": n, "agent": "heuristic", "role": r} for n, r in ROLES.items()]
    seats[1] = {"name": "Ben", "agent": "openai:m1", "role": "seer", "options": {"display_name": "Model-1"}}
    return [
        {"type": "header", "format": "werewolf-transcript", "version": 1, "preset": "millers_hollow", "options": {}, "seed": 9,
         "seats": seats, "software": "test"},
        ev(0, "night_start", 1, "night", {"night": 1}),
        ev(1, "seer_result", 1, "night", {"seer": "Ben", "target": "Ann", "role": "werewolf"}, ["Ben"]),
        ev(2, "death", 1, "dawn", {"player": "Eve", "cause": "werewolves", "role": "villager"}),
        speech(3, "Ann", role="seer", checks=[("Cat", "werewolf")], accuses=["Cat"]),
        speech(4, "Ben", role="seer", checks=[("Ann", "werewolf")], accuses=["Ann"]),
        speech(5, "Cat", role="villager", accuses=["Dan"]),
        speech(6, "Dan", accuses=["Cat"]),
        vote(10, "Ann", ["Ben", "Cat", "Dan"], "Cat"),
        vote(11, "Ben", ["Ann", "Cat", "Dan"], "Ann"),
        vote(12, "Cat", ["Ann", "Ben", "Dan"], "Ann"),
        vote(13, "Dan", ["Ann", "Ben", "Cat"], "Cat"),
        ev(7, "vote_result", 1, "vote", {"round": 1, "votes": {"Ann": "Cat", "Ben": "Ann", "Cat": "Ann", "Dan": "Cat"},
                                        "tally": {"Ann": 2, "Cat": 2}, "leaders": ["Ann", "Cat"], "sheriff": None}),  # fmt: skip
        vote(14, "Ann", ["Cat"], "Cat"),
        vote(15, "Ben", ["Ann", "Cat"], "Ann"),
        vote(16, "Cat", ["Ann"], "Ann"),
        vote(17, "Dan", ["Ann", "Cat"], "Ann"),
        ev(8, "vote_result", 1, "vote", {"round": 2, "votes": {"Ann": "Cat", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann"},
                                        "tally": {"Ann": 3, "Cat": 1}, "leaders": ["Ann"], "sheriff": None}),  # fmt: skip
        ev(9, "eliminated", 1, "vote", {"player": "Ann"}),
        ev(10, "death", 1, "vote", {"player": "Ann", "cause": "vote", "role": "werewolf"}),
        {"type": "belief", "day": 1, "seat": "Ben", "probabilities": {"Ann": 0.9, "Cat": 0.2, "Dan": 0.1, "Eve": 0.0, "Ben": 0.0}},
        {"type": "belief", "day": 1, "seat": "Cat", "probabilities": {"Ann": 0.5, "Ben": 0.5, "Dan": 0.6, "Eve": 0.1}},
        {"type": "belief", "day": 1, "seat": "Dan", "probabilities": {"Ann": "high", "Cat": -0.1}},
        call(11, 1, 100, 10, 0.001, 1.0, violation="'Zed' is not a legal target"),
        call(11, 2, 120, 12, 0.0012, 0.5),
        call(15, 1, 50, 5, None, 0.2, violation="malformed JSON", fallback=True),
        ev(11, "game_end", 1, "end", {"winner": "village", "winners": ["Ben", "Cat", "Dan", "Eve"], "reason": "the last werewolf is dead",
                                      "roles": ROLES, "initial_roles": ROLES, "lovers": None}),  # fmt: skip
        {"type": "result", "winner": "village", "winners": ["Ben", "Cat", "Dan", "Eve"], "deaths": [], "players": [], "days": 1},
    ]


@pytest.fixture
def transcript(tmp_path) -> Path:
    p = tmp_path / "hand.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in records()), encoding="utf-8")
    return p


def test_votes_against_chance(transcript):
    m = game_metrics(load_transcript(transcript))
    village = m["votes"]["village"]
    assert (village["ballots"], village["wolf_votes"]) == (6, 5)
    assert village["expected_wolf_votes"] == pytest.approx(3.0)  # 3 x 1/3 + 1/2 + 1 + 1/2
    assert village["ratio"] == pytest.approx(5 / 3)
    wolves = m["votes"]["werewolves"]
    assert (wolves["ballots"], wolves["wolf_votes"], wolves["ratio"]) == (2, 0, None)
    ben = m["seats"]["Ben"]
    assert ben["expected_wolf_votes"] == pytest.approx(5 / 6)
    # final round of day 1 eliminated Ann: everyone but Ann voted with the majority
    assert [(m["seats"][n]["majority_agree"], m["seats"][n]["majority_n"]) for n in ("Ann", "Ben", "Cat", "Dan")] == [
        (0, 1), (1, 1), (1, 1), (1, 1),
    ]  # fmt: skip


def test_seer_and_key_roles(transcript):
    k = game_metrics(load_transcript(transcript))["key_roles"]
    (seer,) = k["seer"]
    assert seer == {"seer": "Ben", "checks": 1, "first_wolf_night": 1, "checks_to_first_wolf": 1, "claimed_seer_day": 1,
                    "revealed_wolf_day": 1, "died_day": None, "death_cause": None}  # fmt: skip
    assert k["first_wolf_voted_out_day"] == 1
    assert k["key_roles"] == [{"seat": "Ben", "role": "seer", "survived": True, "died_day": None, "death_phase": None, "death_cause": None}]


def test_every_claim_checked_against_the_truth(transcript):
    m = game_metrics(load_transcript(transcript))
    claims = m["deception"]["claims"]
    verdicts = [(c["seat"], c["kind"], c["true"], c["lie"]) for c in claims]
    assert verdicts == [
        ("Ann", "role", False, True), ("Ann", "check", False, True), ("Ann", "accusation", False, True),
        ("Ben", "role", True, False), ("Ben", "check", True, False), ("Ben", "accusation", True, False),
        ("Cat", "role", True, False), ("Cat", "accusation", False, False),  # mistaken, not lying
        ("Dan", "accusation", False, False),
    ]  # fmt: skip
    ann_check = claims[1]
    # after Ann's false result on Cat, only Dan (village) voted Cat; Ann's own vote does not count
    assert ann_check["innocent_target"] == "Cat" and ann_check["village_votes_on_innocent"] == 1
    assert ann_check["innocent_voted_out"] is False and ann_check["liar_survived_day"] is False
    s = m["seats"]
    assert (s["Ann"]["claims"], s["Ann"]["lies"], s["Ann"]["lies_survived"], s["Ann"]["lies_on_innocents"]) == (3, 3, 0, 2)
    assert s["Ann"]["village_votes_on_innocents"] == 2
    assert (s["Cat"]["claims"], s["Cat"]["false_claims"], s["Cat"]["lies"]) == (2, 1, 0)
    by_role = m["deception"]["roles"]
    assert (by_role["werewolf"]["lies"], by_role["villager"]["claims"], by_role["villager"]["false"]) == (3, 3, 2)


def test_last_words_are_not_scored_as_a_liar_who_survived(tmp_path):
    """A claim made after the speaker was out (last words) is still a lie, but whether
    the liar 'survived the day' means nothing then: it is neither a yes nor a no."""
    recs = records()
    end = next(i for i, r in enumerate(recs) if r.get("kind") == "game_end")
    last = ev(10.5, "speech", 1, "last_words", {"speaker": "Ann", "text": "...", "round": 1,
                                                "claims": {"role": "villager", "checks": [], "accuses": ["Dan"]}})  # fmt: skip
    recs.insert(end, last)
    p = tmp_path / "last.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    m = game_metrics(load_transcript(p))
    posthumous = [c for c in m["deception"]["claims"] if c["phase"] == "last_words"]
    assert len(posthumous) == 2 and all(c["lie"] and c["posthumous"] and "liar_survived_day" not in c for c in posthumous)
    ann = m["seats"]["Ann"]
    assert (ann["lies"], ann["lies_alive"], ann["lies_survived"]) == (5, 3, 0)
    agg = aggregate([load_transcript(p)])
    assert agg["by_role"]["werewolf"]["lies_survived"]["n"] == 3  # the rate is over the lies told alive


def test_beliefs_brier_and_auc(transcript):
    """Only answers that could be wrong are scored: not the seat itself, nor a card it
    has seen by then (Ben's Seer check on Ann; Eve's and Ann's cards shown at death)."""
    b = game_metrics(load_transcript(transcript))["beliefs"]["seats"]
    assert b["Ben"]["n"] == 2  # Cat and Dan: its own entry, its check and the dead are not scored
    assert b["Ben"]["brier"] == pytest.approx(0.025)  # (0.2^2 + 0.1^2) / 2
    assert b["Ben"]["auc"] is None  # no wolf left among what it did not know
    assert b["Ben"]["baseline_brier"] == pytest.approx(0.0625)  # always 1/4: 2 x 0.25^2 / 2
    assert b["Ben"]["skill"] == pytest.approx(1 - 0.025 / 0.0625)
    assert b["Ben"]["side"] == "village"
    assert b["Cat"]["brier"] == pytest.approx(0.305)  # Ben 0.5, Dan 0.6: (0.25 + 0.36) / 2
    assert (b["Dan"]["n"], b["Dan"]["invalid"], b["Dan"]["brier"]) == (0, 1, None)  # "high" on dead Ann is not scored


def test_auc_and_brier_edge_cases():
    assert auc([(0.3, 1), (0.3, 0)]) == 0.5
    assert auc([(0.1, 1), (0.9, 0)]) == 0.0
    assert auc([(0.5, 0), (0.2, 0)]) is None
    assert brier([]) is None


def test_rule_following_and_cost_from_call_records(transcript):
    m = game_metrics(load_transcript(transcript))
    r = m["rule_following"]["Ben"]
    assert (r["decisions"], r["violations"], r["fallbacks"], r["errors"]) == (2, 2, 1, 0)
    assert r["violation_rate"] == 1.0 and r["fallback_rate"] == 0.5
    c = m["cost"]["seats"]["Ben"]
    assert (c["calls"], c["input_tokens"], c["output_tokens"]) == (3, 270, 27)
    assert c["latency_s"] == pytest.approx(1.7) and c["mean_latency_s"] == pytest.approx(1.7 / 3)
    assert c["cost_usd"] is None  # one call had no price: no partial sum passes for a total
    assert m["seats"]["Ben"]["label"] == "Model-1" and m["seats"]["Ann"]["label"] == "heuristic"


def test_a_cut_last_line_is_dropped(tmp_path):
    p = tmp_path / "cut.jsonl"
    lines = [json.dumps(r) for r in records()]
    p.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20], encoding="utf-8")
    g = load_transcript(p)
    assert g.complete and g.result is None


def test_aggregate_sums_games(transcript):
    g = load_transcript(transcript)
    agg = aggregate([g, g])
    h = agg["by_label"]["heuristic"]
    assert h["seats"] == 8 and h["lie_rate"]["k"] == 6 and h["lie_rate"]["n"] == 12
    m1 = agg["by_label"]["Model-1"]
    assert m1["auc"] is None and m1["brier"] == pytest.approx(0.025) and m1["baseline_brier"] == pytest.approx(0.0625)
    assert m1["belief_ratings"] == 4 and sum(p["n"] for p in m1["reliability"]) == 4
    assert agg["winners"] == {"village": 2}


def test_metrics_command(transcript, tmp_path, capsys):
    assert main(["metrics", str(transcript), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["votes"]["village"]["wolf_votes"] == 5
    (tmp_path / "unfinished.jsonl").write_text(json.dumps(records()[0]) + "\n", encoding="utf-8")
    assert main(["metrics", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["aggregate"]["games"] == 1 and len(doc["skipped"]) == 1
    assert main(["metrics", str(tmp_path)]) == 0
    assert "Votes and survival" in capsys.readouterr().out
    assert main(["metrics", str(tmp_path / "nope")]) == 2


def test_metrics_on_a_played_game(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["play", "--seed", "5", "--quiet", "--transcript", str(out)]) == 0
    g = load_transcript(out)
    m = game_metrics(g)
    n_votes = sum(1 for a in g.answers if a["kind"] == "vote")
    assert sum(s["ballots"] + s["abstained"] for s in m["seats"].values()) == n_votes
    assert 0 <= m["votes"]["village"]["wolf_votes"] <= m["votes"]["village"]["ballots"]


def test_the_metrics_tables_fit_80_columns_without_cutting_a_word(tmp_path, capsys, monkeypatch):
    """What a person reads in a terminal: no cell or header ends in an ellipsis, no
    line is wider than the terminal, and the seat table says what its numbers mean."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "dumb")
    p = tmp_path / "games" / "played.jsonl"
    p.parent.mkdir()
    assert main(["play", "--players", "12", "--seed", "4", "--quiet", "--transcript", str(p)]) == 0
    capsys.readouterr()
    for target in (p, p.parent):
        assert main(["metrics", str(target)]) == 0
        out = capsys.readouterr().out
        assert "…" not in out, out
        assert max(len(line) for line in out.splitlines()) <= 80
    assert main(["metrics", str(p)]) == 0
    out = capsys.readouterr().out
    assert "on wolves: day ballots cast on a werewolf" in " ".join(out.split())


def test_a_civilian_who_says_plain_villager_tells_the_truth(tmp_path):
    """The forum's card without a power is the Civilian: Cat holding it and claiming
    "villager" (the same card's name in the other books) is neither false nor a lie,
    and a Civilian is no key role, any more than a Villager."""
    recs = json.loads(json.dumps(records()).replace('"Cat", "role": "villager"', '"Cat", "role": "civilian"'))
    for r in recs:
        if r.get("kind") == "game_end":
            r["data"]["roles"] = r["data"]["initial_roles"] = {**ROLES, "Cat": "civilian"}
    p = tmp_path / "forum.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    m = game_metrics(load_transcript(p))
    cat = [c for c in m["deception"]["claims"] if c["seat"] == "Cat" and c["kind"] == "role"]
    assert [(c["claim"], c["role"], c["true"], c["lie"]) for c in cat] == [("villager", "civilian", True, False)]
    assert [k["seat"] for k in m["key_roles"]["key_roles"]] == ["Ben"]


@pytest.mark.parametrize(
    "bad, why",
    [
        (ev(2, "death", 1, "dawn", {"player": "Eve", "cause": "werewolves", "mood": "calm"}), "event 2: death has no field mood"),
        (ev(2, "death", 1, "dawn", {"cause": "werewolves"}), "event 2: death: .*player"),
        (ev(2, "comet_sighting", 1, "night", {"x": 1}), "event 2: event kind 'comet_sighting' is not one this version declares"),
    ],
)
def test_an_event_that_is_not_its_kinds_payload_is_refused_by_name(tmp_path, bad, why):
    """Events are read as their kind's declared payload: a renamed or missing field, or
    an undeclared kind, is an error naming the file and the event, never a miscount."""
    recs = records()
    recs[3] = bad
    p = tmp_path / "odd.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    with pytest.raises(MetricsError, match=f"odd.jsonl: {why}"):
        load_transcript(p)


def test_a_call_is_a_request_sent_as_every_reader_counts_it():
    """One definition of a call (``transcripts.call_counts.made_request``: a request
    sent to the model) for the cost metrics, and through them the tournament database's
    ``calls``, the leaderboard and the export, as for the closing table and ``werewolf
    verify``: a record of a decision settled without a request is no call, whatever
    else it holds, and costs nothing."""
    base = {"type": "call", "seat": "Ben", "kind": "vote", "day": 1, "backend": "openai", "model": "m1", "price_known": True}
    sent = [{"role": "user", "content": "?"}]
    shapes = [
        {**base, "decision": 1, "messages": sent, "accepted": True, "input_tokens": 100, "output_tokens": 10, "cost_usd": 0.001},
        {**base, "decision": 2, "messages": sent, "violation": "'Zed' is not a player", "input_tokens": 90, "output_tokens": 9, "cost_usd": 0.0009},
        {**base, "decision": 2, "attempt": 2, "messages": sent, "accepted": True, "input_tokens": 95, "output_tokens": 9, "cost_usd": 0.00095},
        {**base, "decision": 3, "messages": sent, "error": "decision time limit (60s) reached", "fallback": True},  # cut off in flight: sent
        {**base, "decision": 4, "error": "connection refused (nothing listens at that address)", "fallback": True},  # never sent
        {**base, "decision": 5, "accepted": True, "answer": None},  # its only legal answer: never asked
        {**base, "decision": 6, "error": "not asked: no answer before the game", "fallback": True},  # a seat no longer asked
        # Usage with no request kept (a record written by another tool, or by hand): no request is known to have been sent.
        {**base, "decision": 7, "accepted": True, "input_tokens": 80, "output_tokens": 8, "cost_usd": 0.0008},
        {**base, "seat": "Cat", "decision": 8, "backend": "py", "model": "mine:Agent", "violation": "illegal answer: ...", "fallback": True},
    ]  # fmt: skip
    counted = by_seat(CallRecord.model_validate(r) for r in shapes)
    assert (counted["Ben"].calls, counted["Cat"].calls) == (4, 0)
    cost = cost_metrics(GameRecord(header={"seats": []}, records=shapes))
    assert {s: c["calls"] for s, c in cost["seats"].items()} == {"Ben": counted["Ben"].calls, "Cat": 0}
    assert cost["total"]["calls"] == 4 and cost["seats"]["Ben"]["input_tokens"] == 285
    assert [made_request(r) for r in shapes] == [True, True, True, True, False, False, False, False, False]

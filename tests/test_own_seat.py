"""An agent of one's own whose move the game cannot take: the fallback bot plays that
decision, it is recorded, counted, checked by verify and told; never a lost game
(``agents.own_seat``). A scripted seat's illegal answer still fails its game, as the
contract asks (CONTRACT.md section 2)."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from rich.console import Console

from agents.llm.accounting import CallLog
from agents.registry import make_agent
from arena.beliefs import poll_for
from arena.cli import main
from arena.gamefile import header_for, spec_from_data
from arena.metrics.game import game_metrics
from arena.metrics.load import load_transcript
from arena.model_trouble import OPEN_KINDS, AnswerReplaced, FailureWatch, notice_line
from prompts.narrate import Narrator
from arena.runner import run_sync
from arena.tournament.config import config_from_data
from arena.tournament.run import run_tournament
from transcript_tools import lines, write_lines
from engine.words import unencodable
from transcripts.call_counts import OWN_AGENT_BACKEND
from transcripts.schema import CallRecord
from transcripts.writer import TranscriptWriter

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
NOTICE = "made a move the game cannot take"
TABLE = ("--players", "8", "--seed", "3", "--agents", "heuristic")  # the table Alice's agent sits at


def own(cls: str) -> str:
    return f"py:own_agents:{cls}"


def play(tmp_path: Path, capsys, cls: str, *more: str) -> tuple[dict, list[dict], str]:
    """``werewolf play`` with Alice seated as ``cls`` among heuristic bots: (the result,
    the transcript's records, standard error). The bots are named, not the table's
    default: seed 3 at this table lets Alice live to speak and vote, which every fault
    here needs."""
    out = tmp_path / f"{cls}.jsonl"
    code = main(["play", *TABLE, "--seat", f"Alice={own(cls)}", "--transcript", str(out), "--json", *more])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out.strip().splitlines()[-1]), lines(out), captured.err


# Which moves each class gets wrong, and whether that is an error (it raised) or a
# violation (the engine refused the move).
FAULTS = {
    "IllegalVoter": ("vote", "violation", "is not a legal vote for Alice"),
    "EscapeWords": ("speak", "violation", "control character U+001B"),
    "LongWords": ("speak", "violation", "at most 2,000 characters"),
    "Surrogate": ("speak", "violation", "unpaired UTF-16 surrogate"),
    "Raiser": ("vote", "error", "decide raised RuntimeError: my bug"),
    "AsyncRaiser": ("speak", "error", "decide raised ValueError: my async bug"),
}


@pytest.mark.parametrize("cls", sorted(FAULTS))
def test_a_move_the_game_cannot_take_is_the_fallback_bots_recorded_counted_and_told(tmp_path, capsys, caplog, cls):
    kind, cause, why = FAULTS[cls]
    caplog.set_level(logging.INFO, logger="werewolf.agents")
    result, records, err = play(tmp_path, capsys, cls, "--quiet")
    spec = own(cls)
    mine = [r for r in records if r["type"] == "call"]
    assert mine and all(r["seat"] == "Alice" and r["backend"] == OWN_AGENT_BACKEND and r["kind"] == kind for r in mine)
    assert all(r["fallback"] and not r["accepted"] and not r["messages"] and why in (r[cause] or "") for r in mine)
    answers = {r["decision"]: r for r in records if r["type"] == "answer"}
    for r in mine:  # the move played is the fallback's, credited to the seat's spec, after its record
        assert answers[r["decision"]]["answer"] == r["answer"] and answers[r["decision"]]["agent"] == spec
    assert {r["agent"] for r in answers.values() if r["seat"] == "Alice"} == {spec}
    n = len(mine)
    errors = n if cause == "error" else 0
    assert result["own_seats"] == [{"name": "Alice", "agent": spec, "calls": 0, "fallbacks": n, "errors": errors}]
    assert "model_seats" not in result
    # Told once, in a quiet run on standard error, whatever the number of fallbacks.
    assert err.count(NOTICE if cause == "violation" else "raised an exception") == 1 and "Alice's agent" in err
    assert why not in err  # the engine's reason is the transcript's, never the notice's
    logged = [r for r in caplog.records if r.name == "werewolf.agents"]
    assert [r.levelno for r in logged] == [logging.WARNING] + [logging.INFO] * (n - 1)
    assert all("Alice" in r.getMessage() and kind not in r.getMessage() for r in logged)  # the decision's id, never its kind
    assert all(("decide raised" in r.getMessage()) == (cause == "error") and "my" not in r.getMessage() for r in logged)
    assert unencodable(records) is None  # every text of the record storable: a lone surrogate is kept as U+FFFD
    # verify re-plays it exactly, and says the same counts in the same words.
    assert main(["verify", str(tmp_path / f"{cls}.jsonl")]) == 0
    said = capsys.readouterr().out
    assert f"agents of your own: 0 calls, {n} fallbacks, {errors} errors ({n} call records checked)" in said


def test_the_closing_table_counts_the_agents_fallbacks(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["play", *TABLE, "--seat", f"Alice={own('IllegalVoter')}", "--transcript", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "Agents of your own" in shown and "Model seats" not in shown and "Estimated cost" not in shown
    table = shown[shown.index("Agents of your own") :].splitlines()
    row = next(line for line in table if line.strip().startswith("Alice"))
    n = sum(1 for r in lines(out) if r["type"] == "call")
    assert row.split()[1:] == ["0", "0", "0", "0", "0.0000", str(n), str(n), "0"]  # calls, tokens, USD, illegal, fallbacks, errors
    assert NOTICE in shown  # in the narration, between the game's lines


def play_sync(spec, path: Path):
    """The sync runner, the transcript written with the game's call log (as a tournament's bot game)."""
    calls = CallLog()
    game, agents = spec.build(calls=calls)
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        calls.subscribe(writer.call)
        writer.sync_events(game)
        run_sync(game, agents, on_answer=writer.on_answer, beliefs=poll_for(spec.beliefs, writer))
        writer.result(game)
    return game


def test_the_sync_runner_and_a_table_built_in_python_fall_back_too(tmp_path):
    seats = [{"name": n, "agent": own("Raiser") if n == "Alice" else "heuristic"} for n in NAMES]
    spec = spec_from_data({"seed": 3, "seats": seats})
    game = play_sync(spec, tmp_path / "s.jsonl")
    assert game.over
    calls = [r for r in lines(tmp_path / "s.jsonl") if r["type"] == "call"]
    assert calls and all(r["error"] == "decide raised RuntimeError: my bug" for r in calls)
    assert main(["verify", str(tmp_path / "s.jsonl")]) == 0
    # Without a game's log, a seat keeps its own.
    game, agents = spec.build()
    run_sync(game, agents)
    assert game.over and agents["Alice"].calls.records and all(r.fallback for r in agents["Alice"].calls.records)


def test_a_class_without_a_spec_is_credited_by_its_spec_and_verifies(tmp_path, capsys):
    result, records, err = play(tmp_path, capsys, "Plain")
    assert {r["agent"] for r in records if r["type"] == "answer" and r["seat"] == "Alice"} == {own("Plain")}
    assert not any(r["type"] == "call" for r in records) and NOTICE not in err
    assert result["own_seats"] == [{"name": "Alice", "agent": own("Plain"), "calls": 0, "fallbacks": 0, "errors": 0}]
    assert main(["verify", str(tmp_path / "Plain.jsonl")]) == 0
    assert make_agent(own("Plain"), "Alice").spec == own("Plain")


def test_verify_holds_an_agents_fallback_to_its_record(tmp_path, capsys):
    _, records, _ = play(tmp_path, capsys, "IllegalVoter")
    at = next(i for i, r in enumerate(records) if r["type"] == "call")
    call = records[at]
    answer = next(r for r in records if r["type"] == "answer" and r["decision"] == call["decision"])
    other = next(o for o in answer["options"] if o != answer["answer"])

    def verify(rows: list[dict]) -> str:
        path = write_lines(tmp_path / "edited.jsonl", rows, rechain=True)
        code = main(["verify", str(path)])
        said = capsys.readouterr()
        assert code == 1, said.out
        return said.out + said.err

    changed = [dict(r, answer=other) if i == at else r for i, r in enumerate(records)]
    assert "the fallback record of the answer to decision" in verify(changed)
    not_fallback = [dict(r, fallback=False) if i == at else r for i, r in enumerate(records)]
    assert "is not a fallback made without a request" in verify(not_fallback)
    other_class = [dict(r, model="own_agents:Plain") if i == at else r for i, r in enumerate(records)]
    assert "a call record by 'py:own_agents:Plain'" in verify(other_class)
    relabelled = [dict(r, agent="heuristic") if r["type"] == "answer" and r["decision"] == call["decision"] else r for r in records]
    assert "credited to agent 'heuristic'" in verify(relabelled)


def test_a_scripted_seats_illegal_answer_still_fails_its_game(tmp_path, capsys):
    game = tmp_path / "g.yaml"
    seats = [{"name": n} for n in NAMES]
    seats[0] = {"name": "Alice", "role": "villager", "agent": "scripted", "answers": {"vote": ["Zed"]}}
    game.write_text(json.dumps({"seed": 3, "options": {"sheriff": False}, "seats": seats}), encoding="utf-8")
    out = tmp_path / "g.jsonl"
    assert main(["play", str(game), "--quiet", "--transcript", str(out)]) == 1
    assert "Alice's vote on day 1 was refused: 'Zed' is not a legal vote for Alice" in capsys.readouterr().err
    assert lines(out)[-1]["type"] == "error" and not any(r["type"] == "call" for r in lines(out))


def test_beliefs_are_asked_of_an_agent_of_ones_own_only_when_its_class_gives_them(tmp_path):
    seats = [{"name": n, "agent": own("IllegalVoter") if n in ("Alice", "Bob") else "heuristic"} for n in NAMES]
    seats[1]["agent"] = "py:examples.agents.cautious:CautiousAgent"  # gives the heuristic's beliefs
    spec = spec_from_data({"seed": 3, "beliefs": True, "seats": seats})
    play_sync(spec, tmp_path / "b.jsonl")
    beliefs = [r for r in lines(tmp_path / "b.jsonl") if r["type"] == "belief"]
    assert beliefs and not any(r["seat"] == "Alice" for r in beliefs)
    assert any(r["seat"] == "Bob" for r in beliefs) and all(r["probabilities"] for r in beliefs if r["seat"] == "Bob")


@pytest.mark.parametrize("processes", [1, 2])
def test_a_tournament_counts_an_agents_fallbacks_as_a_models(tmp_path, capsys, processes):
    """Its games (bot games, in worker processes too) store the fallbacks and the
    decisions it was asked, so the leaderboard's share is its own moves' share."""
    cfg = config_from_data(
        {
            "seed": 1, "games": 4, "tables": [{"players": 8}], "concurrency": {"processes": processes},
            "participants": [{"name": "H", "agent": "heuristic"}, {"name": "Mine", "agent": own("OnceIllegal")}],
        }
    )  # fmt: skip
    db = tmp_path / "t.sqlite"
    report = run_tournament(cfg, db, progress=False)
    assert report.played == 4 and report.failed == 0
    transcripts = sorted((tmp_path / "t_transcripts").glob("*.jsonl"))
    fell, below = set(), set()
    for path in transcripts:
        m = game_metrics(load_transcript(path))
        mine = [s["name"] for s in lines(path)[0]["seats"] if s["agent"] == own("OnceIllegal")]
        asked = fallbacks = 0
        for name in mine:
            s = m["seats"][name]
            answers = [r for r in lines(path) if r["type"] == "answer" and r["seat"] == name]
            assert s["decisions_asked"] == len(answers) and s["fallbacks"] <= 1  # one illegal vote at most, among all its moves
            asked, fallbacks = asked + s["decisions_asked"], fallbacks + s["fallbacks"]
        if fallbacks:
            fell.add(path.stem)
        if (asked - fallbacks) / asked < 0.9:
            below.add(path.stem)
        assert main(["verify", str(path)]) == 0
    assert fell, "the agent voted in none of the games"
    assert report.fallbacks["games"] == len(fell) and report.fallbacks["by_participant"] == {"Mine": len(fell)}  # games, per participant
    assert report.fallbacks["below_min_decided"] == len(below)
    # The leaderboard leaves out the same games, for the same participant.
    capsys.readouterr()
    assert main(["leaderboard", "--db", str(db), "--json"]) == 0
    excluded = json.loads(capsys.readouterr().out)["excluded"]
    assert excluded["games"] == len(below) and excluded["by_participant"] == ({"Mine": len(below)} if below else {})


def own_record(kind: str, *, seat: str = "Alice", violation: str | None = None, error: str | None = None) -> CallRecord:
    return CallRecord(
        seat=seat, decision=1, kind=kind, backend=OWN_AGENT_BACKEND, model="own_agents:X", display_name=own("X"),
        violation=violation, error=error, fallback=True,
    )  # fmt: skip


def test_the_notice_is_once_a_seat_and_never_quotes_the_engines_reason():
    """A refusal's reason names the legal answers and why another is not one ("Bob is
    Alice's beloved"): hidden information, kept in the transcript, never in the notice."""
    watch = FailureWatch()
    beloved = "illegal answer: 'Bob' is not a legal vote for Alice; legal: Chloe, David or null (Bob is Alice's beloved)"
    for _ in range(3):
        watch(own_record("vote", violation=beloved))
    watch(own_record("seer_check", seat="Bob", error="decide raised KeyError: 'Zed'"))
    watch(own_record("vote", seat="Bob", violation=beloved))
    assert watch.told == [AnswerReplaced("Alice", own("X")), AnswerReplaced("Bob", own("X"), raised=True)]
    lines_said = [notice_line(n, Narrator(Console(file=io.StringIO())).term) for n in watch.told]
    assert "Alice's agent (py:own_agents:X) made a move the game cannot take" in lines_said[0]
    assert "Bob's agent (py:own_agents:X) raised an exception" in lines_said[1]
    assert not any(w in line for line in lines_said for w in ("beloved", "Chloe", "seer", "Zed", "KeyError"))
    # A person at the table hears only of decisions asked in the open, and no model streak is started.
    person = FailureWatch(kinds=OPEN_KINDS)
    person(own_record("seer_check", violation="illegal answer"))
    person(own_record("speak", violation="illegal answer"))
    assert [n.seat for n in person.told] == ["Alice"] and not person.streaks

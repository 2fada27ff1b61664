"""``werewolf play --resume``: a game killed half-way ends as if it had never stopped.

A game is killed by cutting its transcript after K answers (at a line boundary, in the
middle of a line, in the middle of the events an answer caused, after an
``interrupted`` notice); resumed, the file is the uninterrupted game's, byte for byte
where nothing else was written, because the bots were put the recorded decisions
again and are exactly where they were.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcript_tools import lines, play_to_file, varied_spec, write_lines

from arena.cli import main
from transcripts.schema import read_transcript
from transcripts.verify import Status, verify_file

FIXTURE = Path(__file__).parent / "fixtures" / "scripted_8.yaml"


def resume(capsys, path: Path, *extra: str) -> tuple[int, str, str]:
    code = main(["play", "--resume", str(path), "--quiet", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def answer_lines(path: Path) -> list[int]:
    return [i for i, r in enumerate(lines(path)) if r["type"] == "answer"]


@pytest.mark.parametrize("agent", ["heuristic", "random"])
@pytest.mark.parametrize("seed", range(4))
def test_cut_after_k_answers_resumes_to_the_same_game(tmp_path, capsys, agent, seed):
    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(seed, agent), full)
    text = full.read_text()
    rows = text.splitlines(keepends=True)
    answers = answer_lines(full)
    for k in (1, len(answers) // 3, len(answers) // 2, len(answers) - 1):
        cut = tmp_path / f"cut{k}.jsonl"
        cut.write_text("".join(rows[: answers[k] + 1]))  # killed right after the k-th answer's line
        assert verify_file(cut).status is Status.INCOMPLETE
        code, out, _ = resume(capsys, cut)
        assert code == 0 and out.startswith("winner:")
        assert cut.read_text() == text, f"k={k}"


def test_cut_mid_line_and_mid_events(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(7, "heuristic"), full)
    text = full.read_text()
    rows = text.splitlines(keepends=True)
    a = answer_lines(full)[20]
    for name, partial in {
        "mid-line": "".join(rows[: a + 3]) + rows[a + 3][:17],
        "mid-events": "".join(rows[: a + 2]),
        "header-only": rows[0],
        "header-cut": rows[0][:40],
    }.items():
        cut = tmp_path / f"{name}.jsonl"
        cut.write_text(partial)
        if name == "header-cut":  # nothing to resume from: not even a table
            assert resume(capsys, cut)[0] == 2
            continue
        assert resume(capsys, cut)[0] == 0, name
        assert cut.read_text() == text, name


def test_resume_after_an_interruption_notice(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(8, "heuristic"), full)
    rows = lines(full)
    a = answer_lines(full)[15]
    cut = tmp_path / "cut.jsonl"
    write_lines(cut, rows[: a + 1] + [{"type": "error", "message": "interrupted"}], rechain=True)
    assert resume(capsys, cut)[0] == 0
    v = verify_file(cut)
    assert v.ok, v.summary()
    again = [r for r in lines(cut) if r["type"] != "error"]
    assert [{k: x for k, x in r.items() if k != "digest"} for r in again] == [
        {k: x for k, x in r.items() if k != "digest"} for r in rows
    ]


def test_resume_into_a_new_file_leaves_the_old_one(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(9, "random"), full)
    rows = full.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(rows[:40]))
    before = cut.read_text()
    out = tmp_path / "out.jsonl"
    code, stdout, _ = resume(capsys, cut, "--transcript", str(out), "--json")
    assert code == 0 and json.loads(stdout)["winner"]
    assert cut.read_text() == before
    assert out.read_text() == full.read_text()


def test_scripted_game_resumes_with_its_queues_advanced(tmp_path, capsys):
    from arena.gamefile import load_game_file

    full = tmp_path / "full.jsonl"
    play_to_file(load_game_file(FIXTURE), full)
    rows = full.read_text().splitlines(keepends=True)
    for k in (5, 15, len(rows) - 3):
        cut = tmp_path / f"cut{k}.jsonl"
        cut.write_text("".join(rows[:k]))
        code, _, err = resume(capsys, cut)
        assert code == 0, err
        assert cut.read_text() == full.read_text()


def test_refusals(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(1, "random"), full)
    code, _, err = resume(capsys, full)
    assert code == 2 and "already ended" in err
    code, _, err = resume(capsys, tmp_path / "missing.jsonl")
    assert code == 2 and "cannot resume" in err
    rows = lines(full)
    i = next(i for i, r in enumerate(rows) if r.get("kind") == "death")
    rows[i]["data"]["cause"] = "hunter"
    tampered = write_lines(tmp_path / "t.jsonl", rows[: i + 3], rechain=True)
    code, _, err = resume(capsys, tampered)
    assert code == 1 and "does not verify" in err
    code, _, err = resume(capsys, full, "--seed", "3")
    assert code == 2 and "--seed" in err


@pytest.mark.usefixtures("llm_env")
def test_model_seats_are_not_asked_again(tmp_path, capsys):
    """Recorded model answers are re-submitted, never re-asked: only the decisions the
    record lacks reach the model; the resumed file verifies, calls included."""
    from llm_standins import OpenAIStandIn, standin_router

    game = tmp_path / "g.yaml"
    names = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
    game.write_text("seed: 4\nseats:\n" + "".join(
        f"  - {{name: {n}, agent: {'openai:gpt-5.4-mini' if n in ('Alice', 'Bob') else 'heuristic'}}}\n" for n in names
    ))  # fmt: skip
    full = tmp_path / "full.jsonl"
    with standin_router() as router:
        api = OpenAIStandIn(router)
        assert main(["play", str(game), "--quiet", "--transcript", str(full)]) == 0
        asked_full = len(api.requests)
    t = read_transcript(full)
    assert t.calls and verify_file(full).ok
    model_answers = [i for i, r in enumerate(lines(full)) if r["type"] == "answer" and r["seat"] in ("Alice", "Bob")]
    cut_at = model_answers[len(model_answers) // 2] + 1
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(full.read_text().splitlines(keepends=True)[:cut_at]))
    before = read_transcript(cut)
    answered = {a.decision for a in before.answers}
    with standin_router() as router:
        api = OpenAIStandIn(router)
        code, _, err = resume(capsys, cut)
        assert code == 0, err
        asked_resumed = len(api.requests)
    v = verify_file(cut)
    assert v.ok, v.summary()
    resumed = read_transcript(cut)
    new_calls = resumed.calls[len(before.calls):]
    assert new_calls and asked_resumed == len([c for c in new_calls if c.messages])
    assert not [c for c in new_calls if c.decision in answered]  # no recorded decision asked again
    missing = {a.decision for a in resumed.answers if a.seat in ("Alice", "Bob") and a.decision not in answered}
    assert missing <= {c.decision for c in new_calls}  # every missing one was
    assert resumed.complete and asked_full > 0


def test_catch_up_never_asks_people_models_or_strangers(tmp_path):
    """Only a bot that made a recorded decision is put it again."""
    from agents.base import Agent
    from arena.catchup import catch_up
    from transcripts.verify import build_game

    full = tmp_path / "full.jsonl"
    play_to_file(varied_spec(5, "random"), full)
    t = read_transcript(full)

    class Spy(Agent):
        def __init__(self, name: str, spec: str):
            super().__init__(name)
            self.spec = spec
            self.asked = 0

        def decide(self, view, decision):
            self.asked += 1
            return decision.pass_answer

    names = t.header.names
    specs = {names[0]: "human", names[1]: "openai:gpt-5.4-mini", names[2]: "heuristic"}  # the record says random
    agents = {n: Spy(n, specs.get(n, "random")) for n in names}
    game = build_game(t.header)
    done = catch_up(game, agents, t.records)
    assert game.over and done.answers == len(t.answers)
    assert [agents[n].asked for n in names[:3]] == [0, 0, 0]
    assert sum(agents[n].asked for n in names[3:]) == done.asked > 0
    assert done.drift  # a Spy passing where the record chose: reported, not fatal


@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize("seed", [4, 11])
def test_a_model_seats_fallback_bot_is_caught_up(tmp_path, capsys, seed):
    """A model that fails is played by its fallback bot (the heuristic bot). Resumed,
    that bot is put again the decisions it answered and reads the seat's events, so it
    plays on exactly as it would have: the resumed game is the uninterrupted one."""
    from llm_standins import OpenAIStandIn, Status, standin_router

    from arena.resume import prepare_resume

    models = ("Alice", "Bob", "Chloe")
    game = tmp_path / "g.yaml"
    names = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
    game.write_text(f"seed: {seed}\nseats:\n" + "".join(
        f"  - {{name: {n}, agent: openai:gpt-5.4-mini, options: {{max_retries: 0}}}}\n" if n in models else f"  - {{name: {n}}}\n"
        for n in names
    ))  # fmt: skip
    full = tmp_path / "full.jsonl"
    with standin_router() as router:
        OpenAIStandIn(router).push(*[Status(401)] * 3)  # every model seat is refused, then not asked again
        assert main(["play", str(game), "--quiet", "--transcript", str(full)]) == 0
    t = read_transcript(full)
    assert all(c.fallback for c in t.calls)
    rows = full.read_text().splitlines(keepends=True)
    model_answers = [i for i, r in enumerate(lines(full)) if r["type"] == "answer" and r["seat"] in models]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(rows[: model_answers[len(model_answers) // 2] + 1]))
    before = read_transcript(cut)

    with standin_router() as router:
        OpenAIStandIn(router).push(*[Status(401)] * 3)
        cont = prepare_resume(str(cut))
        cont.writer.close()
        for n in models:  # the bot remembers the seat's game, not an empty one
            fallback = cont.agents[n].fallback_agent
            assert fallback.memory.seen == len(cont.game.observation(n)) and fallback.memory.players
        assert cont.caught.asked == len(before.answers)  # the bots' and the fallback bots' decisions alike
        assert not cont.caught.drift
        code, _, err = resume(capsys, cut)
        assert code == 0, err
    resumed = read_transcript(cut)
    assert verify_file(cut).ok
    assert [(a.decision, a.seat, a.answer) for a in resumed.answers] == [(a.decision, a.seat, a.answer) for a in t.answers]
    assert resumed.result.winners == t.result.winners

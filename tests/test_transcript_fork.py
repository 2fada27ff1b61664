"""``werewolf fork``: the same table replayed to the start of day N, other agents after.

The fork point is the moment night N falls. Checked: a fork that changes nobody is
the recorded game again; a fork that changes a seat keeps the replayed part as it was
(answers still credited to their agents) and verifies from the deal; the header says
where it branched off; a forked game resumes like any other.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
from transcript_tools import lines, play_to_file, varied_spec

from arena.cli import main
from transcripts.schema import read_transcript
from transcripts.verify import verify_file


def strip(rows):
    return [{k: v for k, v in r.items() if k != "digest"} for r in rows]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fork")
    for seed in range(40):  # a game long enough to fork at day 3
        path = root / f"src{seed}.jsonl"
        play_to_file(varied_spec(seed, "heuristic", players=10), path)
        rows = lines(path)
        # "--day 1 keeps only the deal": a table without decisions before night 1 (The
        # Village's buildings picked by hand would be replayed with it)
        setup = any(r["type"] == "answer" and r.get("kind") == "building_choice" for r in rows)
        if max(r.get("day", 0) for r in rows) >= 3 and not setup:
            return path
    raise AssertionError("no game reached day 3")


def fork(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["fork", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("day", [1, 2, 3])
def test_fork_without_changes_is_the_same_game(tmp_path, capsys, source, day):
    out = tmp_path / "f.jsonl"
    code, stdout, err = fork(capsys, str(source), "--day", str(day), "--transcript", str(out), "--json")
    assert code == 0, err
    assert json.loads(stdout)["winner"] == read_transcript(source).result.winner
    assert strip(lines(out)[1:]) == strip(lines(source)[1:])
    h = read_transcript(out).header
    assert h.fork.day == day and h.fork.transcript == str(source) and h.fork.earlier_agents == {}
    assert h.fork.source_digest == read_transcript(source).header.digest
    assert verify_file(out).ok


def test_fork_with_another_agent_in_one_chair(tmp_path, capsys, source):
    src = read_transcript(source)
    seat = src.header.names[2]
    out = tmp_path / "f.jsonl"
    code, _, err = fork(capsys, str(source), "--day", "2", "--seat", f"{seat}=random", "--transcript", str(out), "--quiet")
    assert code == 0, err
    v = verify_file(out)
    assert v.ok, v.summary()
    t = read_transcript(out)
    assert {s.name: s.agent for s in t.header.seats}[seat] == "random"
    n = t.header.fork.answers
    assert n > 0 and t.header.fork.earlier_agents == {seat: ["heuristic"]}
    # the replayed part is the source's, up to the moment night 2 falls
    first_night2 = next(i for i, e in enumerate(src.events) if e.day >= 2)
    ev = lambda tr: [e.model_dump(exclude={"digest"}) for e in tr.events[: first_night2 + 1]]  # noqa: E731
    assert ev(t) == ev(src)
    assert [a.model_dump(exclude={"digest"}) for a in t.answers[:n]] == [a.model_dump(exclude={"digest"}) for a in src.answers[:n]]
    assert all(a.agent == "random" for a in t.answers[n:] if a.seat == seat)
    assert all(e.day < 2 for e in t.events[:first_night2])


def test_fork_day_one_keeps_only_the_deal(tmp_path, capsys, source):
    out = tmp_path / "f.jsonl"
    names = read_transcript(source).header.names
    args = [str(source), "--day", "1", "--transcript", str(out), "--quiet", "--seed", "12345"]
    args += [x for n in names[:3] for x in ("--seat", f"{n}=random")]
    assert fork(capsys, *args)[0] == 0
    t, src = read_transcript(out), read_transcript(source)
    assert t.header.fork.answers == 0 and t.header.fork.agent_seed == 12345
    roles = lambda tr: [e.data for e in tr.events if e.kind == "role" and e.day == 0]  # noqa: E731
    assert roles(t) == roles(src)
    assert verify_file(out).ok


def test_a_forked_game_resumes_like_any_other(tmp_path, capsys, source):
    seat = read_transcript(source).header.names[0]
    out = tmp_path / "f.jsonl"
    args = [str(source), "--day", "2", "--seat", f"{seat}=random", "--seed", "5", "--transcript", str(out), "--quiet"]
    assert fork(capsys, *args)[0] == 0
    full = out.read_text()
    rows = full.splitlines(keepends=True)
    n = read_transcript(out).header.fork.answers
    answers = [i for i, r in enumerate(lines(out)) if r["type"] == "answer"]
    for k in (n // 2, n + 3):  # killed before and after the fork point
        cut = tmp_path / f"cut{k}.jsonl"
        cut.write_text("".join(rows[: answers[k] + 1]))
        assert main(["play", "--resume", str(cut), "--quiet"]) == 0
        capsys.readouterr()
        assert cut.read_text() == full


def test_fork_of_a_fork(tmp_path, capsys, source):
    names = read_transcript(source).header.names
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert fork(capsys, str(source), "--day", "2", "--seat", f"{names[0]}=random", "--transcript", str(a), "--quiet")[0] == 0
    assert fork(capsys, str(a), "--day", "2", "--seat", f"{names[0]}=heuristic", "--transcript", str(b), "--quiet")[0] == 0
    v = verify_file(b)
    assert v.ok, v.summary()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--day", "0"], "days 1 to"),
        (["--day", "99"], "days 1 to"),
        (["--day", "2", "--seat", "Nobody=random"], "seats: "),
        (["--day", "2", "--seat", "Alice"], "NAME=AGENT"),
        (["--day", "2", "--seat", "Alice=scripted"], "scripted"),
        (["--day", "2", "--seat", "Alice=chess-engine"], "chess-engine"),
        (["--day", "2", "--model-option", "temperature"], "--model-option needs KEY=VALUE"),
        (["--day", "2", "--seat", "Alice=openai:gpt-5.4-mini", "--model-option", "colour=red"], "unknown key 'colour'"),
        (["--day", "2", "--seat", "Alice=human", "--human-timeout", "0"], "positive number"),
        (["--day", "2", "--human-timeout", "5"], "--human-timeout needs a human seat"),
    ],
)
def test_fork_refusals(tmp_path, capsys, source, args, words):
    code, _, err = fork(capsys, str(source), *args, "--quiet")
    assert code == 2 and words in err and "Traceback" not in err


def test_fork_refuses_a_tampered_source_and_its_own_source_as_output(tmp_path, capsys, source):
    rows = source.read_text().splitlines()
    i = next(i for i, r in enumerate(lines(source)) if r.get("kind") == "death")
    rows[i] = rows[i].replace('"cause":"', '"cause":"x')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(rows) + "\n")
    code, _, err = fork(capsys, str(bad), "--day", "2", "--quiet")
    assert code == 1 and "does not verify" in err
    code, _, err = fork(capsys, str(source), "--day", "2", "--transcript", str(source), "--quiet")
    assert code == 2 and "never overwrites" in err


@pytest.mark.usefixtures("llm_env")
def test_fork_model_options_reach_the_new_model_seat_and_its_resume(tmp_path, capsys, source):
    """``--model-option`` as for ``play``: every model seat gets the settings it does not
    set itself; the header keeps them, so a fork resumed (even re-forked, when it stopped
    before its fork point) asks its model with them still."""
    from llm_standins import OpenAIStandIn, standin_router

    # A seat that lives through day 2, so the new model seat is asked something.
    gone = {r["data"]["player"] for r in lines(source) if r.get("kind") == "death" and r.get("day", 0) <= 2}
    seat = next(n for n in read_transcript(source).header.names if n not in gone)
    out = tmp_path / "f.jsonl"
    settings = ["--model-option", "temperature=0.3", "--model-option", "max_tokens=77"]
    with standin_router() as router:
        api = OpenAIStandIn(router)
        code, _, err = fork(capsys, str(source), "--day", "2", "--seat", f"{seat}=openai:gpt-5.4-mini", *settings, "--transcript", str(out), "--quiet")
    assert code == 0, err
    assert api.requests and all(b["temperature"] == 0.3 and b["max_completion_tokens"] == 77 for b in api.requests)
    h = read_transcript(out).header
    assert h.fork.model_options == {"temperature": 0.3, "max_tokens": 77}
    assert next(s for s in h.seats if s.name == seat).options == {"temperature": 0.3, "max_tokens": 77}
    assert all(s.options is None for s in h.seats if s.name != seat)  # bots take no model settings
    assert verify_file(out).ok
    rows = out.read_text().splitlines(keepends=True)
    answers = [i for i, r in enumerate(lines(out)) if r["type"] == "answer"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(rows[: answers[h.fork.answers // 2] + 1]))  # stopped before the fork point
    with standin_router() as router:
        api = OpenAIStandIn(router)
        assert main(["play", "--resume", str(cut), "--quiet"]) == 0
    assert api.requests and all(b["temperature"] == 0.3 and b["max_completion_tokens"] == 77 for b in api.requests)
    assert read_transcript(cut).header.fork.model_options == {"temperature": 0.3, "max_tokens": 77}
    assert verify_file(cut).ok


@pytest.mark.usefixtures("llm_env")
def test_fork_takes_the_concurrency_caps(tmp_path, capsys, source):
    """``fork`` caps the model calls in flight as ``play`` does: ``--model-concurrency``
    per model, ``--concurrency`` for all together; a cap below 1 is refused."""
    from llm_standins import OpenAIStandIn, reset_llm_state, standin_router

    names = read_transcript(source).header.names
    seats = [a for n in names for a in ("--seat", f"{n}=openai:gpt-5.4-mini")]
    for flag in ("--concurrency", "--model-concurrency"):
        code, _, err = fork(capsys, str(source), "--day", "1", *seats, flag, "0")
        assert code == 2 and f"{flag} needs a positive number" in err
    for flag, cap in (("--model-concurrency", 2), ("--concurrency", 3)):
        reset_llm_state()  # the caps are the process's
        with standin_router() as router:
            api = OpenAIStandIn(router, latency=0.02)
            code, _, err = fork(capsys, str(source), "--day", "1", *seats, flag, str(cap), "--quiet")
        assert code == 0, err
        assert api.peak_in_flight == cap  # a batch of ten votes, ``cap`` at a time


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_fork_gives_a_new_human_seat_its_time_limit(tmp_path, source):
    """``fork --seat NAME=human --human-timeout S``: the person's limit holds from the
    fork on, recorded as a ``time_limit`` line; a silent person's turns fall to the safe
    default and the forked game ends and verifies."""
    import pexpect

    from transcripts import read_transcript

    gone = {r["data"]["player"] for r in lines(source) if r.get("kind") == "death" and r.get("day", 0) <= 2}
    seat = next(n for n in read_transcript(source).header.names if n not in gone)
    out = tmp_path / "f.jsonl"
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    args = ["-m", "arena.cli", "fork", str(source), "--day", "2", "--seat", f"{seat}=human", "--human-timeout", "0.2", "--transcript", str(out), "--quiet"]
    child = pexpect.spawn(sys.executable, args, cwd=str(tmp_path), env=env, encoding="utf-8", timeout=120, dimensions=(60, 200))
    child.logfile_read = io.StringIO()
    child.expect(pexpect.EOF)
    child.close()
    text = child.logfile_read.getvalue()
    assert child.exitstatus == 0, text[-2000:]
    t = read_transcript(out)
    assert [(r.seat, r.seconds) for r in t.records if r.type == "time_limit"] == [(seat, 0.2)]
    assert any(a.seat == seat for a in t.answers[t.header.fork.answers :])
    assert verify_file(out).ok


def test_taking_a_random_seat_leaves_the_other_random_seats_as_they_were(tmp_path):
    """A game's random seats draw from one stream (``arena.gamefile.random_seats_stream``):
    a fork that gives one of them another agent still makes that seat's recorded draws
    on the stream while catching up, so the random seats it keeps answer as recorded
    (no drift), and a fork that changes nobody is the same game."""
    from arena.fork import prepare_fork

    for seed in range(40):
        path = tmp_path / f"r{seed}.jsonl"
        play_to_file(varied_spec(seed, "random", players=10), path)
        rows = lines(path)
        if max(r.get("day", 0) for r in rows) >= 3:
            break
    names = read_transcript(path).header.names
    taken = next(n for n in names if any(r["type"] == "answer" and r["seat"] == n for r in rows))
    cont = prepare_fork(str(path), 3, {taken: "heuristic"}, None, None)
    assert cont.caught.asked > 0 and not cont.caught.drift
    same = prepare_fork(str(path), 3, {}, None, None)
    assert not same.caught.drift

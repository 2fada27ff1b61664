"""``verify``: a transcript is trusted only once the engine re-plays it.

Round trips for every preset with both bots; then every way a file can lie (an edited
vote, a deleted, moved or duplicated line, an edited death, result, header, agent or
model call), each caught at the first line where the record and the rules part ways,
both with the digest chain intact (the edit breaks it) and re-computed by a forger
(only the re-play can tell). A cut-off file is incomplete, never OK; a broken file
is a clear verdict, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from transcript_tools import ALL_PRESETS, edit, index_of, lines, play_to_file, varied_spec, write_lines

from transcripts.schema import read_transcript
from transcripts.verify import Status, first_change, verify, verify_file

SEEDS = range(6)


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("seed", SEEDS)
def test_round_trip_every_preset(tmp_path, preset, agent, seed):
    path = tmp_path / "game.jsonl"
    game = play_to_file(varied_spec(seed, agent, preset), path)
    assert game.over
    v = verify_file(path)
    assert v.status is Status.OK, v.summary()
    t = read_transcript(path)
    assert (v.events, v.answers, v.calls) == (len(t.events), len(t.answers), 0)
    assert v.game.winner == t.result.winner == game.winner
    assert [e.to_json() for e in v.game.events] == [e.to_json() for e in game.events]
    assert v.exit_code == 0 and v.summary().startswith("OK ")


def test_a_class_of_ones_own_makes_no_calls_and_verifies(tmp_path):
    """A ``py:MODULE:CLASS`` seat writes no call records, like a bot: its answers are not
    a model's answers without their calls (they used to fail verify, and so resume and fork)."""
    from arena.gamefile import GameSpec, SeatSpec

    cautious = "py:examples.agents.cautious:CautiousAgent"
    seats = [SeatSpec(name=n, agent=cautious if i % 2 else "heuristic") for i, n in enumerate(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])]
    path = tmp_path / "own.jsonl"
    play_to_file(GameSpec(seed=4, seats=seats), path)
    v = verify_file(path)
    assert v.status is Status.OK, v.summary()
    assert any(r.agent == cautious for r in read_transcript(path).answers)


def test_scripted_fixture_round_trip(tmp_path):
    from arena.gamefile import load_game_file

    path = tmp_path / "s.jsonl"
    play_to_file(load_game_file(Path(__file__).parent / "fixtures" / "scripted_8.yaml"), path)
    assert verify_file(path).ok
    seats = read_transcript(path).header.seats
    assert any(s.answers for s in seats)  # the scripted queues are part of the table


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> Path:
    """A heuristic game with a Sheriff, a Witch and a Hunter: votes, deaths, potions."""
    path = tmp_path_factory.mktemp("verify") / "game.jsonl"
    spec = varied_spec(3, "heuristic", players=10)
    play_to_file(spec, path)
    assert verify_file(path).ok
    return path


def _is(kind: str, **data):
    return lambda r: r.get("kind") == kind and all(r.get("data", {}).get(k) == v for k, v in data.items())


def _nth_closing(rows: list[dict], kind: str, nth: int) -> int:
    """The ``nth`` line of ``kind`` followed by an event. An answer followed by another
    answer is one of a batch of simultaneous decisions (a vote, the pack): the engine
    takes a batch's answers in any order, so moving or dropping one is first seen
    where the batch closes, not at that line."""
    return [i for i, r in enumerate(rows[:-1]) if r["type"] == kind and rows[i + 1]["type"] == "event"][nth]


def _mismatch(path: Path):
    v = verify_file(path)
    assert v.status is Status.MISMATCH, v.summary()
    assert v.exit_code == 1 and v.difference is not None
    return v


# ---------------------------------------------------------------------- tampering
@pytest.mark.parametrize("rechain", [False, True], ids=["naive", "rechained"])
def test_changed_vote_target(tmp_path, game_file, rechain):
    rows = lines(game_file)
    i = index_of(rows, lambda r: r["type"] == "answer" and r["kind"] == "vote" and r["answer"] is not None)
    legal = [o for o in rows[i]["options"] if o != rows[i]["answer"]]

    def change(rs):
        rs[i]["answer"] = legal[0]

    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", change, rechain=rechain))
    if rechain:  # the chain holds, so the re-play names the first event that no longer follows
        assert v.difference.line > i + 1 and "vote" in v.difference.message
        assert legal[0] in v.difference.message or legal[0] in (v.difference.found or "")
    else:
        assert v.difference.line == i + 1 and "digest" in v.difference.message
        assert any("re-play first differs" in n for n in v.notes)


@pytest.mark.parametrize("rechain", [False, True], ids=["naive", "rechained"])
@pytest.mark.parametrize("kind", ["event", "answer"])
def test_deleted_line(tmp_path, game_file, rechain, kind):
    rows = lines(game_file)
    i = _nth_closing(rows, kind, 12)
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: rs.pop(i), rechain=rechain))
    assert v.difference.line <= i + 2


@pytest.mark.parametrize("rechain", [False, True], ids=["naive", "rechained"])
def test_two_lines_swapped(tmp_path, game_file, rechain):
    rows = lines(game_file)
    i = _nth_closing(rows, "answer", 10)  # an answer and the event it caused

    def change(rs):
        rs[i], rs[i + 1] = rs[i + 1], rs[i]

    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", change, rechain=rechain))
    assert v.difference.line in (i + 1, i + 2)


@pytest.mark.parametrize("rechain", [False, True], ids=["naive", "rechained"])
def test_edited_death_cause(tmp_path, game_file, rechain):
    rows = lines(game_file)
    i = index_of(rows, _is("death"))

    def change(rs):
        rs[i]["data"]["cause"] = "poison" if rs[i]["data"]["cause"] != "poison" else "vote"

    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", change, rechain=rechain))
    assert v.difference.line == i + 1
    if rechain:
        assert "data.cause" in v.difference.message and v.difference.expected and v.difference.found


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: r.update(winner="lovers"), "winner"),
        (lambda r: r.update(days=r["days"] + 1), "days"),
        (lambda r: r["deaths"].reverse() if len(r["deaths"]) > 1 else r["deaths"].pop(), "deaths"),
    ],
)
def test_edited_result(tmp_path, game_file, change, words):
    rows = lines(game_file)
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: change(rs[-1]), rechain=True))
    assert v.difference.line == len(rows) and words in v.difference.message


def test_edited_private_event_audience(tmp_path, game_file):
    """Widening a secret's audience (showing a seat's card to everyone) is a difference."""
    rows = lines(game_file)
    i = index_of(rows, _is("role"))
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: rs[i].update(audience="public"), rechain=True))
    assert v.difference.line == i + 1 and "audience" in v.difference.message


def test_edited_header_seed(tmp_path, game_file):
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: rs[0].update(seed=rs[0]["seed"] + 1), rechain=True))
    assert v.difference.line >= 2  # the deal differs: the first role card no longer follows


def test_answer_credited_to_another_agent(tmp_path, game_file):
    rows = lines(game_file)
    i = index_of(rows, lambda r: r["type"] == "answer", nth=3)
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: rs[i].update(agent="openai:gpt-4o"), rechain=True))
    assert v.difference.line == i + 1 and "openai:gpt-4o" in v.difference.message


def test_changed_question_options(tmp_path, game_file):
    rows = lines(game_file)
    i = index_of(rows, lambda r: r["type"] == "answer" and r["kind"] == "vote")
    v = _mismatch(edit(game_file, tmp_path / "t.jsonl", lambda rs: rs[i]["options"].pop(), rechain=True))
    assert v.difference.line == i + 1 and "options" in v.difference.message


def test_duplicated_answer_and_record_after_the_result(tmp_path, game_file):
    rows = lines(game_file)
    i = index_of(rows, lambda r: r["type"] == "answer", nth=5)
    v = _mismatch(edit(game_file, tmp_path / "a.jsonl", lambda rs: rs.insert(i + 1, dict(rs[i])), rechain=True))
    assert v.difference.line == i + 2
    v = _mismatch(edit(game_file, tmp_path / "b.jsonl", lambda rs: rs.append(dict(rs[-2])), rechain=True))
    assert "after the result" in v.difference.message


def test_model_calls_beside_a_bots_answer_are_stray(tmp_path, game_file):
    """A call record cannot be re-played; a call for a decision a bot answered is a
    stray line even under a recomputed chain.
    (Model games, relabelling and edited calls: ``test_transcript_proof.py``.)"""
    rows = lines(game_file)
    i = index_of(rows, lambda r: r["type"] == "answer" and r["kind"] == "vote")
    call = {"type": "call", "seat": rows[i]["seat"], "decision": rows[i]["decision"], "kind": "vote", "backend": "openai",
            "model": "gpt-5.4-mini", "parsed": {"reasoning": "honest thoughts", "action": rows[i]["answer"]}}  # fmt: skip
    v = _mismatch(edit(game_file, tmp_path / "calls.jsonl", lambda rs: rs.insert(i, call), rechain=True))
    assert v.difference.line == i + 1 and "not to a model" in v.difference.message
    stray = dict(call, decision=99999)
    _mismatch(edit(game_file, tmp_path / "stray.jsonl", lambda rs: rs.insert(i, stray), rechain=True))


def test_a_file_without_a_chain_fails_unless_allowed(tmp_path, game_file):
    rows = [{k: v for k, v in r.items() if k != "digest"} for r in lines(game_file)]
    plain = write_lines(tmp_path / "plain.jsonl", rows)
    v = _mismatch(plain)
    assert v.difference.line == 1 and "no digest chain" in v.difference.message and "--allow-unchained" in v.difference.message
    assert v.guarantees["replay"]["holds"] and not v.guarantees["chain"]["holds"]
    v = verify_file(plain, allow_unchained=True)
    assert v.ok and "no digest chain" in v.summary()
    rows[5]["digest"] = "0123456789abcdef"  # a chain that starts mid-file is no chain
    _mismatch(write_lines(tmp_path / "half.jsonl", rows))
    assert verify_file(tmp_path / "half.jsonl", allow_unchained=True).status is Status.MISMATCH


# ---------------------------------------------------------------------- incomplete and broken
def test_truncated_file_is_incomplete_not_ok(tmp_path, game_file):
    rows = lines(game_file)
    for cut in (1, 2, len(rows) // 3, len(rows) // 2, len(rows) - 1):
        v = verify_file(write_lines(tmp_path / f"cut{cut}.jsonl", rows[:cut]))
        assert v.status is Status.INCOMPLETE, (cut, v.summary())
        assert v.exit_code == 3 and "INCOMPLETE" in v.summary()
    assert "result line is missing" in verify_file(tmp_path / f"cut{len(rows) - 1}.jsonl").reason


def test_line_cut_mid_write_is_incomplete(tmp_path, game_file):
    text = game_file.read_text()
    half = text[: len(text) // 2]
    assert not half.endswith("\n")
    p = tmp_path / "cut.jsonl"
    p.write_text(half)
    v = verify_file(p)
    assert v.status is Status.INCOMPLETE and "cut off mid-write" in v.reason


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "header"),
        ("not json\n", "line 1: not JSON"),
        ('{"type": "event"}\n', "line 1"),
        ('[1, 2]\n', "line 1"),
        ("\x00\x01binary\n", "line 1"),
    ],
)
def test_unreadable_files(tmp_path, text, words):
    p = tmp_path / "bad.jsonl"
    p.write_text(text)
    v = verify_file(p)
    assert v.status is Status.UNREADABLE and v.exit_code == 2
    assert words in v.summary()


def test_malformed_line_in_the_middle(tmp_path, game_file):
    rows = game_file.read_text().splitlines()
    rows[7] = rows[7][:-5] + "garbage"
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(rows) + "\n")
    v = verify_file(p)
    assert v.status is Status.UNREADABLE and "line 8" in v.summary()


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda h: h.update(preset="no_such_preset"), "preset"),
        (lambda h: h["seats"].pop(), "line"),
        (lambda h: h["options"].update(tie="coin"), "tie"),
        (lambda h: h.update(roles=["villager"] * len(h["seats"])), "werewolf"),
    ],
)
def test_bad_header(tmp_path, game_file, change, words):
    p = edit(game_file, tmp_path / "h.jsonl", lambda rs: change(rs[0]), rechain=True)
    v = verify_file(p)
    assert v.status in (Status.UNREADABLE, Status.MISMATCH), v.summary()
    assert words in v.summary()


def test_missing_file_and_directory(tmp_path):
    assert verify_file(tmp_path / "nope.jsonl").status is Status.UNREADABLE
    assert verify_file(tmp_path).status is Status.UNREADABLE


def test_first_change_names_the_path():
    assert first_change({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == ("a.b.1", 2, 3)
    assert first_change({"a": 1}, {"a": 1, "b": 2}) == ("b", "(absent)", 2)
    assert first_change([1], [1, 2]) == ("value", [1], [1, 2])
    assert first_change(True, 1) is not None  # JSON true is not 1
    assert first_change({"x": None}, {"x": None}) is None


def test_verify_from_memory_matches_the_file(game_file):
    t = read_transcript(game_file)
    assert verify(t).ok and "reproduced" in verify(t).summary()


def test_a_file_that_is_not_a_transcript_is_told_in_plain_words(tmp_path, capsys):
    from arena.cli import main

    p = tmp_path / "x.jsonl"
    p.write_text('{"foo": 1}\n')
    assert main(["verify", str(p)]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "not a transcript record" in text and "discriminator" not in text
    p.write_text("hello\n")
    assert main(["verify", str(p)]) == 2
    assert "one JSON record a line" in "".join(capsys.readouterr())

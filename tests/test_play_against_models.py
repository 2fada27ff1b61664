"""``werewolf play --human NAME --models SPEC``: a person against models in one command.

The table: the person at a seat drawn from the seed, the other seats alternately the
model and the reference bot (``arena.gamefile.TABLE_OPPONENT``); at the end, the cost.
The whole game runs in a pseudo-terminal against the streaming stand-in of
``arena/standin_server.py``, the person silent (every question's safe default
after a short time limit), and the models' speeches are written out as they stream.
"""

from __future__ import annotations

import sys

import pytest

from arena.against_models import against_models
from arena.cli import main
from arena.gamefile import HUMAN, TABLE_OPPONENT, GameFileError, default_game

from arena.standin_server import SPEECH, StandInServer  # noqa: E402


def test_the_person_sits_among_the_model_and_the_reference_bots():
    spec = against_models(default_game(players=8, seed=4), "Zoe", ["openai:m"])
    agents = [s.agent for s in spec.seats]
    assert agents.count(HUMAN) == 1 and spec.seats[agents.index(HUMAN)].name == "Zoe"
    others = [a for a in agents if a != HUMAN]
    assert others == ["openai:m", TABLE_OPPONENT] * 3 + ["openai:m"]
    assert len({s.name for s in spec.seats}) == 8
    # The seed draws the place: over seeds the person sits everywhere.
    places = {[s.agent for s in against_models(default_game(players=8, seed=k), "Zoe", ["openai:m"]).seats].index(HUMAN) for k in range(60)}
    assert places == set(range(8))


def test_a_chosen_name_that_is_a_default_seats_moves_that_seat_aside():
    spec = against_models(default_game(players=6, seed=1), "Bob", ["openai:a", "anthropic:b"])
    names = [s.name for s in spec.seats]
    assert len(set(names)) == 6 and [s.agent for s in spec.seats if s.name == "Bob"] == [HUMAN]
    assert {s.agent for s in spec.seats} == {HUMAN, "openai:a", "anthropic:b", TABLE_OPPONENT}


def test_a_bot_is_not_a_model():
    with pytest.raises(GameFileError, match="--models takes model specs"):
        against_models(default_game(players=6, seed=1), "Zoe", ["heuristic"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--models", "openai:m"], "exactly one --human NAME"),
        (["--human", "Zoe", "--models", "openai:m", "--agents", "random"], "no game file and no --agents"),
        (["--db", "people.sqlite"], "--db records a person's game for the ratings: give --human NAME too"),
    ],
)
def test_refused_flags(capsys, args, message):
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_whole_game_against_a_model_with_its_speech_streamed_and_the_cost_at_the_end(tmp_path):
    import pexpect
    from test_human import ROOT, seen

    import os

    with StandInServer(latency=0, stream_delay=0.002) as api:
        env = {
            **os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1", "OPENAI_BASE_URL": api.base_url, "OPENAI_API_KEY": "sk-standin",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }  # fmt: skip
        args = ["-m", "arena.cli", "play", "--human", "Zoe", "--models", "openai:standin", "--seed", "7", "--players", "6"]
        args += ["--human-timeout", "0.3", "--transcript", str(tmp_path / "t.jsonl"), "--db", str(tmp_path / "people.sqlite")]
        child = pexpect.spawn(sys.executable, args, cwd=str(ROOT), env=env, encoding="utf-8", timeout=240, dimensions=(60, 400))
        import io

        child.logfile_read = io.StringIO()
        child.expect(pexpect.EOF)
        child.close()
    text = seen(child)
    assert child.exitstatus == 0, text[-3000:]
    assert "Your card, Zoe" in text
    assert "(speaking): " + SPEECH[:40] in text.replace("\r", "")
    assert "Estimated cost: $" in text
    # The person's game is in the store, under the person's name, beside the model.
    import sqlite3

    with sqlite3.connect(tmp_path / "people.sqlite") as con:
        seats = con.execute("SELECT participant, agent FROM seats").fetchall()
    assert ("Zoe", "human") in seats and ("openai:standin", "openai:standin") in seats and (TABLE_OPPONENT, TABLE_OPPONENT) in seats


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_terminal_game_the_person_leaves_is_kept_as_abandoned_and_not_rated(tmp_path):
    from test_human import PROMPT, spawn

    from arena.people_games import abandoned

    db = tmp_path / "people.sqlite"
    child = spawn("--human", "Alice", "--seed", "3", "--db", str(db), "--transcript", str(tmp_path / "t.jsonl"))
    child.expect("Your card, Alice")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(__import__("pexpect").EOF)
    child.close()
    assert child.exitstatus != 0
    (left,) = abandoned(db)
    assert left["people"] == "Alice" and (db.parent / left["transcript"]).exists()
    import sqlite3

    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)

"""The transcript commands as a user runs them: exit codes, messages, no tracebacks.

``verify``: 0 OK, 1 a difference, 2 not a transcript, 3 incomplete (CONTRACT.md 3b
asks for 0 and non-zero with the first difference). ``replay``: a recorded game,
publicly, ``--as`` a seat or ``--god``; refuses a file that does not verify.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from transcript_tools import edit, lines, play_to_file, varied_spec

from arena.cli import main

ROOT = Path(__file__).parent.parent


def cli(*args: str, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120, stdin=stdin)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "game.jsonl"
    play_to_file(varied_spec(4, "heuristic", players=9), path)
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_then_verify_in_subprocesses(tmp_path):
    t = tmp_path / "t.jsonl"
    assert cli("play", "--quiet", "--seed", "2", "--transcript", str(t)).returncode == 0
    r = cli("verify", str(t))
    assert r.returncode == 0 and r.stdout.startswith("OK ") and len(r.stdout.strip().splitlines()) == 1
    rows = t.read_text().splitlines()
    (tmp_path / "cut.jsonl").write_text("\n".join(rows[: len(rows) // 2]) + "\n")
    i = next(i for i, line in enumerate(rows) if '"kind":"death"' in line)
    rows[i] = rows[i].replace('"cause":"', '"cause":"poison-', 1)
    (tmp_path / "bad.jsonl").write_text("\n".join(rows) + "\n")
    r = cli("verify", str(tmp_path / "bad.jsonl"))
    assert r.returncode == 1 and f"line {i + 1}" in r.stderr and "Traceback" not in r.stderr
    r = cli("verify", str(tmp_path / "cut.jsonl"))
    assert r.returncode == 3 and "INCOMPLETE" in r.stderr
    r = cli("verify", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_verify_json(capsys, game, tmp_path):
    code, out, _ = run(capsys, "verify", str(game), "--json")
    v = json.loads(out)
    assert code == 0 and v["status"] == "ok" and v["events"] > 0 and v["winner"]
    bad = edit(game, tmp_path / "bad.jsonl", lambda rs: rs.pop(5), rechain=True)
    code, out, _ = run(capsys, "verify", str(bad), "--json")
    v = json.loads(out)
    assert code == 1 and v["status"] == "mismatch" and v["difference"]["line"] == 6


def test_replay_views(capsys, game):
    code, public, _ = run(capsys, "replay", str(game))
    assert code == 0 and "The cards are revealed" in public and "[secret]" not in public
    code, god, _ = run(capsys, "replay", str(game), "--god")
    assert code == 0 and "[secret]" in god and len(god) > len(public)
    names = [s["name"] for s in lines(game)[0]["seats"]]
    code, mine, _ = run(capsys, "replay", str(game), "--as", names[0])
    assert code == 0 and "[private]" in mine and f"{names[0]} is the" in mine


@pytest.mark.parametrize(
    "args, code, words",
    [
        (["--as", "Nobody"], 2, "seats: Alice"),
        (["--as", "Alice", "--god"], 2, "choose one"),
        (["--day", "0"], 2, "days 1 to"),
        (["--day", "999"], 2, "days 1 to"),
    ],
)
def test_replay_refusals(capsys, game, args, code, words):
    got, _, err = run(capsys, "replay", str(game), *args)
    assert got == code and words in err


def test_replay_refuses_a_tampered_file_unless_asked(capsys, game, tmp_path):
    rows = lines(game)
    i = next(i for i, r in enumerate(rows) if r.get("kind") == "death")
    bad = edit(game, tmp_path / "bad.jsonl", lambda rs: rs[i]["data"].update(cause="poison"))
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and "does not verify" in err
    code, out, err = run(capsys, "replay", str(bad), "--unverified")
    assert code == 0 and "warning" in err and out


def test_replay_step_without_a_terminal_does_not_wait(game):
    r = cli("replay", str(game), "--step", "--day", "2")
    assert r.returncode == 0 and "Starting at day 2" in r.stdout and "[Enter" not in r.stderr


def test_help_documents_the_fork_point_and_exit_codes():
    def words(*args: str) -> str:
        return " ".join(cli(*args, "--help").stdout.split())

    assert "night N opens day N" in words("fork")
    assert "3 incomplete" in words("verify")
    assert "--resume TRANSCRIPT" in words("play")

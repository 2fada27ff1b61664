"""Long commands show a progress bar on a terminal, and nothing when piped or --json
(issue 50: ``werewolf simulate --players 12 --games 2000`` printed nothing for 18 s).

The terminal is a real pseudo-terminal (pexpect), as a person's is; "piped" is
pytest's captured streams. A slow test says what it waits for, past pytest's capture
(``tests/real_model.py``'s ``tell``)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.progress import Bar, wanted

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
pexpect = pytest.importorskip("pexpect")
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_only_where_a_person_watches():
    assert wanted(stream=Tty()) and not wanted(stream=io.StringIO())
    assert not wanted(json=True, stream=Tty()) and not wanted(quiet=True, stream=Tty())
    shown, piped = Tty(), io.StringIO()
    for stream in (shown, piped):
        with Bar("games", 3, enabled=wanted(stream=stream), stream=stream) as bar:
            for _ in range(3):
                bar.advance()
    assert "3/3" in ANSI.sub("", shown.getvalue()) and piped.getvalue() == ""


def run_in_terminal(*args: str) -> str:
    env = {**os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    child = pexpect.spawn(sys.executable, ["-m", "arena.cli", *args], cwd=str(ROOT), env=env, encoding="utf-8", timeout=120, dimensions=(40, 120))
    out = child.read()
    child.close()
    assert child.exitstatus == 0, out
    return ANSI.sub("", out)


@POSIX
def test_simulate_shows_its_games_on_a_terminal_and_nothing_with_json():
    shown = run_in_terminal("simulate", "--games", "400", "--agents", "random", "--processes", "1")
    assert re.search(r"games .*\d+/400", shown), shown[-2000:]
    assert "400 games" in shown  # the report after it
    quiet = run_in_terminal("simulate", "--games", "400", "--agents", "random", "--processes", "1", "--json")
    assert "/400" not in quiet and quiet.strip().startswith("{")


def test_piped_commands_print_no_bar(tmp_path, capsys):
    assert main(["simulate", "--games", "20", "--agents", "random"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "20 games" in out
    from arena.gamefile import default_game
    from transcript_tools import play_to_file

    folder = tmp_path / "games"
    folder.mkdir()
    for seed in (1, 2):
        play_to_file(default_game(players=8, seed=seed), folder / f"g{seed}.jsonl")
    assert main(["metrics", str(folder)]) == 0
    assert main(["export", str(folder), "--format", "csv", "--out", str(tmp_path / "csv")]) == 0
    assert capsys.readouterr().err == ""


@POSIX
def test_metrics_and_export_show_their_games_on_a_terminal(tmp_path):
    from arena.gamefile import default_game
    from transcript_tools import play_to_file

    folder = tmp_path / "games"
    folder.mkdir()
    for seed in range(3):
        play_to_file(default_game(players=8, seed=seed), folder / f"g{seed}.jsonl")
    assert re.search(r"transcripts .*3/3", run_in_terminal("metrics", str(folder)))
    assert re.search(r"games .*3/3", run_in_terminal("export", str(folder), "--format", "csv", "--out", str(tmp_path / "csv")))


def test_a_slow_test_says_what_it_waits_for_past_pytests_capture(tmp_path):
    """``tell`` reaches the terminal while pytest captures the test's output (the real
    model's tests once sat for minutes at one dot)."""
    test = tmp_path / "test_waits.py"
    test.write_text(
        "from real_model import tell\n\n"
        "def test_waits(request):\n"
        "    print('captured, not shown')\n"
        "    tell(request, 'starting the llama.cpp server (up to 180 s)')\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[real model] starting the llama.cpp server (up to 180 s)" in done.stdout
    assert "captured, not shown" not in done.stdout

"""An agent of one's own (``py:MODULE:CLASS``) runs code, so only the user names one (issue 41).

Naming the class imports its module, and the module's top-level code runs before the
arena can see whether the class is an agent. A game file (or ``--seat``) is the user's
own and seats one; the places that take a table from someone else import nothing: the
web server refuses the seat, and a transcript's recorded seat (``play --resume``,
``fork``, a web server taking up its folder) is refused unless the user passes
``--trust-code`` or gives the seat its agent again. Each test watches a module whose
import writes a marker file.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

from agents.custom import load_class
from arena.catchup import spec_from_header
from arena.cli import main
from arena.command import CliError
from arena.gamefile import GameFileError, GameSpec, SeatSpec, load_game_file
from arena.resume import prepare_resume
from arena.web.app import create_app
from arena.web.table_form import table_spec
from transcript_tools import lines, play_to_file
from transcripts.schema import read_transcript
from web_tools import web_client

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma"]
MODULE = '''
from pathlib import Path

Path({marker!r}).write_text("imported")  # top-level code: it runs as the module is imported

from agents.random_agent import RandomAgent


class Mine(RandomAgent):
    spec = "py:{name}:Mine"

    def __init__(self, name, *, seed=0, options=None):
        super().__init__(name, seed=seed)
'''


class Marked:
    """A module of one's own whose import leaves a mark."""

    def __init__(self, folder: Path):
        self.name = f"own_{uuid.uuid4().hex[:8]}"
        self.marker = folder / f"{self.name}.imported"
        (folder / f"{self.name}.py").write_text(MODULE.format(marker=str(self.marker), name=self.name), encoding="utf-8")
        self.spec = f"py:{self.name}:Mine"

    def imported(self) -> bool:
        return self.marker.exists()

    def forget(self) -> None:
        """As in a new process: not imported yet, no mark."""
        sys.modules.pop(self.name, None)
        self.marker.unlink(missing_ok=True)


@pytest.fixture
def own(tmp_path, monkeypatch):
    folder = tmp_path / "mods"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    marked = Marked(folder)
    yield marked
    marked.forget()


def seats(own: Marked, who: str = "Bob") -> list[SeatSpec]:
    return [SeatSpec(name=n, agent=own.spec if n == who else "random") for n in NAMES]


def test_naming_a_class_runs_its_module_before_the_class_is_checked(own, tmp_path):
    """The measurement: a module's import-time code runs even when the class it names is
    missing; a game file naming one runs it (the user's own file, docs/AGENTS.md)."""
    with pytest.raises(ValueError, match="has no 'Nope'"):
        load_class(f"py:{own.name}:Nope")
    assert own.imported()
    own.forget()
    game = tmp_path / "g.json"
    game.write_text(GameSpec(seats=seats(own)).model_dump_json(), encoding="utf-8")
    assert load_game_file(game).seats[1].agent == own.spec and own.imported()


def test_the_web_server_seats_no_class_and_imports_nothing(own, tmp_path):
    body = {"seed": 1, "pace": 0, "seats": [{"name": n, "agent": own.spec if n == "Bob" else "heuristic"} for n in NAMES]}
    with pytest.raises(GameFileError, match=f"Bob is played by '{own.spec}'.*runs its code.*werewolf play"):
        table_spec(body)
    with web_client(create_app(tmp_path / "games")) as client:  # with the host key
        r = client.post("/api/games", json=body)
    assert r.status_code == 400 and "runs its code" in r.json()["error"]
    assert not own.imported()


@pytest.fixture
def recorded(own, tmp_path) -> Path:
    """A finished game Bob's class played (from the user's own table), then forgotten."""
    path = tmp_path / "t.jsonl"
    play_to_file(GameSpec(seed=2, options={"sheriff": False}, seats=seats(own)), path)
    own.forget()
    return path


def test_a_transcripts_class_is_a_record_not_code(own, recorded):
    """Reading the table a transcript names (as a web server listing its games does)
    imports nothing; seating it from the record is refused."""
    spec = spec_from_header(read_transcript(recorded).header)
    assert spec.seats[1].agent == own.spec and not own.imported()


def test_fork_refuses_a_recorded_class_unless_restated_or_trusted(own, recorded, tmp_path, capsys):
    assert main(["fork", str(recorded), "--day", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"seat 2 (Bob) is played by '{own.spec}'" in err and "--seat NAME=AGENT" in err and "--trust-code" in err
    assert not own.imported()
    assert main(["fork", str(recorded), "--day", "1", "--quiet", "--seat", "Bob=heuristic"]) == 0
    assert not own.imported()
    assert main(["fork", str(recorded), "--day", "1", "--quiet", "--seat", f"Bob={own.spec}"]) == 0  # the user's own word
    assert own.imported()
    own.forget()
    assert main(["fork", str(recorded), "--day", "1", "--quiet", "--trust-code"]) == 0
    assert own.imported()


def test_resume_refuses_a_recorded_class_unless_trusted(own, recorded, tmp_path, capsys):
    rows = recorded.read_text(encoding="utf-8").splitlines(keepends=True)
    answers = [i for i, r in enumerate(lines(recorded)) if r["type"] == "answer"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(rows[: answers[2] + 1]), encoding="utf-8")
    with pytest.raises(CliError, match="runs its code"):
        prepare_resume(str(cut))  # as a web server taking up its folder after a restart
    assert main(["play", "--resume", str(cut), "--quiet"]) == 2
    assert "--trust-code" in capsys.readouterr().err and not own.imported()
    assert main(["play", "--resume", str(cut), "--quiet", "--trust-code"]) == 0
    assert own.imported() and capsys.readouterr().out.startswith("winner:")


def test_trust_code_is_for_a_resumed_transcript_only(tmp_path, capsys):
    assert main(["play", "--players", "5", "--quiet", "--trust-code"]) == 2
    assert "--trust-code is for --resume" in capsys.readouterr().err

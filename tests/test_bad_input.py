"""Sizes are bounded and bad input is one sentence (issue 12, item 6): each input that
hung or printed a traceback, run through the real command, must now exit 2 with one
line on stderr, quickly; the bounds themselves are checked option by option."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from engine.options import BOUNDS, RuleOptions

SEVEN = [{"name": n, "agent": "random"} for n in ("A", "B", "C", "D", "E", "F", "G")]
TOURNAMENT = {"games": 2, "tables": [{"players": 7}], "participants": [{"name": "h", "agent": "heuristic"}, {"name": "r", "agent": "random"}]}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str, words: str, seconds: float = 10.0) -> str:
    """Run ``argv``; it must exit 2, at once, with one ``error:`` line naming ``words``."""
    start = time.monotonic()
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert words in err, err
    assert time.monotonic() - start < seconds
    return err


def write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(yaml.safe_dump(data) if name.endswith((".yaml", ".yml")) else json.dumps(data))
    return p


# ---------------------------------------------------------------------- table sizes
def test_a_thousand_seats_are_refused(tmp_path, capsys):
    path = write(tmp_path, "big.yaml", {"seats": [{"name": f"P{i}", "agent": "random"} for i in range(1000)]})
    refused(capsys, "play", path, "--json", words="seats at most 30 players, got 1000")


@pytest.mark.parametrize("n", ["1000", "31", "1000000000000"])
def test_players_beyond_the_preset_are_refused(capsys, n):
    refused(capsys, "play", "--players", n, "--json", words=f"at most 30 players, got {n}")
    refused(capsys, "simulate", "--players", n, "--games", "1", "--json", words=f"at most 30 players, got {n}")


def test_the_presets_own_maximum_holds(tmp_path, capsys):
    refused(capsys, "play", "--preset", "best_of", "--players", "29", words="preset best_of seats at most 28 players, got 29")
    t = write(tmp_path, "t.yaml", {**TOURNAMENT, "tables": [{"players": 29, "preset": "best_of"}]})
    refused(capsys, "tournament", t, "--db", tmp_path / "t.db", "--plan", words="at most 28 players")
    refused(capsys, "tournament", write(tmp_path, "t31.yaml", {**TOURNAMENT, "tables": [{"players": 31}]}), "--db", tmp_path / "t.db", "--plan",
            words="players: Input should be less than or equal to 30")  # fmt: skip


# ---------------------------------------------------------------------- count options
COUNTS = sorted(BOUNDS)


@pytest.mark.parametrize("option", COUNTS)
def test_every_count_option_is_bounded(tmp_path, capsys, option):
    low, high = BOUNDS[option]
    assert isinstance(getattr(RuleOptions(), option), int)
    for bad in (high + 1, low - 1, 10**9):
        path = write(tmp_path, "g.yaml", {"seats": SEVEN, "options": {option: bad}})
        refused(capsys, "play", path, "--json", words=f"rule option '{option}' must be between {low} and {high}, got {bad}")
    refused(capsys, "simulate", "--games", "1", "--option", f"{option}={high + 1}", words=f"'{option}' must be between")


def test_every_whole_number_option_has_a_bound():
    ints = [k for k, v in RuleOptions().to_json().items() if isinstance(v, int) and not isinstance(v, bool)]
    assert sorted(ints) == COUNTS


def test_a_billion_discussion_rounds_as_written(tmp_path, capsys):
    """The reported file: ``discussion_rounds: 1e9`` (a float in YAML) and 1000000000."""
    path = tmp_path / "rounds.yaml"
    path.write_text("seats: [{name: A}, {name: B}, {name: C}, {name: D}, {name: E}]\noptions: {discussion_rounds: 1.0e+9}\n")
    refused(capsys, "play", path, "--json", words="'discussion_rounds' must be a whole number, got 1000000000.0")
    path.write_text("seats: [{name: A}, {name: B}, {name: C}, {name: D}, {name: E}]\noptions: {discussion_rounds: 1000000000}\n")
    refused(capsys, "play", path, "--json", words="between 0 and 10, got 1000000000")


def test_a_long_value_is_shown_short(tmp_path, capsys):
    path = write(tmp_path, "g.yaml", {"seats": SEVEN, "options": {"tie": "x" * 5000}})
    err = refused(capsys, "play", path, words="rule option 'tie' must be one of")
    assert len(err) < 400


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--games", "100000000000"], "--games must be between 0 and 1,000,000"),
        (["play", "--concurrency", "100000"], "--concurrency needs a positive number, at most 1024"),
        (["leaderboard", "--db", "x.db", "--bootstrap", "1000000000"], "--bootstrap must be between 0 and 100,000"),
    ],
)
def test_command_line_counts_are_bounded(capsys, argv, words):
    refused(capsys, *argv, words=words)


def test_model_seat_counts_are_bounded(tmp_path, capsys):
    seats = [{"name": "A", "agent": "openai:gpt-5.4-mini", "options": {"max_reasks": 1000000}}] + SEVEN[1:]
    refused(capsys, "play", write(tmp_path, "g.yaml", {"seats": seats}), words="max_reasks: Input should be less than or equal to 10")
    refused(capsys, "play", "--agents", "openai:gpt-5.4-mini", "--model-option", "max_retries=1000000", words="max_retries")


# ---------------------------------------------------------------------- tournaments
def test_a_huge_plan_is_refused_at_once(tmp_path, capsys):
    for games in (10**11, 20_001):
        t = write(tmp_path, "huge.yaml", {**TOURNAMENT, "games": games})
        refused(capsys, "tournament", t, "--db", tmp_path / "h.db", "--plan", words="games: Input should be less than or equal to 20000", seconds=3)
    t = write(tmp_path, "mirror.yaml", {**TOURNAMENT, "games": 15_000, "mirror": True})
    refused(capsys, "tournament", t, "--db", tmp_path / "h.db", "--plan", words="exceed the limit of 20,000 games", seconds=3)
    assert not (tmp_path / "h.db").exists()


@pytest.mark.parametrize("cap", [0, -1])
def test_per_model_caps_must_be_positive(tmp_path, capsys, cap):
    t = write(tmp_path, "t.yaml", {**TOURNAMENT, "concurrency": {"per_model": {"openai:gpt-5.4-mini": cap}}})
    refused(capsys, "tournament", t, "--db", tmp_path / "t.db", "--plan", words="per_model.openai:gpt-5.4-mini: Input should be greater than or equal to 1")


def test_a_path_for_a_language_is_refused_for_bots_too(tmp_path, capsys):
    t = write(tmp_path, "t.yaml", {**TOURNAMENT, "language": "../../x"})
    refused(capsys, "tournament", t, "--db", tmp_path / "t.db", "--plan", words="language must be one of en, zh")
    g = write(tmp_path, "g.yaml", {"seats": SEVEN, "language": "../../x"})
    refused(capsys, "play", g, words="language '../../x' is not one of en, zh")


def test_a_binary_tournament_file_is_one_sentence(tmp_path, capsys):
    t = write(tmp_path, "t.yaml", bytes(range(256)) * 4)
    refused(capsys, "tournament", t, "--db", tmp_path / "t.db", words="not UTF-8 text")


# ---------------------------------------------------------------------- databases
@pytest.fixture(scope="module")
def played_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("db")
    t = folder / "t.yaml"
    t.write_text(yaml.safe_dump(TOURNAMENT))
    assert main(["tournament", str(t), "--db", str(folder / "good.db"), "--quiet"]) == 0
    db = sqlite3.connect(folder / "good.db")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file, as a copy would be
    db.close()
    return folder / "good.db"


def test_a_damaged_database_says_what_to_do(tmp_path, capsys, played_db):
    data = bytearray(played_db.read_bytes())
    third = len(data) // 3
    data[third : third + 4000] = b"\x42" * 4000  # garbage in the middle: the header is intact
    bad = write(tmp_path, "bad.db", bytes(data))
    t = write(tmp_path, "t.yaml", TOURNAMENT)
    for argv in (["leaderboard", "--db", bad], ["tournament", t, "--db", bad]):
        err = refused(capsys, *argv, words=f"{bad} is damaged")
        assert "restore it from a backup" in err and ".recover" in err


def test_a_file_that_is_no_database_is_refused(tmp_path, capsys):
    bad = tmp_path / "notes.db"
    bad.write_text("my shopping list\n" * 100)
    refused(capsys, "leaderboard", "--db", bad, words="not a tournament database")


def test_an_empty_database_file_is_refused_unless_new(tmp_path, capsys):
    empty = write(tmp_path, "empty.db", b"")
    t = write(tmp_path, "t.yaml", TOURNAMENT)
    refused(capsys, "leaderboard", "--db", empty, words="is an empty file (0 bytes)")
    refused(capsys, "tournament", t, "--db", empty, words="delete it to start a new tournament there")
    assert empty.stat().st_size == 0  # left as it was
    code, _, err = run(capsys, "tournament", t, "--db", tmp_path / "new.db", "--quiet")
    assert code == 0, err


def test_a_folder_is_no_database(tmp_path, capsys):
    refused(capsys, "leaderboard", "--db", tmp_path, words="is a folder")


# ---------------------------------------------------------------------- transcripts and metrics
@pytest.mark.parametrize("command", [["metrics"], ["verify"], ["replay"], ["fork", "--day", "1"], ["play", "--resume"], ["export", "--html", "x.html"]])
def test_a_binary_file_is_one_sentence_everywhere(tmp_path, capsys, command):
    b = write(tmp_path, "b.jsonl", b"\xff\xfe\x00garbage\x80\x81" * 100)
    code, _, err = run(capsys, *command[:1], *( [b, *command[1:]] if command[0] != "play" else [command[1], b]))
    assert code == 2 and "Traceback" not in err and "not UTF-8" in err, err


def test_metrics_on_a_database_file_is_one_sentence(capsys, played_db):
    refused(capsys, "metrics", played_db, words="not UTF-8 text")


def test_metrics_on_a_folder_without_transcripts_exits_2(tmp_path, capsys):
    refused(capsys, "metrics", tmp_path, words="no finished transcript found")
    (tmp_path / "notes.txt").write_text("hello")
    refused(capsys, "metrics", tmp_path, words="no finished transcript found")


def test_a_bad_argument_is_one_line(capsys):
    refused(capsys, "play", "--players", "many", words="werewolf play: argument --players: invalid int value")
    refused(capsys, "fork", words="the following arguments are required")


# ---------------------------------------------------------------------- YAML aliases
BOMB = ('[&a ["x","x","x","x","x","x","x","x","x","x"], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], '
        "&d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d], &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e], "
        "&g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]]")  # fmt: skip


def test_a_yaml_alias_bomb_is_refused_at_once(tmp_path, capsys):
    """Ten million values in seven lines: a scripted seat's answers take any values,
    and the transcript header would have written them all (it hung before)."""
    g = tmp_path / "bomb.yaml"
    g.write_text("seats:\n  - {name: A, agent: scripted, answers: {vote: " + BOMB + "}}\n  - {name: B}\n  - {name: C}\n  - {name: D}\n  - {name: E}\n")
    refused(capsys, "play", g, "--transcript", tmp_path / "b.jsonl", words="holds more than 100,000 values", seconds=5)
    t = tmp_path / "tbomb.yaml"
    t.write_text(yaml.safe_dump(TOURNAMENT) + "name: " + BOMB + "\n")
    refused(capsys, "tournament", t, "--db", tmp_path / "t.db", "--plan", words="holds more than 100,000 values", seconds=5)

"""Game files: parsing, checks and the messages a file's author sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from agents.scripted import ScriptedAgent
from arena.gamefile import GameFileError, GameSpec, default_game, default_names, load_game_file, seat_seed

FIXTURE = Path(__file__).parent / "fixtures" / "scripted_8.yaml"
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.yaml"))

THREE = "seats:\n  - {name: A, agent: random}\n  - {name: B, agent: random}\n  - {name: C, agent: random}\n"


def _heuristic_available() -> bool:
    try:
        import agents.heuristic  # noqa: F401
    except ImportError:
        return False
    return True


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def load_and_build(path: Path):
    return load_game_file(path).build()


def test_fixture_loads_and_builds():
    spec = load_game_file(FIXTURE)
    assert spec.preset == "millers_hollow" and spec.seed == 7 and spec.language == "en"
    assert [s.name for s in spec.seats] == ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
    game, agents = spec.build()
    assert [p.role for p in game.players][:5] == ["werewolf", "werewolf", "seer", "witch", "hunter"]
    assert all(isinstance(a, ScriptedAgent) for a in agents.values())
    assert game.waiting, "the first night's decisions are pending"


def test_json_file_is_the_same_game(tmp_path):
    data = yaml.safe_load(FIXTURE.read_text())
    p = write(tmp_path, json.dumps(data), "game.json")
    assert load_game_file(p) == load_game_file(FIXTURE)


def test_defaults_and_language(tmp_path):
    spec = load_game_file(write(tmp_path, "language: zh\n" + THREE))
    assert spec.preset == "millers_hollow" and spec.seed == 0 and spec.language == "zh"
    assert all(s.agent == "random" for s in spec.seats)
    # Bots speak the game's language too: an unknown one (or a path) is refused for them as well.
    for bad in ("fr", "../../x"):
        with pytest.raises(GameFileError, match=r"language '.*' is not one of en, zh"):
            load_game_file(write(tmp_path, f"language: '{bad}'\n" + THREE))
    assert GameSpec(seats=[{"name": "A"}]).seats[0].agent == "heuristic"


def test_options_override_preset_defaults(tmp_path):
    game, _ = load_and_build(write(tmp_path, "options: {sheriff: false, tie: no_elimination}\n" + THREE))
    assert game.options.sheriff is False and game.options.tie == "no_elimination"
    assert game.options.wolf_pack == "unanimous"  # untouched default


def test_seat_seeds_are_stable_and_distinct():
    assert seat_seed(7, 0) == seat_seed(7, 0)
    assert len({seat_seed(7, i) for i in range(20)} | {seat_seed(8, i) for i in range(20)}) == 40


def test_default_names():
    assert default_names(3) == ["Alice", "Bob", "Chloe"]
    names = default_names(40)
    assert len(names) == len(set(names)) == 40
    assert [s.name for s in default_game(players=5).seats] == default_names(5)


@pytest.mark.parametrize(
    "text, name, expected",
    [
        (THREE + "players: 3\n", "game.yaml", "unknown key 'players' at the top level"),
        ("seats:\n  - {name: A, colour: red}\n  - {name: B}\n  - {name: C}\n", "game.yaml", "unknown key 'colour' in seat 1 (A)"),
        ("seats:\n  - {name: A, role: wizard, agent: random}\n  - {name: B, agent: random}\n  - {name: C, agent: random}\n", "game.yaml", "unknown role 'wizard'"),
        ("seats:\n  - {name: A, agent: random}\n  - {name: A, agent: random}\n  - {name: C, agent: random}\n", "game.yaml", "duplicate player name: A"),
        ("roles: [werewolf, seer]\n" + THREE, "game.yaml", "wrong card count"),
        ("seats:\n  - {name: A, agent: robot}\n  - {name: B, agent: random}\n  - {name: C, agent: random}\n", "game.yaml", "unknown agent 'robot'"),
        ("options: {wolf_speed: 3}\n" + THREE, "game.yaml", "unknown rule option 'wolf_speed'"),
        ("options: {sheriff: maybe}\n" + THREE, "game.yaml", "rule option 'sheriff' must be true or false"),
        ("preset: nope\n" + THREE, "game.yaml", "unknown preset 'nope'"),
        ("seats:\n  - {name: A, agent: random\n  - name: B\n", "game.yaml", "invalid YAML at line"),
        ('{"seats": [{"name": "A"}, ]}', "game.json", "invalid JSON"),
        ("", "game.yaml", "must be a mapping"),
        ("seed: 1\n", "game.yaml", "missing key 'seats'"),
        ("seats:\n  - {name: A, agent: random, answers: {vote: [B]}}\n  - {name: B, agent: random}\n  - {name: C, agent: random}\n", "game.yaml", "only 'scripted' seats take answers"),
        ("seats:\n  - {name: A, agent: scripted, answers: {vote: B}}\n  - {name: B}\n  - {name: C}\n", "game.yaml", "in seat 1 (A), at answers.vote"),
        ("seed: many\n" + THREE, "game.yaml", "at seed"),
        (THREE, "game.txt", "ends in .yaml, .yml or .json"),
        ("center: [werewolf, villager]\n" + THREE, "game.yaml", "only set aside when a Thief plays"),
        ("seats:\n  - {name: A, agent: scripted, answers: {wolf_kil: [B]}}\n  - {name: B}\n  - {name: C}\n", "game.yaml", "unknown decision kind 'wolf_kil'"),
    ],
)
def test_bad_files_name_the_problem(tmp_path, text, name, expected):
    with pytest.raises(GameFileError) as err:
        load_and_build(write(tmp_path, text, name))
    assert expected in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(GameFileError, match="game file not found"):
        load_game_file(tmp_path / "nope.yaml")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_load(path, monkeypatch):
    # A model seat's example is run with a local server's address and a placeholder
    # key (examples/local_model.yaml says so); building the table sends nothing.
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    spec = load_game_file(path)
    if any(s.agent == "heuristic" for s in spec.seats) and not _heuristic_available():
        pytest.skip("agents.heuristic is not available yet")
    game, agents = spec.build()
    assert set(agents) == {p.name for p in game.players}


def test_bots_speak_the_game_files_language():
    """``language: zh`` reaches the heuristic bots, not only model seats."""
    from arena.runner import run_sync

    seats = [{"name": f"P{i}"} for i in range(8)]
    spec = GameSpec.model_validate({"preset": "langrensha", "seed": 2, "language": "zh", "seats": seats})
    game, agents = spec.build()
    run_sync(game, agents)
    speeches = [e.data["text"] for e in game.events if e.kind == "speech" and e.data.get("text")]
    assert speeches and all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in speeches)

"""``werewolf play`` and friends, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from arena.cli import main
from engine.game import Game
from transcripts import AnswerRecord, ErrorRecord, EventRecord, ResultRecord, read_transcript

FIXTURE = Path(__file__).parent / "fixtures" / "scripted_8.yaml"
ROOT = Path(__file__).parent.parent
CONTRACT_KEYS = {"winner", "winners", "deaths", "players", "days"}

RANDOM_TABLE = """
seed: 5
roles: [werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]
seats:
""" + "".join(f"  - {{name: {n}, agent: random}}\n" for n in ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"])


def heuristic_available() -> bool:
    try:
        import agents.heuristic  # noqa: F401
    except ImportError:
        return False
    return True


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def scripted(tmp_path: Path, edit=None, name: str = "game.yaml") -> Path:
    """The hand-computed fixture, optionally edited: ``edit(seats_by_name)``."""
    data = yaml.safe_load(FIXTURE.read_text())
    if edit is not None:
        edit({s["name"]: s for s in data["seats"]})
    p = tmp_path / name
    p.write_text(json.dumps(data) if name.endswith(".json") else yaml.safe_dump(data), encoding="utf-8")
    return p


def single_json(out: str) -> dict[str, Any]:
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    return json.loads(lines[0])


# ---------------------------------------------------------------------- a played game
def test_scripted_game_reproduces_the_hand_computed_outcome():
    proc = cli("play", str(FIXTURE), "--json")
    assert proc.returncode == 0, proc.stderr
    result = single_json(proc.stdout)
    assert set(result) == CONTRACT_KEYS
    assert result["winner"] == "village"
    assert result["winners"] == ["Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
    assert result["deaths"] == [
        {"name": "Alice", "day": 1, "cause": "vote"},
        {"name": "Emma", "day": 2, "cause": "werewolves"},
        {"name": "Bob", "day": 2, "cause": "hunter"},
    ]
    assert result["days"] == 2
    assert result["players"][0] == {"name": "Alice", "initial_role": "werewolf", "role": "werewolf", "alive": False}
    assert [p["alive"] for p in result["players"]] == [False, False, True, True, False, True, True, True]
    # narration went to stderr, and it is the table's view: no night secrets
    assert "Hunter Emma shoots Bob" in proc.stderr
    assert "Seer Chloe sees" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_json_game_file_plays_the_same(tmp_path, capsys):
    code, out, _ = run_main(capsys, "play", str(scripted(tmp_path, name="game.json")), "--json", "--quiet")
    assert code == 0
    code2, out2, _ = run_main(capsys, "play", str(FIXTURE), "--json", "--quiet")
    assert code2 == 0 and single_json(out) == single_json(out2)


def test_default_game_json():
    if not heuristic_available():
        pytest.skip("agents.heuristic is not available yet")
    proc = cli("play", "--json")
    assert proc.returncode == 0, proc.stderr
    result = single_json(proc.stdout)
    assert set(result) == CONTRACT_KEYS
    assert len(result["players"]) == 8
    assert sorted(p["initial_role"] for p in result["players"]).count("werewolf") == 2


def test_default_table_with_random_bots(capsys):
    code, out, err = run_main(capsys, "play", "--json", "--agents", "random", "--players", "9", "--seed", "4")
    assert code == 0
    result = single_json(out)
    assert [p["name"] for p in result["players"]] == ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris", "Jules"]
    assert result["winner"] in ("village", "werewolves", "none")
    assert "The cards are revealed" in err  # narration on stderr with --json


def test_same_file_and_seed_give_the_same_game(tmp_path, capsys):
    game = tmp_path / "random.yaml"
    game.write_text(RANDOM_TABLE)
    outs, transcripts = [], []
    for i in range(2):
        t = tmp_path / f"t{i}.jsonl"
        code, out, _ = run_main(capsys, "play", str(game), "--json", "--quiet", "--transcript", str(t))
        assert code == 0
        outs.append(out)
        transcripts.append(t.read_text())
    assert outs[0] == outs[1]
    assert transcripts[0] == transcripts[1]
    code, out, _ = run_main(capsys, "play", str(game), "--json", "--quiet", "--seed", "6")
    assert code == 0 and out != outs[0], "another seed deals another game"


def test_narration_goes_to_stdout_and_god_shows_the_night(capsys):
    code, out, err = run_main(capsys, "play", str(FIXTURE))
    assert code == 0 and err == ""
    assert "Night 1" in out and "Day 2" in out and "The village wins" in out
    assert 'Alice said: "Chloe is lying."' in out
    assert "Chloe is elected Sheriff" in out
    assert "Seer Chloe sees" not in out
    code, out, _ = run_main(capsys, "play", str(FIXTURE), "--god")
    assert code == 0
    assert "Seer Chloe sees that Alice is the Werewolf" in out
    assert "The Witch David saves Farah" in out  # the narrator names the seat a secret was sent to


def test_quiet_prints_a_summary(capsys):
    code, out, _ = run_main(capsys, "play", str(FIXTURE), "--quiet")
    assert code == 0
    assert out.strip() == "winner: village (Chloe, David, Emma, Farah, Hugo, Iris) after 2 day(s)"


# ---------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "text, expected",
    [
        ("seats: [{name: A}, {name: B}, {name: C}]\nplayerz: 3\n", "unknown key 'playerz'"),
        ("seats:\n  - {name: A, agent: random\n", "invalid YAML"),
        ("options: {wolf_speed: 3}\nseats: [{name: A, agent: random}, {name: B, agent: random}, {name: C, agent: random}]\n", "wolf_speed"),
        ("seats: [{name: A, agent: robot}, {name: B, agent: random}, {name: C, agent: random}]\n", "unknown agent 'robot'"),
    ],
)
def test_bad_files_exit_2_without_traceback(tmp_path, capsys, text, expected):
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    code, out, err = run_main(capsys, "play", str(p), "--json")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and expected in err


def test_bad_file_in_a_subprocess(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("seats:\n  - {name: A, colour: red}\n")
    proc = cli("play", str(p), "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unknown key 'colour'" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("play", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2 and "game file not found" in proc.stderr and "Traceback" not in proc.stderr


def test_players_with_a_file_is_refused(capsys):
    code, _, err = run_main(capsys, "play", str(FIXTURE), "--players", "9")
    assert code == 2 and "--players" in err


# ---------------------------------------------------------------------- failing games
def _drop_alice_kill(seats):
    del seats["Alice"]["answers"]["wolf_kill"]


def _second_heal(seats):
    seats["David"]["answers"]["witch_heal"] = [True, True]


def _vote_for_the_dead(seats):
    seats["David"]["answers"]["witch_heal"] = [False]  # Farah dies on night 1
    seats["Hugo"]["answers"]["vote"] = ["Farah"]


@pytest.mark.parametrize(
    "edit, expected",
    [
        (_drop_alice_kill, ["Alice", "wolf_kill"]),
        (_second_heal, ["David", "witch_heal", "the healing potion is already used"]),
        (_vote_for_the_dead, ["Hugo", "vote", "Farah is dead"]),
    ],
    ids=["queue-runs-out", "second-heal", "dead-target"],
)
def test_failing_scripted_game_says_why_and_keeps_the_transcript(tmp_path, capsys, edit, expected):
    t = tmp_path / "partial.jsonl"
    code, out, err = run_main(capsys, "play", str(scripted(tmp_path, edit)), "--json", "--transcript", str(t))
    assert code == 1 and out == ""
    message = err.strip().splitlines()[-1]
    assert message.startswith("error: ")
    for word in expected:
        assert word in message
    tr = read_transcript(t)
    assert not tr.complete and isinstance(tr.records[-1], ErrorRecord)
    assert tr.error.message in message
    assert tr.events and tr.events[0].kind == "game_start"
    assert [e.seq for e in tr.events] == list(range(len(tr.events)))


def test_failing_game_in_a_subprocess(tmp_path):
    proc = cli("play", str(scripted(tmp_path, _second_heal)), "--json")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "Traceback" not in proc.stderr and "already used" in proc.stderr


# ---------------------------------------------------------------------- transcripts
def test_transcript_is_valid_and_replays(tmp_path, capsys):
    game_file = tmp_path / "random.yaml"
    game_file.write_text(RANDOM_TABLE)
    t = tmp_path / "game.jsonl"
    code, out, _ = run_main(capsys, "play", str(game_file), "--json", "--quiet", "--transcript", str(t))
    assert code == 0
    result = single_json(out)
    lines = t.read_text().splitlines()
    assert all(json.loads(line) for line in lines)
    tr = read_transcript(t)
    h = tr.header
    assert (h.format, h.version, h.preset, h.seed) == ("werewolf-transcript", 1, "millers_hollow", 5)
    assert [s.name for s in h.seats][:2] == ["Ann", "Ben"] and h.seats[0].agent == "random"
    assert h.roles == ["werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "villager", "villager"]
    assert h.options["sheriff"] is True and h.software.startswith("werewolf-arena")
    assert isinstance(tr.records[-1], ResultRecord) and tr.complete
    assert tr.result.winner == result["winner"] and tr.result.days == result["days"]
    assert all(a.agent == "random" for a in tr.answers)

    # setup + answers in order reproduce every event
    game = Game(h.to_setup())
    for a in tr.answers:
        game.submit(a.decision, a.answer)
    assert game.over
    assert [e.to_json() for e in game.events] == [e.model_dump(exclude={"type", "digest"}) for e in tr.events]

    # each answer line comes after the events that were known when it was asked
    kinds = [type(r) for r in tr.records]
    assert kinds.index(AnswerRecord) > kinds.index(EventRecord)


def test_scripted_transcript_records_forced_roles(tmp_path, capsys):
    t = tmp_path / "s.jsonl"
    assert run_main(capsys, "play", str(FIXTURE), "--quiet", "--transcript", str(t))[0] == 0
    tr = read_transcript(t)
    assert tr.header.seats[0].role == "werewolf" and tr.header.seats[0].agent == "scripted"
    heals = [a for a in tr.answers if a.kind == "witch_heal"]
    assert [a.answer for a in heals] == [True, False]
    assert heals[1].options == [False]


def test_truncated_last_line_is_tolerated(tmp_path, capsys):
    t = tmp_path / "s.jsonl"
    assert run_main(capsys, "play", str(FIXTURE), "--quiet", "--transcript", str(t))[0] == 0
    lines = t.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:30]) + lines[30][:15])
    tr = read_transcript(cut)
    assert tr.truncated and len(tr.records) == 29 and not tr.complete


def test_unwritable_transcript_path(tmp_path, capsys):
    code, _, err = run_main(capsys, "play", str(FIXTURE), "--transcript", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert code == 2 and "cannot write transcript" in err


# ---------------------------------------------------------------------- other commands
def test_roles_and_presets(capsys):
    code, out, _ = run_main(capsys, "roles", "--json")
    assert code == 0
    roles = {r["id"]: r for r in json.loads(out)}
    assert roles["werewolf"]["camp"] == "werewolves" and roles["seer"]["camp"] == "village"
    code, out, _ = run_main(capsys, "presets", "--json")
    assert code == 0
    presets = {p["id"]: p for p in json.loads(out)}
    assert "millers_hollow" in presets and presets["millers_hollow"]["options"]["sheriff"] is True
    code, out, _ = run_main(capsys, "roles")
    assert code == 0 and "little_girl" in out
    code, _, err = run_main(capsys, "roles", "--preset", "nope")
    assert code == 2 and "unknown preset" in err


def test_no_command_prints_help(capsys):
    code, out, _ = run_main(capsys)
    assert code == 2 and "play" in out and "simulate" in out


def test_play_without_a_seed_plays_a_new_game_and_says_how_to_replay_it(capsys, monkeypatch, tmp_path):
    import re

    seeds = iter([101, 202])
    monkeypatch.setattr("arena.play_command.fresh_seed", lambda: next(seeds))
    code, out1, err1 = run_main(capsys, "play", "--json", "--quiet", "--agents", "random")
    code2, out2, err2 = run_main(capsys, "play", "--json", "--quiet", "--agents", "random")
    assert code == code2 == 0
    assert re.search(r"Seed 101: --seed 101 plays this game again", err1)
    assert re.search(r"Seed 202: --seed 202 plays this game again", err2)
    assert single_json(out1) != single_json(out2)
    code, again, err = run_main(capsys, "play", "--json", "--quiet", "--agents", "random", "--seed", "101")
    assert code == 0 and single_json(again) == single_json(out1)
    assert "Seed" not in err  # a chosen seed is not announced again

    # A file without a seed gets a fresh one too; a file's own seed is its game.
    unseeded = tmp_path / "unseeded.yaml"
    unseeded.write_text("\n".join(line for line in RANDOM_TABLE.splitlines() if not line.startswith("seed:")))
    monkeypatch.setattr("arena.play_command.fresh_seed", lambda: 303)
    code, out, err = run_main(capsys, "play", str(unseeded), "--json", "--quiet")
    assert code == 0 and "Seed 303" in err
    seeded = tmp_path / "seeded.yaml"
    seeded.write_text(RANDOM_TABLE)
    code, out, err = run_main(capsys, "play", str(seeded), "--json", "--quiet")
    assert code == 0 and "Seed" not in err


def test_fresh_seeds_differ():
    from arena.play_command import fresh_seed

    assert len({fresh_seed() for _ in range(20)}) > 1


def test_version_and_help_texts(capsys):
    # argparse's exits come back from main() as codes, so the CLI can run in-process.
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("werewolf-arena ") and out.split()[1][0].isdigit()
    assert main(["leaderboard", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out


def test_the_listing_names_each_subcommand_as_its_module_does():
    from arena.cli import ENTRIES, all_commands

    commands = all_commands()
    assert [(e.name, e.help) for e in ENTRIES] == [(c.name, c.help) for c in commands]
    # Every module's commands are listed: a new Command is not forgotten in ENTRIES.
    import importlib

    for module in {e.module for e in ENTRIES}:
        assert {c.name for c in importlib.import_module(module).COMMANDS} <= {e.name for e in ENTRIES}, module


def test_help_imports_no_subcommand_module():
    # ``werewolf --help`` lists the subcommands without loading them (the engine, the
    # web server, the ratings); ``werewolf roles`` loads its own module only.
    code = (
        "import sys\n"
        "from arena.cli import main\n"
        "sys.argv = ['werewolf']\n"
        "rc = main([{args}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'agents', 'transcripts', 'prompts') or m.startswith('arena.'))\n"
        "print(' '.join(loaded), file=sys.stderr)\n"
    )
    help_run = subprocess.run([sys.executable, "-c", code.format(args="'--help'")], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = help_run.stderr.split()
    assert "play" in help_run.stdout and "keygen" in help_run.stdout
    assert not [m for m in loaded if m.split(".")[0] in ("engine", "agents", "transcripts")], loaded
    roles_run = subprocess.run([sys.executable, "-c", code.format(args="'roles', '--json'")], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = roles_run.stderr.split()
    assert "arena.catalog_commands" in loaded and "engine.roles" in loaded
    assert not {"arena.play_command", "arena.web.serve", "arena.ratings.cli", "arena.simulate"} & set(loaded), loaded


def test_a_bot_simulation_loads_only_what_it_plays():
    # ``werewolf simulate`` in one process, printing JSON, plays bots only: no
    # transcript writer (its signing keys' cryptography), no rich, no YAML parser, no
    # asyncio, no worker processes, and the random bots not the heuristic's tables
    # (issue 18: these were half of the command's start-up, which a run of a few
    # hundred games pays more for than for its games).
    code = (
        "import sys\n"
        "from arena.cli import main\n"
        "sys.argv = ['werewolf']\n"
        "rc = main(['simulate', '--agents', '{agents}', '--games', '2', '--processes', '1', '--json'])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    never = {"rich", "asyncio", "cryptography", "multiprocessing", "transcripts.writer", "transcripts.signing", "agents.human"}
    # The heuristic bots read their lines from YAML files; the random bots read nothing.
    for agents, absent in (("random", never | {"agents.heuristic", "yaml"}), ("heuristic", never)):
        run = subprocess.run([sys.executable, "-c", code.format(agents=agents)], capture_output=True, text=True, cwd=ROOT, check=True)
        assert json.loads(run.stdout)["games"] == 2
        loaded = set(run.stderr.split())
        assert not absent & loaded, (agents, sorted(absent & loaded))
    assert "agents.heuristic" in loaded  # the heuristic run does load its bots


def test_the_forums_opening_day_has_a_heading(capsys):
    code, out, _ = run_main(capsys, "play", "--preset", "forum", "--players", "8", "--seed", "3")
    assert code == 0
    heading = out.index("Day 0: the opening day")
    assert heading < out.index("Debate") < out.index("Night 1")


@pytest.mark.parametrize(
    "spec, hint",
    [("huristic", "did you mean 'heuristic'?"), ("Random", "did you mean 'random'?"), ("opnai:gpt-5.4-mini", "did you mean 'openai:gpt-5.4-mini'?"), ("robot", None)],
)
def test_a_mistyped_agent_is_told_the_spelling(capsys, spec, hint):
    """``--agents huristic`` named the known agents and left the reader to spot the typo."""
    assert main(["play", "--agents", spec, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"unknown agent '{spec}'" in err
    assert (hint in err) if hint else ("did you mean" not in err)

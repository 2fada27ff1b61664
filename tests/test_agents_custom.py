"""Agents of graded strength (the heuristic bot's ``noise``) and agents of one's own
(``py:MODULE:CLASS``): in game files, --seat, --agents and tournaments, never the web form."""

from __future__ import annotations

import json
import sqlite3

import pytest

from agents.base import SeatView
from agents.custom import load_class
from agents.heuristic import HeuristicAgent
from agents.registry import make_agent
from arena.cli import main
from arena.gamefile import GameFileError, spec_from_data
from arena.runner import run_sync
from arena.tournament.config import config_from_data
from arena.tournament.run import run_tournament
from arena.web.table_form import table_spec
from engine.decisions import CHOICE, Decision

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
CAUTIOUS = "py:examples.agents.cautious:CautiousAgent"


def play(seats: list[dict], seed: int = 11) -> list[str]:
    """The game's public record (every event, in order) for a table of ``seats``."""
    spec = spec_from_data({"seed": seed, "seats": seats})
    game, agents = spec.build()
    run_sync(game, agents)
    return [json.dumps([e.kind, e.data], sort_keys=True, default=str) for e in game.events]


def table(**agent_of) -> list[dict]:
    return [{"name": n, **agent_of.get(n, {})} for n in NAMES]


def test_noise_zero_is_the_heuristic_bot_and_noise_is_seeded():
    plain = play(table())
    assert play(table(Alice={"agent": "heuristic", "options": {"noise": 0.0}})) == plain
    noisy = table(**{n: {"agent": "heuristic", "options": {"noise": 0.6}} for n in NAMES[:4]})
    assert play(noisy) == play(noisy)  # same seed, same game
    assert play(noisy) != plain


def test_full_noise_is_uniform_over_the_legal_answers():
    bot = HeuristicAgent("Alice", seed=1, noise=1.0)
    view = SeatView("Alice", [])
    d = Decision(id=1, seat="Alice", kind="vote", shape=CHOICE, options=("Bob", "Chloe", "David"), allow_pass=True)
    picks = [bot.decide(view, d) for _ in range(4000)]
    counts = {o: picks.count(o) for o in ("Bob", "Chloe", "David", None)}
    assert all(900 <= c <= 1100 for c in counts.values()), counts  # 1000 each; 5 sd is about 140


def test_a_noisy_speech_is_the_bots_words_with_a_random_accusation():
    seats = table(**{n: {"agent": "heuristic", "options": {"noise": 1.0}} for n in NAMES})
    spec = spec_from_data({"seed": 4, "seats": seats})
    game, agents = spec.build()
    run_sync(game, agents)
    speeches = [e.data for e in game.events if e.kind == "speech"]
    assert speeches and all(s.get("text") for s in speeches)
    claims = [s.get("claims") or {} for s in speeches]
    assert not any(c.get("role") for c in claims)  # a random speech claims no role
    assert any(c.get("accuses") for c in claims) and any(not c.get("accuses") for c in claims)


@pytest.mark.parametrize(
    "options, words",
    [({"noise": 1.5}, "noise"), ({"noise": -0.1}, "noise"), ({"temperature": 1}, "no option 'temperature'")],
)
def test_bad_noise_is_refused_naming_the_seat(options, words):
    with pytest.raises(GameFileError, match=rf"seat 1 \(Alice\): .*{words}"):
        spec_from_data({"seats": table(Alice={"agent": "heuristic", "options": options})})


def test_random_bot_takes_no_options():
    with pytest.raises(GameFileError, match="takes no options"):
        spec_from_data({"seats": table(Alice={"agent": "random", "options": {"noise": 0.5}})})


@pytest.mark.parametrize(
    "spec, words",
    [
        ("py:examples.agents.cautious", "py:MODULE:CLASS"),
        ("py:no_such_module_xyz:Agent", "cannot import module 'no_such_module_xyz'"),
        ("py:examples.agents.cautious:Nope", "has no 'Nope'"),
        ("py:json:JSONDecoder", "not a subclass of agents.base.Agent"),
    ],
)
def test_bad_class_specs_are_refused_with_the_reason(spec, words):
    with pytest.raises(ValueError, match=words):
        load_class(spec)
    with pytest.raises(GameFileError, match=words):
        spec_from_data({"seats": table(Bob={"agent": spec})})


def test_the_example_class_plays_and_reads_its_options():
    agent = make_agent(CAUTIOUS, "Alice", seed=3, options={"threshold": 0.7})
    assert agent.own.threshold == 0.7 and agent.name == "Alice" and agent.spec == CAUTIOUS  # seated through its guard (agents.own_seat)
    with pytest.raises(ValueError, match="unknown option.*colour"):
        make_agent(CAUTIOUS, "Alice", options={"colour": "red"})
    seats = table(Alice={"agent": CAUTIOUS, "options": {"threshold": 0.9}}, Bob={"agent": CAUTIOUS})
    events = play(seats)
    assert events == play(seats)
    assert any('"winner"' in e or "game_end" in e for e in events)


def test_a_class_is_seated_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["play", "--players", "8", "--agents", CAUTIOUS, "--seed", "2", "--quiet", "--transcript", str(out)]) == 0
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert {s["agent"] for s in header["seats"]} == {CAUTIOUS}
    game = tmp_path / "g.yaml"
    game.write_text(json.dumps({"seed": 1, "seats": [{"name": n} for n in NAMES]}), encoding="utf-8")
    out2 = tmp_path / "s.jsonl"
    assert main(["play", str(game), "--seat", f"Bob={CAUTIOUS}", "--quiet", "--transcript", str(out2)]) == 0
    header = json.loads(out2.read_text(encoding="utf-8").splitlines()[0])
    assert [s["agent"] for s in header["seats"]][1] == CAUTIOUS
    assert main(["play", str(game), "--seat", "Bob=py:nope_xyz:A", "--quiet"]) == 2
    assert "cannot import module 'nope_xyz'" in capsys.readouterr().err


def test_tournament_participants_take_noise_and_classes(tmp_path):
    cfg = config_from_data(
        {
            "seed": 1, "games": 4, "tables": [{"players": 8}],
            "participants": [
                {"name": "H", "agent": "heuristic"},
                {"name": "H50", "agent": "heuristic", "options": {"noise": 0.5}},
                {"name": "Mine", "agent": CAUTIOUS, "options": {"threshold": 0.6}},
            ],
        }
    )  # fmt: skip
    db = tmp_path / "t.sqlite"
    run_tournament(cfg, db, progress=False)
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 4
    stored = dict(con.execute("SELECT name, options FROM participants").fetchall())
    assert json.loads(stored["H50"]) == {"noise": 0.5}
    transcript = next((tmp_path / "t_transcripts").glob("*.jsonl")).read_text(encoding="utf-8")
    seats = json.loads(transcript.splitlines()[0])["seats"]
    assert any(s.get("options") == {"noise": 0.5} for s in seats) and any(s["agent"] == CAUTIOUS for s in seats)


def test_the_web_form_seats_no_class():
    """Seating a class imports its module (its code runs): the web server, an API any
    holder of the host key calls over the network, refuses one (tests/test_own_code.py)."""
    with pytest.raises(GameFileError, match="Bob is played by 'py:examples.agents.cautious:CautiousAgent'.*runs its code"):
        table_spec({"seats": [{"name": n, "agent": CAUTIOUS if n == "Bob" else "heuristic"} for n in NAMES]})

"""``werewolf persuasion`` with model listeners, against the local stand-in of the
OpenAI Chat Completions API (``tests/llm_standins.py``: the real SDK, the real wire
format, usage blocks by the vendor's documented cache rules, and a legal reply drawn
at random for each request, as a model at a temperature above zero would).

Each model listener of a sampled speech costs exactly 2 x ``repeats`` requests (the
arm with the speech, the arm without), 4 x ``repeats`` when the game asks beliefs;
the requests and their cost are recorded beside the transcript, never in it; and a
budget stops the run between speeches, with nothing asked twice when it goes on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from llm_standins import OpenAIStandIn, standin_router

from arena.cli import main
from arena.persuasion.records import read_records, sidecar_for
from transcripts.verify import verify_file

pytestmark = pytest.mark.usefixtures("llm_env")

NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
MODELS = ("Alice", "Bob", "Chloe")


def _play(tmp_path: Path, *, model: str = "gpt-5.4-mini", beliefs: bool = False, seed: int = 4) -> Path:
    game = tmp_path / "g.yaml"
    game.write_text(f"seed: {seed}\noptions: {{sheriff: false}}\n" + ("beliefs: true\n" if beliefs else "") + "seats:\n" + "".join(
        f"  - {{name: {n}, agent: {'openai:' + model if n in MODELS else 'heuristic'}}}\n" for n in NAMES
    ))  # fmt: skip
    path = tmp_path / "g.jsonl"
    with standin_router() as router:
        OpenAIStandIn(router)
        assert main(["play", str(game), "--quiet", "--transcript", str(path)]) == 0
    return path


def _persuade(capsys, path: Path, *args: str) -> tuple[dict, int]:
    """Run the command against a fresh stand-in; its JSON and the requests it received."""
    capsys.readouterr()  # what came before (the game's own line)
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=9)
        code = main(["persuasion", str(path), "--json", *args])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out), len(api.requests)


def _model_listeners(path: Path) -> int:
    """Sum over the record's sampled speeches of their model listeners."""
    held = read_records(sidecar_for(path))
    return sum(1 for seq in held.last.sampled for x in held.speeches[seq].listeners if not x.once)


@pytest.mark.parametrize("repeats", [1, 3])
def test_each_model_listener_costs_two_asks_per_repeat(tmp_path, capsys, repeats):
    path = _play(tmp_path)
    before = path.read_bytes()
    out, requests = _persuade(capsys, path, "--speeches", "1", "--repeats", str(repeats))
    listeners = _model_listeners(path)
    assert listeners > 5 and out["speeches"] > 0
    assert requests == listeners * repeats * 2 == out["calls"]
    held = read_records(sidecar_for(path))
    assert len(held.calls) == requests and all(c.call.kind == "vote" and c.call.seat in MODELS for c in held.calls)
    assert out["cost_usd"] == pytest.approx(sum(c.call.cost_usd for c in held.calls), abs=1e-6) and out["cost_usd"] > 0
    assert path.read_bytes() == before and verify_file(path).ok  # the game never saw them
    # asked again: everything is in the record, nothing is sent
    again, requests = _persuade(capsys, path, "--speeches", "1", "--repeats", str(repeats))
    assert requests == 0 and again["calls"] == 0 and again["by_seat"] == out["by_seat"]


def test_beliefs_double_the_asks(tmp_path, capsys):
    path = _play(tmp_path, beliefs=True)
    out, requests = _persuade(capsys, path, "--speeches", "0.5", "--repeats", "2")
    listeners = _model_listeners(path)
    assert listeners > 0 and requests == listeners * 2 * 2 * 2
    kinds = [c.call.kind for c in read_records(sidecar_for(path)).calls]
    assert kinds.count("beliefs") == kinds.count("vote") == listeners * 2 * 2


def test_the_budget_stops_between_speeches_and_the_run_goes_on(tmp_path, capsys):
    path = _play(tmp_path)
    full = tmp_path / "full"
    full.mkdir()
    shutil.copy(path, full / "g.jsonl")
    whole, _ = _persuade(capsys, full / "g.jsonl", "--speeches", "1", "--repeats", "2")
    budget = whole["cost_usd"] * 0.4
    part, first = _persuade(capsys, path, "--speeches", "1", "--repeats", "2", "--budget-usd", f"{budget:.6f}")
    assert part["stopped"] == "budget" and part["budget"]["spent_usd"] <= budget
    assert 0 < part["calls"] == first < whole["calls"] and part["speeches"] < whole["speeches"]
    held = read_records(sidecar_for(path))
    assert len(held.calls) == first  # every call made is recorded, with its cost
    assert not [a for a in held.asks.values() if a.error]
    rest, second = _persuade(capsys, path, "--speeches", "1", "--repeats", "2")
    assert rest["stopped"] is None and first + second == whole["calls"]  # nothing asked twice
    assert rest["speeches"] == whole["speeches"]


def test_a_budget_needs_prices_and_a_model_needs_its_key(tmp_path, capsys, monkeypatch):
    path = _play(tmp_path, model="my-local-model")
    capsys.readouterr()
    with standin_router() as router:
        OpenAIStandIn(router)
        assert main(["persuasion", str(path), "--budget-usd", "1"]) == 2
    err = capsys.readouterr().err
    assert "needs a price" in err and "my-local-model" in err and "Traceback" not in err
    prices = tmp_path / "prices.yaml"
    prices.write_text("my-local-model: {input: 1.0, output: 2.0}\n")
    out, requests = _persuade(capsys, path, "--budget-usd", "5", "--prices", str(prices), "--speeches", "1", "--repeats", "1")
    assert requests > 0 and out["cost_usd"] > 0
    monkeypatch.delenv("OPENAI_API_KEY")
    assert main(["persuasion", str(path), "--speeches", "1", "--repeats", "2", "--records", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_API_KEY" in err and "Traceback" not in err


def test_a_model_tournament_counts_the_re_asks_in_its_spending(tmp_path):
    """``persuasion:`` in a tournament with a model participant: the game row's calls
    and cost are the game's own plus the re-asks', so the run's spending (and so its
    budget) counts them; the seat rows keep the game's own."""
    from arena.tournament.config import config_from_data
    from arena.tournament.run import run_tournament
    from arena.tournament.store import Store

    fast = {"max_retries": 0, "retry_initial": 0, "timeout": 5}
    data = {
        "name": "pm", "seed": 1, "games": 2, "seating": "teams", "tables": [{"players": 6, "options": {"sheriff": False}}],
        "participants": [{"name": "Mini", "agent": "openai:gpt-5.4-mini", "options": fast}, {"name": "Bot", "agent": "heuristic"}],
        "persuasion": {"speeches": 0.5, "repeats": 2}, "concurrency": {"games": 1},
    }  # fmt: skip
    db = tmp_path / "m.sqlite"
    with standin_router() as router:
        api = OpenAIStandIn(router)
        report = run_tournament(config_from_data(data), db, progress=False)
        requests = len(api.requests)
    assert report.played == 2
    store = Store(db)
    try:
        games = store.games()
        seat_calls = sum(s["calls"] for s in store.seats())
        totals = store.totals()
    finally:
        store.close()
    asked = sum(json.loads(g["metrics"])["persuasion"]["calls"] for g in games)
    assert asked > 0 and totals["calls"] == seat_calls + asked == requests
    for g in games:
        held = read_records(sidecar_for(db.parent / g["transcript"]))
        own = sum(1 for c in held.calls)
        assert json.loads(g["metrics"])["persuasion"]["calls"] == own
        assert g["cost_usd"] > sum(c.call.cost_usd for c in held.calls) > 0


def test_a_model_that_does_not_answer_stops_the_command_before_its_first_ask(tmp_path, capsys, monkeypatch):
    """Contract section 7: before the first ask, each model endpoint is checked as
    ``play`` checks it; one that does not answer is one line, exit 2, nothing asked."""
    import socket

    path = _play(tmp_path)
    with socket.socket() as s:  # a local port nothing listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    capsys.readouterr()
    code = main(["persuasion", str(path), "--json", "--speeches", "1", "--model-option", f"base_url={dead}", "--trust-endpoints"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    line = err.strip().splitlines()[-1]
    assert f"seats Alice, Bob, Chloe (openai:gpt-5.4-mini at {dead}): connection refused" in line, err
    held = read_records(sidecar_for(path))
    assert not held.calls  # nothing was asked

"""``werewolf persuasion``: which speeches and listeners, the counterfactual view, the
twins, the record beside the transcript, the command, and where the figures go
(tournaments, the leaderboard, metrics, export)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from persuasion_tools import NAMES, planted, run, table, write_game
from transcript_tools import ALL_PRESETS, play_to_file, varied_spec

from arena.cli import main
from arena.persuasion.probe import Settings
from arena.persuasion.records import SUFFIX, read_records, sidecar_for
from arena.persuasion.sample import accused_by, game_key, sampled, targets
from arena.persuasion.views import lines as neutral_lines
from arena.persuasion.views import replaced
from arena.runner import view_for
from engine.speech import Speech
from transcripts.schema import read_transcript
from transcripts.verify import verify_file


def _json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["persuasion", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return code, json.loads(out)


def _error(capsys, *argv: str) -> str:
    code = main(["persuasion", *argv])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err, err
    return err


# ---------------------------------------------------------------------- which speeches
def test_what_a_speech_accuses():
    claims = {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}, {"target": "Emma", "role": "villager"}],
              "accuses": ["Chloe", "Alice", "Chloe"]}  # fmt: skip
    assert accused_by(claims, "Alice") == ("Chloe", "Bob")  # accuses first, then wolf checks; never the speaker; once each
    assert accused_by({"accuses": "Bob"}, "Alice") == ()  # malformed: ignored, never trusted
    assert accused_by(None, "Alice") == ()
    assert accused_by({"checks": [{"target": "Bob", "role": "not_a_role"}]}, "Alice") == ()


@pytest.fixture(scope="module")
def plant(tmp_path_factory) -> Path:
    return write_game(planted(5), tmp_path_factory.mktemp("plant") / "g.jsonl")


def test_listeners_are_the_next_voters_but_the_speaker_and_the_accused(plant):
    t = read_transcript(plant)
    alice = next(x for x in targets(t) if x.speaker == "Alice")
    votes = {a.seat: a.decision for a in t.answers if a.kind == "vote"}
    assert alice.accused == ("Bob",)
    assert {x.seat for x in alice.listeners} == {"Chloe", "David", "Emma", "Farah", "Hugo", "Zed"}
    assert all(x.decision == votes[x.seat] for x in alice.listeners)
    assert alice.moment == min(votes.values())
    # a person is never asked again
    seats = [s.model_copy(update={"agent": "human"}) if s.name == "Chloe" else s for s in t.header.seats]
    t2 = t.model_copy(update={"header": t.header.model_copy(update={"seats": seats})})
    assert "Chloe" not in {x.seat for x in next(x for x in targets(t2) if x.speaker == "Alice").listeners}


def test_sampling_is_seeded_and_nested(tmp_path):
    path = tmp_path / "g.jsonl"
    play_to_file(varied_spec(3, "heuristic", players=10), path)
    t = read_transcript(path)
    cands, key = targets(t), game_key(t)
    assert len(cands) > 10
    small, large = sampled(cands, 0.3, 0, key), sampled(cands, 0.7, 0, key)
    assert set(x.seq for x in small) <= set(x.seq for x in large) and len(small) < len(large) < len(cands)
    assert sampled(cands, 0.3, 0, key) == small and sampled(cands, 0.3, 1, key) != small
    assert sampled(cands, 1.0, 0, key) == cands


# ---------------------------------------------------------------------- the view
def test_the_counterfactual_view_differs_by_the_one_speech_only(plant):
    from arena.catchup import seat_table

    t = read_transcript(plant)
    spec, game, agents = seat_table(t.header)
    speech = next(e for e in t.events if e.kind == "speech" and e.data["speaker"] == "Alice")
    for a in t.answers:  # up to the first vote
        if a.kind == "vote":
            break
        game.submit(a.decision, a.answer)
    events = view_for(game, "Chloe").events
    i = next(k for k, e in enumerate(events) if e.seq == speech.seq)
    neutral, control = neutral_lines("en")
    other = replaced(events, i, neutral)
    assert [e is f for e, f in zip(events, other)].count(False) == 1 and len(other) == len(events)
    e, f = events[i], other[i]
    assert (f.seq, f.day, f.phase, f.audience) == (e.seq, e.day, e.phase, e.audience)
    assert isinstance(f.data, Speech) and f.data.speaker == "Alice" and f.data.text == "I have nothing to add." and f.data.claims is None
    assert e.data.claims is not None  # the recorded one untouched
    assert neutral_lines("zh") == ("我没有什么要补充的。", "我今天没有别的要说。")
    with pytest.raises(ValueError):
        replaced(events, 0, neutral)  # not a speech


# ---------------------------------------------------------------------- the twins
@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("agent, games", [("heuristic", 4), ("reasoner", 2)])
def test_the_said_arm_reproduces_every_recorded_bot_vote(tmp_path, preset, agent, games):
    """A bot's twin asked the view as it was answers what the bot answered in the game:
    the twin forgets nothing it should know and draws the same numbers (the reasoner's
    also asks its posterior when the seat did, ``SeatBelief.twin``). Two reasoner games
    a preset, as a reasoner's replay costs ten times a heuristic's."""
    asks = 0
    for seed in range(games):
        spec = varied_spec(seed, agent, preset=preset)
        seats = [s.model_copy(update={"agent": "random"}) if i % 3 == 2 else s for i, s in enumerate(spec.seats)]
        path = tmp_path / f"g{seed}.jsonl"
        play_to_file(spec.model_copy(update={"seats": seats}), path)
        result = run([path], Settings(speeches=1.0))
        assert not result.notes
        recorded = {a.decision: a.answer for a in read_transcript(path).answers}
        said = [a for a in read_records(sidecar_for(path)).asks.values() if a.arm == "said"]
        assert all(a.error is None and a.vote == recorded[a.decision] for a in said)
        asks += len(said)
    assert asks > 5 * games


@pytest.mark.parametrize("agent", ["heuristic", "reasoner"])
def test_a_forked_game_asks_only_the_agents_that_listened(tmp_path, capsys, agent):
    """Before the fork point another agent played the swapped seat: its votes there
    have no listener to ask again, and its speeches there are credited to it. The
    source game's bots are named: a heuristic or reasoner listener's twin repeats its
    recorded vote exactly (``arena.persuasion.twins``), which the first check below
    relies on."""
    source, fork = tmp_path / "source.jsonl", tmp_path / "fork.jsonl"
    assert main(["play", "--seed", "3", "--agents", agent, "--quiet", "--transcript", str(source)]) == 0
    assert main(["fork", str(source), "--day", "2", "--seat", "Alice=random", "--quiet", "--transcript", str(fork)]) == 0
    capsys.readouterr()
    result = run([fork], Settings(speeches=1.0))
    t = read_transcript(fork)
    recorded = {a.decision: a for a in t.answers}
    held = read_records(sidecar_for(fork))
    assert held.asks and all(a.vote == recorded[a.decision].answer for a in held.asks.values() if a.arm == "said")
    assert all(recorded[a.decision].agent == "random" for a in held.asks.values() if a.seat == "Alice")
    assert {o.agent for o in result.outcomes if o.speaker == "Alice" and o.day < 2} <= {agent}


def test_noisy_heuristic_listeners_are_paired(tmp_path):
    data = {**table(8, ["heuristic"]), "seats": [{"name": n, "agent": "heuristic", "options": {"noise": 0.6}} for n in NAMES]}
    path = write_game(data, tmp_path / "g.jsonl")
    run([path], Settings(speeches=1.0))
    recorded = {a.decision: a.answer for a in read_transcript(path).answers}
    asks = read_records(sidecar_for(path)).asks.values()
    assert all(a.vote == recorded[a.decision] for a in asks if a.arm == "said")
    assert len({a.repeat for a in asks}) == 1  # a bot is asked once per arm


# ---------------------------------------------------------------------- the record
def test_the_game_is_untouched_and_the_record_reused(tmp_path):
    path = tmp_path / "g.jsonl"
    play_to_file(varied_spec(11, "heuristic", players=9), path)
    before = path.read_bytes()
    first = run([path], Settings(speeches=0.4))
    assert path.read_bytes() == before and verify_file(path).ok
    assert sidecar_for(path).name == "g" + SUFFIX and first.asks > 0
    again = run([path], Settings(speeches=0.4))
    assert again.asks == 0 and [o.swing for o in again.outcomes] == [o.swing for o in first.outcomes]
    more = run([path], Settings(speeches=1.0))
    held = read_records(sidecar_for(path))
    assert more.asks == len(held.asks) - first.asks > 0  # only the new speeches asked
    assert len(held.runs) == 3 and held.last.speeches == 1.0


def test_records_elsewhere_keep_the_folders_shape(tmp_path, capsys):
    for sub in ("a", "b"):
        (tmp_path / "games" / sub).mkdir(parents=True)
        play_to_file(varied_spec(len(sub) + ord(sub[0]), "heuristic", players=8), tmp_path / "games" / sub / "g.jsonl")
    _, out = _json(capsys, str(tmp_path / "games"), "--speeches", "1", "--records", str(tmp_path / "rec"))
    assert not out["notes"] and out["games"] == 2
    assert sorted(p.relative_to(tmp_path / "rec").as_posix() for p in (tmp_path / "rec").rglob("*" + SUFFIX)) == ["a/g" + SUFFIX, "b/g" + SUFFIX]
    assert not list((tmp_path / "games").rglob("*" + SUFFIX))


def test_a_record_of_another_game_is_kept_aside(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    play_to_file(varied_spec(12, "heuristic"), path)
    run([path], Settings(speeches=0.5))
    play_to_file(varied_spec(13, "heuristic"), path)  # the file now holds another game
    result = run([path], Settings(speeches=0.5))
    aside = tmp_path / ("g" + SUFFIX + ".1.old")
    assert aside.exists() and "kept as" in result.notes[0]
    assert {r.source_sha256 for r in read_records(sidecar_for(path)).runs} == {read_records(sidecar_for(path)).last.source_sha256}


def test_beliefs_are_asked_when_the_game_asks_them(tmp_path, capsys):
    game, path = tmp_path / "g.json", tmp_path / "g.jsonl"
    game.write_text(json.dumps(table(4, ["heuristic"], beliefs=True)))
    assert main(["play", str(game), "--quiet", "--transcript", str(path)]) == 0
    result = run([path], Settings(speeches=1.0))
    asks = list(read_records(sidecar_for(path)).asks.values())
    assert asks and all(a.beliefs for a in asks)
    assert all(x.belief is not None for o in result.outcomes for x in o.listeners)
    recorded = {a.decision: a.answer for a in read_transcript(path).answers}
    assert all(a.vote == recorded[a.decision] for a in asks if a.arm == "said")  # asking beliefs changes no vote
    given = {(b.day, b.seat): b.probabilities for b in read_transcript(path).beliefs}
    day_of = {o.seq: o.day for o in result.outcomes}
    assert all(a.beliefs == given[(day_of[a.speech], a.seat)] for a in asks if a.arm == "said" and a.speech in day_of)


def test_a_chinese_game_is_measured_with_the_chinese_line(tmp_path):
    path = write_game(table(6, ["heuristic"], language="zh"), tmp_path / "g.jsonl")
    result = run([path], Settings(speeches=1.0))
    assert result.outcomes and read_records(sidecar_for(path)).last.neutral == "我没有什么要补充的。"


# ---------------------------------------------------------------------- the command
def test_the_command_prints_the_contracts_json(tmp_path, capsys):
    for seed in range(3):
        play_to_file(varied_spec(seed, "heuristic", players=8), tmp_path / f"g{seed}.jsonl")
    _, out = _json(capsys, str(tmp_path), "--speeches", "1")
    assert out["speeches"] == sum(len(g["per_speech"]) for g in [out]) > 20
    assert out["games"] == 3 and out["stopped"] is None and out["calls"] == 0
    for row in out["by_agent"]:
        assert set(row) >= {"agent", "swing", "n"} and set(row["swing"]) == {"value", "low", "high"}
    for row in out["by_seat"]:
        assert set(row) >= {"name", "agent", "swing", "n"} and set(row["swing"]) == {"value", "low", "high"}
    assert sum(r["n"] for r in out["by_agent"]) == out["speeches"]
    # the table, and a second run that asks nothing
    assert main(["persuasion", str(tmp_path), "--speeches", "1"]) == 0
    text = capsys.readouterr().out
    assert "0 asks" in text and "Persuasion by the speaker's agent" in text


def test_bad_input_is_one_line(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    play_to_file(varied_spec(1, "heuristic"), path)
    assert "--speeches" in _error(capsys, str(path), "--speeches", "0")
    assert "--speeches" in _error(capsys, str(path), "--speeches", "1.5")
    assert "--speeches" in _error(capsys, str(path), "--speeches", "nan")
    assert "--repeats" in _error(capsys, str(path), "--repeats", "0")
    assert "--budget-usd" in _error(capsys, str(path), "--budget-usd", "-1")
    assert "no such file" in _error(capsys, str(tmp_path / "nope.jsonl"))
    (tmp_path / "empty").mkdir()
    assert "no transcripts" in _error(capsys, str(tmp_path / "empty"))
    cut = tmp_path / "cut" / "g.jsonl"
    cut.parent.mkdir()
    cut.write_text("".join(path.read_text().splitlines(keepends=True)[:40]))
    assert "no finished game" in _error(capsys, str(cut))
    junk = tmp_path / "junk" / "g.jsonl"
    junk.parent.mkdir()
    junk.write_text("not json\n")
    assert "no finished game" in _error(capsys, str(junk))


def test_an_agent_of_ones_own_is_seated_only_with_trust(tmp_path, capsys):
    path = write_game(table(2, ["heuristic", "py:persuasion_tools:CoinAgent"]), tmp_path / "g.jsonl")
    assert "--trust-code" in _error(capsys, str(path), "--speeches", "1")
    _, out = _json(capsys, str(path), "--speeches", "1", "--repeats", "2", "--trust-code")
    coin = read_records(sidecar_for(path))
    assert out["speeches"] > 0
    assert {a.repeat for a in coin.asks.values() if a.seat in ("Bob", "David")} == {0, 1}  # asked repeats times


# ---------------------------------------------------------------------- tournaments and the rest
@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    from arena.tournament.config import config_from_data
    from arena.tournament.run import run_tournament

    db = tmp_path_factory.mktemp("pt") / "t.sqlite"
    data = {"name": "p", "seed": 2, "games": 4, "tables": [{"players": 8}], "persuasion": {"speeches": 0.5, "repeats": 2},
            "participants": [{"name": "Plain", "agent": "heuristic"}, {"name": "Noisy", "agent": "heuristic", "options": {"noise": 0.4}}]}  # fmt: skip
    report = run_tournament(config_from_data(data), db, progress=False)
    assert report.played == 4
    return db


def test_a_tournament_measures_each_game(tournament):
    from arena.tournament.store import Store

    store = Store(tournament)
    try:
        games = store.games()
        seats = list(store.seats())
    finally:
        store.close()
    for g in games:
        m = json.loads(g["metrics"])["persuasion"]
        assert m["measured"] > 0 and m["sampled"] <= m["eligible"] and m["calls"] == 0
        assert sidecar_for(tournament.parent / g["transcript"]).exists()
    spoken = [item for s in seats for item in json.loads(s["metrics"])["persuasion"]]
    assert len(spoken) == sum(json.loads(g["metrics"])["persuasion"]["measured"] for g in games)


def test_the_leaderboard_has_a_persuasion_figure(tournament, capsys):
    assert main(["leaderboard", "--db", str(tournament), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for row in data["participants"]:
        assert set(row["persuasion"]) == {"value", "low", "high"} and row["persuasion"]["value"] is not None
        assert row["persuasion_speeches"] > 0
    assert main(["leaderboard", "--db", str(tournament)]) == 0
    assert "Persuasion" in capsys.readouterr().out


def test_the_tournament_key_is_checked():
    from arena.tournament.config import ConfigError, config_from_data

    base = {"games": 2, "tables": [{"players": 8}], "participants": [{"name": "A", "agent": "heuristic"}]}
    with pytest.raises(ConfigError, match="persuasion.speeches"):
        config_from_data({**base, "persuasion": {"speeches": 1.5}})
    with pytest.raises(ConfigError, match="unknown key 'repeat'"):
        config_from_data({**base, "persuasion": {"repeat": 2}})
    assert config_from_data({**base, "persuasion": {}}).persuasion.repeats == 3


def test_metrics_and_export_read_the_record(tournament, tmp_path, capsys):
    pytest.importorskip("pandas")
    from arena.export import rows

    folder = tournament.parent / "t_transcripts"
    assert main(["metrics", str(folder), "--json"]) == 0
    agg = json.loads(capsys.readouterr().out)["aggregate"]
    assert agg["persuasion"]["speeches"] > 0
    one = sorted(folder.glob("*.jsonl"))[0]
    assert main(["metrics", str(one), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["persuasion"]["speeches"] > 0
    table_rows = rows(tournament)["persuasion"]
    asks = sum(len(read_records(p).asks) for p in folder.glob("*" + SUFFIX))
    assert len(table_rows) == asks and {r["arm"] for r in table_rows} == {"said", "neutral"}
    assert all(r["listener_participant"] in ("Plain", "Noisy") and r["for_accused"] in (True, False) for r in table_rows)

"""Tournaments: the file, the fair schedule, storage, resuming, budget, the commands."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from arena.tournament.config import ConfigError, config_from_data, load_config
from arena.tournament.run import MAX_BATCH, bot_batches, run_tournament, transcripts_dir
from arena.tournament.schedule import build_schedule, side_of
from arena.tournament.store import Store, StoreError
from arena.tournament.trial import FIRST_LOOK

BOTS = [{"name": "Heuristic", "agent": "heuristic"}, {"name": "Heuristic-B", "agent": "heuristic"}, {"name": "Random", "agent": "random"}]


def cfg_data(**over):
    data = {"name": "t", "seed": 3, "games": 12, "tables": [{"players": 8}], "participants": BOTS}
    data.update(over)
    return data


def write_cfg(tmp_path: Path, **over) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump(cfg_data(**over)), encoding="utf-8")
    return p


# ---------------------------------------------------------------------- the file
@pytest.mark.parametrize(
    "over, words",
    [
        ({"gmes": 3}, "unknown key 'gmes'"),
        ({"participants": [{"name": "A", "agent": "heuristic", "colour": "red"}]}, "unknown key 'colour'"),
        ({"participants": [{"name": "A", "agent": "heuristic"}, {"name": "A", "agent": "random"}]}, "two participants are named 'A'"),
        ({"participants": [{"name": "A", "agent": "robot"}]}, "unknown agent 'robot'"),
        ({"participants": [{"name": "A", "agent": "human"}]}, "cannot play a tournament"),
        ({"participants": [{"name": "A", "agent": "random", "options": {"temperature": 1}}]}, "takes no options"),
        ({"participants": [{"name": "A", "agent": "heuristic", "options": {"noise": 2}}]}, "noise"),
        ({"participants": [{"name": "A", "agent": "heuristic", "options": {"nois": 0.1}}]}, "no option 'nois'"),
        ({"participants": [{"name": "A", "agent": "py:examples.agents.cautious:Missing"}]}, "has no 'Missing'"),
        ({"participants": [{"name": "M", "agent": "openai:gpt-5.4-mini", "options": {"temprature": 1}}]}, "temprature"),
        ({"tables": [{"players": 8, "roles": ["villager"] * 8}]}, "table 1 (millers_hollow/8)"),
        ({"tables": [{"preset": "nope", "players": 8}]}, "unknown preset 'nope'"),
        ({"games": 0}, "games"),
        ({"seating": "circle"}, "seating"),
    ],
)
def test_bad_files_are_refused_with_the_reason(over, words):
    with pytest.raises(ConfigError) as e:
        config_from_data(cfg_data(**over))
    assert words in str(e.value)


def test_budget_needs_prices(tmp_path):
    p = write_cfg(tmp_path, participants=[{"name": "M", "agent": "openai:no-such-model-xyz"}, BOTS[0]], budget_usd=1.0)
    with pytest.raises(ConfigError, match="needs a price"):
        load_config(p)


def test_example_file_is_valid():
    cfg = load_config(Path(__file__).parent.parent / "examples" / "tournaments" / "bots.yaml")
    assert not cfg.has_models and cfg.games >= 500


# ---------------------------------------------------------------------- the schedule
def _worst_gaps(bal):
    role = max(abs(bal.role_gap(p, r)) for p in bal.role_due for r in bal.role_due[p])
    side = max(abs(bal.side_gap(p, s)) for p in bal.side_due for s in bal.side_due[p])
    return role, side


@pytest.mark.parametrize("n_participants", [2, 3, 5, 10])
def test_mixed_schedule_balances_seats_sides_and_roles(n_participants):
    parts = [{"name": f"P{i}", "agent": "heuristic"} for i in range(n_participants)]
    cfg = config_from_data(cfg_data(games=240, participants=parts, tables=[{"players": 8}, {"players": 12, "options": {"sheriff": False}}]))
    plans, bal = build_schedule(cfg)
    assert len(plans) == 240
    seats = sorted(bal.seats.values())
    assert seats[-1] - seats[0] <= 1
    role_gap, side_gap = _worst_gaps(bal)
    assert role_gap <= 2.0 and side_gap <= 2.0  # within about one game of the fair share
    for g in plans:  # the deck is dealt exactly, and the wolves sit as one block when seats allow
        assert sorted(s.role for s in g.seats) == sorted(g.deck)
        holders = Counter(s.participant for s in g.seats if side_of(s.role) == "werewolves")
        if n_participants <= 3:
            assert len(holders) == 1 or min(holders.values()) < max(holders.values()) or len(holders) <= 2


def test_wolves_are_not_split_evenly_every_game():
    """Balanced over the tournament, not inside every game: otherwise two participants
    always share both sides equally and no rating can tell them apart."""
    cfg = config_from_data(cfg_data(games=40, participants=BOTS[:2]))
    plans, _ = build_schedule(cfg)
    one_owner = sum(1 for g in plans if len({s.participant for s in g.seats if s.role == "werewolf"}) == 1)
    assert one_owner == 40


def test_teams_schedule_pits_each_pair_on_each_side_equally():
    parts = [{"name": f"P{i}", "agent": "heuristic"} for i in range(3)]
    cfg = config_from_data(cfg_data(games=36, participants=parts, seating="teams"))
    plans, _ = build_schedule(cfg)
    pairs = Counter()
    for g in plans:
        wolves = {s.participant for s in g.seats if side_of(s.role) == "werewolves"}
        village = {s.participant for s in g.seats if side_of(s.role) != "werewolves"}
        assert len(wolves) == len(village) == 1 and wolves != village
        pairs[(wolves.pop(), village.pop())] += 1
    assert len(pairs) == 6 and set(pairs.values()) == {6}


def _position_gaps(plans) -> tuple[float, float]:
    """The worst distance, over participants and positions, between the seats a
    participant had at a position and its fair share (1/N of each seat at a table of N),
    overall and on each side; computed from the plans alone."""
    count, due = Counter(), Counter()
    for g in plans:
        n = len(g.seats)
        for s in g.seats:
            side = side_of(s.role)
            count[(s.participant, s.position)] += 1
            count[(s.participant, side, s.position)] += 1
            for q in range(n):
                due[(s.participant, q)] += 1 / n
                due[(s.participant, side, q)] += 1 / n
    gaps = {k: abs(count[k] - due[k]) for k in due}
    return max(v for k, v in gaps.items() if len(k) == 2), max(v for k, v in gaps.items() if len(k) == 3)


@pytest.mark.parametrize("seating", ["mixed", "teams"])
@pytest.mark.parametrize("n_participants", [2, 3, 5, 10])
def test_seat_positions_are_balanced_overall_and_per_side(seating, n_participants):
    """Not shuffled: every participant sits at every position within about two seats of
    its fair share over 240 games (shuffling leaves gaps of 6 to 18), as a wolf and as a
    villager alike; the same for the same file, and a longer plan begins with a shorter one."""
    parts = [{"name": f"P{i}", "agent": "heuristic"} for i in range(n_participants)]
    data = cfg_data(games=240, participants=parts, seating=seating, tables=[{"players": 8}, {"players": 12, "options": {"sheriff": False}}])
    plans, bal = build_schedule(config_from_data(data))
    overall, per_side = _position_gaps(plans)
    assert overall <= 2.0 and per_side <= 2.0, (overall, per_side)
    for p in (x["name"] for x in parts):  # the plan's own counts agree
        assert sum(bal.position[p].values()) == bal.seats[p]
    shorter, _ = build_schedule(config_from_data({**data, "games": 100}))
    assert plans[:100] == shorter


def test_seats_and_names_are_shuffled_and_the_plan_is_reproducible():
    cfg = config_from_data(cfg_data(games=60))
    a, bal = build_schedule(cfg)
    b, _ = build_schedule(cfg)
    assert a == b
    assert len({tuple(s.name for s in g.seats) for g in a}) > 50  # names differ from game to game
    for p in ("Heuristic", "Random"):
        assert len(bal.position[p]) == 8  # every participant has sat in every position
    longer, _ = build_schedule(config_from_data(cfg_data(games=90)))
    assert longer[:60] == a  # a longer plan starts with the same games
    other, _ = build_schedule(config_from_data(cfg_data(games=60, seed=4)))
    assert other != a


def test_mirrored_deals_swap_the_participants():
    cfg = config_from_data(cfg_data(games=5, participants=BOTS[:2], mirror=True))
    plans, _ = build_schedule(cfg)
    assert len(plans) == 10 and [g.id for g in plans[:2]] == ["g00000m0", "g00000m1"]
    base, mirror = plans[0], plans[1]
    assert base.seed == mirror.seed
    assert [(s.name, s.role) for s in base.seats] == [(s.name, s.role) for s in mirror.seats]
    swap = {"Heuristic": "Heuristic-B", "Heuristic-B": "Heuristic"}
    assert [swap[s.participant] for s in base.seats] == [s.participant for s in mirror.seats]


# ---------------------------------------------------------------------- running
def test_run_stores_games_and_resumes_without_repeating(tmp_path):
    cfg = config_from_data(cfg_data(games=10))
    db = tmp_path / "r.sqlite"
    first = run_tournament(cfg, db, progress=False, max_games=4)
    assert (first.played, first.remaining, first.stopped) == (4, 6, "limit")
    second = run_tournament(cfg, db, progress=False)
    assert (second.already, second.played, second.remaining) == (4, 6, 0)
    third = run_tournament(cfg, db, progress=False)
    assert third.played == 0
    con = sqlite3.connect(db)
    ids = [r[0] for r in con.execute("SELECT id FROM games ORDER BY idx")]
    assert ids == [f"g{i:05d}" for i in range(10)]
    assert con.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 80
    assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 3
    row = con.execute("SELECT transcript, winner, metrics FROM games WHERE id = 'g00003'").fetchone()
    path = db.parent / row[0]
    assert path.exists() and path.parent == transcripts_dir(db)
    from transcripts.schema import read_transcript

    t = read_transcript(path)
    assert t.complete and t.result.winner == row[1]
    assert "votes" in json.loads(row[2])
    seat = con.execute("SELECT participant, side, won, metrics FROM seats WHERE game_id = 'g00003' AND position = 0").fetchone()
    assert seat[1] in ("village", "werewolves") and "ballots" in json.loads(seat[3])


def test_same_file_same_games(tmp_path):
    cfg = config_from_data(cfg_data(games=6))
    for name in ("a", "b"):
        run_tournament(cfg, tmp_path / f"{name}.sqlite", progress=False)
    rows = [sqlite3.connect(tmp_path / f"{n}.sqlite").execute("SELECT id, winner, days FROM games ORDER BY idx").fetchall() for n in "ab"]
    assert rows[0] == rows[1]
    ta = (tmp_path / "a_transcripts" / "g00002.jsonl").read_text().splitlines()[1:]
    tb = (tmp_path / "b_transcripts" / "g00002.jsonl").read_text().splitlines()[1:]
    assert ta == tb


def test_a_database_of_another_plan_is_refused(tmp_path):
    db = tmp_path / "x.sqlite"
    run_tournament(config_from_data(cfg_data(games=3)), db, progress=False)
    changed = cfg_data(games=3, participants=[{"name": "Heuristic", "agent": "random"}, *BOTS[1:]])
    with pytest.raises(StoreError, match="different plan"):
        run_tournament(config_from_data(changed), db, progress=False)
    # more games of the same plan is fine: the first three are kept
    more = run_tournament(config_from_data(cfg_data(games=5)), db, progress=False)
    assert (more.already, more.played) == (3, 2)


def test_worker_processes_play_the_same_games(tmp_path):
    # 40 games: the workers get batches of several games (bot_batches), then single ones.
    assert max(len(b) for b in bot_batches(list(range(40)), 2)) > 1  # type: ignore[arg-type]
    data = cfg_data(games=40, concurrency={"processes": 2})
    run_tournament(config_from_data(data), tmp_path / "p.sqlite", progress=False)
    run_tournament(config_from_data(cfg_data(games=40)), tmp_path / "s.sqlite", progress=False)
    q = "SELECT id, winner, days FROM games ORDER BY idx"
    assert sqlite3.connect(tmp_path / "p.sqlite").execute(q).fetchall() == sqlite3.connect(tmp_path / "s.sqlite").execute(q).fetchall()
    # Workers hand the parent ready rows (FinishedGame.pack): every stored column but
    # the clock's and the file's name is what the one-process run stores.
    for table, order in (("games", "idx"), ("seats", "game_id, position")):
        con = sqlite3.connect(tmp_path / "s.sqlite")
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})") if r[1] not in ("started", "finished", "seconds", "transcript")]
        q = f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}"
        rows = sqlite3.connect(tmp_path / "p.sqlite").execute(q).fetchall()
        assert rows and rows == con.execute(q).fetchall()
    # and every transcript is the one-process run's, after its header (which has the clock)
    for i in range(40):
        p, s = ((tmp_path / f"{n}_transcripts" / f"g{i:05d}.jsonl").read_text().splitlines()[1:] for n in "ps")
        assert p and p == s


def test_bot_batches_keep_plan_order_and_shrink_toward_the_end():
    jobs = list(range(203))
    batches = bot_batches(jobs, 2)  # type: ignore[arg-type]
    assert [j for b in batches for j in b] == jobs
    sizes = [len(b) for b in batches]
    assert sizes[0] == MAX_BATCH and max(sizes) == MAX_BATCH
    assert sizes == sorted(sizes, reverse=True) and sizes[-16:] == [1] * 16
    assert bot_batches([], 2) == [] and [len(b) for b in bot_batches(list(range(5)), 4)] == [1] * 5  # type: ignore[arg-type]


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the workers see the patch only when forked")
def test_a_game_failing_in_a_workers_batch_fails_alone(tmp_path, monkeypatch):
    from arena.tournament import play

    real = play.play_packed

    def flaky(job):
        if job.plan.id == "g00001":
            raise play.GameFailed("g00001: the engine refused an answer")
        if job.plan.id == "g00002":
            raise ValueError("a bug in a seat")
        return real(job)

    monkeypatch.setattr(play, "play_packed", flaky)  # forked workers inherit it
    db = tmp_path / "p.sqlite"
    report = run_tournament(config_from_data(cfg_data(games=40, concurrency={"processes": 2})), db, progress=False)
    assert (report.played, report.failed, report.stopped) == (38, 2, None)
    con = sqlite3.connect(db)
    assert sorted(con.execute("SELECT game_id, message FROM failures")) == [
        ("g00001", "g00001: the engine refused an answer"),
        ("g00002", "g00002: internal error: ValueError('a bug in a seat')"),
    ]
    assert [r[0] for r in con.execute("SELECT id FROM games ORDER BY idx")] == [f"g{i:05d}" for i in range(40) if i not in (1, 2)]
    monkeypatch.setattr(play, "play_packed", real)
    again = run_tournament(config_from_data(cfg_data(games=40, concurrency={"processes": 2})), db, progress=False)
    assert (again.already, again.played, again.remaining) == (38, 2, 0)


def test_model_games_count_tokens_and_cost_and_the_budget_stops_new_games(tmp_path, monkeypatch):
    from llm_standins import OpenAIStandIn, reset_llm_state, set_fake_keys, standin_router

    set_fake_keys(monkeypatch)
    reset_llm_state()
    fast = {"max_retries": 0, "retry_initial": 0, "timeout": 5}
    data = cfg_data(
        games=4,
        seating="teams",
        participants=[{"name": "Mini", "agent": "openai:gpt-5.4-mini", "options": fast}, BOTS[0]],
        tables=[{"players": 5, "options": {"sheriff": False}}],
        budget_usd=1e-9,
        concurrency={"games": 1},
    )
    db = tmp_path / "m.sqlite"
    try:
        with standin_router() as router:
            OpenAIStandIn(router)
            report = run_tournament(config_from_data(data), db, progress=False)
    finally:
        reset_llm_state()
    assert report.stopped == "budget" and report.played == 1 and report.remaining == 3
    con = sqlite3.connect(db)
    calls, tokens, cost = con.execute("SELECT calls, input_tokens, cost_usd FROM games").fetchone()
    assert calls > 0 and tokens > 0 and cost > 0
    per_seat = con.execute("SELECT SUM(calls), SUM(cost_usd) FROM seats WHERE participant = 'Mini'").fetchone()
    assert per_seat[0] == calls and per_seat[1] == pytest.approx(cost)
    path = db.parent / con.execute("SELECT transcript FROM games").fetchone()[0]
    header = json.loads(path.read_text().splitlines()[0])
    labels = {s["options"]["display_name"] for s in header["seats"] if s.get("options")}
    assert labels == {"Mini"}


def test_the_budget_counts_what_games_in_flight_will_cost(tmp_path, monkeypatch, capsys):
    """With several games at once, a budget that leaves room for one more game starts
    one, not as many as there are slots: the committed spend plus what the games in
    flight are expected to cost (the finished games' mean) must stay within it. The
    report says what was spent and expected."""
    from llm_standins import OpenAIStandIn, reset_llm_state, set_fake_keys, standin_router

    set_fake_keys(monkeypatch)
    reset_llm_state()
    fast = {"max_retries": 0, "retry_initial": 0, "timeout": 5}
    data = cfg_data(
        games=6,
        seating="teams",
        participants=[{"name": "Mini", "agent": "openai:gpt-5.4-mini", "options": fast}, BOTS[0]],
        tables=[{"players": 5, "options": {"sheriff": False}}],
        concurrency={"games": 3},
    )
    db = tmp_path / "m.sqlite"
    try:
        with standin_router() as router:
            OpenAIStandIn(router)
            # Two games first: a model's first games are played one at a time until they
            # hold FIRST_LOOK of its decisions (arena.tournament.trial); after that its
            # games run three at once, which is what the budget must account for.
            first = run_tournament(config_from_data(data), db, progress=False, max_games=2)
            assert first.played == 2
            con = sqlite3.connect(db)
            costs = [c for (c,) in con.execute("SELECT cost_usd FROM games")]
            asked = con.execute("SELECT SUM(json_extract(metrics, '$.decisions_asked')) FROM seats WHERE participant = 'Mini'").fetchone()[0]
            assert min(costs) > 0 and asked >= FIRST_LOOK
            cost = sum(costs) / 2  # what a game is expected to cost
            cfg = write_cfg(tmp_path, **{**data, "budget_usd": sum(costs) + 1.5 * cost})  # room for one more game, not three
            assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--json"]) == 0
            report = json.loads(capsys.readouterr().out)
            assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 0
            text = capsys.readouterr().out
    finally:
        reset_llm_state()
    assert report["stopped"] == "budget" and report["played"] == 1 and report["remaining"] == 3
    b = report["budget"]
    assert b["in_flight"] == 1 and b["expected_per_game_usd"] == pytest.approx(cost, rel=1e-3)
    assert b["spent_usd"] + b["in_flight_expected_usd"] + b["expected_per_game_usd"] > b["budget_usd"]
    assert "budget of $" in text and "no new game was started" in text and "0 played now" in text


# ---------------------------------------------------------------------- the commands
def test_tournament_and_leaderboard_commands(tmp_path, capsys):
    cfg = write_cfg(tmp_path, games=16)
    db = tmp_path / "c.sqlite"
    assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["played"] == 16 and report["remaining"] == 0
    assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 0
    assert "0 played now" in capsys.readouterr().out

    assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "50"]) == 0
    lb = json.loads(capsys.readouterr().out)
    assert lb["games"] == 16 and {r["participant"] for r in lb["participants"]} == {"Heuristic", "Heuristic-B", "Random"}
    row = lb["participants"][0]
    for key in ("openskill", "bradley_terry", "win_rate", "rating"):
        assert set(row[key]) == {"value", "low", "high"}
    assert set(row["win_rate_by_side"]) == {"village", "werewolves"}
    # CONTRACT.md section 5: the primary rating, participants best first, every pair a above b
    assert lb["primary"] == "bradley_terry"
    values = [r["rating"]["value"] for r in lb["participants"]]
    assert values == sorted(values, reverse=True) and row["rating"] == row["bradley_terry"]
    order = [r["participant"] for r in lb["participants"]]
    assert [(q["a"], q["b"]) for q in lb["pairs"]] == [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
    for q in lb["pairs"]:
        assert set(q) == {"a", "b", "diff", "low", "high", "p_better"} and q["low"] <= q["diff"] <= q["high"]
        assert 0 <= q["p_better"] <= 1
    assert lb["side_ratings"]["identified"] is False  # mixed seating
    assert all(r["bradley_terry_by_side"]["village"]["value"] is None for r in lb["participants"])
    assert main(["leaderboard", "--db", str(db), "--markdown", "--bootstrap", "50", "--plot", str(tmp_path / "plots")]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Leaderboard") and "| participant |" in md
    assert "## Pairs" in md and "P(a better)" in md
    for png in ("ratings.png", "pairs.png", "win_rates.png"):
        assert (tmp_path / "plots" / png).read_bytes()[:4] == b"\x89PNG"
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "against the pooled field" in out and "not identified" in out and "Ratings by side" not in out
    assert "next" in out  # the neighbour marks

    assert main(["tournament", str(cfg), "--db", str(db), "--plan", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["games"] == 16 and len(plan["participants"]) == 3


def test_command_errors(tmp_path, capsys):
    assert main(["leaderboard", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no tournament database" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("games: 3\ntables: [{players: 8}]\nparticipants: [{name: A, agent: heuristic}]\nextra: 1\n")
    assert main(["tournament", str(bad), "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "unknown key 'extra'" in capsys.readouterr().err
    empty = tmp_path / "empty.sqlite"
    Store(empty).close()
    assert main(["leaderboard", "--db", str(empty), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 0


def test_the_plan_table_shows_position_balance(tmp_path, capsys, monkeypatch):
    """--plan's table (not only --json) says how evenly each participant sits."""
    from arena.cli import main

    monkeypatch.setenv("COLUMNS", "120")
    cfg = Path(__file__).resolve().parent.parent / "examples" / "tournaments" / "bots.yaml"
    assert main(["tournament", str(cfg), "--db", str(tmp_path / "t.sqlite"), "--plan"]) == 0
    out = capsys.readouterr().out
    assert "per position" in out
    gaps = [int(cell.strip("│ ±")) for line in out.splitlines() for cell in line.split("│") if cell.strip().startswith("±")]
    assert gaps and max(gaps) <= 2


def _collector() -> tuple[tuple[int, int, int], int]:
    import gc

    return gc.get_threshold(), gc.get_freeze_count()


def test_tournament_bot_worker_processes_tune_their_collector():
    """The worker processes play only bot games: they set ``arena.gc_tuning``'s
    settings for their lifetime; the tournament process (model games) keeps its own."""
    import gc
    from types import SimpleNamespace

    from arena.gc_tuning import BOT_GAMES_THRESHOLD
    from arena.tournament.run import _bot_executor

    before = gc.get_threshold()
    assert before != BOT_GAMES_THRESHOLD
    pool, in_flight = _bot_executor(SimpleNamespace(backend="local", processes=2))
    try:
        threshold, frozen = pool.submit(_collector).result(timeout=60)
    finally:
        pool.shutdown()
    assert (threshold, in_flight) == (BOT_GAMES_THRESHOLD, 4) and frozen > 0
    assert gc.get_threshold() == before


def test_a_bot_tournament_in_one_process_tunes_the_collector_while_it_plays(tmp_path, monkeypatch):
    """Bot games played in the tournament process run with ``arena.gc_tuning``'s
    settings, and the process's own are back when ``run_tournament`` returns."""
    import gc

    import arena.tournament.run as run
    from arena.gc_tuning import BOT_GAMES_THRESHOLD

    seen = []
    real_play_sync = run.play_sync

    def recording_play_sync(job):
        seen.append(_collector())
        return real_play_sync(job)

    monkeypatch.setattr(run, "play_sync", recording_play_sync)
    before = _collector()
    run_tournament(config_from_data(cfg_data(games=3)), tmp_path / "t.sqlite", progress=False)
    assert len(seen) == 3 and all(t == BOT_GAMES_THRESHOLD and frozen > 0 for t, frozen in seen)
    assert _collector() == before and gc.get_freeze_count() == 0

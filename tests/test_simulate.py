"""``werewolf simulate``: the contract's JSON shape and honest statistics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.simulate import CHUNK, LAST_CHUNK, chunks, simulate
from arena.simulate_result import wilson

ROOT = Path(__file__).parent.parent


def heuristic_available() -> bool:
    try:
        import agents.heuristic  # noqa: F401
    except ImportError:
        return False
    return True


def test_simulate_json_contract_shape():
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "simulate", "--preset", "millers_hollow", "--players", "8",
         "--games", "20", "--seed", "3", "--agents", "random", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert {"games", "seconds", "wins"} <= set(report)
    assert report["games"] == 20
    assert isinstance(report["seconds"], float) and report["seconds"] >= 0
    assert sum(report["wins"].values()) == 20
    assert set(report["wins"]) <= {"village", "werewolves", "lovers", "none"}
    assert all(isinstance(v, int) for v in report["wins"].values())


def test_simulate_heuristic_default(capsys):
    if not heuristic_available():
        pytest.skip("agents.heuristic is not available yet")
    code = main(["simulate", "--games", "4", "--seed", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["games"] == 4 and sum(report["wins"].values()) == 4
    assert report["agents"] == "heuristic"


def test_seeds_make_batches_reproducible():
    a = simulate(games=15, seed=40, agents="random")
    b = simulate(games=15, seed=40, agents="random")
    assert a.wins == b.wins and a.days == b.days
    # game i of a batch is the game with seed S+i
    c = simulate(games=5, seed=50, agents="random")
    assert a.days[10:] == c.days


def test_custom_deck_and_options(capsys):
    code = main([
        "simulate", "--games", "10", "--agents", "random", "--json",
        "--roles", "werewolf,werewolf,seer,witch,hunter,cupid,thief,little_girl",
        "--option", "sheriff=false", "--option", "wolves_win_at_parity=true",
    ])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and sum(report["wins"].values()) == 10


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--roles", "werewolf,wizard"], "unknown role 'wizard'"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--option", "wolf_speed=3"], "unknown rule option 'wolf_speed'"),
        (["--option", "sheriff"], "KEY=VALUE"),
        (["--players", "2"], "at least 3 players"),
    ],
)
def test_bad_arguments(capsys, args, expected):
    code = main(["simulate", "--games", "2", "--agents", "random", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and expected in err


def test_table_output(capsys):
    code = main(["simulate", "--games", "10", "--agents", "random"])
    out = capsys.readouterr().out
    assert code == 0
    assert "95% interval" in out and "village" in out and "games/s" in out and "mean length" in out


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_processes_play_the_same_games():
    """Any number of worker processes gives the one-core report, game for game."""
    one = simulate(games=150, seed=7, agents="random", processes=1)
    two = simulate(games=150, seed=7, agents="random", processes=2)
    assert one.wins == two.wins and one.days == two.days and one.games == two.games == 150
    assert simulate(games=0, seed=7, agents="random", processes=2).games == 0


def test_chunks_cover_every_game_in_order_and_shrink_toward_the_end():
    for games, processes in ((149, 2), (2000, 2), (1000, 3), (65, 8)):
        tasks = chunks(games, processes)
        assert [first for first, _ in tasks] == [sum(n for _, n in tasks[:i]) for i in range(len(tasks))]
        assert sum(n for _, n in tasks) == games and all(0 < n <= CHUNK for _, n in tasks)
        sizes = [n for _, n in tasks]
        assert sizes[:-1] == sorted(sizes[:-1], reverse=True) and min(sizes[:-1]) == LAST_CHUNK
    assert chunks(2000, 2)[0] == (0, CHUNK)


def test_a_bad_table_fails_before_any_worker_starts():
    import pytest

    from arena.gamefile import GameFileError

    with pytest.raises(GameFileError):
        simulate(games=500, roles=["seer", "villager", "villager"], agents="random", processes=2)


def _collector() -> tuple[tuple[int, int, int], int, bool]:
    import gc

    return gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()


def test_simulate_tunes_the_collector_while_it_plays_and_restores_it(monkeypatch):
    """The games run with ``arena.gc_tuning``'s settings; the caller's are back after,
    also when a game fails."""
    import gc

    import arena.simulate as sim
    from arena.gamefile import GameFileError
    from arena.gc_tuning import BOT_GAMES_THRESHOLD

    seen = []
    real_run_sync = sim.run_sync

    def recording_run_sync(game, seats):
        seen.append(_collector())
        return real_run_sync(game, seats)

    monkeypatch.setattr(sim, "run_sync", recording_run_sync)
    before = gc.get_threshold()
    gc.set_threshold(1234, 11, 12)
    try:
        assert gc.get_freeze_count() == 0
        simulate(games=3, seed=1, agents="random")
        assert len(seen) == 3 and all(t == BOT_GAMES_THRESHOLD and frozen > 0 and on for t, frozen, on in seen)
        assert _collector() == ((1234, 11, 12), 0, True)
        with pytest.raises(GameFileError):
            simulate(games=5, roles=["seer", "villager", "villager"], agents="random")
        assert _collector() == ((1234, 11, 12), 0, True)
    finally:
        gc.set_threshold(*before)


def test_simulate_worker_processes_tune_their_collector():
    """Each worker sets the bot-game settings for its lifetime, whatever the parent's."""
    import gc

    from arena.gc_tuning import BOT_GAMES_THRESHOLD
    from arena.bot_workers import workers

    assert gc.get_threshold() != BOT_GAMES_THRESHOLD
    with workers(2) as pool:
        threshold, frozen, enabled = pool.submit(_collector).result(timeout=60)
    assert threshold == BOT_GAMES_THRESHOLD and frozen > 0 and enabled
    assert gc.get_threshold() != BOT_GAMES_THRESHOLD

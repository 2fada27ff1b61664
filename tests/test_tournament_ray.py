"""Tournaments on Ray (concurrency.backend: ray) on a local two-CPU cluster: the same
games as a local run, byte for byte; a task retried after its worker died stores its
game once; model games on the actor, calls streamed back; a driver killed mid-run and
run again finishes without repeating a game.

Starting Ray takes 15-30 s on a loaded two-core machine, once for the module."""

from __future__ import annotations

import filecmp
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ray = pytest.importorskip("ray")

# Starting Ray and its workers takes over a minute for this module on a loaded
# two-core machine: marked slow (CI runs slow tests too).
pytestmark = pytest.mark.slow

from arena.tournament import ray_backend  # noqa: E402
from arena.tournament.config import ConfigError, config_from_data  # noqa: E402
from arena.tournament.run import run_tournament, transcripts_dir  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The model actor's process reads its key from its own environment, as a node would.
KEY_ENV, KEY = "WEREWOLF_RAY_TEST_KEY", "sk-ray-standin-0123456789abcdef"
BOTS = [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}]


def cfg_data(games: int = 10, **concurrency) -> dict:
    return {"name": "r", "seed": 7, "games": games, "tables": [{"players": 8}, {"players": 10}],
            "participants": BOTS, "concurrency": concurrency}  # fmt: skip


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {KEY_ENV: KEY}})  # fmt: skip
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("local") / "t.sqlite"
    run_tournament(config_from_data(cfg_data(games=16)), db, progress=False)
    return db


def _rows(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, digest, winner, days, reason FROM games ORDER BY idx").fetchall()
    finally:
        con.close()


def _same_transcripts(a: Path, b: Path) -> bool:
    fa, fb = sorted(p.name for p in transcripts_dir(a).iterdir()), sorted(p.name for p in transcripts_dir(b).iterdir())
    return fa == fb and all(filecmp.cmp(transcripts_dir(a) / f, transcripts_dir(b) / f, shallow=False) for f in fa)


def test_ray_plays_the_local_runs_games_byte_for_byte(cluster, local_run, tmp_path):
    db = tmp_path / "t.sqlite"
    report = run_tournament(config_from_data(cfg_data(games=16, backend="ray", tasks=3)), db, progress=False)
    assert report.played == 16 and report.failed == 0
    assert _rows(db) == _rows(local_run)
    assert _same_transcripts(db, local_run)  # written by the driver, from the workers' bytes
    assert not list(transcripts_dir(db).glob("*.part"))
    again = run_tournament(config_from_data(cfg_data(games=16, backend="ray")), db, progress=False)
    assert again.played == 0 and again.already == 16


def _dies_once(marker: str):
    """A task body whose first attempt loses its worker process, as a dead node would."""

    def play(job):
        flag = Path(marker) / job.plan.id
        if not flag.exists():
            flag.write_text("died")
            os._exit(1)
        return ray_backend.play_remote(job)

    return play


def test_a_task_retried_after_its_worker_died_stores_its_game_once(cluster, local_run, tmp_path, monkeypatch):
    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setattr(ray_backend, "play_remote", _dies_once(str(marks)))
    db = tmp_path / "t.sqlite"
    report = run_tournament(config_from_data(cfg_data(games=4, backend="ray")), db, progress=False)
    assert report.played == 4 and report.failed == 0
    assert len(list(marks.iterdir())) == 4  # every game's first attempt died
    assert _rows(db) == _rows(local_run)[:4]  # each stored once, the same game
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == sum(p for p in (8, 10, 8, 10))
    assert con.execute("SELECT COUNT(*) FROM failures").fetchone()[0] == 0


def _records(db: Path, kind: str) -> list[dict]:
    """Every transcript's records of one type, in game order, without the chained
    digest (it covers the call records, whose timings differ from run to run)."""
    out = []
    for path in sorted(transcripts_dir(db).glob("*.jsonl")):
        for r in map(json.loads, path.read_text().splitlines()):
            if r["type"] == kind:
                r.pop("digest", None)
                out.append(r)
    return out


def test_model_games_play_on_the_actor_under_the_same_limits(cluster, tmp_path, monkeypatch):
    from arena.standin_server import StandInServer

    monkeypatch.setenv(KEY_ENV, KEY)  # the driver seats each model once before the run
    with StandInServer(latency=0) as api:
        model = {"name": "M", "agent": "openai:standin", "options": {"base_url": api.base_url, "api_key_env": KEY_ENV, "max_retries": 0, "timeout": 20}}
        data = {"name": "m", "seed": 3, "games": 3, "seating": "teams", "tables": [{"players": 5, "options": {"sheriff": False}}],
                "participants": [model, BOTS[0]], "concurrency": {"games": 1, "per_model": {"openai:standin": 1}}}  # fmt: skip
        local = run_tournament(config_from_data(data), tmp_path / "local.sqlite", progress=False)
        local_requests = len(api.requests)
        api.reset()
        remote = run_tournament(config_from_data({**data, "concurrency": {**data["concurrency"], "backend": "ray"}}),
                                tmp_path / "ray.sqlite", progress=False)  # fmt: skip
    assert local.played == remote.played == 3 and remote.failed == 0
    assert _rows(tmp_path / "ray.sqlite") == _rows(tmp_path / "local.sqlite")
    # The same game, answer for answer; the calls streamed back as they ended.
    for kind in ("event", "answer"):
        assert _records(tmp_path / "ray.sqlite", kind) == _records(tmp_path / "local.sqlite", kind)
    assert len(_records(tmp_path / "ray.sqlite", "call")) == len(api.requests) == local_requests
    assert local.totals["calls"] == remote.totals["calls"] == local_requests and remote.totals["cost_usd"] == 0
    assert KEY not in "".join(p.read_text() for p in transcripts_dir(tmp_path / "ray.sqlite").glob("*.jsonl"))


def test_a_dead_model_on_the_actor_is_paused_after_one_game(cluster, tmp_path, monkeypatch):
    """Three model games at once on the actor: a participant's first look holds its
    games to one at a time in the driver, so a model whose address refuses every
    connection plays one game, is paused, and no other game of it starts."""
    import socket

    with socket.socket() as s:  # a local port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv(KEY_ENV, KEY)
    model = {"name": "M", "agent": "openai:standin", "options": {"base_url": f"http://127.0.0.1:{port}/v1", "api_key_env": KEY_ENV, "max_retries": 0, "timeout": 5}}
    data = {"name": "d", "seed": 3, "games": 6, "seating": "teams", "tables": [{"players": 5, "options": {"sheriff": False}}],
            "participants": [model, BOTS[0]], "concurrency": {"games": 3, "backend": "ray"},
            "allow_fallbacks": True}  # past the check before the first game, to the trial  # fmt: skip
    report = run_tournament(config_from_data(data), tmp_path / "ray.sqlite", progress=False)
    assert (report.played, report.failed, report.stopped) == (1, 0, "paused")
    (paused,) = report.paused
    assert (paused["participant"], paused["decided"], paused["unplayed"]) == ("M", 0, 5) and paused["last_error"]


def test_config_and_cluster_errors_are_named(cluster):
    with pytest.raises(ValueError, match="need backend: ray"):
        config_from_data(cfg_data(address="auto"))
    with pytest.raises(ValueError, match="backend"):
        config_from_data(cfg_data(backend="spark"))
    assert ray_backend.connect("ray://127.0.0.1:1") is False  # already connected: the cluster is reused
    assert ray_backend.cluster_cpus() == 2


from test_tournament_kill import RUN, _count  # noqa: E402


def test_a_killed_driver_resumes_without_repeating(cluster, local_run, tmp_path):
    cfg = tmp_path / "r.yaml"
    cfg.write_text(yaml.safe_dump(cfg_data(games=16, backend="ray", address=cluster, tasks=2)))
    db = tmp_path / "t.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-c", RUN, "tournament", str(cfg), "--db", str(db), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while _count(db) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
    os.killpg(proc.pid, signal.SIGKILL)  # the driver only: the cluster is this test's
    proc.wait()
    stored = _count(db)
    assert 3 <= stored < 16
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _rows(db) == _rows(local_run)
    assert _same_transcripts(db, local_run)


def test_ray_missing_is_a_clear_error(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *a, **kw):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ConfigError, match=r'pip install -e "\.\[ray\]"'):
        ray_backend.connect(None)

"""A tournament killed (SIGKILL) at random moments and run again ends with exactly the
planned games: none lost, none played twice, every stored game's transcript whole."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from transcripts.schema import read_transcript

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; from arena.cli import main; sys.exit(main(sys.argv[1:]))"


def _start(cfg: Path, db: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen(
        [sys.executable, "-c", RUN, "tournament", str(cfg), "--db", str(db), "--quiet"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(db, timeout=10)
        try:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


@pytest.mark.parametrize("processes", [1, 2])
def test_sigkill_at_random_moments_then_resume(tmp_path, processes):
    planned = 120
    cfg = tmp_path / "kill.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {
                "name": "kill", "seed": 11, "games": planned, "concurrency": {"processes": processes},
                "tables": [{"players": 8}, {"players": 10}],
                "participants": [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}],
            }
        )
    )  # fmt: skip
    db = tmp_path / "kill.sqlite"
    rng = random.Random(processes)
    kills = 0
    progress_at_kills = []
    while kills < 5:
        before = _count(db)
        proc = _start(cfg, db)
        if kills % 2 == 0:
            # a moment in the game loop: a few more games stored, the next one half played
            target = before + rng.randint(1, 15)
            deadline = time.monotonic() + 30
            while _count(db) < target and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.05))
        else:
            time.sleep(rng.uniform(0.05, 0.8))  # anywhere, start-up included
        if proc.poll() is not None:
            assert proc.returncode == 0, proc.stderr.read().decode()
            break
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
        progress_at_kills.append(_count(db))
    final = _start(cfg, db)
    _, err = final.communicate(timeout=120)
    assert final.returncode == 0, err.decode()
    assert kills >= 3, "the test should have killed the run several times"
    assert any(0 < n < planned for n in progress_at_kills), f"no kill landed mid-tournament: {progress_at_kills}"

    con = sqlite3.connect(db)
    ids = [r[0] for r in con.execute("SELECT id FROM games ORDER BY idx")]
    assert ids == [f"g{i:05d}" for i in range(planned)]
    assert con.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == sum(8 if i % 2 == 0 else 10 for i in range(planned))
    folder = tmp_path / "kill_transcripts"
    for gid, path, winner in con.execute("SELECT id, transcript, winner FROM games"):
        t = read_transcript(tmp_path / path)
        assert t.complete and not t.truncated and t.result.winner == winner, gid
    assert sorted(p.name for p in folder.glob("*.jsonl")) == [f"{i}.jsonl" for i in ids]
    runs = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    assert runs >= 2  # a run killed while Python was still starting never registered

    if processes > 1:
        return
    # the same games as a run never killed
    clean = tmp_path / "clean.sqlite"
    subprocess.run([sys.executable, "-c", RUN, "tournament", str(cfg), "--db", str(clean), "--quiet"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    q = "SELECT id, winner, days FROM games ORDER BY idx"
    assert sqlite3.connect(clean).execute(q).fetchall() == con.execute(q).fetchall()

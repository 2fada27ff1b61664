"""When the transcript writer's lines reach the file: at once, or at close for the
games that are played again whole if cut off (a tournament's bot games)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.gamefile import default_game, header_for
from arena.runner import run_sync
from arena.tournament.config import config_from_data
from arena.tournament.play import _Table
from arena.tournament.run import make_jobs
from arena.tournament.schedule import build_schedule
from transcripts.verify import Status, verify_file
from transcripts.writer import TranscriptWriter


def _lines_on_disk(path: Path) -> int:
    with open(path, encoding="utf-8") as f:  # another handle: only what reached the file
        return len(f.read().splitlines())


@pytest.mark.parametrize("flush", [True, False])
def test_lines_reach_the_file_at_once_or_at_close_and_the_files_are_the_same(tmp_path: Path, flush: bool) -> None:
    spec = default_game(players=8, seed=4, agent="heuristic")
    game, agents = spec.build()
    path = tmp_path / f"{flush}.jsonl"
    w = TranscriptWriter(path, header_for(spec, game), flush=flush)
    w.sync_events(game)
    assert _lines_on_disk(path) == (1 + len(game.events) if flush else 0)
    run_sync(game, agents, on_answer=w.on_answer)
    w.result(game)
    w.close()
    assert verify_file(str(path)).status is Status.OK
    other = tmp_path / "other.jsonl"
    game2, agents2 = spec.build()
    with TranscriptWriter(other, header_for(spec, game2), flush=not flush) as w2:
        w2.sync_events(game2)
        run_sync(game2, agents2, on_answer=w2.on_answer)
        w2.result(game2)
    assert path.read_bytes() == other.read_bytes()


def test_a_tournament_flushes_each_line_of_model_games_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from llm_standins import set_fake_keys

    set_fake_keys(monkeypatch)
    data = {
        "name": "flush", "seed": 1, "games": 2, "seating": "teams",
        "tables": [{"players": 5, "options": {"sheriff": False}}],
        "participants": [{"name": "Mini", "agent": "openai:gpt-5.4-mini"}, {"name": "H", "agent": "heuristic"}],
    }  # fmt: skip
    cfg = config_from_data(data)
    plans, _ = build_schedule(cfg, None, {})
    jobs = make_jobs(cfg, plans, tmp_path / "r.sqlite")
    bots = config_from_data({**data, "participants": [{"name": "R", "agent": "random"}, {"name": "H", "agent": "heuristic"}]})
    bot_jobs = make_jobs(bots, build_schedule(bots, None, {})[0], tmp_path / "b.sqlite")
    for job, flushed in [(jobs[0], True), (bot_jobs[0], False)]:
        table = _Table(job)
        try:
            assert job.bots_only is not flushed
            assert _lines_on_disk(job.part_path) == (1 + len(table.game.events) if flushed else 0)
        finally:
            table.close()
        assert _lines_on_disk(job.part_path) == 1 + len(table.game.events)  # closing writes them all

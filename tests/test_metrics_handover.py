"""A finished tournament game is measured with the game's own typed events handed to
the reader of its just-written file (``GameRecord.played``): the measures must be
exactly those read from the file alone, in every preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcript_tools import play_to_file, varied_spec

from arena.metrics.game import game_metrics
from arena.metrics.load import MetricsError, load_transcript
from engine.presets import PRESETS


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_games_events_measure_as_the_files(tmp_path: Path, preset: str) -> None:
    for seed in range(4):
        spec = varied_spec(seed, agent="heuristic" if seed % 2 else "random", preset=preset)
        path = tmp_path / f"{seed}.jsonl"
        game = play_to_file(spec, path)
        alone, handed = load_transcript(path), load_transcript(path, played=game.events)
        assert handed.timeline == alone.timeline and len(alone.timeline) == len(game.events)
        assert json.dumps(game_metrics(handed), sort_keys=True) == json.dumps(game_metrics(alone), sort_keys=True)


def test_events_of_another_game_are_refused(tmp_path: Path) -> None:
    games = [play_to_file(varied_spec(seed), tmp_path / f"{seed}.jsonl") for seed in range(2)]
    with pytest.raises(MetricsError, match="is not the game's event"):
        load_transcript(tmp_path / "0.jsonl", played=games[1].events)
    with pytest.raises(MetricsError, match="is not the game's event|past its end"):
        load_transcript(tmp_path / "0.jsonl", played=games[0].events[:-1])
    with pytest.raises(MetricsError, match="does not hold"):
        load_transcript(tmp_path / "0.jsonl", played=[*games[0].events, games[0].events[-1]])

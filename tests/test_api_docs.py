"""docs/API.md's examples run as written: its Python blocks, in order, in one
namespace, in a temporary folder (they write a transcript and a small tournament)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "API.md"


def blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_page_has_examples_for_every_layer():
    text = DOC.read_text(encoding="utf-8")
    for heading in ("## Engine", "## Agents", "## Runner", "## Tournaments", "## Leaderboard"):
        assert heading in text
    assert len(blocks()) >= 8


def test_every_example_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pandas")
    pytest.importorskip("pettingzoo")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "api_docs"}
    for i, code in enumerate(blocks(), start=1):
        try:
            exec(compile(code, f"docs/API.md block {i}", "exec"), namespace)
        except Exception as e:  # name the block in the failure
            raise AssertionError(f"docs/API.md block {i} fails: {type(e).__name__}: {e}") from e
    out = capsys.readouterr().out
    assert "refused:" in out and "played," in out
    from arena.cli import main

    assert main(["verify", str(tmp_path / "game.jsonl")]) == 0

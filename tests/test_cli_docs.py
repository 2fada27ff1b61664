"""docs/CLI.md lists every command and flag as the parser has them (issue 50: ``werewolf
model fetch|serve`` was missing from a page that said it listed them all)."""

from __future__ import annotations

import re

from arena.cli import ENTRIES
from tools.cli_reference import BEGIN, DOC, END, reference, updated


def test_the_reference_is_the_parsers():
    page = DOC.read_text(encoding="utf-8")
    assert BEGIN in page and END in page
    assert updated(page) == page, "docs/CLI.md differs from the parser: run python tools/cli_reference.py"


def test_every_command_and_subcommand_is_listed_with_its_flags():
    text = reference()
    for entry in ENTRIES:
        assert f"### `werewolf {entry.name}`" in text
    for nested in ("model fetch", "model serve", "a2a serve"):
        assert f"### `werewolf {nested}`" in text
    assert "| `--port PORT` | the port (default 8080; 0 picks a free one) |" in text  # model serve's


def test_the_overview_names_every_command():
    """The hand-written table above the reference says what each command is for."""
    overview = DOC.read_text(encoding="utf-8").split(BEGIN, 1)[0]
    named = set(re.findall(r"`werewolf ([a-z0-9]+)", overview))
    assert {e.name for e in ENTRIES} <= named, {e.name for e in ENTRIES} - named


def test_models_md_opens_with_the_local_model_how_to():
    """The two commands for a model on this machine come first, before the internals of
    a llama.cpp server (once buried in a paragraph about its slots)."""
    from pathlib import Path

    from arena.model_command import EXAMPLE

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "MODELS.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)
    first = sections[1]
    assert first.startswith("A real model on this machine, no key")
    play = f"OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_API_KEY=local werewolf play {EXAMPLE.relative_to(root).as_posix()}"
    assert "werewolf model serve" in first and play in first  # what `werewolf model serve` prints, at its default port
    assert "id_slot" not in first and "id_slot" in text  # the internals come after

"""A Chinese game is told in Chinese: the narrator of ``werewolf play`` and a person's
own screen speak the game file's language, whatever agents sit at the table.

Two bugs this pins: ``run_play`` built the narrator from the seats' languages only (a
table of random or scripted bots has none, so a ``language: zh`` game was narrated in
English), and a human seat was never told the game's language (its screen and its
questions fell back to English in a Chinese game)."""

from __future__ import annotations

import io
import re

import yaml
from rich.console import Console

from agents.human import HumanAgent
from arena.cli import main
from arena.gamefile import spec_from_data
from engine.flow.main import Role

HAN = re.compile(r"[\u4e00-\u9fff]")
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah"]


def _table(language: str, agent: str = "random", alice: dict | None = None) -> dict:
    """Six seats of ``agent``; ``alice``: Alice's own seat fields (another agent, a role)."""
    return {
        "preset": "millers_hollow",
        "seed": 5,
        "language": language,
        "options": {"sheriff": False},
        "roles": ["werewolf", "werewolf", "seer", "witch", "hunter", "villager"],
        "seats": [{"name": "Alice", "agent": agent, **(alice or {})}] + [{"name": n, "agent": agent} for n in NAMES[1:]],
    }


def test_the_narrator_speaks_the_game_files_language(tmp_path, capsys):
    """Random bots carry no language: the narrator must take the file's."""
    path = tmp_path / "zh.yaml"
    path.write_text(yaml.safe_dump(_table("zh")), encoding="utf-8")
    assert main(["play", str(path)]) == 0
    out = capsys.readouterr().out
    assert "第1夜" in out.replace(" ", "") or HAN.search(out), out[:500]
    assert "Night 1" not in out and "The cards are revealed" not in out, out[:500]
    english = tmp_path / "en.yaml"
    english.write_text(yaml.safe_dump(_table("en")), encoding="utf-8")
    assert main(["play", str(english)]) == 0
    assert "Night 1" in capsys.readouterr().out


def test_a_human_seat_is_given_the_games_language() -> None:
    for language in ("zh", "en"):
        _, agents = spec_from_data(_table(language, agent="heuristic", alice={"agent": "human"})).build()
        alice = agents["Alice"]
        assert isinstance(alice, HumanAgent) and alice.screen.language == language


def test_a_person_reads_their_card_in_a_chinese_game() -> None:
    spec = spec_from_data(_table("zh", agent="heuristic", alice={"agent": "human", "role": "seer"}))
    game, agents = spec.build()
    alice = agents["Alice"]
    assert isinstance(alice, HumanAgent)
    buf = io.StringIO()
    alice.attach(Console(file=buf, width=120, color_system=None))
    card = next(e for e in game.events if isinstance(e.data, Role) and e.data.player == "Alice")
    alice.screen.show(card)
    text = buf.getvalue()
    assert "预言家" in text and "Seer" not in text, text

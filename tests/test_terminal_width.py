"""80 columns when piped: tables wrap their cells at spaces, never inside a word, and
Chinese narration breaks between characters as the terminal shows them (issue 50: the
leaderboard's ``particip`` / ``ant``, the plan's ``Heuristic…``, a Chinese first line cut
after "8")."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from arena.cli import main
from arena.table_fit import fitted
from prompts.text_wrap import breaks
from arena.tournament.config import config_from_data
from arena.tournament.run import run_tournament

LADDER = [
    {"name": "Heuristic", "agent": "heuristic"},
    {"name": "Heuristic-B", "agent": "heuristic"},
    {"name": "H25", "agent": "heuristic", "options": {"noise": 0.25}},
    {"name": "H50", "agent": "heuristic", "options": {"noise": 0.5}},
    {"name": "H75", "agent": "heuristic", "options": {"noise": 0.75}},
    {"name": "Random", "agent": "random"},
]


@pytest.fixture(autouse=True)
def piped(monkeypatch):
    """What a pipe gives rich: no terminal, so 80 columns unless COLUMNS says otherwise."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


def words_of(*texts: str) -> set[str]:
    """The words of ``texts`` worth checking whole: four letters or more."""
    return {w for t in texts for w in t.split() if len(w) >= 4 and re.search(r"[A-Za-z]", w)}


def assert_fits(out: str, whole: set[str], names: frozenset[str] = frozenset()) -> None:
    """Every line within 80 cells; each word of ``whole`` shown whole: no piece of it
    (``particip``, ``OpenSkil``, ``Heuristi``) stands alone, unless it is itself one of
    the table's ``names``; nothing cut to an ellipsis."""
    lines = out.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), max(lines, key=cell_len)
    shown = set(re.findall(r"[^\s│┃┆║|]+", out))
    pieces = {t for t in shown for w in whole if t != w and w.startswith(t) and t not in names}
    assert whole <= shown and not pieces, f"cut words: {pieces}\n{out}"
    assert "…" not in out


def test_a_table_too_wide_for_80_columns_wraps_at_spaces():
    t = Table(title="Ratings")
    heads = ["#", "participant", "agent", "games", "Bradley-Terry Elo", "vs next", "win only", "OpenSkill μ"]
    for h in heads:
        t.add_column(h)
    cells = ["1", "Heuristic-B", "heuristic", "40", "135 [-48, 338]", "≈ next", "88 [-49, 271]", "4.2 [-12.1, 10.2]"]
    t.add_row(*cells)
    console = Console(width=80, record=True, file=open("/dev/null", "w"))
    console.print(fitted(t))
    assert_fits(console.export_text(), words_of(*heads, *cells))


def test_the_leaderboard_and_the_plan_keep_every_word_whole(tmp_path, capsys):
    data = {"name": "ladder", "seed": 7, "games": 60, "seating": "teams", "rating": {"outcome": "margin"}, "participants": LADDER, "tables": [{"players": 8}]}
    run_tournament(config_from_data(data), tmp_path / "t.sqlite", progress=False)
    assert main(["leaderboard", "--db", str(tmp_path / "t.sqlite")]) == 0
    board = capsys.readouterr().out
    assert_fits(board, {"participant", "OpenSkill", "Bradley-Terry", "Heuristic-B"}, frozenset({"Heuristic"}))
    config = tmp_path / "t.yaml"
    import yaml

    config.write_text(yaml.safe_dump({**data, "games": 60}), encoding="utf-8")
    assert main(["tournament", str(config), "--db", str(tmp_path / "p.sqlite"), "--plan"]) == 0
    assert_fits(capsys.readouterr().out, {"participant", "Heuristic-B", "werewolf", "villager"}, frozenset({"Heuristic"}))


def test_chinese_narration_breaks_between_characters(capsys):
    assert main(["play", "--language", "zh", "--seed", "3", "--players", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(cell_len(line) <= 80 for line in lines)
    first = lines[1]  # under the game's heading
    assert first.startswith("8 名玩家围坐") and cell_len(first) >= 76, first  # once: "8 " alone


@pytest.mark.parametrize(
    "text, width, lines",
    [
        ("8 名玩家围坐：Alice、Bob和Iris。", 12, ["8 名玩家围", "坐：Alice、", "Bob和Iris。"]),  # a colon never starts a line
        ("警长竞选（上警）开始了。", 10, ["警长竞选", "（上警）开", "始了。"]),  # nor ends with an opening bracket
        ("Alice said hello to everybody", 12, ["Alice said ", "hello to ", "everybody"]),  # words whole
        ("Supercalifragilistic", 8, ["Supercal", "ifragili", "stic"]),  # longer than a line: cut where full
    ],
)
def test_kinsoku_breaks(text, width, lines):
    cuts = [0, *breaks(text, width), len(text)]
    got = [text[a:b] for a, b in zip(cuts, cuts[1:])]
    assert got == lines
    assert all(cell_len(line.rstrip()) <= width for line in got)

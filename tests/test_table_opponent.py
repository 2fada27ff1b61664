"""A person's table seats the reference player by default (issue 50, item 3).

The bots a newcomer first meets (the README's ``werewolf play``, ``--human``, the bots
beside the models of ``--models``, the web start page) are ``arena.gamefile.TABLE_OPPONENT``,
the strongest bot the project ships that plays a game within a second: the reference
player, ``reasoner`` (``benchmarks/table_opponent.py`` times it). A game file's seat
without an agent is not a person's table: it keeps the heuristic bot, so a file and its
seed play the game they always played."""

from __future__ import annotations

import json

from arena.against_models import against_models
from arena.cli import build_parser, main
from arena.gamefile import HUMAN, TABLE_OPPONENT, default_game, spec_from_data
from arena.play_command import _play_spec
from transcript_tools import lines


def test_the_readmes_first_game_is_played_by_the_reference_player(tmp_path, capsys):
    out = tmp_path / "first.jsonl"
    assert main(["play", "--seed", "2", "--quiet", "--json", "--transcript", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] in ("village", "werewolves")
    records = lines(out)
    assert TABLE_OPPONENT == "reasoner" and {s["agent"] for s in records[0]["seats"]} == {"reasoner"}
    answers = [r for r in records if r["type"] == "answer"]
    assert answers and {r["agent"] for r in answers} == {"reasoner"}  # every move the reasoner's own


def test_a_persons_tables_seat_it_and_a_named_bot_still_wins():
    human = build_parser().parse_args(["play", "--human", "Alice", "--seed", "3"])
    assert [s.agent for s in _play_spec(human)[0].seats] == [HUMAN] + ["reasoner"] * 7
    easier = build_parser().parse_args(["play", "--human", "Alice", "--agents", "heuristic", "--seed", "3"])
    assert [s.agent for s in _play_spec(easier)[0].seats] == [HUMAN] + ["heuristic"] * 7
    beside_models = against_models(default_game(players=8, seed=1), "Zoe", ["openai:m"])
    assert {s.agent for s in beside_models.seats} == {HUMAN, "openai:m", "reasoner"}


def test_a_game_files_seat_without_an_agent_keeps_the_heuristic_bot():
    spec = spec_from_data({"seed": 7, "seats": [{"name": n} for n in ("Alice", "Bob", "Chloe", "David", "Emma")]})
    assert {s.agent for s in spec.seats} == {"heuristic"}
    assert {s.agent for s in default_game(players=8).seats} == {"heuristic"}  # simulate's table, the contract's default

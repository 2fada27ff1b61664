"""The engine's fast paths build the same objects as the plain ones.

For throughput (benchmarks/engine_instructions.py) the engine fills players, events and
decisions field by field instead of calling their dataclasses, offers positional forms
of ``emit`` / ``ask`` / ``private``, and keeps the game's state in slots. These tests
pin that each fast form gives exactly what the plain form gives, so a field added to
one of the classes cannot be silently left unset, and that a game still takes the
attributes a mechanic caches on it.
"""

from __future__ import annotations

from dataclasses import fields

from engine import Game, GameSetup
from engine.events import PUBLIC
from engine.game import Player

NAMES = [f"P{i}" for i in range(8)]
DECK = ["werewolf"] * 2 + ["seer", "witch"] + ["villager"] * 4


def _game() -> Game:
    return Game(GameSetup(names=NAMES, seed=3, roles=DECK))


def _as_dict(obj) -> dict:
    return {f.name: getattr(obj, f.name) for f in fields(obj) if f.name != "state"}


def test_a_games_players_are_complete_and_independent():
    game = _game()
    for i, p in enumerate(game.players):
        assert _as_dict(p) == _as_dict(Player(name=p.name, seat=i, role=p.role, initial_role=p.role))
    game.players[0].state["x"] = 1
    assert "x" not in game.players[1].state and game.players[1].state is not game.players[0].state


def test_emit_forms_make_the_same_event():
    game = _game()
    a = game.emit("speech", PUBLIC, speaker="P1", text="hi", round=1)
    b = game.emit_data("speech", PUBLIC, {"speaker": "P1", "text": "hi", "round": 1})
    assert _as_dict(a) | {"seq": 0} == _as_dict(b) | {"seq": 0}
    assert b.seq == a.seq + 1 and game.events[-2:] == [a, b]
    assert a.data == {"speaker": "P1", "text": "hi", "round": 1} and a.kind == "speech"


def test_private_forms_agree():
    game = _game()
    assert game.private("P1") == game.private_to("P1") == frozenset({"P1"})
    assert game.private("P1", "P2") == frozenset({"P1", "P2"})


def test_a_game_still_takes_new_attributes():
    game = _game()
    game.cached_by_a_mechanic = 1  # the ``__dict__`` slot (engine.flow.day_powers caches this way)
    assert game.__dict__["cached_by_a_mechanic"] == 1

"""The engine's one way to emit, to ask and to say who sees: declared kinds.

An event is ``game.emit(Payload(...), audience)`` with a payload class declared by its
kind (``engine.events.event``); a question is ``game.ask(seat, KIND, ...)`` whose shape
is the declared kind's. These tests pin what the records hold (fields in declared
order, omitted ones absent), that a record reads back into its payload, and that a
game's players and state stay independent.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import pytest

from engine import Game, GameSetup
from engine.events import EVENT_KINDS, PUBLIC, EventData, RawEvent, event, payload, private
from engine.decisions import BOOL, CHOICE
from engine.flow.day_powers import HeldPowers, powers_of
from engine.flow.leaving import DeathEvent
from engine.flow.voting import VOTE
from engine.roles.witch import WITCH_HEAL
from engine.speech import Speech
from engine.game import Player

NAMES = [f"P{i}" for i in range(8)]
DECK = ["werewolf"] * 2 + ["seer", "witch"] + ["villager"] * 4


def _game() -> Game:
    return Game(GameSetup(names=NAMES, seed=3, roles=DECK))


def _as_dict(obj) -> dict:
    return {f.name: getattr(obj, f.name) for f in fields(obj) if f.name != "state"}


@dataclass(slots=True)
class _Mark:
    """A mechanic's state, as a role declares it."""

    n: int = 0


def test_a_games_players_are_complete_and_independent():
    game = _game()
    for i, p in enumerate(game.players):
        assert _as_dict(p) == _as_dict(Player(name=p.name, seat=i, role=p.role, initial_role=p.role))
    game.players[0].state.of(_Mark).n = 1
    assert game.players[1].state.peek(_Mark) is None and game.players[1].state is not game.players[0].state
    assert game.players[0].state.of(_Mark).n == 1 and game.players[0].state.drop(_Mark) == _Mark(1)
    assert game.players[0].state.peek(_Mark) is None


def test_a_reseeded_setup_is_the_setup_under_another_seed():
    """``GameSetup.reseeded`` (a simulation's setup for each game) is ``dataclasses.replace``
    of the seed: every field carried over, none forgotten when a field is added."""
    setup = GameSetup(
        names=NAMES, preset="langrensha", seed=1, options=GameSetup(NAMES).rule_options(), roles=DECK,
        forced={"P0": "seer"}, center=["villager", "villager"], buildings={"P1": "tavern"},
    )  # fmt: skip
    assert {f.name: getattr(setup, f.name) for f in fields(setup)}.keys() == {f.name for f in fields(GameSetup)}
    again = setup.reseeded(9)
    assert again == replace(setup, seed=9) and again.seed == 9 and setup.seed == 1
    assert all(getattr(again, f.name) is getattr(setup, f.name) for f in fields(GameSetup) if f.name != "seed")


def test_state_has_no_string_keys():
    """Every mechanic's state is a declared class: a string key is an error, not a
    silently missing value."""
    game = _game()
    for parts in (game.memory, game.night, game.players[0].state):
        with pytest.raises(TypeError):
            parts["lynch_cancelled"]
        with pytest.raises(TypeError):
            parts["dying"] = True
        with pytest.raises(TypeError):
            "extra_votes" in parts
        for method in ("get", "setdefault", "pop"):
            assert not hasattr(parts, method)
    with pytest.raises(TypeError):
        game.night["kills"]  # the night's own fields are attributes
    assert game.night.kills == [] and game.night.wolf_victim is None


def test_emit_records_a_declared_payload():
    game = _game()
    ev = game.emit(Speech("P1", "hi", 1), PUBLIC)
    assert game.events[-1] is ev and ev.seq == len(game.events) - 1
    assert ev.kind == "speech" and ev.data.to_json() == {"speaker": "P1", "text": "hi", "round": 1}
    assert ev.to_json()["data"] == {"speaker": "P1", "text": "hi", "round": 1}


def test_omitted_fields_are_left_out_of_the_record_and_read_back():
    shown, hidden = DeathEvent("P1", "vote", "seer"), DeathEvent("P1", "vote")
    assert shown.to_json() == {"player": "P1", "cause": "vote", "role": "seer"}
    assert hidden.to_json() == {"player": "P1", "cause": "vote"} and "role" not in hidden
    assert payload("death", hidden.to_json()).to_json() == hidden.to_json()


def test_every_declared_kind_reads_back_what_it_writes():
    """A record of another version (an unknown field) is kept as it was, not dropped."""
    assert len(EVENT_KINDS) > 100
    odd = payload("death", {"player": "P1", "cause": "vote", "mood": "calm"})
    assert isinstance(odd, RawEvent) and odd.to_json() == {"player": "P1", "cause": "vote", "mood": "calm"}
    assert isinstance(payload("a_kind_from_the_future", {"x": 1}), RawEvent)


def test_a_kind_cannot_be_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):

        @event("death")
        class Again(EventData):
            player: str


def test_ask_takes_the_shape_from_the_declared_kind():
    game = _game()
    d = game.ask("P1", VOTE, ("P2", "P3"), {"round": 1, "candidates": None}, True)
    assert d.shape == CHOICE and d.kind is VOTE and d.allow_pass and d.context == {"round": 1, "candidates": None}
    h = game.ask("P1", WITCH_HEAL, (True, False), {"victim": "P2"})
    assert h.shape == BOOL and h.id == d.id + 1


def test_emit_and_ask_make_what_the_classes_make():
    """``Game.emit`` and ``Game.ask`` set their objects' fields themselves (no
    ``__init__`` frame): every field is set, and each object equals, and reads as,
    the one its class makes from the same fields (a field added to ``Event`` or
    ``Decision`` and not set there fails here)."""
    game = _game()
    asked = []
    while game.pending:
        for d in list(game.pending):
            asked.append(d)
            game.submit(d.id, d.options[0] if d.options else d.pass_answer)
    assert len(game.events) > 20 and len(asked) > 20
    for made in [*game.events, *asked]:
        cls = type(made)
        again = cls(*[getattr(made, f.name) for f in fields(cls)])
        assert made == again and repr(made) == repr(again) and made.to_json() == again.to_json()


def test_private_audiences_are_shared():
    assert private("P1") == frozenset({"P1"}) and private("P1") is private("P1")
    assert private("P1", "P2") == frozenset({"P1", "P2"})


def test_a_game_takes_no_attribute_it_does_not_declare():
    """``Game`` has slots and no ``__dict__``: a mechanic keeps its state in a typed part
    of ``game.memory`` (the day powers in ``HeldPowers``), never on the game itself."""
    game = _game()
    with pytest.raises(AttributeError):
        game.cached_by_a_mechanic = 1  # type: ignore[attr-defined]
    assert not hasattr(game, "__dict__")
    assert game.memory.peek(HeldPowers) is None
    powers = powers_of(game)
    assert game.memory.of(HeldPowers).powers is powers and powers_of(game) is powers

"""A pure, deterministic Werewolf rules engine: no I/O, no clocks, no models.

Start from ``Game(GameSetup(...))``; answer ``game.waiting`` decisions with
``game.submit(decision_id, answer)`` until ``game.over``.
"""

from engine.decisions import Decision, GameError, IllegalAnswer
from engine.events import NARRATOR, PUBLIC, Event
from engine.flow import protocols as _protocols  # noqa: F401  (registers the ``bid`` decision kind)
from engine.game import Game, Player
from engine.options import RuleOptions
from engine.presets import PRESETS, get_preset
from engine.roles import ROLES
from engine.setup import GameSetup, SetupError

__all__ = [
    "Decision",
    "Event",
    "Game",
    "GameError",
    "GameSetup",
    "IllegalAnswer",
    "NARRATOR",
    "PRESETS",
    "PUBLIC",
    "Player",
    "ROLES",
    "RuleOptions",
    "SetupError",
    "get_preset",
]

"""A pure, deterministic Werewolf rules engine: no I/O, no clocks, no models.

Start from ``Game(GameSetup(...))``; answer ``game.waiting`` decisions with
``game.submit(decision_id, answer)`` until ``game.over``.
"""

from engine.decisions import Decision, GameError, IllegalAnswer
from engine.events import NARRATOR, PUBLIC, Event
from engine.options import RuleOptions

import engine.catalogue  # noqa: F401,E402,I001  (every role and building registers, in the books' order)
import engine.flow.main  # noqa: F401,E402  (declares the flow's decision and event kinds)
from engine.game import Game, Player
from engine.presets import PRESETS, get_preset
from engine.roles.base import ROLES
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

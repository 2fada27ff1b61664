"""A power with no policy of its own is played from its declaration (agents/heuristic_powers.py).

A new role's decision that declares ``Power(WOLF)`` must go to the player the seat
knows or most suspects to be a wolf, one that declares ``Power(NOT_WOLF)`` to the one it
trusts: the reference bots play it sensibly from its first game, without an entry in
the heuristic's policy tables.
"""

from __future__ import annotations

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from engine.decisions import CHOICE, NOT_WOLF, WOLF, Decision, DecisionKind, Power
from engine.events import PUBLIC, Event

NAMES = [f"P{i}" for i in range(8)]
STRIKE = DecisionKind("test_lantern_strike", CHOICE, power=Power(WOLF, note="a test power"))
SHIELD = DecisionKind("test_lantern_shield", CHOICE, power=Power(NOT_WOLF, note="a test power"))


def _view(me: str = "P0") -> SeatView:
    """P0, the Seer, has seen P3's card (a werewolf) and P4's (a villager)."""
    deck = ["werewolf"] * 2 + ["seer"] + ["villager"] * 5
    evs = [
        Event.recorded(0, "game_start", 0, "setup", PUBLIC, {"players": NAMES, "preset": "millers_hollow", "roles_in_play": deck, "set_aside": 0}),
        Event.recorded(1, "role", 0, "setup", frozenset([me]), {"player": me, "role": "seer"}),
        Event.recorded(2, "seer_result", 1, "night", frozenset([me]), {"seer": me, "target": "P3", "role": "werewolf"}),
        Event.recorded(3, "seer_result", 2, "night", frozenset([me]), {"seer": me, "target": "P4", "role": "villager"}),
    ]
    return SeatView(me, evs)


def test_a_striking_power_goes_to_the_known_wolf():
    options = ("P1", "P2", "P3", "P4", "P5")
    for seed in range(10):
        bot = HeuristicAgent("P0", seed=seed)
        bot.strict = True
        assert bot.decide(_view(), Decision(9, "P0", STRIKE, CHOICE, options, True)) == "P3"


def test_a_shielding_power_goes_to_a_trusted_player_never_the_wolf():
    options = ("P1", "P2", "P3", "P4", "P5")
    for seed in range(10):
        bot = HeuristicAgent("P0", seed=seed)
        bot.strict = True
        assert bot.decide(_view(), Decision(9, "P0", SHIELD, CHOICE, options, False)) == "P4"


def test_with_no_suspect_a_keepable_strike_is_kept():
    bot = HeuristicAgent("P0", seed=1)
    bot.strict = True
    assert bot.decide(_view(), Decision(9, "P0", STRIKE, CHOICE, ("P1", "P2", "P5"), True)) is None

"""The heuristic bot's play for any power aimed at a player, from the kind's declaration.

A decision kind that aims a power declares what a good target is for the side it
serves (``engine.decisions.Power``: a werewolf, a non-wolf, a holder of an Auxiliary
Role), the same declaration the power-accuracy metric reads. That is enough to play it
sensibly without a policy of its own: a power that strikes or checks goes to the
player the seat most suspects, one that shields or gives to the player it most trusts,
and a seat playing for the other side (a converted villager, a wolf holding a village
power) turns the choice around. So a new role's power is played from its first game;
a policy written for the role (``agents.heuristic`` ``POLICIES``) still takes
precedence when the rule needs more than that.
"""

from __future__ import annotations

from typing import Any

from agents.heuristic_situation import Situation
from engine.decisions import AUXILIARY, NOT_WOLF, WOLF, Power

# With no suspect above this probability a striking power that may be kept is kept: a
# shot in the dark hurts the village more often than it helps.
STRIKE_AT = 0.35


def declared_power(kind: Any) -> Power | None:
    """The power a decision kind declares (None for a kind read back as a plain name)."""
    return getattr(kind, "power", None)


def aimed_power(sit: Situation) -> Any:
    """Play the declared power: see the module's docstring."""
    d = sit.decision
    power = declared_power(d.kind)
    options = [o for o in d.options if isinstance(o, str)]
    if power is None or not options:
        return None
    b = sit.beliefs
    serves_wolves = sit.mem.is_wolf != (power.side == "werewolves")  # playing against the power's own side
    if power.good == AUXILIARY:
        return sit.best(options, lambda n: sit.threat(n))
    want_wolf = (power.good == WOLF) != serves_wolves
    if want_wolf:
        pick = sit.best(options, b.rank)
        if d.allow_pass and pick is not None and b.of(pick) < STRIKE_AT and not serves_wolves:
            return None
        return pick
    assert power.good == NOT_WOLF or serves_wolves
    return sit.best(options, lambda n: -b.rank(n))

"""The heuristic bot's play of The Village's characters (000, Rules of Expansion #2).

The Raven posts his accusation on the player his beliefs hold most suspect, and only
when that suspicion is real: two extra votes on an innocent help the pack."""

from __future__ import annotations

from agents.heuristic_situation import Situation

POSTER_CONFIDENCE = 0.35


def raven_mark(sit: Situation) -> str | None:
    options = [o for o in sit.decision.options if o != sit.mem.beloved]
    if not options:
        return None
    if sit.mem.is_wolf:  # a Raven turned wolf (a Thief's swap cannot, but be safe): frame a villager
        villagers = [o for o in options if o not in sit.mem.pack]
        return sit.best(villagers, sit.threat) if villagers else None
    b = sit.beliefs
    target = sit.best(options, b.of)
    if target is not None and (b.of(target) >= POSTER_CONFIDENCE or not sit.decision.allow_pass):
        return target
    return None


POLICIES = {"raven_mark": raven_mark}

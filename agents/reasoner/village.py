"""The village's plays from the posterior: votes, the badge, the Seer's look, the Witch's
potions, the Hunter's shot, the Protector's guard.

Ties go to the first in seat order (``first_best``), never to dice: every reasoner of
the village reads the same public evidence, so their choices gather on one name.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from agents.reasoner.agent import Mind

POISON_AT = 0.8  # the Witch poisons only a player this likely a wolf (more as the table thins)
SHOOT_FLOOR = 0.0
SEER_TRUST = 0.5  # how much a likely Seer counts toward the badge, against P(wolf)


def first_best(options: Iterable[str], score: Callable[[str], float]) -> str | None:
    """The option with the highest score, ties to the first (scores compared to 1e-9)."""
    best, top = None, -math.inf
    for o in options:
        s = score(o)
        if s > top + 1e-9:
            best, top = o, s
    return best


def vote(m: "Mind") -> str | None:
    """The likeliest wolf on offer."""
    options = [o for o in m.decision.options if o != m.mem.beloved] or list(m.decision.options)
    if not options:
        return None
    return first_best(options, m.mine.p)


def sheriff_vote(m: "Mind") -> str | None:
    """The badge to the most trusted, a likely Seer first (her checks then carry two
    votes); never oneself unless one is the Seer who has come out."""
    options = list(m.decision.options)
    if not options:
        return None
    me = m.me
    mem = m.mem
    claim = mem.my_public_claim()
    if me in options and mem.my_role == "seer" and claim is not None and claim.role == "seer":
        return me
    others = [o for o in options if o != me] or options
    return first_best(others, lambda n: -m.mine.p(n) + SEER_TRUST * m.mine.role(n, "seer"))


def sheriff_successor(m: "Mind") -> str | None:
    options = list(m.decision.options)
    if not options:
        return None
    return first_best(options, lambda n: -m.mine.p(n) + SEER_TRUST * m.mine.role(n, "seer"))


def sheriff_tiebreak(m: "Mind") -> str | None:
    options = list(m.decision.options)
    if not options:
        return None
    return first_best(options, m.mine.p)


def seer_check(m: "Mind") -> str | None:
    """Where the look is worth most: a likely wolf (a found wolf is a lynch), weighed by
    how uncertain the player still is (a look at a near-certain player teaches little);
    never a player already seen."""
    mem = m.mem
    options = [o for o in m.decision.options if o not in mem.seer_results] or list(m.decision.options)
    if not options:
        return None

    def worth(n: str) -> float:
        p = m.mine.p(n)
        if p <= 1e-9 or p >= 1.0 - 1e-9:
            return -1.0
        return p + 0.5 * _entropy(p)

    return first_best(options, worth)


def _entropy(p: float) -> float:
    return -(p * math.log2(p) + (1.0 - p) * math.log2(1.0 - p))


def witch_heal(m: "Mind") -> bool:
    """Heal a victim the village cannot spare: herself, a likely Seer, or any victim in
    the first nights (a life saved early is a vote for the rest of the game)."""
    d = m.decision
    if True not in d.options:
        return False
    victim = d.context.get("victim")
    if not isinstance(victim, str):
        return False
    if victim == m.me or m.mem.day <= 2:
        return True
    return m.mine.role(victim, "seer") >= 0.3 or len(m.mem.alive) <= 6


def witch_poison(m: "Mind") -> str | None:
    """Only a near-certain wolf; the bar lowers as the table thins and every wolf left
    decides more."""
    options = [o for o in m.decision.options if o not in (m.me, m.mem.beloved)]
    if not options:
        return None
    target = first_best(options, m.mine.p)
    bar = POISON_AT - (0.15 if len(m.mem.alive) <= 5 else 0.0)
    if target is not None and m.mine.p(target) >= bar:
        return target
    return None


def hunter_shot(m: "Mind") -> str | None:
    """The likeliest wolf; a wolf with a gun shoots the likeliest Seer."""
    options = [o for o in m.decision.options if o != m.mem.beloved] or list(m.decision.options)
    if not options:
        return None
    if m.mem.is_wolf:
        others = [o for o in options if o not in m.mem.pack] or options
        return first_best(others, lambda n: m.mine.role(n, "seer") + 0.1 * (1.0 - m.table.p(n)))
    target = first_best(options, m.mine.p)
    if target is not None and m.decision.allow_pass and m.mine.p(target) <= SHOOT_FLOOR:
        return None
    return target


def protector_guard(m: "Mind") -> str | None:
    """The player the pack most likely wants dead tonight, among the trusted: a likely
    Seer first, then whoever the table trusts most."""
    options = list(m.decision.options)
    if not options:
        return None

    def worth(n: str) -> float:
        good = 1.0 - m.mine.p(n)
        return good * (2.0 * m.mine.role(n, "seer") + (1.0 - m.table.p(n)) + (0.5 if n == m.mem.sheriff else 0.0))

    return first_best(options, worth)

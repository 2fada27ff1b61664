"""The village's plays from the posterior: votes, the badge, the Seer's look, the Witch's
potions, the Hunter's shot, the Protector's guard.

Ties go to the first in seat order (``first_best``), never to dice: every reasoner of
the village reads the same public evidence, so their choices gather on one name.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from agents.reasoner.mind import Mind

SEER_LIFE = 2.0  # a Seer's life is worth this many more lives to the village
SELF_LIFE = 1.0  # the Witch's own, beside: her potions and her vote
KEEP = 1.0  # an unused potion at the start, in lives
WOLF_REMOVED = 2.0  # a wolf poisoned, in lives: the pack is a third of the table or less
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
    """Heal when the victim's life is worth more than the potion kept: a life is worth 1,
    more for a likely Seer or for the Witch herself (the heal is then her own survival);
    the potion kept is worth what a later save would be, which shrinks as the table
    thins (fewer nights left to use it)."""
    d = m.decision
    if True not in d.options:
        return False
    victim = d.context.get("victim")
    if not isinstance(victim, str):
        return False
    life = 1.0 + SEER_LIFE * m.mine.role(victim, "seer") + (SELF_LIFE if victim == m.me else 0.0)
    return life >= _potion_kept(m)


def _potion_kept(m: "Mind") -> float:
    """What an unused potion is still worth: ``KEEP`` of a life at the start, in
    proportion to the players left."""
    mem = m.mem
    return KEEP * len(mem.alive) / max(1, len(mem.players))


def witch_poison(m: "Mind") -> str | None:
    """Poison the likeliest wolf when it pays: a wolf removed is worth ``WOLF_REMOVED``
    lives, a villager poisoned costs one, and the potion kept is worth ``_potion_kept``
    (so the bar falls as the table thins)."""
    options = [o for o in m.decision.options if o not in (m.me, m.mem.beloved)]
    if not options:
        return None
    target = first_best(options, m.mine.p)
    if target is None:
        return None
    p = m.mine.p(target)
    gain = p * WOLF_REMOVED - (1.0 - p)
    return target if gain > _potion_kept(m) else None


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
    """Guard where the guard saves most: the chance the pack devours each player tonight
    (the model of the pack's choice, ``model.KillFactor``, under this seat's posterior)
    times what his life is worth to the village (more for a likely Seer)."""
    options = list(m.decision.options)
    if not options:
        return None
    attack = m.attack_chances()

    def worth(n: str) -> float:
        return attack.get(n, 0.0) * (1.0 - m.mine.p(n)) * (1.0 + SEER_LIFE * m.mine.role(n, "seer"))

    return first_best(options, worth)

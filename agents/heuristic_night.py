"""Night actions, and the Hunter's dying shot: the choices made with secret knowledge.

Power roles spend their powers where the beliefs say it pays; the pack kills whom
its talk agreed on so that a unanimous pack rule never wastes a night.
"""

from __future__ import annotations

from typing import Any

from agents.heuristic_memory import Memory, is_wolf_role
from agents.heuristic_situation import Situation
from engine.roles import ROLES

POISON_CONFIDENCE = 0.85  # the Witch kills only a player she is nearly sure of
LATE_HEAL_CHANCE = 0.5  # after the first nights the heal is kept for someone who matters
SPY_CHANCE = 0.4
CUPID_SELF_CHANCE = 0.35
THIEF_WOLF_CHANCE = 0.3
POWER_ORDER = ("seer", "witch", "hunter", "little_girl", "cupid")


def kill_options(mem: Memory, victims: list[str] | None = None) -> list[str]:
    """Whom the pack may devour as this wolf sees it: the engine's list when the
    question gives one (``wolf_chat``'s ``victims``: it knows the Tavernkeeper's
    shelter), else its rule as the memory reads it (living, not a wolf); never the
    wolf's beloved, whose death would take him too."""
    if victims is not None:
        return [n for n in victims if n != mem.beloved]
    return [n for n in mem.alive if n not in mem.pack and n != mem.beloved]


def choose_victim(sit: Situation, legal: list[str]) -> str | None:
    """A caught Little Girl first, then whoever threatens the pack most."""
    mem = sit.mem
    if mem.caught_girl in legal and mem.caught_girl not in mem.dead:
        return mem.caught_girl
    angels = mem.likely_angels()
    if angels:  # devouring the Angel in his first round makes him win
        legal = [n for n in legal if n not in angels] or legal
    return sit.best(legal, sit.threat)


def pack_consensus(mem: Any, d: Any) -> tuple[list[str], str | None]:
    """The pack's kill options (the beloved spared where another is legal) and the
    victim already agreed, if any: the one the Little Girl was caught by, the first
    wolf's pick still legal after a failed attempt, tonight's last name in the pack's
    talk. Shared by every bot that plays a wolf, which then chooses a victim only when
    the pack has not."""
    # Where the rules let a Lover harm the beloved (002: only the vote is barred), a
    # wolf still spares them: their death would take him too, of grief.
    options = [o for o in d.options if o != mem.beloved] or list(d.options)
    if not options:
        return options, None
    caught = d.context.get("caught")
    if caught in options:
        return options, caught
    attempts = mem.wolf_votes.get(mem.day, [])
    if attempts:  # a failed attempt: rally on the first wolf's pick still legal
        for w in sorted(attempts[-1]):
            pick = attempts[-1][w]
            if pick in options:
                return options, pick
    tonight = mem.chat_targets.get(mem.day, [])
    if tonight and tonight[-1][1] in options:
        return options, tonight[-1][1]
    return options, None


def wolf_kill(sit: Situation) -> str | None:
    options, agreed = pack_consensus(sit.mem, sit.decision)
    if agreed is not None or not options:
        return agreed
    return choose_victim(sit, [o for o in options if o not in sit.mem.pack]) or options[0]


def seer_check(sit: Situation) -> str | None:
    """The most suspicious player she has not looked at yet."""
    mem, b = sit.mem, sit.beliefs
    options = list(sit.decision.options)
    fresh = [o for o in options if o not in mem.seer_results] or options
    return sit.best(fresh, b.of)


def witch_heal(sit: Situation) -> bool:
    d, mem = sit.decision, sit.mem
    if True not in d.options:
        return False
    victim = d.context.get("victim")
    if victim is None:
        return False
    if victim == mem.me or mem.day <= 2:
        return True
    claim = mem.claims.get(victim)
    if claim is not None and claim.role in ("seer", "hunter") and victim not in sit.beliefs.liars:
        return True
    return sit.rng.random() < LATE_HEAL_CHANCE


def witch_poison(sit: Situation) -> str | None:
    """Only a near-certain wolf: a wasted poison on a villager helps the pack."""
    b = sit.beliefs
    angels = sit.mem.likely_angels()
    # never herself, where the rules allow it (002): she knows she is no wolf
    options = [o for o in sit.decision.options if o != sit.mem.beloved and o not in angels and o != sit.me]
    if not options:
        return None
    target = sit.best(options, b.of)
    if target is not None and b.of(target) >= POISON_CONFIDENCE:
        return target
    return None


def hunter_shot(sit: Situation) -> str | None:
    """A village Hunter shoots his top suspect; a wolf (a role of the pack handed a
    gun by some future rule) shoots the villager the pack fears most."""
    mem = sit.mem
    options = [o for o in sit.decision.options if o != mem.beloved] or list(sit.decision.options)
    if not options:
        return None
    if mem.is_wolf:
        others = [o for o in options if o not in mem.pack] or options
        return sit.best(others, sit.threat)
    return sit.best(options, sit.beliefs.of)


def cupid_lovers(sit: Situation) -> list[str] | None:
    d, rng, me = sit.decision, sit.rng, sit.me
    options = list(d.options)
    if len(options) < d.count:
        return None
    others = [o for o in options if o != me]
    if me in options and others and rng.random() < CUPID_SELF_CHANCE:
        return [me, rng.choice(others)]
    if len(others) >= 2:
        return rng.sample(others, 2)
    return rng.sample(options, 2)


def thief_swap(sit: Situation) -> Any:
    """Forced: a wolf card. Free: a power card over a plain villager, sometimes the
    wolf's side for the thrill; otherwise keep the Thief's card."""
    d, rng = sit.decision, sit.rng
    options = list(d.options)
    wolves = [o for o in options if is_wolf_role(o)]
    if not d.allow_pass:
        return (wolves or options or [None])[0]
    if wolves and rng.random() < THIEF_WOLF_CHANCE:
        return wolves[0]
    powers = [o for o in options if not is_wolf_role(o) and o != "villager" and o in ROLES]
    if powers:
        return min(powers, key=lambda r: POWER_ORDER.index(r) if r in POWER_ORDER else len(POWER_ORDER))
    return None


def little_girl_spy(sit: Situation) -> bool:
    return True in sit.decision.options and sit.rng.random() < SPY_CHANCE

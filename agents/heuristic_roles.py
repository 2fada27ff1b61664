"""Night policies of the Best of Werewolves (003) and 狼人杀 (001) characters.

Each one plays its power with intent, from the seat's events alone:

- the Protector guards the player the pack most wants dead (a credible Seer first),
  himself when nobody stands out;
- the Fox sniffs where a werewolf is most likely, and passes rather than waste his
  power on a group he already knows;
- the Wild Child takes as model the player he trusts most (a villager's death turns him);
- the Wolf-Hound joins the pack when the deck leaves it short, else stays a villager;
- the White Werewolf lets the pack eat the village, then turns on it when the wolves
  would soon win without him;
- the Infect Father converts power roles and a thinning pack's victims;
- the Big Bad Wolf's second victim is the next threat in line;
- the Pied Piper charms the players least likely to die soon (a charm on the dead is
  wasted), never a known wolf first;
- Cupid's second pair (狼人杀 variant) is drawn at random;
- the Sisters tell each other whom they suspect.

``ROLE_POLICIES`` maps their decision kinds; ``agents.heuristic`` routes to it.
"""

from __future__ import annotations

from typing import Any, Callable

from agents.heuristic_memory import Memory, neighbours
from agents.heuristic_night import choose_victim
from agents.heuristic_situation import Situation

SELF_GUARD_CHANCE = 0.3
FOX_MIN_CHANCE = 0.25  # below this chance of a wolf in the group, keep the power
HOUND_WOLF_CHANCE = 0.4
INFECT_CHANCE = 0.35
WHITE_WOLF_MARGIN = 1  # the White Werewolf betrays once the pack is this close to parity
POWER_CLAIMS = ("seer", "witch", "fox", "hunter", "protector", "bear_tamer")


def protector_guard(sit: Situation) -> str | None:
    mem, b = sit.mem, sit.beliefs
    options = list(sit.decision.options)
    if not options:
        return None
    claimed = [
        o for o in options
        if o != mem.me and mem.claims.get(o) is not None and mem.claims[o].role in POWER_CLAIMS and o not in b.liars and b.of(o) < 0.5
    ]  # fmt: skip
    if claimed:
        return sit.best(claimed, lambda n: sit.threat(n) - b.of(n))
    if mem.me in options and sit.rng.random() < SELF_GUARD_CHANCE:
        return mem.me
    return sit.best(options, lambda n: sit.threat(n) - 2 * b.of(n))


def sister_chat(sit: Situation) -> dict[str, Any]:
    mem, b = sit.mem, sit.beliefs
    others = [n for n in mem.alive if n != mem.me and n not in mem.sisters]
    top = sit.best(others, b.of)
    if top is None or b.of(top) <= 0:
        return {"text": sit.say("sister_chat.none")}
    return {"text": sit.say("sister_chat.suspect", target=top)}


def _group_chance(mem: Memory, sit: Situation, name: str) -> tuple[float, bool]:
    """P(at least one werewolf in the group) and whether the answer is already known."""
    b = sit.beliefs
    group = [name, *neighbours(mem, name)]
    miss = 1.0
    known = True
    for g in group:
        p = 0.0 if g == mem.me and not mem.is_wolf else b.of(g)
        if g in b.known:
            p = 1.0 if b.known[g] else 0.0
        else:
            known = False
        miss *= 1.0 - min(p, 1.0)
    return 1.0 - miss, known or any(b.known.get(g) for g in group)


def fox_sniff(sit: Situation) -> str | None:
    mem = sit.mem
    best, score = None, -1.0
    for o in sit.decision.options:
        chance, known = _group_chance(mem, sit, o)
        if known:
            continue
        key = chance + 0.001 * sit.rng.random()
        if key > score:
            best, score = o, key
    if best is None or score < FOX_MIN_CHANCE:
        return None
    return best


def wild_child_model(sit: Situation) -> str | None:
    b = sit.beliefs
    options = list(sit.decision.options)
    return sit.best(options, lambda n: -b.of(n))


def wolf_hound_side(sit: Situation) -> str:
    mem = sit.mem
    wolves = sum(1 for r in mem.roles_in_play if r in ("werewolf", "infect_father", "big_bad_wolf", "white_werewolf"))
    chance = HOUND_WOLF_CHANCE + (0.2 if wolves * 4 < len(mem.players) else 0.0)
    return "werewolves" if sit.rng.random() < chance else "village"


def white_werewolf_kill(sit: Situation) -> str | None:
    """Betray the pack once it no longer needs him: when the other wolves are at least
    half as many as the rest, they could win without him."""
    mem, pub = sit.mem, sit.public
    options = list(sit.decision.options)
    if not options:
        return None
    mates = [n for n in mem.pack_alive if n != mem.me]
    villagers = [n for n in mem.alive if n not in mem.pack and n != mem.me]
    if len(mates) + WHITE_WOLF_MARGIN >= len(villagers) or len(villagers) <= 1:
        return sit.best(options, lambda n: -pub.of(n))  # the mate the village would spare
    return None


def infect_father_infect(sit: Situation) -> bool:
    mem, d = sit.mem, sit.decision
    if True not in d.options:
        return False
    victim = d.context.get("victim")
    claim = mem.claims.get(victim) if isinstance(victim, str) else None
    if claim is not None and claim.role in POWER_CLAIMS:
        return True
    if len(mem.pack_alive) <= 2 and mem.day >= 2:
        return True
    return sit.rng.random() < INFECT_CHANCE


def big_bad_wolf_kill(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    return choose_victim(sit, options) or (options[0] if options else None)


def pied_piper_charm(sit: Situation) -> list[str] | None:
    mem, pub = sit.mem, sit.public
    d = sit.decision
    options = list(d.options)
    if len(options) < d.count:
        return None
    ranked = sorted(options, key=lambda n: (pub.of(n) + 0.3 * mem.accused_today(n), sit.rng.random()))
    return ranked[: d.count]


def cupid_deceiver(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    return sit.rng.choice(options) if options else None


def cupid_paramour(sit: Situation) -> str | None:
    options = [o for o in sit.decision.options if o != sit.me] or list(sit.decision.options)
    return sit.rng.choice(options) if options else None


ROLE_POLICIES: dict[str, Callable[[Situation], Any]] = {
    "protector_guard": protector_guard,
    "sister_chat": sister_chat,
    "fox_sniff": fox_sniff,
    "wild_child_model": wild_child_model,
    "wolf_hound_side": wolf_hound_side,
    "white_werewolf_kill": white_werewolf_kill,
    "infect_father_infect": infect_father_infect,
    "big_bad_wolf_kill": big_bad_wolf_kill,
    "pied_piper_charm": pied_piper_charm,
    "cupid_deceiver": cupid_deceiver,
    "cupid_paramour": cupid_paramour,
}

"""What the reasoner says: its real claims (or, for a wolf, the story it chose) in the
structured claim syntax every bot reads, worded with the heuristic bot's lines.

A villager names his likeliest wolf when the posterior singles one out; the Seer comes
out when what she saw is worth more than her cover (a wolf found, a rival claimant,
suspicion on her, the endgame) and then tells every result; a claimant whose claim
the posterior all but rules out is called a liar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import agents.heuristic_talk as heuristic_talk
from agents.heuristic_memory import is_wolf_role
from agents.heuristic_talk import GOOD, SEER, WOLF, Speech, heat, words
from agents.reasoner.village import first_best

if TYPE_CHECKING:
    from agents.reasoner.mind import Mind

ACCUSE_AT = 0.0  # accuse the likeliest wolf whenever there is one: a named suspect draws the pack's attention, which tells
STRONG = 0.6
LIAR_BELOW = 0.03  # P(he holds the card he claims) under which a claimant is called a liar


def speak(m: "Mind") -> dict[str, Any]:
    if m.mem.is_wolf:
        return heuristic_talk.speak(m)
    sp = village_speech(m)
    return {"text": words(m, sp), "claims": sp.claims()}


def village_speech(m: "Mind") -> Speech:
    mem = m.mem
    sp = Speech()
    h = heat(mem, mem.me)
    before = mem.my_public_claim()
    said = before.role if before else None
    role = mem.my_role
    if role == SEER:
        _seer(m, sp, h)
    elif role in ("witch", "hunter") and (said == role or h >= (2 if role == "witch" else 1)):
        sp.role = role
    elif role in heuristic_talk.CHARACTER_SPEECHES and heuristic_talk.CHARACTER_SPEECHES[role](m, sp, h, said):
        pass
    elif h >= 1 or said == GOOD:
        sp.role = GOOD
    liar = _liar(m)
    if liar is not None:
        sp.liar = liar
    if not sp.accuses:
        top = _suspect(m)
        if top is not None:
            sp.accuses = [top]
            sp.strong = m.mine.p(top) >= STRONG
    return sp


def _suspect(m: "Mind") -> str | None:
    """The likeliest wolf, when the posterior singles him out."""
    mem = m.mem
    others = [n for n in mem.alive if n != mem.me and n != mem.beloved]
    if not others:
        return None
    top = first_best(others, m.mine.p)
    if top is None:
        return None
    return top if m.mine.p(top) > ACCUSE_AT else None


def _liar(m: "Mind") -> tuple[str, str] | None:
    alive = set(m.mem.alive)
    for name, role in m.agent.claims().items():
        if name != m.me and name in alive and not is_wolf_role(role) and m.mine.role(name, role) < LIAR_BELOW:
            return name, role
    return None


def _seer(m: "Mind", sp: Speech, h: float) -> None:
    """Come out when it pays (see the module docstring), then tell everything seen."""
    mem = m.mem
    results = mem.seer_results
    alive = set(mem.alive)
    found = [t for t, r in results.items() if is_wolf_role(r) and t in alive]
    rivals = [c for c, cl in mem.claims.items() if c != mem.me and c in alive and cl.role == SEER]
    before = mem.my_public_claim()
    late = len(alive) <= 5 or (mem.day >= 3 and len(results) >= 2)
    last = m.decision.context.get("phase") == "last_words"
    if not (before and before.role == SEER) and not found and not rivals and h < 2 and not late and not last:
        return
    sp.role = SEER
    sp.checks = [(t, WOLF if is_wolf_role(r) else GOOD) for t, r in results.items()]
    if rivals:
        sp.counter = rivals[0]
    sp.accuses = found or rivals
    sp.strong = bool(sp.accuses)

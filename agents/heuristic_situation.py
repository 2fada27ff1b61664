"""What every heuristic policy needs at hand for one decision.

Beliefs are computed lazily and at most once per moment of the memory (``judged``): most decisions need only
one perspective, and night actions of a villager never need the public one.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Sequence

from agents.heuristic_lines import line, role_name
from agents.heuristic_memory import Memory, is_wolf_role
from agents.heuristic_suspicion import Beliefs, judged
from engine.decisions import Decision


SPOTTED_THREAT = 2.5  # a human the pack knows holds an informed role: worth the night's kill

# ``round(x, 6)`` costs ~8K instructions (it goes through the decimal digits), ~30x
# the comparison, and ``best`` rounds every option of every choice. Rounding to n
# places moves a score by at most half a unit of the last place and never changes
# the order of two scores, so two scores further apart than one unit (with a margin)
# compare rounded as they compare unrounded, and only close ones need rounding. This
# holds while the spacing of doubles is far below the unit: for |score| < 2**32
# (scores are probabilities and sums of a few weights; beyond that, or NaN, the
# scores are rounded as always).
_CLOSE = 2e-6  # round(x, 6)
_CLOSE_2 = 2e-2  # round(x, 2)
_EXACT = 2.0**32


def as_rounded(scores: dict[str, float]) -> dict[str, float]:
    """``scores`` as they compare rounded to 6 places: ``scores`` themselves when no two
    different ones lie within ``_CLOSE`` of each other (rounding then keeps every
    order and every tie), else every score rounded. A pass over the sorted scores
    costs about one ``round``, and a choice ranks ~7 of them."""
    lo: float | None = None
    for s in sorted(scores.values()):
        if not -_EXACT < s < _EXACT or (lo is not None and s != lo and s - lo < _CLOSE):
            return {n: round(s, 6) for n, s in scores.items()}
        lo = s
    return scores


class Situation:
    # What is worked out at most once per decision (the memory does not change while the
    # seat decides): the beliefs, and what ``threat`` and the pack's speeches weigh for
    # each candidate, instead of scanning the game's accusations or listing the living
    # pack again per candidate. Unset until first asked: the class's None stands in,
    # so that building a Situation (one per decision) costs only its six arguments.
    _private: Beliefs | None = None
    _public: Beliefs | None = None
    _framed: frozenset[str] | None = None
    _pack_accusations: dict[str, int] | None = None
    _pack_alive: list[str] | None = None
    _pack_claimant: tuple[str | None] | None = None  # a 1-tuple once known, so that "nobody" is kept too

    def __init__(self, mem: Memory, rng: random.Random, decision: Decision, plan: dict, lang: str = "en", seed: int = 0):
        self.mem = mem
        self.seed = seed  # the table's seed: dice a whole pack shares (``pack_dice``)
        self.rng = rng
        self.decision = decision
        self.plan = plan  # the seat's intentions that must stay consistent across days
        self.lang = lang  # the language the seat speaks (``prompts/bot_lines/<lang>.yaml``)

    @property
    def beliefs(self) -> Beliefs:
        """Everything this seat knows, its secrets included."""
        if self._private is None:
            self._private = judged(self.mem, private=True)
        return self._private

    @property
    def public(self) -> Beliefs:
        """What the table as a whole can conclude: how a wolf reads the village."""
        if self._public is None:
            self._public = judged(self.mem, private=False)
        return self._public

    def say(self, key: str, **fill: str) -> str:
        """One line of the situation ``key`` in the seat's language."""
        return line(self.rng, key, self.lang, fill)

    def role_name(self, role: str | None) -> str:
        return role_name(role, self.lang)

    @property
    def me(self) -> str:
        return self.mem.me

    def best(self, options: Iterable[str], score: Callable[[str], float]) -> str | None:
        """The option with the highest score; ties broken by the seat's own dice, so
        equal players do not always lose to the first seat."""
        # The pair (score rounded to 6 places, draw) compared without building it: one
        # draw per option as before, so the dice and the winner are the same. The score
        # is rounded only when it is close to the leader's (``_CLOSE``).
        best: str | None = None
        found, lead, tie = False, 0.0, 0.0  # the leader's score and its draw
        top: float | None = None  # the leader's score rounded, once asked
        # Whether the leader's score is in the range where closeness decides, kept as
        # the leader changes rather than tested again for every option (~350 a game).
        lo, hi = -_EXACT, _EXACT
        near = False  # a leader found, its score in range
        draw = self.rng.random
        for o in options:
            s = score(o)
            r = draw()
            if near and lo < s < hi:
                if s - lead > _CLOSE:
                    best, lead, top, tie = o, s, None, r  # ``near`` stands: ``s`` is in range
                    continue
                if lead - s > _CLOSE:
                    continue
            if not found:
                best, found, lead, top, tie = o, True, s, None, r
                near = lo < s < hi
                continue
            if s == lead:  # the same score rounds the same: the dice decide
                if r > tie:
                    best, tie = o, r
                continue
            k = round(s, 6)
            if top is None:
                top = round(lead, 6)
            if k > top or (k == top and r > tie):
                best, lead, top, tie = o, s, k, r
                near = lo < s < hi
        return best

    def pick(self, options: Sequence[str], score: Callable[[str], float]) -> str:
        """``best`` of options known not to be empty (a caller's bug otherwise)."""
        chosen = self.best(options, score)
        if chosen is None:
            raise ValueError("pick() needs at least one option")
        return chosen

    def consensus(self, options: Iterable[str], score: Callable[[str], float]) -> str | None:
        """The option with the highest score, ties broken by seat order: a rule every
        seat shares, so villagers who see the same facts converge on the same name."""
        # Scores compared rounded to 2 places, rounded only when close (``_CLOSE``).
        best: str | None = None
        lead, key = 0.0, None  # the leader's score, and its rounding once asked
        found = False
        lo, hi = -_EXACT, _EXACT
        near = False  # a leader found, its score in range (as in ``best``)
        for o in options:
            s = score(o)
            if near and lo < s < hi:
                if s - lead > _CLOSE_2:
                    best, lead, key = o, s, None
                    continue
                if lead - s > _CLOSE_2:
                    continue
            if not found:
                best, found, lead = o, True, s
                near = lo < s < hi
                continue
            if s == lead:  # a tie: the first in seat order stays
                continue
            k = round(s, 2)
            if key is None:
                key = round(lead, 2)
            if k > key:
                best, lead, key = o, s, k
                near = lo < s < hi
        return best

    def pack_dice(self, *question: object) -> float:
        """A number in [0, 1) that every wolf of the pack draws alike for the same
        question: the pack's shared plans (whether to fake the Seer, whether to answer
        a real one) need no night talk to agree. Seeded by the table's seed, the pack
        and the question, so the same game plays the same way."""
        key = ":".join([str(self.seed), "|".join(sorted(self.mem.pack)), *map(str, question)])
        return random.Random(key).random()

    @property
    def pack_alive(self) -> list[str]:
        """``mem.pack_alive``, listed once per decision (callers read, never change it)."""
        pack = self._pack_alive
        if pack is None:
            pack = self._pack_alive = self.mem.pack_alive
        return pack

    def pack_claimant(self) -> str | None:
        """The living wolf who tells the pack's Seer story, if one does (the first in
        seat order)."""
        kept = self._pack_claimant
        if kept is None:
            claims = self.mem.claims
            found = None
            for w in self.pack_alive:
                c = claims.get(w)
                if c is not None and c.role == "seer":
                    found = w
                    break
            kept = self._pack_claimant = (found,)
        return kept[0]

    def framed(self) -> frozenset[str]:
        """Players a living fake Seer of the pack has called a werewolf: devoured, they
        would prove the lie (the pack never eats its own), so they must live to be voted."""
        if self._framed is None:
            mem = self.mem
            out: set[str] = set()
            if mem.is_wolf:
                for w in self.pack_alive:
                    c = mem.claims.get(w)
                    if c is not None and c.role == "seer":
                        out.update(t for t, r in c.checks.items() if is_wolf_role(r))
            self._framed = frozenset(out - mem.pack)
        return self._framed

    def pack_accusations(self, name: str) -> int:
        """How many times ``name`` accused a member of the seat's pack this game."""
        counts = self._pack_accusations
        if counts is None:
            pack = self.mem.pack
            counts = self._pack_accusations = {}
            for a in self.mem.accusations:
                if a.target in pack:
                    counts[a.speaker] = counts.get(a.speaker, 0) + 1
        return counts.get(name, 0)

    def threat(self, name: str) -> float:
        """How much the pack gains by removing ``name``: claimed power roles, trusted
        voices, and anyone pointing at the pack."""
        mem, pub = self.mem, self.public
        t = 1.0 - pub.of(name)
        claim = mem.claims.get(name)
        if claim is not None and name not in pub.liars:
            if claim.role == "seer" and name not in mem.pack:
                t += 2.0 + (1.5 if any(w in mem.pack for w, r in claim.checks.items() if is_wolf_role(r)) else 0.0)
                if self.pack_claimant() is not None:
                    t -= 3.5  # devoured, he would be revealed and expose the mate's counter-claim
            elif claim.role == "witch":
                t += 1.5
            elif claim.role == "hunter":
                t -= 1.5  # devoured, he shoots back
        t += ACCUSER_THREAT * self.pack_accusations(name)
        if name == mem.sheriff:
            t += 0.7
        if name == mem.caught_girl:
            t += 3.0
        if name in mem.spotted and mem.is_wolf:  # the Host gave them away (004)
            t += SPOTTED_THREAT
        if mem.is_wolf:
            t += _building_threat(self, name)
            if name in self.framed():
                t -= 4.0
        return t


ACCUSER_THREAT = 0.4  # per accusation of a wolf: a sharp villager, but his death points at his suspect

# What a building's holder costs the pack alive (The Village, docs/RULES.md §9): the
# Baker may see a wolf any night, the Barber shaves a known one, the Schoolmistress
# silences the pack's votes, the Castellan pardons the villager it framed.
BUILDING_THREAT = {"baker": 1.2, "barber": 0.6, "schoolmistress": 0.5, "castellan": 0.3, "bailiff": 0.2, "confessor": 0.3}
HEARD_A_WOLF = 3.0  # the Confessor saw a living wolf's card: he names it at dawn
FORBADE_A_WOLF = 1.0
FIRE_RISK = 3.0  # a victim whose home the Arsonist is likely to burn takes a wolf with them


def _building_threat(sit: Situation, name: str) -> float:
    mem = sit.mem
    homes = mem.__dict__.get("homes")
    if not homes:
        return 0.0
    home = homes.get(name)
    t = BUILDING_THREAT.get(home or "", 0.0)
    alive = set(mem.alive)
    for confessor, heard in mem.__dict__.get("confessions", ()):
        if confessor == name and heard in mem.pack and heard in alive:
            t += HEARD_A_WOLF
    for teacher, pupils in mem.__dict__.get("forbidden", ()):
        if teacher == name and any(p in mem.pack for p in pupils):
            t += FORBADE_A_WOLF
    if home not in (None, "vagabond") and _fire_likely(mem, name, sit):
        t -= FIRE_RISK
    return t


def _fire_likely(mem: Memory, name: str, sit: Situation) -> bool:
    """The Arsonist (a villager bot burns once, from the second night, the home of a
    credible Seer or Witch claimant): devouring the one whose home burns tonight costs
    the pack the wolf to the victim's right, for no victim."""
    if mem.day < 2 or "arsonist" not in mem.roles_in_play or mem.__dict__.get("fire_seen"):
        return False
    if any(r == "arsonist" for r in mem.dead.values()):
        return False
    claim = mem.claims.get(name)
    return claim is not None and claim.role in ("seer", "witch") and name not in sit.public.liars

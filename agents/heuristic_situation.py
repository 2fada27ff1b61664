"""What every heuristic policy needs at hand for one decision.

Beliefs are computed lazily and at most once per decision: most decisions need only
one perspective, and night actions of a villager never need the public one.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

from agents.heuristic_lines import line, role_name
from agents.heuristic_memory import Memory, is_wolf_role
from agents.heuristic_suspicion import Beliefs, judge
from engine.decisions import Decision


class Situation:
    def __init__(self, mem: Memory, rng: random.Random, decision: Decision, plan: dict, lang: str = "en"):
        self.mem = mem
        self.rng = rng
        self.decision = decision
        self.plan = plan  # the seat's intentions that must stay consistent across days
        self.lang = lang  # the language the seat speaks (``prompts/bot_lines/<lang>.yaml``)
        self._private: Beliefs | None = None
        self._public: Beliefs | None = None

    @property
    def beliefs(self) -> Beliefs:
        """Everything this seat knows, its secrets included."""
        if self._private is None:
            self._private = judge(self.mem, private=True)
        return self._private

    @property
    def public(self) -> Beliefs:
        """What the table as a whole can conclude: how a wolf reads the village."""
        if self._public is None:
            self._public = judge(self.mem, private=False)
        return self._public

    def say(self, key: str, **fill: str) -> str:
        """One line of the situation ``key`` in the seat's language."""
        return line(self.rng, key, self.lang, **fill)

    def role_name(self, role: str | None) -> str:
        return role_name(role, self.lang)

    @property
    def me(self) -> str:
        return self.mem.me

    def best(self, options: Iterable[str], score: Callable[[str], float]) -> str | None:
        """The option with the highest score; ties broken by the seat's own dice, so
        equal players do not always lose to the first seat."""
        best, key = None, None
        for o in options:
            k = (round(score(o), 6), self.rng.random())
            if key is None or k > key:
                best, key = o, k
        return best

    def consensus(self, options: Iterable[str], score: Callable[[str], float]) -> str | None:
        """The option with the highest score, ties broken by seat order: a rule every
        seat shares, so villagers who see the same facts converge on the same name."""
        best, key = None, None
        for o in options:
            k = round(score(o), 2)
            if key is None or k > key:
                best, key = o, k
        return best

    def threat(self, name: str) -> float:
        """How much the pack gains by removing ``name``: claimed power roles, trusted
        voices, and anyone pointing at the pack."""
        mem, pub = self.mem, self.public
        t = 1.0 - pub.of(name)
        claim = mem.claims.get(name)
        if claim is not None and name not in pub.liars:
            if claim.role == "seer" and name not in mem.pack:
                t += 2.0 + (1.5 if any(w in mem.pack for w, r in claim.checks.items() if is_wolf_role(r)) else 0.0)
                if any(mem.claims.get(w) is not None and mem.claims[w].role == "seer" for w in mem.pack_alive):
                    t -= 3.5  # devoured, he would be revealed and expose the mate's counter-claim
            elif claim.role == "witch":
                t += 1.5
            elif claim.role == "hunter":
                t -= 1.5  # devoured, he shoots back
        t += 0.4 * sum(1 for a in mem.accusations if a.speaker == name and a.target in mem.pack)
        if name == mem.sheriff:
            t += 0.7
        if name == mem.caught_girl:
            t += 3.0
        return t

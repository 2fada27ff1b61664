"""The reasoner: the belief-tracking reference bot (``agent: reasoner``).

It keeps a posterior over the assignments of the cards consistent with what its seat
has seen (``belief``), and plays from it: its own policies (``policies``) for the
decisions that decide most games (votes, the badge, the Seer's look, the pack's kill,
the Witch's potions, the Hunter's shot, speeches), and for every other character the
heuristic bot's policy reading the reasoner's posterior instead of the heuristic's
suspicion (the heuristic's ``Situation`` is handed ``Beliefs`` built from the
posterior, ``reading``). Its wording is the heuristic bot's lines, and its claims use
the same structured syntax, so every other seat reads them alike.

Deterministic for a seed: its random draws come from generators seeded by the seat's
seed and name, and the posterior draws none (a sampled space's rows come from the
seat's own generator).
"""

from __future__ import annotations

import random

from typing import Any, Callable

import agents.heuristic_roles as roles
from agents.base import Agent, SeatView
from agents.heuristic import POLICIES as HEURISTIC_POLICIES
from agents.heuristic_lines import LANGUAGES
from agents.heuristic_memory import Memory
from agents.heuristic_powers import aimed_power, declared_power
from agents.heuristic_suspicion import judged
from agents.heuristic_situation import Situation
from agents.random_agent import legal_or_random, random_answer
from agents.reasoner.belief import SeatBelief
from agents.reasoner.mind import Mind
from agents.reasoner.policies import POLICIES
from agents.reasoner.reading import Reading
from engine.decisions import Decision
from engine.events import Event


def policy_for(kind: str, own: bool = True) -> Callable[[Any], Any] | None:
    """The play for a decision kind: the reasoner's own (``own``: when its belief could
    lay the deck out), else the heuristic bot's, else a declared power's; None for a
    kind no bot knows (answered legally at random)."""
    policy = POLICIES.get(kind) if own else None
    if policy is None:
        policy = HEURISTIC_POLICIES.get(kind) or roles.ROLE_POLICIES.get(kind)
    if policy is None and declared_power(kind) is not None:
        policy = aimed_power
    return policy


class _Fetched(SeatView):
    """The seat's view with the events since ``seq`` already read, handed to the
    heuristic memory (which asks for exactly those): the view is read once for both
    readers. Any other question goes to the view."""

    def __init__(self, view: SeatView, seq: int, new: list[Event]):
        super().__init__(view.name, None)
        self.view, self.seq, self.new = view, seq, new

    def since(self, seq: int) -> list[Event]:
        if seq == self.seq:
            return list(self.new)
        return self.view.since(seq)


class ReasonerAgent(Agent):
    spec = "reasoner"
    # Tests set this to surface a policy's bug instead of covering it with a random answer.
    strict: bool = False

    def __init__(self, name: str, seed: int = 0, language: str | None = None):
        super().__init__(name)
        self.seed = seed
        self.rng = random.Random(f"{seed}:{name}:reasoner")
        self.memory = Memory(name)
        self.belief = SeatBelief(name, seed)
        self.plan: dict[str, Any] = {}
        self.language = language if language in LANGUAGES else None

    @property
    def lang(self) -> str:
        return self.language or self.memory.heard or "en"

    # ------------------------------------------------------------------ reading
    def _remember(self, view: SeatView) -> None:
        last = self.memory.last
        seq = 0 if last is None else last.seq
        new = view.since(seq)
        if self.memory.update(_Fetched(view, seq, new)):  # a new game: yesterday's table and lies belong to another
            self.belief = SeatBelief(self.name, self.seed)
            self.plan = {}
            new = view.since(0)
        elif last is not None and new and new[0] is last:
            new = new[1:]
        self.belief.update(new)
        if self.belief.behind():
            self.belief.solo()

    @property
    def ready(self) -> bool:
        return self.belief.ready

    def reading(self) -> Reading:
        space, w = self.belief.weights()
        t = self.belief.table
        assert t is not None
        known = {n: True for n in self.belief.pack}
        if self.memory.my_role is not None:
            known[self.name] = self.memory.is_wolf
        return Reading(space, w, t.players, t.alive, known)

    def public_reading(self) -> Reading:
        t = self.belief.table
        assert t is not None and t.tracker is not None
        space = t.tracker.space
        return Reading(space, space.weights(), t.players, t.alive, {})

    def claims(self) -> dict[str, str]:
        """Each living claimant's latest role claim other than a plain villager's."""
        t = self.belief.table
        assert t is not None
        return {n: told[-1] for n, told in t.claimed.items() if told and n in t.alive}

    # ------------------------------------------------------------------ deciding
    def decide(self, view: SeatView, decision: Decision) -> Any:
        self._remember(view)
        if not self.ready:  # a deck this model cannot lay out: the heuristic bot's play
            sit: Situation = Situation(self.memory, self.rng, decision, self.plan, self.lang, self.seed)
        else:
            sit = Mind(self, decision)
        policy = policy_for(decision.kind, own=self.ready)
        if policy is None:  # a kind no bot has a play for
            return random_answer(self.rng, decision)
        try:
            answer = policy(sit)
        except Exception:
            if self.strict:
                raise
            return random_answer(self.rng, decision)
        return self._legal(decision, answer)

    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float]:
        """The posterior P(wolf) of every other living player. Reading the view only
        advances what the next decision would read anyway, and the posterior draws no
        random number, so asking changes nothing in the play."""
        self._remember(view)
        others = [n for n in view.alive if n != self.name]
        if not self.ready:
            b = judged(self.memory, private=True)
            return {n: round(min(1.0, max(0.0, b.of(n))), 6) for n in others}
        r = self.reading()
        return {n: round(min(1.0, max(0.0, r.p(n))), 6) for n in others}

    def _legal(self, decision: Decision, answer: Any) -> Any:
        return legal_or_random(self.rng, decision, answer, strict=self.strict)

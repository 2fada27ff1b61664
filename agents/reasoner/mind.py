"""What a reasoner policy reads (``Mind``), apart from the bot that makes it.

The policies (``policies``, ``pack``, ``talk``, ``village``) take a ``Mind`` and the
bot (``agent``) runs them, so the mind is typed against the few things it asks of its
bot (``Reasoner``), not the bot's class: the policies' modules then import nothing that
imports them, types included."""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np

from agents.heuristic_memory import Memory
from agents.heuristic_situation import Situation
from agents.heuristic_suspicion import Beliefs, judged
from agents.reasoner.belief import SeatBelief
from agents.reasoner.reading import Reading
from engine.decisions import Decision


class Reasoner(Protocol):
    """What a ``Mind`` reads from its bot (``agent.ReasonerAgent``)."""

    memory: Memory
    rng: random.Random
    plan: dict[str, Any]
    seed: int
    belief: SeatBelief

    @property
    def lang(self) -> str: ...

    def reading(self) -> Reading: ...

    def public_reading(self) -> Reading: ...

    def claims(self) -> dict[str, str]: ...


class Mind(Situation):
    """What a reasoner policy reads: the heuristic's ``Situation`` (memory, dice, lines,
    the plan) with the posterior in place of the heuristic's suspicion: ``mine`` (the
    seat's), ``table`` (the public one: what the village as a whole can conclude)."""

    def __init__(self, agent: Reasoner, decision: Decision):
        super().__init__(agent.memory, agent.rng, decision, agent.plan, agent.lang, agent.seed)
        self.agent = agent
        self._mine: Reading | None = None
        self._table: Reading | None = None

    @property
    def mine(self) -> Reading:
        if self._mine is None:
            self._mine = self.agent.reading()
        return self._mine

    @property
    def table(self) -> Reading:
        if self._table is None:
            self._table = self.agent.public_reading()
        return self._table

    def attack_chances(self) -> dict[str, float]:
        """P(the pack devours each living player tonight): the model of the pack's choice
        (``model.KillFactor``) weighed by this seat's posterior over who the pack is."""
        t = self.agent.belief.table
        assert t is not None
        alive = t.alive
        if not alive:
            return {}
        space, w = self.agent.belief.weights()
        ll = t.kill_factor_for(t.slot[alive[0]]).every_victim(space)
        with np.errstate(under="ignore"):
            p = w @ np.exp(ll)
        return {n: float(p[i]) for i, n in enumerate(alive)}

    @property
    def beliefs(self) -> Beliefs:
        """The seat's posterior, as the heuristic bot's policies read beliefs."""
        if self._private is None:
            self._private = self.mine.as_beliefs(self.agent.claims())
        return self._private

    @property
    def public(self) -> Beliefs:
        """How the table reads each player, as the heuristic bots' policies weigh it (a
        wolf riding the mood, a threat to the pack): the heuristic bot's own public
        judgement. The reasoner's public posterior (``table``) is sharper than any
        village's mood, and those policies' thresholds were set on the heuristic's."""
        if self._public is None:
            self._public = judged(self.mem, private=False)
        return self._public

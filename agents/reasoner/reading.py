"""The posterior, read the ways the play asks: per player, per role, and in the form the
heuristic bot's policies read (``agents.heuristic_suspicion.Beliefs``), so that every
character the reasoner has no play of its own for is still played from its beliefs.
"""

from __future__ import annotations

import math

import numpy as np

from agents.heuristic_suspicion import Beliefs
from agents.reasoner.space import Space

LIAR_BELOW = 0.05  # a claimant this unlikely to hold the card he claims is a liar to the play
CERTAIN = 1e-9


class Reading:
    """A posterior (``weights`` over a ``space``'s rows) read for one seat: players are
    the table's (slots ``0..n-1``); ``known`` overrides (the seat's pack)."""

    def __init__(self, space: Space, weights: np.ndarray, players: list[str], alive: list[str], known: dict[str, bool]):
        self.space = space
        self.w = weights
        self.players = players
        self.slot = {p: i for i, p in enumerate(players)}
        self.alive = alive
        self.known = known
        self._wolf: np.ndarray | None = None
        self._roles: dict[str, np.ndarray] = {}

    @property
    def wolf(self) -> np.ndarray:
        """P(wolf) per slot."""
        if self._wolf is None:
            p = self.w @ self.space.wolf_f
            for n, k in self.known.items():
                if n in self.slot:
                    p[self.slot[n]] = 1.0 if k else 0.0
            self._wolf = p
        return self._wolf

    def p(self, name: str) -> float:
        s = self.slot.get(name)
        return 0.0 if s is None else float(self.wolf[s])

    def role(self, name: str, role: str) -> float:
        """P(``name`` holds a card of type ``role``)."""
        r = self._roles.get(role)
        if r is None:
            r = self._roles[role] = self.space.p_role_under(self.w, role)
        s = self.slot.get(name)
        return 0.0 if s is None else float(r[s])

    def as_beliefs(self, claims: dict[str, str]) -> Beliefs:
        """The heuristic bot's ``Beliefs`` from this posterior: P(wolf) of the living,
        the certain camps, how far to believe each claimant (P(he holds the card he
        claims)) and the claimants that is near zero for (liars)."""
        p: dict[str, float] = {}
        score: dict[str, float] = {}
        known: dict[str, bool] = {}
        hidden = 0.0
        for n in self.alive:
            x = self.p(n)
            p[n] = x
            if x <= CERTAIN or x >= 1.0 - CERTAIN:
                known[n] = x >= 0.5
            else:
                hidden += x
            q = min(max(x, 1e-6), 1.0 - 1e-6)
            score[n] = math.log(q / (1.0 - q))
        cred: dict[str, float] = {}
        liars: set[str] = set()
        for n, role in claims.items():
            c = self.role(n, role)
            cred[n] = c
            if c < LIAR_BELOW:
                liars.add(n)
        return Beliefs(p, cred, liars, known, hidden, score)

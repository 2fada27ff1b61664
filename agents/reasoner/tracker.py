"""A space kept in step with the evidence: facts that rule rows out, factors that weigh them.

A ``Tracker`` owns one ``Space`` and everything needed to renew it: the hard facts
(``Facts``) and every soft factor in the order it came. An exact space drops the rows
a fact rules out. A sampled one is a particle filter over a fixed unknown (the deal):
when the weight has gathered on too few rows (effective size below ``REDRAW_SHARE``),
or a fact has ruled most rows out, it is *renewed* by resample-move: rows are drawn
again in proportion to their weights, then each moves by Metropolis steps that swap
two players' cards, accepted by the likelihood of all the evidence so far (each row's
``score``). So the rows follow the posterior instead of piling onto a few copies, and
no evidence is ever replayed on rows that knew nothing of it but on the proposals.
Only when no row at all survives a fact are rows drawn afresh from the deal.

Evidence that no assignment can explain (a card no hypothesis allows: a rule this
model does not know, a player converted) is dropped, never believed: a belief that
rules the truth out can never recover.
"""

from __future__ import annotations

import numpy as np

from agents.reasoner.model import Factor, GroupFactor, HardFactor, PickFactor, picks_loglik
from agents.reasoner.space import MOVES, PARTICLES, REDRAW_SHARE, Deck, Facts, Space, build, draw_rows


class Tracker:
    def __init__(self, deck: Deck, facts: Facts, rng: np.random.Generator, particles: int = PARTICLES):
        self.deck = deck
        self.facts = facts
        self.rng = rng
        self.particles = particles
        self.space: Space = build(deck, facts, rng, particles)
        self.soft: list[Factor] = []  # every factor kept, in order: what a proposal is scored by
        self.dropped = 0  # facts and factors no row could explain

    @property
    def exact(self) -> bool:
        return self.space.exact

    def fact(self, hard: HardFactor) -> bool:
        """Add a certainty about one slot; whether it was kept."""
        facts = self.facts.copy()
        if hard.what == "fixed":
            if facts.fixed.get(hard.slot, hard.kind) != hard.kind:
                self.dropped += 1
                return False
            facts.fixed[hard.slot] = hard.kind
        elif hard.what == "wolf":
            facts.wolf.add(hard.slot)
        else:
            facts.not_wolf.add(hard.slot)
        if facts == self.facts:
            return True
        if not facts.consistent(self.deck):
            self.dropped += 1
            return False
        space = self.space
        if not space.add(hard.loglik(space)):
            if space.exact:  # every consistent assignment is listed: none explains both
                self.dropped += 1
                return False
            self.facts = facts
            self._fresh()
            return True
        self.facts = facts
        space.compact()
        if not space.exact and space.size < REDRAW_SHARE * self.particles:
            self._renew()
        return True

    def factor(self, f: Factor) -> bool:
        """Weigh the rows by one piece of soft evidence (or a group fact); whether kept."""
        space = self.space
        if not space.add(f.loglik(space)):
            if space.exact or not isinstance(f, GroupFactor):
                self.dropped += 1
                return False
            self.soft.append(f)
            self._fresh()
            return True
        self.soft.append(f)
        if isinstance(f, GroupFactor):
            space.compact()
        if not space.exact and space.effective() < REDRAW_SHARE * self.particles:
            self._renew()
        return True

    # ------------------------------------------------------------------ renewing rows
    def _renew(self) -> None:
        """Resample-move (see the module docstring)."""
        space = self.space
        w = space.weights()
        n = self.particles
        positions = (self.rng.random() + np.arange(n)) / n  # systematic resampling
        idx = np.minimum(np.searchsorted(np.cumsum(w), positions), len(w) - 1)
        rows = space.rows[idx].copy()
        score = space.score[idx].copy()
        for _ in range(MOVES):
            rows, score = self._move(rows, score)
        space.redraw(rows, score)

    def _move(self, rows: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One Metropolis step per row: swap the cards of two slots not fixed by a fact,
        keep the swap with probability min(1, likelihood ratio); the deal's prior is
        uniform over assignments and the proposal symmetric, so the ratio is all."""
        free = np.array([s for s in range(self.deck.slots) if s not in self.facts.fixed], dtype=np.intp)
        if len(free) < 2:
            return rows, score
        n = len(rows)
        i = free[self.rng.integers(0, len(free), n)]
        j = free[self.rng.integers(0, len(free), n)]
        at = np.arange(n)
        proposal = rows.copy()
        proposal[at, i], proposal[at, j] = rows[at, j], rows[at, i]
        wolfish = self.deck.wolfish
        ok = proposal[at, i] != proposal[at, j]
        if self.facts.wolf:
            ok &= wolfish[proposal[:, sorted(self.facts.wolf)]].all(axis=1)
        if self.facts.not_wolf:
            ok &= ~wolfish[proposal[:, sorted(self.facts.not_wolf)]].any(axis=1)
        trial = Space(self.deck, proposal, exact=False)
        new = self._score(trial)
        with np.errstate(invalid="ignore"):
            accept = ok & (np.log(self.rng.random(n)) < new - score)
        rows = np.where(accept[:, None], proposal, rows)
        score = np.where(accept, new, score)
        return rows, score

    def _score(self, space: Space) -> np.ndarray:
        """Each row's log-likelihood under every soft factor kept: the picks in one pass
        (``picks_loglik``), the rest one by one."""
        picks = [f for f in self.soft if isinstance(f, PickFactor)]
        total = picks_loglik(picks, space)
        for f in self.soft:
            if not isinstance(f, PickFactor):
                total = total + f.loglik(space)
        return total

    def _fresh(self) -> None:
        """No row survives: rows drawn afresh from the deal, every factor replayed."""
        space = self.space
        space.redraw(draw_rows(self.deck, self.facts, self.particles, self.rng))
        kept: list[Factor] = []
        for f in self.soft:
            if space.add(f.loglik(space)):
                kept.append(f)
            else:
                self.dropped += 1
        self.soft = kept
        space.compact()
        if space.effective() < REDRAW_SHARE * self.particles:
            self._renew()

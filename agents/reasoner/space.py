"""The hypotheses: every way the cards could lie, with how much the table's story supports each.

A hypothesis is one assignment of the deck's cards to the slots (the players, then the
cards set aside for a Thief), held as a row of card-type indexes. A ``Space`` is a
matrix of such rows and one log-weight per row. It is *exact* when it lists every
assignment consistent with the hard facts (at most ``EXACT_LIMIT``: Miller's Hollow
up to 18 players, where a seat's own card leaves a few thousand), and *sampled*
otherwise: rows drawn uniformly from the assignments consistent with the hard facts
(``draw``), weighted by the soft evidence (importance sampling), drawn again when the
weight has gathered on too few of them.

Why the deck is dealt over card *types* rather than cards: two Villager cards are
interchangeable, so an assignment is a multiset permutation and an exact space has the
multinomial number of rows (168 at 8 players, 1,980 at 12), not 8!.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import numpy as np

from agents.heuristic_memory import is_wolf_role

EXACT_LIMIT = 6000  # rows: above this the space is sampled
PARTICLES = 400  # rows of a seat's own sampled space
TABLE_PARTICLES = 1000  # rows of a game's public sampled space: most seats read it through their mask
REDRAW_SHARE = 0.15  # a sampled space is renewed when its effective size falls below this share
MOVES = 1  # Metropolis sweeps when a sampled space is renewed
INFORMED = frozenset({"seer", "forum_seer"})  # cards whose holder reports what she saw of others' cards

VILLAGER, SEER, WOLF = 0, 1, 2  # how an actor plays in the action model (``model.Pick``)


@dataclass(frozen=True)
class Deck:
    """The table's layout: who sits, which card types are in play and how many of each.
    ``slots``: the players, then one slot per card set aside (named ``#1``, ``#2``: a
    name no player can have, as names are checked by the engine)."""

    players: tuple[str, ...]
    types: tuple[str, ...]  # card types, sorted
    counts: tuple[int, ...]
    set_aside: int

    @classmethod
    def of(cls, players: list[str], roles_in_play: list[str], set_aside: int) -> "Deck":
        c = Counter(roles_in_play)
        types = tuple(sorted(c))
        return cls(tuple(players), types, tuple(c[t] for t in types), max(0, set_aside))

    @property
    def slots(self) -> int:
        return len(self.players) + self.set_aside

    def index(self, role: str) -> int | None:
        try:
            return self.types.index(role)
        except ValueError:
            return None

    @property
    def wolfish(self) -> np.ndarray:
        """Per card type, whether its holder wakes with the pack."""
        return np.array([is_wolf_role(t) for t in self.types], dtype=bool)

    @property
    def classes(self) -> np.ndarray:
        """Per card type, the actor class the action model reads (``WOLF``, ``SEER``, ``VILLAGER``)."""
        return np.array([WOLF if is_wolf_role(t) else SEER if t in INFORMED else VILLAGER for t in self.types], dtype=np.int8)


@dataclass
class Facts:
    """What is certain about the cards: a slot's exact card type, a slot that holds a
    wolf card, a slot that holds none. Rows are drawn consistent with these; the rest of
    the evidence only weighs them."""

    fixed: dict[int, int] = field(default_factory=dict)
    wolf: set[int] = field(default_factory=set)
    not_wolf: set[int] = field(default_factory=set)

    def copy(self) -> "Facts":
        return Facts(dict(self.fixed), set(self.wolf), set(self.not_wolf))

    def consistent(self, deck: Deck) -> bool:
        """Whether some assignment satisfies every fact (card counts, wolf cards)."""
        left = list(deck.counts)
        for k in self.fixed.values():
            left[k] -= 1
            if left[k] < 0:
                return False
        wolfish = deck.wolfish
        wolves_left = sum(n for n, w in zip(left, wolfish) if w)
        others_left = sum(n for n, w in zip(left, wolfish) if not w)
        need_wolf = len(self.wolf - set(self.fixed))
        need_other = len(self.not_wolf - set(self.fixed))
        if self.wolf & self.not_wolf:
            return False
        for s, k in self.fixed.items():
            if (s in self.wolf and not wolfish[k]) or (s in self.not_wolf and wolfish[k]):
                return False
        return need_wolf <= wolves_left and need_other <= others_left


def count(deck: Deck, facts: Facts) -> int:
    """How many assignments satisfy the facts (0 when none), without listing them."""
    if not facts.consistent(deck):
        return 0
    left = list(deck.counts)
    for k in facts.fixed.values():
        left[k] -= 1
    wolfish = deck.wolfish
    free = [s for s in range(deck.slots) if s not in facts.fixed]
    mw = [s for s in free if s in facts.wolf]
    mn = [s for s in free if s in facts.not_wolf]
    rest = len(free) - len(mw) - len(mn)
    wolf_types = [n for n, w in zip(left, wolfish) if w]
    other_types = [n for n, w in zip(left, wolfish) if not w]
    total = 0
    # how many of each kind (wolf / other) go to the unconstrained slots is fixed by the
    # counts; split each kind's types between the constrained and the free slots
    for split_w in _splits(wolf_types, len(mw)):
        for split_o in _splits(other_types, len(mn)):
            rest_counts = [n - a for n, a in zip(wolf_types, split_w)] + [n - a for n, a in zip(other_types, split_o)]
            if sum(rest_counts) != rest:
                continue
            total += _multinomial(split_w) * _multinomial(split_o) * _multinomial(rest_counts)
    return total


def _splits(counts: list[int], k: int) -> list[list[int]]:
    """Every way to take ``k`` cards from piles of ``counts`` (how many from each pile)."""
    if not counts:
        return [[]] if k == 0 else []
    out = []
    for a in range(min(counts[0], k) + 1):
        for rest in _splits(counts[1:], k - a):
            out.append([a, *rest])
    return out


def _multinomial(counts: list[int]) -> int:
    n, out = 0, 1
    for c in counts:
        n += c
        out *= math.comb(n, c)
    return out


def enumerate_rows(deck: Deck, facts: Facts) -> np.ndarray:
    """Every assignment satisfying the facts, as rows of card-type indexes."""
    left = list(deck.counts)
    for k in facts.fixed.values():
        left[k] -= 1
    wolfish = deck.wolfish
    free = [s for s in range(deck.slots) if s not in facts.fixed]
    rows: list[list[int]] = []
    base = [-1] * deck.slots
    for s, k in facts.fixed.items():
        base[s] = k

    def place(t: int, open_slots: list[int], row: list[int]) -> None:
        if t == len(left):
            if not open_slots:
                rows.append(list(row))
            return
        n = left[t]
        allowed = [s for s in open_slots if (s not in facts.wolf or wolfish[t]) and (s not in facts.not_wolf or not wolfish[t])]
        if len(allowed) < n:
            return
        for chosen in combinations(allowed, n):
            for s in chosen:
                row[s] = t
            rest = [s for s in open_slots if s not in chosen]
            place(t + 1, rest, row)
        for s in allowed:
            if row[s] == t:
                row[s] = -1

    place(0, free, base)
    if not rows:
        return np.zeros((0, deck.slots), dtype=np.int8)
    return np.array(rows, dtype=np.int8)


def draw_rows(deck: Deck, facts: Facts, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` assignments drawn uniformly from those satisfying the facts. The cards are
    dealt as distinguishable cards: a wolf card to each slot known to hold one, a
    non-wolf card to each known to hold none, the rest shuffled over the other slots;
    every consistent assignment is reached by the same number of such deals, so the
    draw is uniform over assignments."""
    left = list(deck.counts)
    for k in facts.fixed.values():
        left[k] -= 1
    wolfish = deck.wolfish
    free = [s for s in range(deck.slots) if s not in facts.fixed]
    mw = [s for s in free if s in facts.wolf]
    mn = [s for s in free if s in facts.not_wolf]
    rest = [s for s in free if s not in facts.wolf and s not in facts.not_wolf]
    wolf_cards = np.array([t for t, c in enumerate(left) for _ in range(c) if wolfish[t]], dtype=np.int8)
    other_cards = np.array([t for t, c in enumerate(left) for _ in range(c) if not wolfish[t]], dtype=np.int8)
    rows = np.empty((n, deck.slots), dtype=np.int8)
    for s, k in facts.fixed.items():
        rows[:, s] = k
    wperm = np.argsort(rng.random((n, len(wolf_cards))), axis=1) if len(wolf_cards) else np.zeros((n, 0), dtype=np.intp)
    operm = np.argsort(rng.random((n, len(other_cards))), axis=1) if len(other_cards) else np.zeros((n, 0), dtype=np.intp)
    wdealt = wolf_cards[wperm] if len(wolf_cards) else np.zeros((n, 0), dtype=np.int8)
    odealt = other_cards[operm] if len(other_cards) else np.zeros((n, 0), dtype=np.int8)
    if mw:
        rows[:, mw] = wdealt[:, : len(mw)]
    if mn:
        rows[:, mn] = odealt[:, : len(mn)]
    if rest:
        leftover = np.concatenate([wdealt[:, len(mw) :], odealt[:, len(mn) :]], axis=1)
        order = np.argsort(rng.random(leftover.shape), axis=1)
        rows[:, rest] = np.take_along_axis(leftover, order, axis=1)
    return rows


class Space:
    """Rows of assignments and their log-weights, with the summaries the play reads
    (each computed once until the weights change)."""

    def __init__(self, deck: Deck, rows: np.ndarray, exact: bool):
        self.deck = deck
        self.exact = exact
        self.version = 0  # bumped whenever rows are dropped or drawn again: masks over rows are stale
        self._set_rows(rows)

    def _set_rows(self, rows: np.ndarray, score: np.ndarray | None = None) -> None:
        self.rows = rows
        self.logw = np.zeros(len(rows))
        # Each row's log-likelihood under all the evidence (``logw`` is the importance
        # weight: the same, until the rows are renewed by resampling, which resets it).
        self.score = np.zeros(len(rows)) if score is None else score
        self.wolf = self.deck.wolfish[rows] if len(rows) else np.zeros((0, self.deck.slots), dtype=bool)
        self.cls = self.deck.classes[rows] if len(rows) else np.zeros((0, self.deck.slots), dtype=np.int8)
        self._wolf_f: np.ndarray | None = None
        self._weights: np.ndarray | None = None
        self.at = np.arange(len(rows))  # row numbers, for picking one column per row
        self.version += 1

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def wolf_f(self) -> np.ndarray:
        """``wolf`` as floats, for matrix products."""
        if self._wolf_f is None:
            self._wolf_f = self.wolf.astype(np.float64)
        return self._wolf_f

    def holds(self, slot: int, role: str) -> np.ndarray:
        """Per row, whether ``slot`` holds a card of type ``role``."""
        k = self.deck.index(role)
        if k is None:
            return np.zeros(len(self.rows), dtype=bool)
        return self.rows[:, slot] == k

    def add(self, ll: np.ndarray) -> bool:
        """Weigh every row by a log-likelihood; refused (False, nothing changed) when it
        would leave no row standing: evidence no assignment explains (a rule this model
        does not know, a conversion) is dropped rather than believed."""
        new = self.logw + ll
        if not np.isfinite(new).any():
            return False
        self.logw = new
        self.score = self.score + ll
        self._weights = None
        return True

    def weights(self) -> np.ndarray:
        """The posterior over rows (sums to 1)."""
        if self._weights is None:
            self._weights = normalised(self.logw)
        return self._weights

    def compact(self) -> None:
        """Drop the rows the hard facts ruled out (weight zero): every later product is
        over fewer rows."""
        keep = np.isfinite(self.logw)
        if keep.all():
            return
        logw = self.logw[keep]
        self._set_rows(self.rows[keep], self.score[keep])
        self.logw = logw

    def p_wolf(self) -> np.ndarray:
        """Per slot, the probability that it holds a wolf card."""
        return self.weights() @ self.wolf_f

    def p_role_under(self, weights: np.ndarray, role: str) -> np.ndarray:
        """Per slot, P(it holds a card of type ``role``) under ``weights`` over the rows."""
        k = self.deck.index(role)
        if k is None:
            return np.zeros(self.deck.slots)
        return weights @ (self.rows == k)

    def effective(self) -> float:
        """The effective number of rows (Kish): how many equally weighted rows the
        weights are worth."""
        w = self.weights()
        return float(1.0 / max(1e-300, float(w @ w)))

    def redraw(self, rows: np.ndarray, score: np.ndarray | None = None) -> None:
        """New rows, equally weighted; ``score``: their log-likelihood under the evidence so far."""
        self._set_rows(rows, score)


def normalised(logw: np.ndarray) -> np.ndarray:
    top = logw.max()
    if not np.isfinite(top):
        return np.full(len(logw), 1.0 / max(1, len(logw)))
    w = np.exp(logw - top)
    return w / w.sum()


def build(deck: Deck, facts: Facts, rng: np.random.Generator, particles: int = PARTICLES) -> Space:
    """The space of assignments satisfying ``facts``: exact when they number at most
    ``EXACT_LIMIT``, else ``particles`` rows drawn with ``rng``."""
    if not facts.fixed and not facts.wolf and not facts.not_wolf:
        rows = _every_deal(deck.types, deck.counts, deck.set_aside)  # the table's first space, the same every game
        if rows is not None:
            return Space(deck, rows, exact=True)
    elif count(deck, facts) <= EXACT_LIMIT:
        return Space(deck, enumerate_rows(deck, facts), exact=True)
    return Space(deck, draw_rows(deck, facts, particles, rng), exact=False)


@lru_cache(maxsize=16)
def _every_deal(types: tuple[str, ...], counts: tuple[int, ...], set_aside: int) -> np.ndarray | None:
    """Every assignment of a deck with no fact known yet (None when there are more than
    ``EXACT_LIMIT``): listed once per deck and shared, read-only, by every game dealt
    it (rows are never changed in place: a space replaces its matrix)."""
    deck = Deck(tuple(f"p{i}" for i in range(sum(counts) - set_aside)), types, counts, set_aside)
    if count(deck, Facts()) > EXACT_LIMIT:
        return None
    rows = enumerate_rows(deck, Facts())
    rows.setflags(write=False)
    return rows

"""One seat's belief: the table's public evidence and the seat's own secrets.

The seat's posterior is the public one conditioned on what only it knows: its card,
its pack, its Seer results, the victim the Witch was shown, the Fox's answers. Those
are facts (``HardFactor``, ``GroupFactor``): where the table's space is exact, the seat
keeps only a mask over its rows (its own log-likelihood, 0 or -inf per row). Where the
table's space is sampled (rich decks: Best of Werewolves, 狼人杀), so does a seat while
enough of the table's rows stand under its mask (``SHARED_MIN``: a plain villager's
card rules out few); a seat whose secrets leave too few (the Seer, a wolf, once its
card is known) keeps rows of its own, drawn consistent with its facts by its own
generator (seeded by the seat), and replays the table's log on them.

``update`` reads the seat's new events once each: public ones go to the shared
``Table`` (checked by identity against the table's, so a fork or another game never
mixes in: the seat then reads alone), private ones to the seat's facts.

Rows of its own depend on *when* the seat asked its posterior, not only on what it
read: they are drawn when first needed and renewed as the evidence comes, in the order
it came between asks. So a seat keeps its ``trail`` (where in its view it asked, and
where it dropped its rows on going alone), and its ``twin`` (the persuasion
measurement's copy, handed a view with one speech replaced) reads alone and asks at
the very same places: given the view as it was, it holds the seat's posterior exactly.
"""

from __future__ import annotations

import zlib
from typing import Any, Literal, NamedTuple

import numpy as np

from agents.reasoner.model import Factor, GroupFactor, HardFactor
from agents.reasoner.space import Facts, Space, normalised
from agents.reasoner.table import Table, is_public, table_for
from agents.reasoner.tracker import Tracker
from engine.events import Event
from engine.flow.main import GameStart, Role
from engine.roles.fox import FoxResult
from engine.roles.seer import SeerResult
from engine.roles.sister import Sisters
from engine.roles.werewolf import WolfPack, WolfVictimOverheard, WolfVotesOverheard
from engine.roles.witch import WitchVictim

# Cards whose holder may join the pack later, or whose wolves are not all wolf cards: a
# wolf of such a deck does not take "every other player holds no wolf card" as a fact.
CONVERTERS = frozenset({"wild_child", "wolf_hound", "infect_father"})
SHARED_MIN = 60.0  # effective rows of a sampled table under a seat's mask, below which the seat samples its own

MarkKind = Literal["ask", "drop"]  # the posterior asked (``weights``); the seat's own rows dropped (``solo``)


class Mark(NamedTuple):
    """A moment of a seat's ``trail``: ``at`` is the seq of the first event it had not
    read yet, ``kind`` what it did there."""

    at: int
    kind: MarkKind


class SeatBelief:
    def __init__(self, me: str, seed: int, *, alone: bool = False, retrace: list[Mark] | None = None):
        """``alone``: read every public event into a table of this seat's own, never the
        game's shared one (a twin's view is not the game's); ``retrace``: the trail of
        the seat it twins, whose moments it asks at as it reads (``twin``)."""
        self.me = me
        self.seed = seed
        self.alone = alone
        self.trail: list[Mark] = []
        self._next = 0  # the seq of the first event not read yet: where a mark is made
        self._retrace = retrace or []
        self._retraced = 0  # marks of ``_retrace`` done
        self.table: Table | None = None
        self._public = 0  # how many of the table's events this seat has read
        self.role: str | None = None
        self.pack: set[str] = set()
        self.cards: list[Factor] = []  # what its card and pack make certain (``_card_facts``)
        self.secrets: list[Factor] = []  # what it was shown since, in order
        self._dirty = False  # ``cards`` to lay out again
        self._mask: np.ndarray | None = None  # exact: the private log-likelihood over the table's rows
        self._mask_key: tuple[int, int, int] = (-1, -1, -1)
        self.own: Tracker | None = None  # sampled: rows of its own
        self._replayed = 0  # table log entries applied to ``own``
        self._own_private = 0  # private facts applied to ``own``
        self._weights: np.ndarray | None = None
        self._weights_key: tuple[Any, ...] = ()

    def twin(self) -> "SeatBelief":
        """A belief that knows nothing yet, reads alone, and asks its posterior where
        this one did (its moments not yet retraced included, for a twin's twin): read
        the same events, it holds this seat's posterior exactly; read a view with one
        event changed, it differs by that event alone."""
        return SeatBelief(self.me, self.seed, alone=True, retrace=self.trail + self._retrace[self._retraced :])

    # ------------------------------------------------------------------ reading
    def update(self, new: list[Event]) -> None:
        if self._retraced < len(self._retrace):  # a twin: each mark done where the seat did it
            for e in new:
                self._retrace_to(e.seq)
                self._read([e])
            self._retrace_to(self._next)
        else:
            self._read(new)

    def _read(self, new: list[Event]) -> None:
        for e in new:
            if is_public(e):
                self._public_event(e)
            else:
                self._private_event(e)
        if new:
            self._next = new[-1].seq + 1

    def _retrace_to(self, at: int) -> None:
        marks = self._retrace
        while self._retraced < len(marks) and marks[self._retraced].at <= at:
            kind = marks[self._retraced].kind
            self._retraced += 1
            if kind == "drop":
                self._drop_own(self._next)
            elif self.ready:
                self.weights()

    def _public_event(self, e: Event) -> None:
        t = self.table
        if t is None:
            if not isinstance(e.data, GameStart):
                return
            t = self.table = Table() if self.alone else table_for(e)
        q = self._public
        if q < len(t.events):
            if t.events[q] is not e:  # another game's table, or a fork: read alone from here on
                self._go_solo(e)
                return
        else:
            t.read(e)
        self._public = q + 1

    def _go_solo(self, e: Event) -> None:
        self.solo(e.seq)
        assert self.table is not None
        self.table.read(e)
        self._public += 1

    def solo(self, at: int | None = None) -> None:
        """Read alone from now on: the public events this seat has seen, replayed into
        a table of its own (another game's table, a fork, a view behind the table).
        ``at``: the seq of the event being read, when it is gone alone in the middle of one."""
        assert self.table is not None
        mine = Table(self.table.params)
        for old in self.table.events[: self._public]:
            mine.read(old)
        self.table = mine
        self._drop_own(self._next if at is None else at)

    def _drop_own(self, at: int) -> None:
        """Rows of its own drawn again when next needed (a mark of the trail)."""
        self.trail.append(Mark(at, "drop"))
        self.own = None
        self._replayed = 0
        self._own_private = 0
        self._mask = None
        self._weights = None

    def behind(self) -> bool:
        """The table has read public events this seat has not: what it weighs would
        include news the seat was not shown."""
        return self.table is not None and self._public < len(self.table.events)

    def _private_event(self, e: Event) -> None:
        d = e.data
        t = self.table
        if t is None or t.deck is None:
            if isinstance(d, Role) and d.player == self.me and isinstance(d.role, str):
                self.role = d.role
                self._dirty = True
            return
        slot = t.slot
        deck = t.deck
        if isinstance(d, Role):
            if d.player == self.me and isinstance(d.role, str) and d.role != self.role:
                self.role = d.role
                self._reset_private()
        elif isinstance(d, WolfPack):
            wolves = {w for w in d.wolves if isinstance(w, str) and w in slot}
            if wolves - self.pack:
                self.pack |= wolves
                self._reset_private()
        elif isinstance(d, SeerResult):
            if d.seer == self.me and d.target in slot and isinstance(d.role, str):
                k = deck.index(d.role)
                if k is not None:
                    self._add(HardFactor(slot[d.target], "fixed", k))
        elif isinstance(d, WitchVictim):
            if isinstance(d.victim, str) and d.victim in slot:
                self._add(HardFactor(slot[d.victim], "not_wolf"))
        elif isinstance(d, Sisters):
            k = deck.index("sister")
            if k is not None:
                for s in d.sisters:
                    if isinstance(s, str) and s in slot and s != self.me:
                        self._add(HardFactor(slot[s], "fixed", k))
        elif isinstance(d, FoxResult):
            group = [slot[g] for g in d.group if isinstance(g, str) and g in slot]
            if group:
                self._add(GroupFactor(group, bool(d.wolf)))
        elif isinstance(d, (WolfVictimOverheard, WolfVotesOverheard)):
            names = [d.target] if isinstance(d, WolfVictimOverheard) else list(d.targets)
            for n in names:
                if isinstance(n, str) and n in slot:
                    self._add(HardFactor(slot[n], "not_wolf"))

    def _card_facts(self) -> list[Factor]:
        """What the seat's card and pack make certain: its own card, and for a wolf,
        the pack's cards (and nobody else's, unless the deck can convert players)."""
        t = self.table
        assert t is not None and t.deck is not None
        out: list[Factor] = []
        me = t.slot.get(self.me)
        k = t.deck.index(self.role) if self.role is not None else None
        if me is not None and k is not None:
            out.append(HardFactor(me, "fixed", k))
        if self.pack and not any(r in CONVERTERS for r in t.deck.types):
            for n, s in t.slot.items():
                if n != self.me:
                    out.append(HardFactor(s, "wolf" if n in self.pack else "not_wolf"))
        return out

    def _reset_private(self) -> None:
        """The seat's card or pack changed (the Thief's swap, a conversion): its facts
        are laid out again, and a seat with rows of its own draws them again."""
        self._dirty = True
        self.own = None
        self._replayed = 0
        self._own_private = 0
        self._mask = None

    def _add(self, f: Factor) -> None:
        self.secrets.append(f)

    @property
    def private(self) -> list[Factor]:
        if self._dirty and self.table is not None and self.table.deck is not None:
            self.cards = self._card_facts()
            self._dirty = False
        return self.cards + self.secrets

    # ------------------------------------------------------------------ the posterior
    @property
    def ready(self) -> bool:
        return self.table is not None and self.table.tracker is not None

    def _own_space(self) -> Space:
        """The seat's own rows, brought up to date with its secrets and the table's log."""
        t = self.table
        assert t is not None and t.deck is not None
        private = self.private
        if self.own is None:
            rng = np.random.default_rng([self.seed & 0xFFFFFFFF, self.seed >> 32, zlib.crc32(self.me.encode())])
            self.own = Tracker(t.deck, Facts(), rng)
            self._replayed = 0
            self._own_private = 0
        own = self.own
        for f in private[self._own_private :]:
            if isinstance(f, HardFactor):
                own.fact(f)
            else:
                own.factor(f)
        self._own_private = len(private)
        for entry in t.log[self._replayed :]:
            if entry.hard is not None:
                own.fact(entry.hard)
            elif entry.factor is not None:
                own.factor(entry.factor)
        self._replayed = len(t.log)
        return own.space

    def _private_ll(self, space: Space) -> np.ndarray:
        """The seat's secrets over the table's rows: 0 where they hold, -inf where not
        (a secret no row explains is dropped)."""
        private = self.private
        key = (id(space), space.version, len(private))
        if self._mask is None or self._mask_key != key:
            ll = np.zeros(space.size)
            for f in private:
                step = ll + f.loglik(space)
                if np.isfinite(step).any():
                    ll = step
            self._mask = ll
            self._mask_key = key
        return self._mask

    def weights(self) -> tuple[Space, np.ndarray]:
        """The seat's posterior over the rows of its space, kept until either changes:
        the table's rows under the seat's mask while they are exact, or while enough of
        a sampled table's rows stand under the mask (``SHARED_MIN``); else its own."""
        t = self.table
        assert t is not None and t.tracker is not None
        trail = self.trail
        if not trail or trail[-1] != (self._next, "ask"):
            trail.append(Mark(self._next, "ask"))
        if self.own is None:
            space = t.tracker.space
            key: tuple[Any, ...] = (id(space), space.version, len(t.log), len(self.cards), len(self.secrets), self._dirty)
            if self._weights is not None and self._weights_key == key:
                return space, self._weights
            w = normalised(space.logw + self._private_ll(space))
            if space.exact or 1.0 / float(w @ w) >= SHARED_MIN:
                self._weights, self._weights_key = w, key
                return space, w
        space = self._own_space()
        self._weights = None
        return space, space.weights()

    def p_wolf(self) -> dict[str, float]:
        """P(wolf card) of every player, as this seat sees it (its known pack: 1)."""
        t = self.table
        assert t is not None
        space, w = self.weights()
        p = w @ space.wolf_f
        out = {n: float(p[s]) for n, s in t.slot.items()}
        for n in self.pack:
            out[n] = 1.0
        return out

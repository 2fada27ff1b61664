"""A model participant's first games, judged before the tournament spends more on it.

Why: a model seat whose call fails is played by the fallback bot, and the leaderboard
leaves out every game in which a participant's own agent decided less than
``--min-decided`` of its moves (``arena.ratings.fallbacks``). A participant behind a
dead address, a revoked key or an answer format it cannot follow would otherwise fill
the whole plan with games that are never rated, and say nothing until the leaderboard.

The rule (docs/TOURNAMENTS.md, "A participant that falls back"):

- A model participant's games are read in plan order: its *trial* is the shortest run
  of its first games holding ``TRIAL_DECISIONS`` of its own decisions. At the end of
  the trial it is *paused* if its own agent decided less than ``min_decided`` of them
  (the leaderboard's bar, pooled over the trial), and otherwise passes: it is not
  judged again.
- It is paused before the trial ends as soon as the evidence is overwhelming: a
  participant that decides ``min_decided`` of its moves would decide this few at most
  ``EVIDENCE`` of the time (the exact binomial tail). At the default bar 0 decided out
  of 4 is enough, so a dead endpoint is paused after its first game.
- Until its games hold ``FIRST_LOOK`` decisions they are played one at a time, in plan
  order: a dead endpoint costs one game however many games run at once.

Deterministic: a verdict reads only the plan-order prefix of the participant's games
that have all landed, never the order in which concurrent games finished; a rerun
reads the same verdict from the database and says it again before playing anything.
Games an abandoned trial read (``--retry-paused``) are passed over by the next one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from enum import Enum
from typing import Iterable, Literal, Sequence

# Why 50: judged on 50 decisions, a participant whose own agent decides 95% of its
# moves is paused by chance under 4% of the time, one deciding 98% less than once in 1,000,
# and one deciding 80% (a third of its games left out) 95% of the time. Fewer decisions
# pause good participants more often (30: 6% at 95%); more pay for more games of a
# failing one before it is caught. A seat is asked 3 to 15 decisions in a game, so
# that is 1 to 3 games of a participant holding a side, more of one holding a seat.
TRIAL_DECISIONS = 50
# Why 10: zero decided out of 10 is overwhelming evidence for any bar from 0.5 up
# (0.5^10 < 1/1000), so a dead endpoint is paused before its games run concurrently.
FIRST_LOOK = 10
EVIDENCE = Fraction(1, 1000)  # the binomial tail below which a participant is paused before its trial ends

Phase = Literal["first_look", "trial", "passed", "paused"]


@dataclass(frozen=True, slots=True)
class Tally:
    """A participant's decisions in one finished game: asked, and played by the fallback bot."""

    asked: int
    fallbacks: int

    @property
    def decided(self) -> int:
        return max(0, self.asked - self.fallbacks)


@dataclass(frozen=True, slots=True)
class Verdict:
    phase: Phase
    games: int  # games read, in plan order, up to where the verdict fell
    asked: int
    decided: int
    early: bool = False  # paused before the trial's end, on overwhelming evidence
    last_game: str | None = None  # the last game read

    @property
    def share(self) -> float:
        return 1.0 if self.asked <= 0 else self.decided / self.asked


def below(decided: int, asked: int, bar: float) -> bool:
    """The leaderboard's test (``arena.ratings.fallbacks.decided_share``): less than ``bar`` decided."""
    return asked > 0 and decided / asked < bar


def binomial_tail(k: int, n: int, p: float) -> Fraction:
    """P(X <= k) for X ~ Binomial(n, p), in exact fractions of the bar as typed (0.9 is
    9/10), so a tail of exactly ``EVIDENCE`` (none decided of 3 at 0.9) is not taken
    for one below it by a rounding. n is at most a trial's decisions plus a game's."""
    if k >= n:
        return Fraction(1)
    q = Fraction(p).limit_denominator(10**6)
    return sum((math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in range(k + 1)), Fraction(0))


def judge(prefix: Sequence[tuple[str, Tally]], bar: float) -> Verdict:
    """The verdict on a participant's landed games, in plan order (game id, tally)."""
    asked = decided = 0
    for i, (gid, t) in enumerate(prefix, start=1):
        asked += t.asked
        decided += t.decided
        if below(decided, asked, bar) and binomial_tail(decided, asked, bar) < EVIDENCE:
            return Verdict("paused", i, asked, decided, early=asked < TRIAL_DECISIONS, last_game=gid)
        if asked >= TRIAL_DECISIONS:
            return Verdict("paused" if below(decided, asked, bar) else "passed", i, asked, decided, last_game=gid)
    phase: Phase = "first_look" if asked < FIRST_LOOK else "trial"
    return Verdict(phase, len(prefix), asked, decided, last_game=prefix[-1][0] if prefix else None)


class Admission(Enum):
    START = "start"
    WAIT = "wait"  # a participant in its first look has a game before this one to play first
    SKIP = "skip"  # a participant at the table is paused


class Trials:
    """Every watched participant's trial during a run: its games in plan order, what
    has landed, what is in flight, and the verdicts. Synchronous and loop-free; the
    runner waits on it (``arena.tournament.run``)."""

    def __init__(self, watched: Iterable[str], bar: float, passed_over: dict[str, list[str]] | None = None):
        self.bar = bar
        # A bar of 0 leaves no game out, so there is nothing to judge.
        self.watched = set(watched) if bar > 0 else set()
        self.passed_over = {p: set(ids) for p, ids in (passed_over or {}).items()}
        self._order: dict[str, list[tuple[int, str]]] = {p: [] for p in self.watched}
        self._sorted = True
        self._landed: dict[str, dict[str, Tally]] = {p: {} for p in self.watched}
        self._in_flight: dict[str, set[str]] = {p: set() for p in self.watched}
        self.verdicts: dict[str, Verdict] = {p: judge([], bar) for p in self.watched}

    def add(self, index: int, game_id: str, participants: Iterable[str]) -> None:
        """A game of the plan (landed or to play) that seats ``participants``."""
        for p in set(participants) & self.watched:
            if game_id not in self.passed_over.get(p, ()):
                self._order[p].append((index, game_id))
                self._sorted = False

    def _ordered(self, p: str) -> list[tuple[int, str]]:
        if not self._sorted:
            for games in self._order.values():
                games.sort()
            self._sorted = True
        return self._order[p]

    def _prefix(self, p: str) -> list[tuple[str, Tally]]:
        out = []
        for _, gid in self._ordered(p):
            t = self._landed[p].get(gid)
            if t is None:
                break
            out.append((gid, t))
        return out

    def _rejudge(self, p: str) -> Verdict:
        if self.verdicts[p].phase not in ("passed", "paused"):
            self.verdicts[p] = judge(self._prefix(p), self.bar)
        return self.verdicts[p]

    def landed(self, game_id: str, tallies: dict[str, Tally]) -> list[str]:
        """A game landed; the participants it newly paused."""
        paused = []
        for p, t in tallies.items():
            if p not in self.watched:
                continue
            self._in_flight[p].discard(game_id)
            self._landed[p][game_id] = t
            before = self.verdicts[p].phase
            if self._rejudge(p).phase == "paused" and before != "paused":
                paused.append(p)
        return paused

    def dropped(self, game_id: str, participants: Iterable[str]) -> None:
        """A game that will not land in this run (it failed, or a paused participant
        sits at it): the trials of the others no longer wait for it."""
        for p in set(participants) & self.watched:
            self._in_flight[p].discard(game_id)
            self._order[p] = [(i, g) for i, g in self._order[p] if g != game_id]
            self._rejudge(p)

    def admits(self, game_id: str, participants: Iterable[str]) -> Admission:
        waiting = False
        for p in set(participants) & self.watched:
            phase = self.verdicts[p].phase
            if phase == "paused":
                return Admission.SKIP
            if phase == "first_look" and (self._in_flight[p] or self._next(p) != game_id):
                waiting = True
        return Admission.WAIT if waiting else Admission.START

    def _next(self, p: str) -> str | None:
        """The participant's first game, in plan order, that has not landed."""
        return next((gid for _, gid in self._ordered(p) if gid not in self._landed[p]), None)

    def started(self, game_id: str, participants: Iterable[str]) -> None:
        for p in set(participants) & self.watched:
            self._in_flight[p].add(game_id)

    def paused(self) -> list[str]:
        return sorted(p for p, v in self.verdicts.items() if v.phase == "paused")

    def read(self, p: str) -> list[str]:
        """The games the participant's verdict read (what ``--retry-paused`` passes over):
        every landed game of its trial, the games that landed while it was judged included."""
        return [gid for _, gid in self._ordered(p) if gid in self._landed[p]]

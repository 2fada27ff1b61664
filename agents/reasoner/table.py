"""The public story of one game, read once for all of its reasoner seats.

Every seat sees the same public events (the same objects), and what a public action
says about the cards does not depend on who reads it: so the first reasoner seat to
reach a public event reads it here, turns it into facts and factors (``model``), and
keeps the public belief: a ``Tracker`` over the assignments consistent with the public
facts alone. The other seats take the same factors (``Table.log``): an exact seat
weighs the table's own rows through its private mask, a sampled seat replays them on
rows of its own. Nothing private ever enters the table.

The public belief is also the *mood* the action model reads (what the table as a
whole thinks of each player just before an action), and what a wolf reads as the
village's view of itself.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.heuristic_memory import is_wolf_role
from agents.reasoner.model import KILL_FEATURES, PARAMS, ClaimFactor, ConfessionFactor, Factor, HardFactor, KillFactor, Params, PickFactor, ReportFactor
from agents.reasoner.space import INFORMED, TABLE_PARTICLES, Deck, Facts
from agents.reasoner.tracker import Tracker
from engine.events import PUBLIC, Event
from engine.flow.day import Dawn
from engine.flow.leaving import DeathEvent
from engine.flow.main import GameStart
from engine.flow.sheriff import SheriffCandidates, SheriffElected, SheriffSuccessor
from engine.flow.voting import SheriffVotes, VoteResult
from engine.roles import ROLES
from engine.roles.base import DEVOURED
from engine.roles.idiot import IdiotRevealed
from engine.roles.priest import Revived
from engine.speech import Speech

VILLAGER_ROLE = "villager"


@dataclass
class Said:
    """What one speech states, read defensively (another seat may be a model or a
    person): a claimed role id, reported checks (target, says wolf), accusations."""

    role: str | None = None
    checks: list[tuple[str, bool]] = field(default_factory=list)
    accuses: list[str] = field(default_factory=list)


def read_claims(claims: Any, speaker: str) -> Said:
    said = Said()
    if not isinstance(claims, dict):
        return said
    role = claims.get("role")
    if isinstance(role, str) and role:
        said.role = role
    checks = claims.get("checks")
    if isinstance(checks, list):
        for c in checks:
            if isinstance(c, dict) and isinstance(c.get("target"), str) and isinstance(c.get("role"), str):
                said.checks.append((c["target"], is_wolf_role(c["role"])))
    accuses = claims.get("accuses")
    if isinstance(accuses, list):
        for t in accuses:
            if isinstance(t, str) and t != speaker and t not in said.accuses:
                said.accuses.append(t)
    return said


@dataclass
class Entry:
    """One item of the table's log, as a seat replays it: a fact about a slot, or a
    factor. ``public`` facts are the table's own (``Tracker.facts``)."""

    hard: HardFactor | None = None
    factor: Factor | None = None


class Table:
    def __init__(self, params: Params = PARAMS) -> None:
        self.params = params
        self.events: list[Event] = []  # the public events read, in order (seats check theirs against them by identity)
        self.log: list[Entry] = []
        self.deck: Deck | None = None
        self.tracker: Tracker | None = None
        self.players: list[str] = []
        self.slot: dict[str, int] = {}
        self.alive: list[str] = []
        self.dead: dict[str, str | None] = {}  # name -> card shown (None: hidden)
        self.causes: dict[str, str] = {}
        self.sheriff: str | None = None
        self.claimed: dict[str, list[str]] = {}  # player -> roles claimed, in order
        self.reported: dict[str, dict[str, bool]] = {}  # claimant -> target -> said wolf
        self.accused_days: set[tuple[int, str, str]] = set()  # (day, speaker, target)
        self.accused: np.ndarray = np.zeros((0, 0))  # accusations, speaker x target
        self.voted: np.ndarray = np.zeros((0, 0))  # day votes, voter x target
        self.reported_wolf: np.ndarray = np.zeros((0, 0))  # Seer reports naming a wolf, claimant x target
        self.night_alive: list[str] = []  # who was alive when the pack chose, at the last dawn
        self.candidates: list[str] | None = None  # the Sheriff's candidates, when they run (狼人杀)
        self.tied: list[str] = []  # the last vote round's leaders
        self._mood: np.ndarray | None = None

    # ------------------------------------------------------------------ reading
    def read(self, e: Event) -> None:
        self.events.append(e)
        d = e.data
        handler = _HANDLERS.get(type(d))
        if handler is not None and (self.tracker is not None or isinstance(d, GameStart)):
            handler(self, e, d)

    def mood(self) -> np.ndarray:
        """The public P(wolf) of every slot, now."""
        if self._mood is None:
            assert self.tracker is not None
            self._mood = self.tracker.space.p_wolf()
        return self._mood

    def _fact(self, hard: HardFactor) -> None:
        assert self.tracker is not None
        if self.tracker.fact(hard):
            self.log.append(Entry(hard=hard))
            self._mood = None

    def _factor(self, f: Factor) -> None:
        assert self.tracker is not None
        if self.tracker.factor(f):
            self.log.append(Entry(factor=f))
            self._mood = None

    def _start(self, e: Event, d: GameStart) -> None:
        players = [p for p in d.players if isinstance(p, str)]
        roles = [r for r in d.roles_in_play if isinstance(r, str)]
        aside = d.set_aside if isinstance(d.set_aside, int) else 0
        self.players = players
        self.slot = {p: i for i, p in enumerate(players)}
        self.alive = list(players)
        n = len(players)
        self.accused = np.zeros((n, n))
        self.voted = np.zeros((n, n))
        self.reported_wolf = np.zeros((n, n))
        if len(roles) != n + aside:
            return  # a deck this model cannot lay out: the table stays without a belief
        self.deck = Deck.of(players, roles, aside)
        # A fixed generator per table: the same deck gives the same draw, whichever seat reads first.
        seed = zlib.crc32("|".join(players + roles).encode())
        self.tracker = Tracker(self.deck, Facts(), np.random.default_rng(seed), TABLE_PARTICLES)

    def _dawn(self, e: Event, d: Dawn) -> None:
        self.night_alive = list(self.alive)

    def _death(self, e: Event, d: DeathEvent) -> None:
        name = d.player
        if not isinstance(name, str) or name not in self.slot or name in self.dead:
            return
        s = self.slot[name]
        cause = str(d.cause)
        if cause == "werewolves" and name in self.night_alive:
            self._factor(self.kill_factor_for(s, self.night_alive))
        if cause in DEVOURED:
            self._fact(HardFactor(s, "not_wolf"))
        assert self.deck is not None
        if isinstance(d.role, str):
            k = self.deck.index(d.role)
            if k is not None:
                self._fact(HardFactor(s, "fixed", k))
        self.dead[name] = d.role if isinstance(d.role, str) else None
        self.causes[name] = cause
        self.alive = [p for p in self.alive if p != name]

    def kill_factor_for(self, victim: int, alive_names: list[str] | None = None) -> KillFactor:
        """The factor of the pack devouring ``victim`` now, among ``alive_names`` (the
        living, by default): what the night's death tells, or would tell."""
        alive_names = self.alive if alive_names is None else alive_names
        alive = np.array([self.slot[p] for p in alive_names], dtype=np.intp)
        features = np.zeros((len(alive), len(KILL_FEATURES)))
        features[:, 0] = 1.0 - self.mood()[alive]
        for i, p in enumerate(alive_names):
            roles = self.claimed.get(p, ())
            if "seer" in roles:
                features[i, 1] = 1.0
            elif "hunter" in roles:
                features[i, 2] = 1.0
            elif any(r != VILLAGER_ROLE for r in roles):
                features[i, 3] = 1.0
            if p == self.sheriff:
                features[i, 4] = 1.0
        return KillFactor(victim, alive, features, self.accused.copy(), self.voted.copy(), self.reported_wolf.copy(), self.params.kill)

    def _speech(self, e: Event, d: Speech) -> None:
        speaker = d.speaker
        if not isinstance(speaker, str) or speaker not in self.slot:
            return
        said = read_claims(d.claims, speaker)
        a = self.slot[speaker]
        assert self.deck is not None
        p = self.params
        if said.role is not None and said.role != VILLAGER_ROLE and said.role in ROLES:
            told = self.claimed.setdefault(speaker, [])
            if said.role not in told:
                told.append(said.role)
                if is_wolf_role(said.role):
                    self._factor(ConfessionFactor(a))
                else:
                    self._factor(ClaimFactor(a, said.role, p.claim_seer if said.role in INFORMED else p.claim_power))
        elif said.role == VILLAGER_ROLE:
            self.claimed.setdefault(speaker, [])
        for target, wolf in said.checks:
            if target in self.slot and target != speaker:
                mine = self.reported.setdefault(speaker, {})
                if target not in mine:
                    mine[target] = wolf
                    if wolf:
                        self.reported_wolf[a, self.slot[target]] = 1.0
                    self._factor(ReportFactor(a, self.slot[target], wolf, p.report))
        if not said.accuses or speaker not in self.alive:
            return
        options = np.array([self.slot[n] for n in self.alive if n != speaker], dtype=np.intp)
        for target in said.accuses:
            key = (e.day, speaker, target)
            if target in self.slot and target in self.alive and key not in self.accused_days:
                self.accused_days.add(key)
                self.accused[a, self.slot[target]] += 1.0
                self._factor(PickFactor(a, self.slot[target], options, self.mood(), p.accuse))

    def _votes(self, e: Event, d: VoteResult) -> None:
        votes = d.votes if isinstance(d.votes, dict) else {}
        rnd = d.round if isinstance(d.round, int) else 1
        pool = [n for n in self.alive if rnd == 1 or n in self.tied]
        mood = self.mood()
        for voter, target in votes.items():
            if voter not in self.slot or target not in self.slot:
                continue
            options = np.array([self.slot[n] for n in pool if n != voter], dtype=np.intp)
            t = self.slot[target]
            if t not in options:
                continue
            self.voted[self.slot[voter], t] += 1.0
            self._factor(PickFactor(self.slot[voter], t, options, mood, self.params.vote))
        leaders = d.leaders if isinstance(d.leaders, list) else []
        self.tied = [n for n in leaders if isinstance(n, str)]

    def _sheriff_votes(self, e: Event, d: SheriffVotes) -> None:
        votes = d.votes if isinstance(d.votes, dict) else {}
        mood = self.mood()
        pool = self.candidates if self.candidates else self.alive
        if isinstance(d.round, int) and d.round > 1:
            pool = self.tied or pool
        for voter, target in votes.items():
            if voter not in self.slot or target not in self.slot:
                continue
            options = np.array([self.slot[n] for n in pool if n != voter and n in self.alive], dtype=np.intp)
            t = self.slot[target]
            if t not in options or len(options) < 2:
                continue
            self._factor(PickFactor(self.slot[voter], t, options, mood, self.params.sheriff_vote))
        leaders = d.leaders if isinstance(d.leaders, list) else []
        self.tied = [n for n in leaders if isinstance(n, str)]

    def _candidates(self, e: Event, d: SheriffCandidates) -> None:
        self.candidates = [n for n in d.candidates if isinstance(n, str)]

    def _sheriff(self, e: Event, d: SheriffElected | SheriffSuccessor) -> None:
        if isinstance(d.player, str):
            self.sheriff = d.player

    def _successor(self, e: Event, d: SheriffSuccessor) -> None:
        """The dying Sheriff names his heir among the living: a pick like a vote (a wolf
        hands the badge to his mate), read with his card already shown."""
        heir, previous = d.player, d.previous
        if isinstance(heir, str) and isinstance(previous, str) and heir in self.slot and previous in self.slot:
            options = np.array([self.slot[n] for n in self.alive if n != previous], dtype=np.intp)
            if self.slot[heir] in options and len(options) > 1:
                self._factor(PickFactor(self.slot[previous], self.slot[heir], options, self.mood(), self.params.successor))
        self._sheriff(e, d)

    def _revived(self, e: Event, d: Revived) -> None:
        """A dead player back in play (004's Priest): alive again, in seat order."""
        name = d.player
        if isinstance(name, str) and name in self.dead:
            del self.dead[name]
            self.causes.pop(name, None)
            self.alive = [p for p in self.players if p in self.alive or p == name]

    def _revealed(self, e: Event, d: IdiotRevealed) -> None:
        assert self.deck is not None
        if isinstance(d.player, str) and d.player in self.slot and isinstance(d.role, str):
            k = self.deck.index(d.role)
            if k is not None:
                self._fact(HardFactor(self.slot[d.player], "fixed", k))


_HANDLERS: dict[type, Any] = {
    GameStart: Table._start,
    Dawn: Table._dawn,
    DeathEvent: Table._death,
    Speech: Table._speech,
    VoteResult: Table._votes,
    SheriffVotes: Table._sheriff_votes,
    SheriffCandidates: Table._candidates,
    SheriffElected: Table._sheriff,
    SheriffSuccessor: Table._successor,
    IdiotRevealed: Table._revealed,
    Revived: Table._revived,
}


def is_public(e: Event) -> bool:
    a = e.audience
    return a == PUBLIC


# One table per game, found by its first public event (kept alive by the table, so its
# id is not reused while the entry stands); cleared when full.
_TABLES: dict[int, Table] = {}
_TABLES_KEPT = 16


def table_for(first: Event) -> Table:
    t = _TABLES.get(id(first))
    if t is None or not t.events or t.events[0] is not first:
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        t = _TABLES[id(first)] = Table()
    return t

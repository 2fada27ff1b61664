"""The runner's watch on fallback moves: it counts the games played now in which the
fallback bot moved for someone, keeps every model participant's trial
(``arena.tournament.trial``) and pauses a participant that falls below the
leaderboard's ``--min-decided``, so the run spends nothing more on games the
leaderboard would leave out.

An agent of one's own (``py:MODULE:CLASS``) falls back too, when the game cannot take
its move (``agents.own_seat``): its games, bot games played in worker processes
included, count in the report (games with fallback moves, games below the bar), but
it has no trial and is never paused: its games cost nothing, and the leaderboard
leaves out those below the bar all the same.

Concurrency: model games are coroutines on the runner's event loop (with Ray, too: the
driver awaits each game the actor plays), so every game passes ``admit`` before it
starts and ``landed`` or ``dropped`` when it ends, in one thread. Bot games seat no
model participant and are never held. A game held back waits without taking one of
the run's game slots, and wakes whenever a game lands, fails or the run stops.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from typing import Any, Callable, Iterable

from rich.console import Console
from rich.markup import escape

from agents.custom import is_custom_spec
from arena.ratings.from_db import load_games
from arena.tournament.config import TournamentConfig
from arena.tournament.paused import PausedParticipant, last_error
from arena.tournament.play import GameJob
from arena.tournament.store import FinishedGame, PackedGame, Store
from arena.tournament.trial import Admission, Tally, Trials, below

PASSED_OVER_KEY = "trial_passed_over"  # meta: participant -> the games its abandoned trials read (--retry-paused)
log = logging.getLogger("werewolf.tournament")


def tallies(seats: Iterable[tuple[str, int, int]]) -> dict[str, Tally]:
    """Per participant, its decisions in one game from (participant, asked, fallbacks) per seat."""
    asked: Counter[str] = Counter()
    fell: Counter[str] = Counter()
    for participant, n, f in seats:
        asked[participant] += int(n or 0)
        fell[participant] += int(f or 0)
    return {p: Tally(asked[p], fell[p]) for p in asked | fell}


def finished_tallies(fin: FinishedGame) -> dict[str, Tally]:
    return tallies((s.participant, int(s.metrics.get("decisions_asked") or 0), s.fallbacks) for s in fin.seats)


def packed_tallies(fin: PackedGame, participants: set[str]) -> dict[str, Tally]:
    """``participants``' decisions in a game a worker process packed, read from its seat
    rows; a seat's metrics (JSON) are read only when it fell back, the rare case."""
    cols = fin.seat_columns
    who, fell, metrics = cols.index("participant"), cols.index("fallbacks"), cols.index("metrics")
    rows = [r for r in fin.seat_rows if r[who] in participants]
    return tallies((r[who], int(json.loads(r[metrics]).get("decisions_asked") or 0) if r[fell] else 0, r[fell]) for r in rows)


def _participants(job: GameJob) -> set[str]:
    return {s.participant for s in job.plan.seats}


class Watch:
    def __init__(
        self, cfg: TournamentConfig, store: Store, jobs: list[GameJob], todo: list[GameJob], bar: float,
        retry: bool = False, console: Console | None = None,
    ):  # fmt: skip
        self.bar = bar
        self.store = store
        self.console = console
        self.agents = {p.name: p.agent for p in cfg.participants}
        self._models = {p.name for p in cfg.participants if p.is_model}  # the participants that can fall back, with a trial
        self._own = {p.name for p in cfg.participants if is_custom_spec(p.agent)}  # those that can fall back in bot games too
        self._watched = sorted(self._models) if bar > 0 else []
        self._index = {j.plan.id: j.plan.index for j in jobs}
        self._transcripts: dict[str, str] = {}
        self._stored: dict[str, dict[str, Tally]] = {}
        if self._watched:
            self._transcripts = {g["id"]: g["transcript"] for g in store.games()}
            self._stored = {g.id: tallies((s.participant, s.decisions, s.fallbacks) for s in g.seats) for g in load_games(store)}
        self.passed_over = self._read_passed_over()
        self.trials = self._open(todo)
        if retry and self.trials.paused():
            for p in self.trials.paused():
                read = self.trials.read(p)
                self.passed_over.setdefault(p, []).extend(read)
                self._say(f"{p}: a new trial from its next game (--retry-paused); the {len(read)} game(s) its last trial read stay stored")
            store.set_meta(PASSED_OVER_KEY, json.dumps(self.passed_over))
            self.trials = self._open(todo)
        self.paused: dict[str, PausedParticipant] = {}
        for p in self.trials.paused():
            self._pause(p)
        # What the games played now held: fallback moves, and games below the bar.
        self.games_with_fallbacks = 0
        self.fallback_games: Counter[str] = Counter()
        self.games_below = 0
        self.below_games: Counter[str] = Counter()
        self.skipped = 0
        self._changed: asyncio.Event | None = None

    def _read_passed_over(self) -> dict[str, list[str]]:
        raw = self.store.meta(PASSED_OVER_KEY)
        try:
            data = json.loads(raw) if raw else {}
            return {str(p): [str(g) for g in ids] for p, ids in data.items()}
        except (ValueError, TypeError, AttributeError):
            log.warning("the stored record of abandoned trials cannot be read; every game is judged")
            return {}

    def _open(self, todo: list[GameJob]) -> Trials:
        trials = Trials(self._watched, self.bar, self.passed_over)
        for gid, t in self._stored.items():
            if gid in self._index:
                trials.add(self._index[gid], gid, t.keys())
        self._known = set(self._stored)
        self.add(todo, trials)
        for gid, t in self._stored.items():
            trials.landed(gid, t)
        return trials

    def add(self, todo: list[GameJob], trials: Trials | None = None) -> None:
        """Games to play (an adaptive plan's next batch, too)."""
        trials = trials or self.trials
        if not self._watched:
            return
        for j in todo:
            if j.plan.id not in self._known:
                self._known.add(j.plan.id)
                self._index[j.plan.id] = j.plan.index
                trials.add(j.plan.index, j.plan.id, _participants(j))

    # ------------------------------------------------------------------ telling
    def _say(self, text: str, style: str = "yellow") -> None:
        if self.console is not None:
            self.console.print(f"[{style}]{escape(text)}[/{style}]", highlight=False)

    def _pause(self, p: str) -> None:
        v = self.trials.verdicts[p]
        folder = self.store.folder
        read = [folder / self._transcripts[g] for g in self.trials.read(p) if g in self._transcripts]
        record = PausedParticipant.of(p, self.agents.get(p, ""), v, self.bar, last_error(read, p), retried=bool(self.passed_over.get(p)))
        self.paused[p] = record
        # Told on the console when there is one (a warning as well would say it twice).
        level = logging.INFO if self.console is not None else logging.WARNING
        log.log(level, "paused %s: %d of %d decisions its own in %d game(s), below --min-decided %g", p, v.decided, v.asked, v.games, self.bar)
        self._say(record.sentence(), "bold red")

    # ------------------------------------------------------------------ the runner's calls
    def begin(self) -> None:
        """In the event loop of a batch of games (``asyncio.run`` makes one per batch)."""
        self._changed = asyncio.Event()

    def notify(self) -> None:
        """Something a held game may wait for happened: it looks again."""
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def admit(self, job: GameJob, stopped: Callable[[], bool]) -> bool:
        """Wait until ``job`` may start; False when it is not to be played in this run."""
        while not stopped():
            got = self.admission(job)
            if got is Admission.START:
                return True
            if got is Admission.SKIP:
                return False
            assert self._changed is not None, "begin() opens a batch"
            await self._changed.wait()
        return False

    def admission(self, job: GameJob) -> Admission:
        """Whether ``job`` may start now; a game skipped for a paused participant is
        dropped from the others' trials at once, so none waits for it."""
        got = self.trials.admits(job.plan.id, _participants(job))
        if got is Admission.SKIP:
            self.skipped += 1
            for p in _participants(job) & set(self.paused):
                self.paused[p].unplayed += 1
            self.trials.dropped(job.plan.id, _participants(job))
            self.notify()
        return got

    def started(self, job: GameJob) -> None:
        self.trials.started(job.plan.id, _participants(job))

    def landed(self, fin: FinishedGame | PackedGame) -> bool:
        """A game was stored; whether the fallback bot moved in it for a model seat or
        an agent of one's own."""
        if isinstance(fin, PackedGame):  # a bot game from a worker process: an agent of one's own may fall back in it
            return self._count(packed_tallies(fin, self._own)) if self._own else False
        seated = {s.participant for s in fin.seats}
        if not (self._models | self._own) & seated:
            return False  # a bot game played here: no fallback move in it
        t = finished_tallies(fin)
        fell = self._count(t)
        if not self._models & seated:
            return fell
        self._transcripts[fin.id] = fin.transcript
        for p in self.trials.landed(fin.id, t):
            self._pause(p)
        self.notify()
        return fell

    def _count(self, t: dict[str, Tally]) -> bool:
        """Count a game's fallback moves and the participants below the bar in it;
        whether the fallback bot moved in it."""
        fell = sorted(p for p, x in t.items() if x.fallbacks)
        if fell:
            self.games_with_fallbacks += 1
            self.fallback_games.update(fell)
        low = sorted(p for p, x in t.items() if below(x.decided, x.asked, self.bar))
        if low:
            self.games_below += 1
            self.below_games.update(low)
        return bool(fell)

    def dropped(self, job: GameJob) -> None:
        """A game failed: the trials no longer wait for it in this run."""
        self.trials.dropped(job.plan.id, _participants(job))
        self.notify()

    # ------------------------------------------------------------------ the report
    def summary(self) -> dict[str, Any]:
        """The games played now with fallback moves, and for whom (``RunReport.fallbacks``)."""
        return {
            "games": self.games_with_fallbacks,
            "by_participant": dict(sorted(self.fallback_games.items())),
            "min_decided": self.bar,
            "below_min_decided": self.games_below,
            "below_by_participant": dict(sorted(self.below_games.items())),
        }

    def paused_report(self) -> list[dict[str, Any]]:
        return [self.paused[p].to_json() for p in sorted(self.paused)]

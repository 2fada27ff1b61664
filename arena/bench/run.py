"""Running a bench: batches of deals until the interval is narrow enough, the budget
is spent or the protocol's deals run out.

Everything lands in a tournament store (``<out>/bench.sqlite``, transcripts beside it),
one game at a time, so a killed or budget-stopped run resumes where it stopped and
repeats nothing: the plan is a pure function of the protocol, and the interval is
looked at only at batch boundaries, so a resumed run stops exactly where an
uninterrupted one would have.
"""

from __future__ import annotations

import asyncio
from functools import partial
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from arena.bench.confseq import Interval, rating_interval
from arena.bench.plan import bench_config, bench_plans, opponent_of
from arena.bench.protocol import MODEL, Protocol
from arena.tournament.config import TournamentConfig
from arena.tournament.play import GameFailed, GameJob, play_async, play_sync
from arena.tournament.run import make_jobs
from arena.tournament.store import Store

DB_NAME = "bench.sqlite"


class BenchError(RuntimeError):
    """A bench that cannot run or resume as asked; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """One finished game, as the bench's rating reads it."""

    game_id: str
    table: int
    opponent: str
    side: str  # the model's side
    won: float  # 1 when the model's side won
    par: float


@dataclass
class BenchState:
    outcomes: list[Outcome] = field(default_factory=list)
    stopped: str = ""  # target | budget | deals | failed
    cost_usd: float = 0.0
    played: int = 0  # games played by this run (not resumed ones)
    failures: list[str] = field(default_factory=list)

    def interval(self, protocol: Protocol, side: str | None = None) -> Interval:
        chosen = [o for o in self.outcomes if side is None or o.side == side]
        return rating_interval([o.won for o in chosen], [o.par for o in chosen], protocol.alpha)


def identity(protocol: Protocol, spec: str, options: dict[str, Any] | None) -> str:
    return json.dumps({"protocol": protocol.label, "digest": protocol.digest, "model": spec, "options": options or {}}, sort_keys=True)


def open_store(out: Path, protocol: Protocol, spec: str, options: dict[str, Any] | None) -> Store:
    """The run's store; one made for another protocol or model is refused, never mixed."""
    store = Store(out / DB_NAME)
    mine = identity(protocol, spec, options)
    have = store.meta("bench")
    if have is None:
        store.set_meta("bench", mine)
    elif have != mine:
        store.close()
        raise BenchError(f"{out} holds a bench of {have}, not of {mine}; choose another --out")
    return store


def read_outcomes(store: Store, protocol: Protocol, ids: list[str]) -> list[Outcome]:
    """The finished games among ``ids``, in plan order, as the rating reads them."""
    games = {g["id"]: g for g in store.games()}
    model_seats: dict[str, tuple[str, bool]] = {}
    opponents: dict[str, str] = {}
    for s in store.seats():
        if s["participant"] == MODEL:
            side, won = model_seats.get(s["game_id"], (s["side"], False))
            model_seats[s["game_id"]] = (side, won or bool(s["won"]))
        else:
            opponents[s["game_id"]] = s["participant"]
    out = []
    for gid in ids:
        if gid not in games or gid not in model_seats:
            continue
        side, won = model_seats[gid]
        table = games[gid]["table_idx"]
        opp = opponents[gid]
        out.append(Outcome(gid, table, opp, side, 1.0 if won else 0.0, protocol.par(table, opp, side)))
    return out


@dataclass
class Bench:
    protocol: Protocol
    spec: str
    options: dict[str, Any] | None
    out: Path
    budget_usd: float | None = None
    game_cost: float = 0.0  # expected cost of one game (the estimate), until games are played
    sign_key: str | None = None
    prices: str | None = None
    on_game: Callable[[BenchState], None] | None = None
    only: frozenset[int] | None = None  # play only these deals (the dry run's), no stopping rule

    def run_all(self) -> BenchState:
        """Every deal, no stopping rule (the dry run)."""
        return self.run(stop=False)

    def run(self, stop: bool = True) -> BenchState:
        cfg = bench_config(self.protocol, self.spec, self.options, sign_key=self.sign_key, prices=self.prices)
        store = open_store(self.out, self.protocol, self.spec, self.options)
        # as a tournament's run stores them, so `werewolf leaderboard --db` reads a bench's
        # store as any tournament's (the reference player its anchor)
        store.set_meta("name", cfg.name)
        store.set_meta("config", cfg.model_dump_json())
        store.set_participants([(q.name, q.agent, q.options) for q in cfg.participants])
        try:
            return self._run(cfg, store, stop)
        finally:
            store.close()

    def _run(self, cfg: TournamentConfig, store: Store, stop: bool) -> BenchState:
        p = self.protocol
        plans = bench_plans(cfg, p, p.max_deals)
        if self.only is not None:
            plans = [g for g in plans if g.deal in self.only]
        jobs = make_jobs(cfg, plans, self.out / DB_NAME)
        per_batch = 2 * p.batch
        state = BenchState()
        ids_so_far: list[str] = []
        for start in range(0, len(jobs), per_batch):
            batch = jobs[start : start + per_batch]
            done = store.finished()
            todo = [j for j in batch if j.plan.id not in done]
            state.cost_usd = float(store.totals()["cost_usd"] or 0.0)
            if todo and not self._afford(store, len(todo)):
                state.stopped = "budget"
                break
            failed = self._play(store, todo, state)
            ids_so_far += [j.plan.id for j in batch]
            state.outcomes = read_outcomes(store, p, ids_so_far)
            state.cost_usd = float(store.totals()["cost_usd"] or 0.0)
            if failed:
                state.stopped = "failed"
                break
            if stop and state.interval(p).half_width < p.target:
                state.stopped = "target"
                break
        else:
            state.stopped = "deals"
        return state

    def expected_game_cost(self, store: Store) -> float:
        """The mean of the games played so far, else the estimate's."""
        t = store.totals()
        return float(t["cost_usd"]) / t["games"] if t["games"] else self.game_cost

    def _afford(self, store: Store, games: int) -> bool:
        """A whole batch or nothing: a batch cut short would make the stop depend on
        where the money ran out, and the resumed run would look at a different point."""
        if self.budget_usd is None:
            return True
        spent = float(store.totals()["cost_usd"] or 0.0)
        return spent + games * self.expected_game_cost(store) <= self.budget_usd + 1e-12

    def _play(self, store: Store, todo: list[GameJob], state: BenchState) -> bool:
        if not todo:
            return False
        if todo[0].bots_only:
            failed = False
            for job in todo:
                failed = self._keep(store, job, state, partial(play_sync, job)) or failed
            return failed
        return asyncio.run(self._play_models(store, todo, state))

    async def _play_models(self, store: Store, todo: list[GameJob], state: BenchState) -> bool:
        gate = asyncio.Semaphore(self.protocol.concurrency)
        results: list[bool] = []

        async def one(job: GameJob) -> None:
            async with gate:
                try:
                    fin = await play_async(job)
                except GameFailed as e:
                    store.record_failure(job.plan.id, str(e))
                    state.failures.append(str(e))
                    results.append(True)
                    return
                store.record(fin)
                state.played += 1
                results.append(False)
                if self.on_game is not None:
                    self.on_game(state)

        await asyncio.gather(*(one(j) for j in todo))
        return any(results)

    def _keep(self, store: Store, job: GameJob, state: BenchState, play: Callable[[], Any]) -> bool:
        try:
            fin = play()
        except GameFailed as e:
            store.record_failure(job.plan.id, str(e))
            state.failures.append(str(e))
            return True
        store.record(fin)
        state.played += 1
        if self.on_game is not None:
            self.on_game(state)
        return False


__all__ = ["Bench", "BenchError", "BenchState", "Outcome", "open_store", "read_outcomes", "opponent_of"]

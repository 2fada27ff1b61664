"""Running (or resuming) a tournament.

The plan is rebuilt from the file on every run; the database says which of its games
are finished. Only the others are played, in plan order, so running the same command
after a kill completes what is missing and repeats nothing. A finished game whose
stored digest differs from the plan's (the participants, tables, seed or options were
edited) stops the run: mixing two plans in one database would make its ratings lie.

Bot-only games are played synchronously, in a worker thread or, with
``concurrency.processes`` > 1, in worker processes (a bot game is pure CPU), or with
``concurrency.backend: ray`` as tasks on a Ray cluster (``ray_backend``). Games with
model seats are coroutines on one event loop, at most ``concurrency.games`` at a time,
their calls capped by ``agents.llm.limits`` globally and per model. A budget cap is checked
before each game starts, counting what the games in flight will still cost: a game
starts only if the spending so far, plus what each game in flight is expected to cost
beyond what it has spent, plus the new game's expected cost stay within the budget.
A game is expected to cost what the finished model games cost on average (before any
has finished, at least what the dearest game in flight has spent so far); bot games
cost nothing. With ``monitor:``, each game is rated as soon as it is stored
(``arena.monitor.live``) and the budget holds the monitor's spending too: each game,
bot games included, is expected to cost its rating on top, what the games rated so far
cost on average. The report says what was spent and expected when the budget stopped the
run. Five failed games in a row
stop the run too (a missing key or a dead server fails every game the same way).
A model participant whose own agent decides less than the leaderboard's
``--min-decided`` of its moves in its first games is paused (``watch``, ``trial``):
its games are left unplayed, the others go on, and the report says why.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import json
import logging
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from agents.llm.config import LLMOptions
from agents.registry import make_agent
from arena.gc_tuning import many_games, tune_bot_worker
from agents.llm.limits import configure
from arena.monitor.live import LiveMonitor, preflight_monitor
from arena.preflight import ALLOW_FLAG, refusal, run_check, warning
from arena.ratings.fallbacks import MIN_DECIDED
from arena.ratings.from_db import load_games
from arena.tournament.config import ConfigError, TournamentConfig
from arena.tournament.play import GameFailed, GameJob, play_async, play_batch, play_sync
from arena.tournament.progress import TournamentProgress
from arena.tournament.ray_backend import ModelPlayer, RayExecutor, cluster_cpus, connect, disconnect
from arena.tournament.schedule import GamePlan, build_schedule, planned_games
from arena.tournament.store import FinishedGame, PackedGame, Store, StoreError
from arena.tournament.trial import Admission
from arena.tournament.watch import Watch

MAX_FAILURES_IN_A_ROW = 5
BATCHES_PER_WORKER = 2  # batches of bot games in flight per worker process (``_bot_executor``)
MAX_BATCH = 4  # bot games per task handed to a worker process (``bot_batches``)
ADAPTIVE_KEY = "adaptive_pairs"  # meta: the adaptive plan's chosen pairs, by deal
log = logging.getLogger("werewolf.tournament")


@dataclass
class RunReport:
    planned: int
    already: int
    played: int = 0
    failed: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # budget | failing | interrupted | limit | paused
    failures: list[str] = field(default_factory=list)
    extra: int = 0  # finished games in the database that this plan does not contain
    budget: dict[str, Any] | None = None  # when the budget stopped the run: what was spent and expected then
    totals: dict[str, Any] = field(default_factory=dict)
    fallbacks: dict[str, Any] = field(default_factory=dict)  # the games played now with fallback moves, and for whom (``Watch.summary``)
    paused: list[dict[str, Any]] = field(default_factory=list)  # participants paused for falling below --min-decided (``PausedParticipant``)
    monitor: dict[str, Any] | None = None  # the monitor's own account this run (``LiveMonitor.summary``), apart from ``totals``
    db: str = ""
    transcripts: str = ""

    @property
    def remaining(self) -> int:
        return self.planned - self.already - self.played

    def to_json(self) -> dict[str, Any]:
        out = {**asdict(self), "remaining": self.remaining}
        if out["monitor"] is None:  # a tournament without a monitor reports as before there were any
            del out["monitor"]
        return out


def transcripts_dir(db_path: str | Path) -> Path:
    """The transcripts live in a folder beside the database, named after it."""
    p = Path(db_path)
    return p.parent / f"{p.stem}_transcripts"


def make_jobs(cfg: TournamentConfig, plans: list[GamePlan], db_path: str | Path) -> list[GameJob]:
    db = Path(db_path)
    folder = transcripts_dir(db).name
    agents = {p.name: (p.agent, p.llm_options() if p.is_remote else p.options) for p in cfg.participants}
    return [
        GameJob(
            plan=g, digest=g.digest(cfg), players=len(g.seats), table_options=dict(cfg.tables[g.table].options),
            agents=agents, language=cfg.language, prices=cfg.prices, folder=str(db.parent.resolve()),
            transcript=f"{folder}/{g.id}.jsonl", beliefs=cfg.beliefs, sign_key=cfg.sign_key,
            persuasion=(cfg.persuasion.speeches, cfg.persuasion.repeats) if cfg.persuasion is not None else None,
        )
        for g in plans
    ]  # fmt: skip


def preflight(cfg: TournamentConfig, console: Console | None = None) -> None:
    """Seat each model or remote participant once, so a missing key, a bad option or a
    token's unset variable stops the run before the first game instead of failing
    every game; then check that each distinct endpoint answers, a model's or an A2A
    agent's card (``arena.preflight``): one that does not stops the run too, unless the
    file says ``allow_fallbacks: true`` (or ``--allow-fallbacks``), when it is a
    warning and the games ask it as usual (a server that comes back later in a long
    run is used)."""
    agents = {}
    for p in cfg.participants:
        if not p.is_remote:
            continue
        try:
            if p.is_model:
                agents[p.name] = make_agent(p.agent, p.name, options=LLMOptions(**p.llm_options()), prices=cfg.price_table())
            else:
                agents[p.name] = make_agent(p.agent, p.name, options=p.llm_options())
        except (ValueError, ImportError) as e:
            raise ConfigError(f"participant {p.name} ({p.agent}) cannot play: {e}") from None
    failures = run_check(agents, say=None if console is None else lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True))
    for agent in agents.values():
        agent.close()
    what = "the tournament"
    if failures and not cfg.allow_fallbacks:
        raise ConfigError(refusal(failures, flag=f"{ALLOW_FLAG} (allow_fallbacks: true in the file)", noun="participant", what=what))
    if failures and console is not None:
        console.print(f"warning: {warning(failures, noun='participant', what=what)}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    elif failures:
        log.warning("%s", warning(failures, noun="participant", what=what))


def check_monitor(cfg: TournamentConfig, console: Console | None = None) -> None:
    """The monitor's model gets the seats' check before the first game: one that cannot
    run stops the tournament at once (it has no fallback to play on with)."""
    if cfg.monitor is None:
        return
    say = None if console is None else (lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True))
    refused = preflight_monitor(cfg.monitor, cfg.prices, say=say)
    if refused is not None:
        raise ConfigError(refused)


def _watch_parent(parent: int) -> None:
    """Worker processes end when the tournament process dies (even by SIGKILL):
    an orphaned worker would otherwise wait on its queue forever."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()


def _bot_worker(parent: int) -> None:
    """A worker process's start: it ends with the tournament process (``_watch_parent``)
    and plays only bot games, so its collector is tuned for them (``arena.gc_tuning``)."""
    _watch_parent(parent)
    tune_bot_worker()


def _bot_executor(c: Any) -> tuple[cf.Executor, int]:
    """Where bot games are played, and how many at once: Ray tasks (the driver still
    writes every file and row: ``ray_backend``), worker processes, or one thread."""
    if c.backend == "ray":
        return RayExecutor(), c.tasks or 2 * cluster_cpus()
    if c.processes > 1:
        # Two batches in flight per worker: when a worker finishes one, the next is already
        # in its queue, so it does not wait for the parent to store the games and send more.
        pool = cf.ProcessPoolExecutor(c.processes, initializer=_bot_worker, initargs=(os.getpid(),))
        return pool, BATCHES_PER_WORKER * c.processes
    return cf.ThreadPoolExecutor(1), 1


def bot_batches(jobs: list[GameJob], workers: int) -> list[list[GameJob]]:
    """Bot games for worker processes, consecutive in plan order, in batches of at most
    ``MAX_BATCH`` that shrink to single games toward the end (an eighth of each
    worker's share of what is left), so the last games are spread over the workers
    instead of one worker finishing a long batch while the others wait."""
    out: list[list[GameJob]] = []
    i = 0
    while i < len(jobs):
        size = max(1, min(MAX_BATCH, (len(jobs) - i) // (8 * workers)))
        out.append(jobs[i : i + size])
        i += size
    return out


def run_tournament(
    cfg: TournamentConfig,
    db_path: str | Path,
    *,
    console: Console | None = None,
    progress: bool = True,
    max_games: int | None = None,
    min_decided: float = MIN_DECIDED,
    retry_paused: bool = False,
) -> RunReport:
    """Play every planned game the database does not hold yet (at most ``max_games``),
    but none seating a participant paused for falling below ``min_decided`` (the
    leaderboard's bar; 0 pauses nobody). ``retry_paused``: the paused participants get
    a new trial from their next game."""
    store = Store(db_path)
    try:
        return _run(cfg, store, Path(db_path), console, progress, max_games, min_decided, retry_paused)
    finally:
        store.close()


def _planned_jobs(cfg: TournamentConfig, store: Store, db_path: Path, chosen: dict) -> tuple[list[GameJob], dict[str, str]]:
    """The plan as far as it is known (all of it, unless adaptive), checked against
    the database: a finished game of a different plan stops the run. Also returns the
    finished games it checked (id -> plan digest), so a batch reads them once."""
    outcomes = {g.id: g for g in load_games(store)} if cfg.adaptive is not None else None
    plans, _ = build_schedule(cfg, outcomes, chosen)
    if cfg.adaptive is not None:
        store.set_meta(ADAPTIVE_KEY, json.dumps({str(d): list(p) for d, p in sorted(chosen.items())}))
    jobs = make_jobs(cfg, plans, db_path)
    done = store.finished()
    for j in jobs:
        if j.plan.id in done and done[j.plan.id] != j.digest:
            raise StoreError(
                f"{db_path} holds game {j.plan.id} from a different plan (participants, tables, seed or options "
                "changed since it was played); use a new --db for the new plan"
            )
    return jobs, done


def stored_choices(store: Store) -> dict[int, tuple[str, str]]:
    """The adaptive plan's pairs chosen by earlier runs (deal -> (wolf, village))."""
    raw = store.meta(ADAPTIVE_KEY)
    if not raw:
        return {}
    try:
        return {int(d): (str(p[0]), str(p[1])) for d, p in store.mapping(raw, "the adaptive plan").items()}
    except (StoreError, ValueError, TypeError, IndexError, AttributeError):
        log.warning("the stored adaptive plan cannot be read; it is chosen again from the finished games")
        return {}


def _run(
    cfg: TournamentConfig, store: Store, db_path: Path, console, progress: bool, max_games: int | None, min_decided: float, retry_paused: bool
) -> RunReport:
    chosen = stored_choices(store) if cfg.adaptive is not None else {}
    jobs, done = _planned_jobs(cfg, store, db_path, chosen)
    todo = [j for j in jobs if j.plan.id not in done]
    if max_games is not None:
        todo = todo[:max_games]
    planned = planned_games(cfg) if cfg.adaptive is not None else len(jobs)
    report = RunReport(
        planned=planned, already=sum(1 for j in jobs if j.plan.id in done), db=str(db_path), transcripts=str(transcripts_dir(db_path)),
    )  # fmt: skip
    log.info("tournament %s: %d games planned, %d stored already, %d to play now", cfg.name, report.planned, report.already, len(todo))
    store.set_meta("name", cfg.name)
    # Without an anchor the key is left out: a tournament's stored config reads as before it existed.
    store.set_meta("config", cfg.model_dump_json(exclude={"anchor"} if cfg.anchor is None else None))
    store.set_participants([(p.name, p.agent, p.options) for p in cfg.participants])
    transcripts_dir(db_path).mkdir(parents=True, exist_ok=True)
    # Before the preflight: a participant paused by an earlier run is said to be so first.
    watch = Watch(cfg, store, jobs, todo, min_decided, retry=retry_paused, console=console)
    if todo and (any(not j.bots_only for j in todo) or (cfg.adaptive is not None and cfg.has_models)):
        preflight(cfg, console)
        c = cfg.concurrency
        configure(global_limit=c.calls, per_model=c.per_model, default_per_model=c.default_per_model)
    live = LiveMonitor(cfg.monitor, cfg.prices, transcripts_dir(db_path)) if cfg.monitor else None
    earlier = live.unrated([j.plan.id for j in jobs if j.plan.id in done]) if live is not None else []
    if todo or earlier:
        check_monitor(cfg, console)
    started_ray = False
    if cfg.concurrency.backend == "ray" and todo:
        started_ray = connect(cfg.concurrency.address)
    run_id = store.start_run(planned)
    t0 = time.perf_counter()
    bar = TournamentProgress(planned, report.already, store.totals(), console=console, enabled=progress)
    runner = _Runner(cfg, store, report, bar, watch, live)
    try:
        with bar:
            if earlier:
                asyncio.run(runner.rate_earlier(earlier))
            while todo:
                failed, skipped = report.failed, watch.skipped
                asyncio.run(runner.run_all(todo))
                if cfg.adaptive is None or runner.stop or report.failed > failed or watch.skipped > skipped:
                    break  # an adaptive batch waits for every game before it: a failed or skipped one holds the plan
                if max_games is not None and report.played >= max_games:
                    break
                jobs, done = _planned_jobs(cfg, store, db_path, chosen)  # the next batch, chosen from the games so far
                todo = [j for j in jobs if j.plan.id not in done]
                if max_games is not None:
                    todo = todo[: max_games - report.played]
                watch.add(todo)
        if report.stopped is None and watch.skipped:
            report.stopped = "paused"
        if max_games is not None and report.remaining > 0 and report.stopped is None:
            report.stopped = "limit"
    except KeyboardInterrupt:
        report.stopped = "interrupted"
    finally:
        report.extra = len(set(store.finished()) - {j.plan.id for j in jobs})
        report.seconds = round(time.perf_counter() - t0, 3)
        report.totals = store.totals()
        report.fallbacks = watch.summary()
        report.paused = watch.paused_report()
        report.monitor = live.summary() if live is not None else None
        store.end_run(run_id, report.played, report.failed, report.stopped, report.seconds)
        log.info("tournament %s: %d played, %d failed in %.1f s%s", cfg.name, report.played, report.failed, report.seconds,
                 f" (stopped: {report.stopped})" if report.stopped else "")  # fmt: skip
        if started_ray:
            disconnect()
    return report


class _Runner:
    def __init__(self, cfg: TournamentConfig, store: Store, report: RunReport, bar: TournamentProgress, watch: Watch,
                 live: LiveMonitor | None = None):  # fmt: skip
        self.cfg = cfg
        self.store = store
        self.report = report
        self.bar = bar
        self.watch = watch
        self.live = live
        self.unrated = 0  # games started and not yet rated by the monitor: each expected to cost a rating
        # The players' spending and, apart in its own file, the monitor's: the budget holds both.
        self.spent = float(store.totals()["cost_usd"] or 0.0) + (live.spent if live is not None else 0.0)
        # What finished model games cost, each: the estimate of what a game will cost.
        self.game_costs = [float(g["cost_usd"]) for g in store.games() if g["calls"] and g["cost_usd"] is not None]
        self.in_flight: dict[str, float] = {}  # model game id -> spent on it so far
        self.failures_in_a_row = 0
        self.stop = False

    def expected_game_cost(self) -> float:
        """What a model game is expected to cost: the finished ones' mean; before any has
        finished, what the dearest game in flight has spent so far (a lower bound)."""
        if self.game_costs:
            return sum(self.game_costs) / len(self.game_costs)
        return max(self.in_flight.values(), default=0.0)

    def _may_start(self, job: GameJob | None, games: int = 1) -> bool:
        """Whether ``games`` more games like ``job`` may start within the budget (None:
        the rating of a game played before): the players' calls of a model game, and
        with a monitor each game's rating, are expected to cost what the finished ones
        did on average."""
        if self.stop:
            return False
        budget = self.cfg.budget_usd
        if budget is not None:
            each = self.expected_game_cost()
            rating = self.live.expected_per_game() if self.live is not None else 0.0
            in_flight = sum(max(0.0, each - spent) for spent in self.in_flight.values()) + rating * self.unrated
            this = ((0.0 if job is None or job.bots_only else each) + rating) * games
            if self.spent >= budget or self.spent + in_flight + this > budget:
                self.report.stopped = "budget"
                self.report.budget = {
                    "budget_usd": budget,
                    "spent_usd": round(self.spent, 6),
                    "in_flight": len(self.in_flight),
                    "in_flight_expected_usd": round(in_flight, 6),
                    "expected_per_game_usd": round(each, 6),
                    **({"monitor_spent_usd": round(self.live.spent, 6), "monitor_expected_per_game_usd": round(rating, 6)}
                       if self.live is not None else {}),
                }  # fmt: skip
                self.stop = True
                self.watch.notify()  # the games a trial holds back wake, and end too
                return False
        if self.live is not None:
            self.unrated += games
        return True

    async def rate_earlier(self, ids: list[str]) -> None:
        """The monitor rates the games stored by earlier runs that it has not rated (a
        tournament given ``monitor:`` after it began), under the budget as new games are."""
        if self.live is None or not ids:
            return
        self.live.open()
        try:
            for gid in ids:
                if not self._may_start(None):
                    break
                await self._rated(gid)
        finally:
            await self.live.aclose()

    async def _rated(self, fin: FinishedGame | PackedGame | str | None) -> None:
        """The monitor rates a stored game (``fin``, or its id; None: the game failed,
        nothing to rate) before its expected rating leaves the budget's count. A rating that
        raises is logged: the game is kept, ``werewolf monitor`` can rate it later."""
        if self.live is None:
            return
        try:
            if fin is not None:
                before = self.live.spent
                await self.live.rate(self.live.root / f"{fin if isinstance(fin, str) else fin.id}.jsonl")
                self.spent += self.live.spent - before
        except Exception as e:  # a monitor's bug: the tournament goes on, the game is kept
            log.warning("monitor %s could not rate game %s: %r", self.live.spec, fin if isinstance(fin, str) or fin is None else fin.id, e)
        finally:
            self.unrated -= 1

    def _on_call(self, record: Any, game_id: str | None = None) -> None:
        cost = float(record.cost_usd or 0.0)
        self.spent += cost
        if game_id in self.in_flight:
            self.in_flight[game_id] += cost
        self.bar.call(record)

    def _stored(self, fin: FinishedGame | PackedGame) -> None:
        self.store.record(fin)
        log.debug("stored game %s: %s won after %d days", fin.id, fin.winner, fin.days)
        self.report.played += 1
        self.failures_in_a_row = 0
        self.bar.game_done()
        if self.watch.landed(fin):
            self.bar.game_with_fallbacks()

    def _failed(self, job: GameJob, message: str) -> None:
        self.store.record_failure(job.plan.id, message)
        # Its id only: the message may name a decision, and a decision's kind tells a role.
        log.warning("game %s failed (the run's report and the failures table say why)", job.plan.id)
        self.report.failed += 1
        self.report.failures.append(message)
        self.failures_in_a_row += 1
        self.bar.game_failed()
        if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
            self.report.stopped = "failing"
            self.stop = True
        self.watch.dropped(job)

    async def run_all(self, todo: list[GameJob]) -> None:
        c = self.cfg.concurrency
        executor, bots_in_flight = _bot_executor(c) if any(j.bots_only for j in todo) else (cf.ThreadPoolExecutor(1), 1)
        # Worker processes play batches of bot games and return their rows ready to insert
        # (``play_batch``); a thread or Ray plays one game per task.
        in_processes = isinstance(executor, cf.ProcessPoolExecutor)
        bot_slots = asyncio.Semaphore(bots_in_flight)
        model_slots = asyncio.Semaphore(c.games)
        play_model: Any = play_async
        if c.backend == "ray" and any(not j.bots_only for j in todo):
            limits = {"global_limit": c.calls, "per_model": c.per_model, "default_per_model": c.default_per_model}
            play_model = ModelPlayer(limits, c.games)
        loop = asyncio.get_running_loop()
        self.watch.begin()
        if self.live is not None:
            self.live.open()

        async def one(job: GameJob) -> None:
            # The monitor rates a game after its slot is given back: the next game plays meanwhile.
            if job.bots_only:
                async with bot_slots:
                    if not self._may_start(job):
                        return
                    fin = await play(job)
                await self._rated(fin)
                return
            # A model game waits for its participants' trials (``Watch``) without a slot,
            # then looks again once it has one: a trial may have moved meanwhile.
            while await self.watch.admit(job, lambda: self.stop):
                async with model_slots:
                    got = self.watch.admission(job)
                    if got is Admission.WAIT:
                        continue
                    if got is not Admission.START or not self._may_start(job):
                        return
                    self.watch.started(job)
                    fin = await play(job)
                await self._rated(fin)
                return

        async def play(job: GameJob) -> FinishedGame | None:
            """The game played and stored (None: it failed, and was counted so)."""
            gid = job.plan.id
            fin: FinishedGame | None = None
            try:
                if job.bots_only:
                    fin = await loop.run_in_executor(executor, play_sync, job)
                else:
                    self.in_flight[gid] = 0.0
                    fin = await play_model(job, on_call=lambda record: self._on_call(record, gid))
                    if fin.cost_usd is not None:
                        self.game_costs.append(float(fin.cost_usd))
            except GameFailed as e:
                self._failed(job, str(e))
            except BrokenProcessPool as e:
                self._failed(job, f"{job.plan.id}: worker process died: {e}")
                self.stop = True
            except Exception as e:  # a bug in a seat or the engine: keep the tournament going
                self._failed(job, f"{job.plan.id}: internal error: {e!r}")
            finally:
                self.in_flight.pop(gid, None)
            if fin is not None:
                self._stored(fin)
            return fin

        async def batch(jobs: list[GameJob]) -> None:
            stored: list[FinishedGame | PackedGame | None] = []
            results: list[PackedGame | GameFailed | None]
            async with bot_slots:
                if not self._may_start(jobs[0], len(jobs)):
                    return
                try:
                    results = list(await loop.run_in_executor(executor, play_batch, jobs))
                except BrokenProcessPool as e:
                    for job in jobs:
                        self._failed(job, f"{job.plan.id}: worker process died: {e}")
                    self.stop = True
                    results = [None] * len(jobs)
                except Exception as e:  # the batch could not be handed over or back
                    for job in jobs:
                        self._failed(job, f"{job.plan.id}: internal error: {e!r}")
                    results = [None] * len(jobs)
                for job, result in zip(jobs, results):
                    if isinstance(result, GameFailed):
                        self._failed(job, str(result))
                        stored.append(None)
                    elif result is not None:
                        self._stored(result)
                        stored.append(result)
                    else:
                        stored.append(None)
            for fin in stored:
                await self._rated(fin)

        if in_processes:
            tasks = [one(j) for j in todo if not j.bots_only] + [batch(b) for b in bot_batches([j for j in todo if j.bots_only], c.processes)]
        else:
            tasks = [one(j) for j in todo]
        # Bot games only, played in this process: the collector tuned for them while they
        # run (``arena.gc_tuning``), put back after; with model seats it keeps its defaults.
        here_bots_only = not in_processes and c.backend != "ray" and all(j.bots_only for j in todo)
        try:
            with many_games() if here_bots_only else nullcontext():
                await asyncio.gather(*tasks)
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
            if play_model is not play_async:
                play_model.close()
            if self.live is not None:
                await self.live.aclose()

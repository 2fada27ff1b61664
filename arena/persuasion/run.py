"""A persuasion run over finished games: sample, replay, ask, record, within a budget.

Games are measured one after another; within a game the bots' asks are made during
the replay, and the model seats' asks afterwards, a speech at a time with all of its
asks in flight together (each call under the process's concurrency limits,
``arena.limits``, like any model call). With a budget, a speech's asks start only if
what was spent so far plus what they would cost at the dearest ask so far stays
within it (the very first ask is made alone, to learn that price); a budget reached stops the
run cleanly: every ask made is recorded with its calls and cost, the figures cover
the speeches measured, and running again with a larger budget goes on from there
(``records``: nothing is asked twice).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.command import CliError
from arena.preflight import check, model_agents, refusal
from arena.persuasion.probe import GameProbe, Job, Settings, ask_later, missing
from arena.persuasion.records import PersuasionFileError, RunRecord, Sidecar, file_sha256, sidecar_for
from arena.persuasion.report import SpeechOutcome, outcomes
from arena.persuasion.sample import game_key, sampled, targets
from arena.persuasion.views import lines
from transcripts.schema import Transcript, TranscriptError, read_transcript
from transcripts.writer import software_version


@dataclass
class Budget:
    """The spending cap of a run (``None``: no cap), and what the model asks cost so far."""

    limit: float | None = None
    spent: float = 0.0
    asks: int = 0  # model asks finished
    dearest: float = 0.0  # the most one ask has cost
    stopped: bool = False

    def allows(self, n_asks: int) -> bool:
        """Whether ``n_asks`` more asks may start; once not, none may."""
        if self.limit is None:
            return True
        if self.spent >= self.limit or self.spent + self.dearest * n_asks > self.limit:
            self.stopped = True
        return not self.stopped

    def paid(self, cost: float) -> None:
        self.spent += cost
        self.asks += 1
        self.dearest = max(self.dearest, cost)

    def to_json(self) -> dict[str, Any]:
        return {"budget_usd": self.limit, "spent_usd": round(self.spent, 6), "dearest_ask_usd": round(self.dearest, 8), "asks": self.asks}


@dataclass
class RunResult:
    outcomes: list[SpeechOutcome] = field(default_factory=list)
    games: int = 0  # games measured (each may hold no measurable speech)
    eligible: int = 0  # speeches that could be measured
    sampled: int = 0
    asks: int = 0  # asks made by this run
    calls: int = 0  # model calls made by this run
    cost_usd: float = 0.0
    stopped: str | None = None  # "budget"
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    budget: Budget = field(default_factory=Budget)
    # The endpoints the check before the first ask has passed (``arena.preflight``);
    # None when the caller checked them already (a tournament, before its first game).
    checked: set[tuple[Any, ...]] | None = field(default_factory=set)


def run_record(t: Transcript, path: Path, settings: Settings, chosen: list[int], label: str) -> RunRecord:
    neutral, control = lines(t.header.language)
    return RunRecord(
        transcript=label, source_sha256=file_sha256(path), seed=settings.seed, speeches=settings.speeches,
        repeats=settings.repeats, control=settings.control, sampled=chosen, language=t.header.language,
        neutral=neutral, control_line=control, software=software_version(),
    )  # fmt: skip


async def measure(
    games: list[tuple[Path, str]],
    settings: Settings,
    *,
    budget: float | None = None,
    records: str | Path | None = None,
    trust_endpoints: bool = False,
    trust_code: bool = False,
    model_options: dict[str, Any] | None = None,
    prices: Any = None,
    on_call: Any = None,
    check_endpoints: bool = True,
) -> RunResult:
    """Measure ``games`` (path, label) with ``settings``; ``records``: the folder of the
    persuasion files (default: beside each transcript); ``prices``: the model seats'
    price table, when not the built-in one; ``on_call`` sees each model call record as
    it is made (a tournament's spending). With ``check_endpoints`` each distinct model
    endpoint is checked before its first ask, as ``werewolf play`` checks before its
    first decision: one that does not answer stops the command (exit 2)."""
    result = RunResult(budget=Budget(budget), checked=set() if check_endpoints else None)
    for path, label in games:
        try:
            t = read_transcript(path)
        except TranscriptError as e:
            result.skipped.append(f"{label}: {e}")
            continue
        if not t.complete:
            result.skipped.append(f"{label}: the game has no end (no result record)")
            continue
        cands = targets(t)
        chosen = sampled(cands, settings.speeches, settings.seed, game_key(t))
        result.games += 1
        result.eligible += len(cands)
        result.sampled += len(chosen)
        try:
            sidecar = Sidecar(sidecar_for(path, records, label), run_record(t, path, settings, [c.seq for c in chosen], label))
        except PersuasionFileError as e:
            result.skipped.append(f"{label}: {e}")
            continue
        if sidecar.moved is not None:
            result.notes.append(f"{label}: its earlier persuasion record was made for another version of the game; kept as {sidecar.moved.name}")
        try:
            specs = {s.name: s.agent for s in t.header.seats}
            if chosen and missing(chosen, sidecar, settings, specs) and not result.budget.stopped:
                await _probe(t, chosen, settings, sidecar, label, result, trust_endpoints, trust_code, model_options, prices, on_call)
            result.outcomes.extend(outcomes(sidecar.held, sidecar.run, label))
        finally:
            sidecar.close()
    if result.budget.stopped:
        result.stopped = "budget"
    return result


async def _probe(
    t: Transcript, chosen: list, settings: Settings, sidecar: Sidecar, label: str, result: RunResult,
    trust_endpoints: bool, trust_code: bool, model_options: dict[str, Any] | None, prices: Any, on_call: Any,
) -> None:  # fmt: skip
    before = len(sidecar.held.asks)
    probe = GameProbe(
        t, chosen, settings, sidecar, source=label, trust_endpoints=trust_endpoints, trust_code=trust_code,
        model_options=model_options, prices=prices,
    )  # fmt: skip
    try:
        if result.budget.limit is not None:
            _check_prices(probe, label)
        await _check_endpoints(probe, result)
        replayed = probe.replay()
        result.notes.extend(f"{label}: {d}" for d in replayed.drift)
        budget = result.budget
        for seq in sorted(replayed.jobs):
            jobs = replayed.jobs[seq]
            if budget.limit is not None and not budget.asks and not budget.stopped:
                await _ask(jobs[:1], sidecar, result, on_call)  # one ask alone first: the price of the rest
                jobs = jobs[1:]
            if not budget.allows(len(jobs)):
                break
            await _ask(jobs, sidecar, result, on_call)
    finally:
        for agent in probe.agents.values():
            aclose = getattr(agent, "aclose", None)
            if aclose is not None:
                await aclose()  # connections belong to this loop: closed in it
        probe.close()
    result.asks += len(sidecar.held.asks) - before


async def _ask(jobs: list[Job], sidecar: Sidecar, result: RunResult, on_call: Any) -> None:
    done = await asyncio.gather(*(ask_later(j) for j in jobs))
    for record, calls in done:
        cost = 0.0
        for c in calls:
            sidecar.write(c)
            result.calls += 1 if c.call.messages else 0
            cost += float(c.call.cost_usd or 0.0)
            if on_call is not None:
                on_call(c.call)
        sidecar.write(record)
        result.cost_usd += cost
        result.budget.paid(cost)


async def _check_endpoints(probe: GameProbe, result: RunResult) -> None:
    """Before a model is first asked again: its endpoint answers, or nothing is asked
    (``arena.preflight``; each distinct endpoint once per run)."""
    if result.checked is None:
        return
    fresh = {name: agent for name, agent in model_agents(probe.agents).items() if agent.backend.probe_key not in result.checked}
    if not fresh:
        return
    failures = await check(fresh, close=False)  # the probe's agents ask in this loop next
    if failures:
        raise CliError(refusal(failures, flag=None, what="the first ask"))
    result.checked.update(agent.backend.probe_key for agent in fresh.values())


def _check_prices(probe: GameProbe, label: str) -> None:
    """A budget is only a cap if every model asked has a price."""
    for name, agent in probe.agents.items():
        backend = getattr(agent, "backend", None)
        prices = getattr(agent, "prices", None)
        if backend is not None and prices is not None and prices.lookup(backend.model, backend.name) is None:
            raise CliError(
                f"{label}: --budget-usd needs a price for every model asked, and {name}'s {backend.name}:{backend.model} has none "
                "(give it one in a price table: docs/MODELS.md)"
            )

"""``persuasion: {speeches: F, repeats: K}`` in a tournament file: measured after each game.

Once a game's transcript is final, its sampled speeches are measured as ``werewolf
persuasion`` measures them (the record beside the transcript), before the game is
stored, so a game is stored with its measure or, killed in between, played again
whole. What the leaderboard needs goes into the stored rows:

- each seat's metrics get ``persuasion``: ``[swing, accused_wolf]`` per measured
  speech it made (``accused_wolf``: every accused a wolf, none, or ``null`` for a mix),
  and ``persuaded``: ``[swing, speaker_wolf]`` per measured speech it heard;
- the game's metrics get ``persuasion``: the speeches measurable, sampled and
  measured, the asks and the model calls and cost they took; the game row's
  ``calls`` and ``cost_usd`` include those calls, so the tournament's spending and its
  budget count them (the seat rows keep the game's own).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, Callable

from agents.llm.pricing import table_from
from arena.persuasion.probe import Settings
from arena.persuasion.run import RunResult, measure
from arena.tournament.store import FinishedGame

log = logging.getLogger("werewolf.tournament")


def settings_of(persuasion: tuple[float, int]) -> Settings:
    speeches, repeats = persuasion
    return Settings(speeches=speeches, repeats=repeats)


def _measure(job: Any, on_call: Callable[[Any], None] | None = None):
    prices = table_from(job.prices) if job.prices is not None else None
    # The tournament's own games: the file's endpoints and agents are the user's own,
    # and were checked before its first game (``arena.tournament.run.preflight``).
    return measure(
        [(job.final_path, job.transcript)], settings_of(job.persuasion), trust_endpoints=True, trust_code=True,
        prices=prices, on_call=on_call, check_endpoints=False,
    )  # fmt: skip


def measured_sync(job: Any, fin: FinishedGame) -> FinishedGame:
    """``fin`` with its persuasion measured (a bot game, in a worker: no event loop runs)."""
    try:
        return attach(fin, asyncio.run(_measure(job)))
    except Exception as e:  # the game is kept whatever the measure does
        return failed(fin, e)


async def measured(job: Any, fin: FinishedGame, on_call: Callable[[Any], None] | None = None) -> FinishedGame:
    """``fin`` with its persuasion measured, its model calls seen by ``on_call``."""
    try:
        return attach(fin, await _measure(job, on_call))
    except Exception as e:  # the game is kept whatever the measure does
        return failed(fin, e)


def failed(fin: FinishedGame, e: Exception) -> FinishedGame:
    """A game whose measure failed is stored without it, and says why: a finished game is
    never lost to its measure (what was asked stays in its persuasion record)."""
    # Its id only in the log: the message may name a decision, and a decision's kind tells a role.
    log.warning("game %s: persuasion not measured (its stored metrics say why)", fin.id)
    fin.metrics["persuasion"] = {"error": f"{type(e).__name__}: {e}"}
    return fin


def attach(fin: FinishedGame, result: RunResult) -> FinishedGame:
    spoken: dict[str, list[list[Any]]] = defaultdict(list)
    heard: dict[str, list[list[Any]]] = defaultdict(list)
    for o in result.outcomes:
        spoken[o.speaker].append([round(o.swing, 6), o.accused_wolf])
        for x in o.listeners:
            heard[x.seat].append([round(x.swing, 6), o.wolf])
    for seat in fin.seats:
        seat.metrics["persuasion"] = spoken.get(seat.name, [])
        seat.metrics["persuaded"] = heard.get(seat.name, [])
    fin.metrics["persuasion"] = {
        "eligible": result.eligible, "sampled": result.sampled, "measured": len(result.outcomes), "asks": result.asks,
        "calls": result.calls, "cost_usd": round(result.cost_usd, 8), "skipped": result.skipped,
    }  # fmt: skip
    fin.calls += result.calls
    if fin.cost_usd is not None:
        fin.cost_usd = round(fin.cost_usd + result.cost_usd, 8)
    return fin

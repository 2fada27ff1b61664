"""Playing one scheduled game: build the table, play it, write its transcript, measure it.

The same code serves a worker process (bot games, synchronous) and the event loop
(model games, asynchronous). A transcript is written under ``<id>.jsonl.part`` and
renamed to ``<id>.jsonl`` only once the game is over, so a file with the final name is
always a whole game; the part file of a killed game is simply overwritten when the game
is played again.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.registry import is_remote_spec
from agents.llm.accounting import CallLog
from arena.beliefs import poll_for
from arena.gamefile import GameFileError, GameSpec, SeatSpec, header_for
from arena.metrics.game import game_metrics
from arena.metrics.load import load_transcript
from arena.runner import run_async, run_sync
from arena.tournament.schedule import GamePlan, side_of
from arena.tournament.store import FinishedGame, FinishedSeat, PackedGame, now
from engine.decisions import GameError, IllegalAnswer
from transcripts.signing import SigningKeyError, load_signer
from transcripts.writer import TranscriptWriter
from arena.persuasion.tournament import measured, measured_sync


class GameFailed(RuntimeError):
    """A game that could not be played to its end; the message says why."""


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs, picklable."""

    plan: GamePlan
    digest: str
    players: int
    table_options: dict[str, Any]
    agents: dict[str, tuple[str, dict[str, Any] | None]]  # participant -> (spec, model or bot options)
    language: str
    prices: str | None
    folder: str  # the database's folder; transcript paths are relative to it
    transcript: str  # relative path of the final transcript
    beliefs: bool = False  # the beliefs option: seats' private P(wolf) in the transcript
    sign_key: str | None = None  # the signing key's file (None: $WEREWOLF_SIGNING_KEY, if set); the key itself never travels
    persuasion: tuple[float, int] | None = None  # (speeches, repeats): measured after the game (arena.persuasion.tournament)

    @property
    def bots_only(self) -> bool:
        return not any(is_remote_spec(self.agents[s.participant][0]) for s in self.plan.seats)

    @property
    def final_path(self) -> Path:
        return Path(self.folder) / self.transcript

    @property
    def part_path(self) -> Path:
        return self.final_path.with_name(self.final_path.name + ".part")


def game_spec(job: GameJob):
    seats = []
    for s in job.plan.seats:
        agent, opts = job.agents[s.participant]
        seats.append(SeatSpec.model_validate({"name": s.name, "role": s.role, "agent": agent, "options": opts}))
    return GameSpec(
        preset=job.plan.preset,
        seed=job.plan.seed,
        options=dict(job.table_options),
        seats=seats,
        roles=list(job.plan.deck),
        language=job.language,
        prices=job.prices,
        beliefs=job.beliefs,
    )


class _Table:
    """A game being played: engine state, seats, call log and transcript writer."""

    def __init__(self, job: GameJob):
        self.job = job
        self.started = now()
        self.t0 = time.perf_counter()
        self.calls = CallLog()
        spec = game_spec(job)
        try:
            self.game, self.agents = spec.build(calls=self.calls)
            signer = load_signer(job.sign_key)
        except (GameFileError, SigningKeyError) as e:
            raise GameFailed(f"{job.plan.id}: {e}") from None
        job.part_path.parent.mkdir(parents=True, exist_ok=True)
        self.writer = TranscriptWriter(job.part_path, header_for(spec, self.game), signer=signer, flush=not job.bots_only)
        self.calls.subscribe(self.writer.call)
        self.writer.sync_events(self.game)
        self.beliefs = poll_for(spec.beliefs, self.writer)

    def fail(self, message: str) -> GameFailed:
        self.writer.error(self.game, message)
        return GameFailed(f"{self.job.plan.id}: {message}")

    def close(self) -> None:
        self.writer.close()
        for a in self.agents.values():
            a.close()

    def finish(self) -> FinishedGame:
        if not self.game.over:
            raise self.fail("the game stopped before reaching an end")
        self.writer.result(self.game)
        self.writer.close()
        os.replace(self.job.part_path, self.job.final_path)
        return finished_game(self.job, self.game, self.started, time.perf_counter() - self.t0)


def play_sync(job: GameJob) -> FinishedGame:
    """Bots: the synchronous runner, no event loop."""
    table = _Table(job)
    try:
        try:
            run_sync(table.game, table.agents, on_answer=table.writer.on_answer, beliefs=table.beliefs)
        except (GameError, IllegalAnswer) as e:
            raise table.fail(str(e)) from None
        fin = table.finish()
    finally:
        table.close()
    if job.persuasion is not None:
        fin = measured_sync(job, fin)
    return fin


def play_packed(job: GameJob) -> PackedGame:
    """``play_sync`` in a worker process, returning the rows to store: the parent
    only unpickles flat tuples and inserts them (``FinishedGame.pack``)."""
    return play_sync(job).pack()


def play_batch(jobs: list[GameJob]) -> list[PackedGame | GameFailed]:
    """A few bot games in a worker process, one after another, in order: each game's
    rows (``play_packed``) or why it failed, with the message the parent would have
    written. One task for a few games spares the parent the hand-off of each (a
    wake-up of the pool's threads, a future, a turn of the event loop): on a machine
    with as many workers as cores, the parent's CPU is taken from the workers."""
    out: list[PackedGame | GameFailed] = []
    for job in jobs:
        try:
            out.append(play_packed(job))
        except GameFailed as e:
            out.append(e)
        except Exception as e:  # a bug in a seat or the engine: this game fails, the others are played
            out.append(GameFailed(f"{job.plan.id}: internal error: {e!r}"))
    return out


async def play_async(job: GameJob, on_call=None) -> FinishedGame:
    """Model seats: every seat of a batch asked at once, under the process-wide call
    limits; ``on_call`` sees each call record as it ends (the progress bar's tokens)."""
    table = _Table(job)
    if on_call is not None:
        table.calls.subscribe(on_call)
    try:
        try:
            await run_async(
                table.game, table.agents, on_answer=table.writer.on_answer, limit=max(16, len(table.agents)), beliefs=table.beliefs
            )
        except (GameError, IllegalAnswer) as e:
            raise table.fail(str(e)) from None
        except BaseException as e:  # cancelled, interrupted, or a bug: keep the reason in the part file
            table.writer.error(table.game, f"interrupted: {e!r}")
            raise
        fin = table.finish()
    finally:
        for agent in table.agents.values():
            aclose = getattr(agent, "aclose", None)
            if aclose is not None:
                await aclose()  # connections belong to this loop: close them in it
        table.close()
    if job.persuasion is not None:
        fin = await measured(job, fin, on_call)
    return fin


def finished_game(job: GameJob, game, started: str, seconds: float) -> FinishedGame:
    """The stored form of a finished game, measured from its transcript (its typed
    events the game's own, from which the file was just written)."""
    m = game_metrics(load_transcript(job.final_path, played=game.events))
    winners = set(game.winners)
    seats = []
    for s in job.plan.seats:
        p = game.by_name[s.name]
        sm = m["seats"][s.name]
        seats.append(
            FinishedSeat(
                position=s.position, name=s.name, participant=s.participant, agent=job.agents[s.participant][0],
                initial_role=p.initial_role, role=p.role, side=side_of(p.role), won=s.name in winners, alive=p.alive,
                calls=sm["calls"], input_tokens=sm["input_tokens"], output_tokens=sm["output_tokens"], cost_usd=sm["cost_usd"],
                violations=sm["violations"], fallbacks=sm["fallbacks"], metrics=sm,
            )
        )  # fmt: skip
    total = m["cost"]["total"]
    return FinishedGame(
        id=job.plan.id, idx=job.plan.index, deal=job.plan.deal, rotation=job.plan.rotation, table_idx=job.plan.table,
        preset=job.plan.preset, players=job.players, seed=job.plan.seed, digest=job.digest, winner=game.winner,
        days=game.day, reason=game.end_reason, transcript=job.transcript, started=started, finished=now(),
        seconds=round(seconds, 4), seats=seats, calls=total["calls"], input_tokens=total["input_tokens"],
        output_tokens=total["output_tokens"], cached_tokens=total["cached_tokens"], cost_usd=total["cost_usd"],
        metrics={"votes": m["votes"], "key_roles": m["key_roles"], "deception_by_role": m["deception"]["roles"]},
    )  # fmt: skip

"""Measuring one game: replay it, and ask each sampled speech's listeners again.

The game is replayed from its transcript as ``play --resume`` replays one
(``arena.catchup``: the table seated from the header, the recorded answers submitted
again, every bot put its recorded decisions again so it stays where it was). At the
moment a listener's next vote is asked, before its own agent is put that vote again,
the listener's view is taken twice over, as it is and with the one speech replaced
(``views``), and each arm's view is put to a twin of the listener's agent
(``twins``): a bot once per arm (deterministic for its seed, and both twins start
from the same random state), any other agent ``repeats`` times per arm. Bots are
asked on the spot; model seats' asks are collected as jobs (``Job``) and asked
afterwards, concurrently and within the budget (``arena.persuasion.run``). Nothing
asked is submitted: the game goes on with the recorded answers, so every later
moment is the recorded one.
"""

from __future__ import annotations

import asyncio
import bisect
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from agents.base import Agent, SeatView
from arena.beliefs import gives_beliefs
from arena.catchup import REPLAYABLE, catch_up, seat_table
from arena.gamefile import seat_agent, seat_maker, seat_seed
from arena.metrics.load import camp_of
from arena.persuasion.records import AskCallRecord, AskRecord, HeardBy, Sidecar, SpeechRecord
from arena.persuasion.sample import Target
from arena.persuasion.twins import twin
from arena.persuasion.views import replaced
from engine.decisions import Decision
from engine.events import Event
from transcripts.schema import AnswerRecord, Transcript
from transcripts.values import jsonish


@dataclass(frozen=True)
class Settings:
    """What a run measures: the share of speeches, the repeats per arm of a
    stochastic listener, the sampling seed, and whether it is the control (the
    speech replaced by a second neutral line instead of kept as said)."""

    speeches: float = 0.25
    repeats: int = 3
    seed: int = 0
    control: bool = False

    @property
    def arms(self) -> tuple[str, str]:
        """(the arm that differs, the neutral arm it is compared with)."""
        return ("control", "neutral") if self.control else ("said", "neutral")


def asked_once(spec: str) -> bool:
    """Whether a listener of this agent spec is asked once per arm: a bot whose next
    answer depends only on its seed and what it is asked (``arena.catchup.REPLAYABLE``)."""
    return spec in REPLAYABLE


def label_of(seat: Any) -> str:
    """Who played a seat (a header's ``SeatRecord``): a model's display name, else its agent spec."""
    opts = seat.options or {}
    return str(opts.get("display_name") or seat.agent)


@dataclass
class Job:
    """One model (or other stochastic) ask, to be made after the replay."""

    speech: int
    seat: str
    arm: str
    repeat: int
    decision: Decision
    view: list[Event]
    moment: int
    beliefs: bool
    make: Callable[[], Agent | None]

    def record(self, **fields: Any) -> AskRecord:
        return AskRecord(speech=self.speech, seat=self.seat, arm=self.arm, repeat=self.repeat, decision=self.decision.id, **fields)  # type: ignore[arg-type]


@dataclass
class Replayed:
    """What the replay left to do: the model asks of each speech, in speech order."""

    jobs: dict[int, list[Job]] = field(default_factory=dict)
    drift: list[str] = field(default_factory=list)


def missing(targets: list[Target], sidecar: Sidecar, settings: Settings, specs: Mapping[str, str]) -> bool:
    """Whether any ask of ``targets`` (or a speech's facts) is not in the record yet."""
    held = sidecar.held
    for t in targets:
        if t.seq not in held.speeches:
            return True
        for listener in t.listeners:
            n = 1 if asked_once(specs[listener.seat]) else settings.repeats
            for arm in settings.arms:
                for rep in range(n):
                    if (t.seq, listener.seat, arm, rep) not in held.asks:
                        return True
    return False


class GameProbe:
    """One game's replay with its asks (see the module docstring)."""

    def __init__(
        self,
        transcript: Transcript,
        targets: list[Target],
        settings: Settings,
        sidecar: Sidecar,
        *,
        source: str,
        trust_endpoints: bool = False,
        trust_code: bool = False,
        model_options: dict[str, Any] | None = None,
        prices: Any = None,
    ):
        """``prices``: a price table for the model seats (``agents.llm.pricing``), when
        not the built-in one (a tournament's ``prices:``, the command's ``--prices``)."""
        self.t = transcript
        self.settings = settings
        self.sidecar = sidecar
        self.lines = {"said": None, "neutral": sidecar.run.neutral, "control": sidecar.run.control_line}
        header = transcript.header
        self.specs = {s.name: s.agent for s in header.seats}
        self.labels = {s.name: label_of(s) for s in header.seats}
        self.beliefs = header.beliefs
        self.points: dict[tuple[str, int], list[Target]] = {}
        for target in targets:
            for listener in target.listeners:
                self.points.setdefault((listener.seat, listener.decision), []).append(target)
        hint = "pass --trust-endpoints if you trust the file"
        fork = header.fork
        self.spec, self.game, self.agents = seat_table(
            header, agent_seed=fork.agent_seed if fork is not None else None, source=source, trust_endpoints=trust_endpoints,
            trust_code=trust_code, hint=hint, model_options=model_options,
        )  # fmt: skip
        if prices is not None:
            for agent in self.agents.values():
                if hasattr(agent, "prices"):
                    agent.prices = prices
        self.agent_seed = fork.agent_seed if fork is not None and fork.agent_seed is not None else header.seed
        self.out = Replayed()

    # ------------------------------------------------------------------ the replay
    def replay(self) -> Replayed:
        caught = catch_up(self.game, self.agents, self.t.records, before=self._before)
        self.out.drift = caught.drift
        return self.out

    def _before(self, d: Decision, r: AnswerRecord) -> None:
        hits = self.points.get((r.seat, r.decision))
        if not hits:
            return
        events = self.game.observation(r.seat)
        seqs = [e.seq for e in events]
        said: list[AskRecord] = []  # a bot's answer to the view as it was: the same for every speech it heard
        for target in hits:
            self._facts(target)
            i = bisect.bisect_left(seqs, target.seq)
            if i == len(seqs) or seqs[i] != target.seq:
                continue  # not in the seat's view: never heard (cannot happen for a public speech)
            self._probe(target, r.seat, d, events, i, said)

    def _facts(self, target: Target) -> None:
        """The speech's record: who said it, whom it accuses, the truth about both at the vote."""
        if target.seq in self.sidecar.held.speeches:
            return
        by = self.game.by_name
        self.sidecar.write(
            SpeechRecord(
                seq=target.seq, day=target.day, speaker=target.speaker, agent=target.agent or self.labels[target.speaker],
                side=camp_of(by[target.speaker].role), wolf=bool(by[target.speaker].is_wolf), accused=list(target.accused),
                accused_wolf=[bool(by[a].is_wolf) for a in target.accused],
                listeners=[HeardBy(seat=x.seat, decision=x.decision, agent=self.labels[x.seat], side=camp_of(by[x.seat].role),
                                   once=asked_once(self.specs[x.seat]))
                           for x in target.listeners],
            )
        )  # fmt: skip

    def _probe(self, target: Target, seat: str, d: Decision, events: list[Event], i: int, said: list[AskRecord]) -> None:
        """Ask ``seat``'s twins about ``target`` (the speech at ``events[i]``); ``said``
        keeps a bot's answer to the unchanged view for the other speeches it heard
        before this vote (deterministic: asked again, it would answer the same)."""
        held = self.sidecar.held.asks
        agent = self.agents[seat]
        fresh = self._fresh(seat)
        once = asked_once(self.specs[seat])
        n = 1 if once else self.settings.repeats
        for arm in self.settings.arms:
            line = self.lines[arm]
            view = events if line is None else replaced(events, i, line)
            if once:
                if (target.seq, seat, arm, 0) not in held:
                    if line is None and said:
                        self.sidecar.write(said[0].model_copy(update={"speech": target.seq}))
                        continue
                    job = Job(target.seq, seat, arm, 0, d, view, target.moment, self.beliefs, lambda: twin(agent, fresh))
                    record = ask_now(job)
                    self.sidecar.write(record)
                    if line is None:
                        said.append(record)
                continue
            snapshot = twin(agent, fresh)
            for rep in range(n):
                if (target.seq, seat, arm, rep) not in held:
                    make = (lambda s=snapshot: twin(s, fresh)) if snapshot is not None else (lambda: None)
                    job = Job(target.seq, seat, arm, rep, d, view, target.moment, self.beliefs, make)
                    self.out.jobs.setdefault(target.seq, []).append(job)

    def _fresh(self, seat: str) -> Callable[[], Agent]:
        """The seat's agent seated anew with its seed, as ``play --resume`` seats it."""
        i = self.t.header.names.index(seat)
        spec_seat = self.spec.seats[i]
        wiring = {"language": self.spec.language, "preset": self.spec.preset, "rules": self.game.options}
        return lambda: seat_agent(spec_seat, seat_maker(spec_seat, **wiring), seat_seed(self.agent_seed, i))

    def close(self) -> None:
        for a in self.agents.values():
            a.close()


# ---------------------------------------------------------------------- asking
def _checked(d: Decision, vote: Any) -> Any:
    return jsonish(d.validate(vote))


def ask_now(job: Job) -> AskRecord:
    """A bot's ask, answered on the spot: its beliefs first when the game asks them
    (as the day's poll precedes the vote), then its vote."""
    t = job.make()
    if t is None:
        return job.record(error="no twin of this agent can be made")
    beliefs = None
    if job.beliefs and gives_beliefs(t):
        try:
            beliefs = t.beliefs(SeatView(job.seat, job.view), job.moment)
        except Exception:  # a missing belief, as in the game's own poll
            beliefs = None
    try:
        vote = _checked(job.decision, t.decide(SeatView(job.seat, job.view), job.decision))
    except Exception as e:  # a bot that fails here is a missing ask, never a crash
        return job.record(error=f"{type(e).__name__}: {e}")
    return job.record(vote=vote, beliefs=_probabilities(beliefs))


async def ask_later(job: Job) -> tuple[AskRecord, list[AskCallRecord]]:
    """A model seat's (or another stochastic agent's) ask, with the calls it made."""
    t = job.make()
    if t is None:
        return job.record(error="no twin of this agent can be made"), []
    beliefs = None
    try:
        if job.beliefs and gives_beliefs(t):
            try:
                beliefs = await t.abeliefs(SeatView(job.seat, job.view), job.moment)
            except asyncio.CancelledError:
                raise
            except Exception:
                beliefs = None
        vote = await t.adecide(SeatView(job.seat, job.view), job.decision)
        record = job.record(vote=_checked(job.decision, vote), beliefs=_probabilities(beliefs))
    except asyncio.CancelledError:
        raise
    except Exception as e:
        record = job.record(error=f"{type(e).__name__}: {e}")
    calls = list(getattr(getattr(t, "calls", None), "records", []) or [])
    if any(c.fallback for c in calls if c.kind == job.decision.kind):
        record.fallback = True
    tagged = [AskCallRecord(speech=job.speech, seat=job.seat, arm=job.arm, repeat=job.repeat, call=c) for c in calls]  # type: ignore[arg-type]
    return record, tagged


def _probabilities(beliefs: Any) -> dict[str, float] | None:
    if not isinstance(beliefs, Mapping):
        return None
    out = {}
    for k, v in beliefs.items():
        if isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k] = float(v)
    return out

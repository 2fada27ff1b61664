"""A seat played by an agent of one's own (``py:MODULE:CLASS``): every move it makes is
one the game can take.

A class of one's own, someone else's or one's own half-written, may answer what the
rules do not allow at that moment (a dead player's name, words no transcript can
store, a speech over the bound) or raise. No player's move may end a game, and nothing
may be silently replaced, so that decision alone is played by the heuristic bot, as a
model seat's is when its model gives no legal answer (``agents.llm.agent``), and it is
said:

- a ``call`` record in the game's log (``transcripts.call_counts.OWN_AGENT_BACKEND``): no
  request, ``fallback`` and the move played, with the engine's reason as its
  ``violation`` (the refused answer as its ``reply``) or what was raised as its
  ``error``. The transcript keeps it; ``werewolf verify`` checks it against the answer
  (``transcripts.coverage``); the closing table, ``play --json``, verify, the metrics
  and the tournament count it as every fallback is counted (``transcripts.call_counts``);
- a log line naming the seat, the agent, the decision's id (never its kind, which
  could tell the seat's role to whoever reads the terminal) and what was raised, by
  its type alone;
- the narration's notice, the first time in a game (``arena.model_trouble``), which
  does not quote the engine's reason either (it can name hidden information).

What is refused is exactly what the engine refuses: the runner puts the engine's
refusal to the seat (``Agent.refused``), so the rule on words (``engine.words``) and
every check of ``Game.submit`` apply as they do to any seat. The seat's own class is
kept as ``own``; its answers, beliefs and hooks pass through unchanged.
"""

from __future__ import annotations

import json
import logging
import random
from datetime import datetime, timezone
from typing import Any

import agents.kinds as kinds
from agents.base import Agent, SeatView
from agents.llm.accounting import CallLog
from agents.random_agent import random_answer
from engine.decisions import Decision
from transcripts.call_counts import OWN_AGENT_BACKEND
from transcripts.schema import CallRecord

log = logging.getLogger("werewolf.agents")

REPLY_CHARS = 2000  # of a refused answer, in its record: a 100,000-character speech is not kept whole


class OwnSeat(Agent):
    """``own`` (the class a ``py:`` spec names, built for this seat) at the table."""

    def __init__(self, own: Agent, spec: str, *, seed: int = 0, log: CallLog | None = None, language: str | None = None):
        super().__init__(own.name)
        self.own = own
        self.spec = spec
        self.calls = log if log is not None else CallLog()
        self.seed = seed
        self.language = language
        self.rng = random.Random(f"{seed}:{own.name}:fallback")
        self._fallback_agent: Agent | None = None  # made at the first fallback: most seats never need it
        self.fallbacks = 0  # decisions the fallback bot played for this seat

    # ------------------------------------------------------------------ answers
    def decide(self, view: SeatView, decision: Decision) -> Any:
        try:
            return self.own.decide(view, decision)
        except Exception as e:  # the class's own fault: this decision is the fallback bot's
            return self._fall_back(view, decision, raised=e)

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        try:
            return await self.own.adecide(view, decision)
        except Exception as e:  # cancellation (a BaseException) passes: the game itself is stopping
            return self._fall_back(view, decision, raised=e)

    def refused(self, view: SeatView, decision: Decision, answer: Any, why: str) -> Any:
        return self._fall_back(view, decision, violation=f"illegal answer: {why}", reply=_shown(answer))

    def _fall_back(
        self, view: SeatView, d: Decision, *, raised: Exception | None = None, violation: str | None = None, reply: str | None = None
    ) -> Any:
        answer = self._fallback_answer(view, d)
        error = None
        what = "a move the engine refused"
        if raised is not None:
            what = f"decide raised {type(raised).__name__}"  # its type alone in the log: the message is the class's own words
            error = f"{what}: {raised}" if str(raised) else what
        # A warning the first time in the game, then at INFO: a fault in a class's code
        # recurs, and the records count every one.
        level = logging.INFO if self.fallbacks else logging.WARNING
        log.log(level, "%s (%s): decision %d: %s; the fallback bot played it (its call record says why)", self.name, self.spec, d.id, what)
        self.fallbacks += 1
        self.calls.add(
            CallRecord(
                seat=self.name, decision=d.id, kind=d.kind, day=view.day, backend=OWN_AGENT_BACKEND,
                model=self.spec.partition(":")[2], display_name=self.spec,
                started=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                reply=reply, violation=violation, error=error, fallback=True, answer=answer,
            )
        )  # fmt: skip
        return answer

    def _fallback_answer(self, view: SeatView, d: Decision) -> Any:
        """The heuristic bot's move, as a model seat's fallback plays it; a uniformly
        random legal one should the bot itself fail."""
        if self._fallback_agent is None:  # the heuristic's module loads with the first fallback
            self._fallback_agent = kinds.heuristic_agent()(self.name, seed=self.seed, language=self.language)
        try:
            answer = self._fallback_agent.decide(view, d)
            d.validate(answer)
            return answer
        except Exception:
            return random_answer(self.rng, d)

    # ------------------------------------------------------------------ the class's other hooks
    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float] | None:
        return self.own.beliefs(view, moment)

    async def abeliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float] | None:
        return await self.own.abeliefs(view, moment)

    def expect_beliefs(self) -> None:
        expect = getattr(self.own, "expect_beliefs", None)
        if callable(expect):
            expect()

    def notify(self, view: SeatView) -> None:
        self.own.notify(view)

    def close(self) -> None:
        try:
            self.own.close()
        except Exception as e:  # the game is over and recorded: a failing close loses nothing
            log.warning("%s (%s): close raised %s", self.name, self.spec, type(e).__name__)

    async def aclose(self) -> None:
        aclose = getattr(self.own, "aclose", None)
        if aclose is None:
            return
        try:
            await aclose()
        except Exception as e:
            log.warning("%s (%s): aclose raised %s", self.name, self.spec, type(e).__name__)


def _shown(answer: Any) -> str:
    """The refused answer as its record keeps it: JSON where it is, cut to ``REPLY_CHARS``."""
    try:
        text = json.dumps(answer, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(answer)
    return text if len(text) <= REPLY_CHARS else text[: REPLY_CHARS - 1] + "…"

"""The remote seat: a model seat whose back end is an agent over A2A.

It inherits the model seat's whole discipline (``agents.llm.agent``): the prompt of
the seat's own view, the answer read and checked against the rules, a refused answer
re-asked with the reason, then the heuristic bot's move recorded as a fallback; the
decision's time limit; nothing the agent does can crash the game. What it adds is
what a message needs besides a model's prompt (``RemotePrompt``: the decision, the
seat's view, the time left) and one check a model never needs: the reply must be
this seat's, in this seat's context, for this decision.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from agents.a2a.backend import A2ABackend, RemotePrompt
from agents.a2a.spec import PREFIX, A2AOptions
from agents.a2a.wire import wrong_addressee
from agents.base import SeatView
from agents.llm.accounting import CallLog
from agents.llm.agent import LLMAgent
from agents.llm.backends.base import Prompt
from agents.llm.beliefs import FAMILY as BELIEFS_FAMILY
from agents.llm.interpret import Reading
from engine.decisions import Decision


class A2AAgent(LLMAgent):
    """A seat played by the A2A agent at ``url``."""

    combines_witch = False  # one message, one decision: the heal and the poison are asked apart

    def __init__(
        self,
        name: str,
        url: str,
        *,
        options: A2AOptions | None = None,
        token: str | None = None,
        spec: str | None = None,
        seed: int = 0,
        preset: str | None = None,
        rules: Any = None,
        language: str = "en",
        log: CallLog | None = None,
        limits: Any = None,
        sleep: Any = None,
    ):
        self.remote = options or A2AOptions()
        backend = A2ABackend(url, name, self.remote, token=token, limits=limits, sleep=sleep)
        super().__init__(
            name, backend, spec=spec or PREFIX + url, seed=seed, options=backend.options, preset=preset, rules=rules, language=language, log=log
        )
        self.backend: A2ABackend = backend
        self.calls.add_secret(token)  # scrubbed from every record, whatever its variable is called

    @property
    def display_name(self) -> str:
        return self.remote.display_name or self.backend.url

    # ------------------------------------------------------------------ the message
    def prompt(self, view: SeatView, decision: Decision) -> Prompt:
        return self._remote(super().prompt(view, decision), view, decision)

    def belief_prompt(self, view: SeatView, players: list[str], *, asked: Decision | None = None) -> Prompt:
        if asked is None:
            asked = Decision(id=-1, seat=self.name, kind="beliefs", shape=BELIEFS_FAMILY, options=tuple(players))  # type: ignore[arg-type]
        return self._remote(super().belief_prompt(view, players, asked=asked), view, asked)

    def _stated_limits(self) -> dict[str, int]:
        """The limits the system part states: the characters of a reasoning and of a
        speech, not a model's token budgets (an agent is cut off at no token count)."""
        limits = self._limits()
        return {"reasoning": limits.reasoning, "text": limits.text}

    def _request(self, view: SeatView, **question: Any) -> Prompt:
        """The system part and the question, without the history: a remote seat is sent
        only the history lines that are new since its last message (the back end's
        ``build``), so the whole history is neither rendered nor sent at each decision."""
        parts = self._system_for(view)
        return Prompt(system="".join(parts), system_parts=parts, history_parts=[], language=self.language, **question)

    def _remote(self, prompt: Prompt, view: SeatView, decision: Decision) -> RemotePrompt:
        fields = {f.name: getattr(prompt, f.name) for f in dataclasses.fields(Prompt)}
        deadline = time.monotonic() + self.options.decision_timeout
        return RemotePrompt(**fields, view=view, decision=decision, deadline=deadline)

    # ------------------------------------------------------------------ the reply
    def read(self, reply: Any, d: Decision, view: SeatView) -> Reading:
        context = reply.native
        if context and context != self.backend.context_id:
            return Reading(reason=f"this reply was sent in another conversation (context {str(context)[:40]}), not {self.name}'s")
        why = wrong_addressee(reply.data, self.name, d.id)
        if why is not None:
            return Reading(parsed=reply.data if isinstance(reply.data, dict) else None, reason=why)
        return super().read(reply, d, view)

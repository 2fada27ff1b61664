"""The model seat: one agent for every vendor, robust enough for unattended tournaments.

Per decision: render the prompt (static system part, the seat's append-only history,
the question), ask the back end for an answer shaped by the decision's schema, read
it, and check it against the rules. A malformed or illegal reply is sent back with
the reason, a bounded number of times; after that, or when the back end fails for
good, or when the decision's time limit is reached, the heuristic bot answers for the
seat, so a failing seat still plays sensibly and the game always finishes.

The records keep the causes apart, so that only an answer the model did give counts
against it: a refused reply is the model's ``violation``; a call that brought no
reply (the server down or refusing, every attempt's answer cut on the way, the time
limit) is an ``error``, and the fallback that follows it is the server's, not a
violation. Transient faults never reach this far unless they outlast the seat's
retries (``backends.base``).

Nothing a model does may crash a game: every exception stops at ``adecide``, is
recorded, and ends in the fallback. Only cancellation (the game itself being
stopped) passes through.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

from agents.base import Agent, BeliefFailed, SeatView
from agents.llm.accounting import CallLog, CallRecord
from agents.llm.beliefs import FAMILY as BELIEFS_FAMILY
from agents.llm.beliefs import TOOL_NAME as BELIEFS_TOOL
from agents.llm.beliefs import belief_fields, belief_schema, read_beliefs
from agents.llm.backends.base import Backend, CallFailed, CallResult, Prompt, Turn
from agents.llm.config import LLMOptions
from agents.llm.interpret import Reading, read_reply
from agents.llm.streaming import DraftSink, SpeechStream
from agents.llm.pricing import DEFAULT_TABLE, PriceTable
import agents.llm.witch as witch
from agents.llm.schema import (
    GAME_TOOL,
    GAME_TOOL_DESCRIPTION,
    ReplyLimits,
    answer_schema,
    game_schema,
    narrowed_fields,
    question_family,
    tool_name,
)
from engine.decisions import Decision, IllegalAnswer
from engine.flow.main import GameStart, Role
from agents.heuristic import HeuristicAgent
from prompts.render import decision_prompt
from prompts.render import history_entries
from prompts.render import system_parts
from engine.presets import get_preset
from prompts.beliefs_text import beliefs_prompt
from agents.random_agent import random_answer
from engine.decisions import BOOL, CHOICE
from agents.llm.parse import NoAnswer, parse_reply
import hashlib
from engine.roles import ROLES
from engine.speech import SPEAK

log = logging.getLogger("werewolf.llm")

BELIEFS_KIND = "beliefs"  # the ``kind`` of a beliefs question's call records


class _Unanswered(Exception):
    """A question's attempts ended without an accepted answer (the message says why)."""


@dataclass
class _Asking:
    """One decision in progress: what the time limit needs to write a last record."""

    decision: Decision
    view: SeatView
    prompt: Prompt | None = None
    turns: list[Turn] = field(default_factory=list)
    attempt: int = 0
    call_started: float = 0.0
    pending: CallRecord | None = None  # held back until the decision's outcome is known
    stream: SpeechStream | None = None  # a public speech's drafts, for the people watching


class LLMAgent(Agent):
    """A seat played by a language model behind ``backend``."""

    # The Witch's heal and tonight's poison asked in one call (``agents.llm.witch``):
    # a saving for a model; a seat whose every message is one decision says False.
    combines_witch = True

    def __init__(
        self,
        name: str,
        backend: Backend,
        *,
        spec: str | None = None,
        seed: int = 0,
        options: LLMOptions | None = None,
        preset: str | None = None,
        rules: Any = None,
        language: str = "en",
        log: CallLog | None = None,
        prices: PriceTable | None = None,
    ):

        super().__init__(name)
        self.backend = backend
        self.spec = spec or f"{backend.name}:{backend.model}"
        self.options = options or backend.options
        self.preset = preset
        self.rules = rules
        self.language = language
        self.calls = log if log is not None else CallLog()
        self.prices = prices or DEFAULT_TABLE
        self.fallback_agent = HeuristicAgent(name, seed=seed)
        self.rng = random.Random(f"{seed}:{name}:fallback")
        self.disabled: str | None = None  # why this seat's model is no longer asked
        self._system: tuple[str, str] | None = None  # rendered once per game: (shared, the seat's own)
        self._game_schema: tuple[tuple[tuple[str, ...], tuple[str, ...]], dict[str, Any]] | None = None  # ((players, roles), schema) of the cache layout
        self._cuts: list[int] = []  # history lengths (entries) at this seat's earlier requests
        self._kept_poison: witch.KeptPoison | None = None  # answered with tonight's heal
        self.beliefs_expected = False  # the game asks beliefs: the cache layout's schema holds their field
        # Who is shown this seat's public speeches as they are written (the web table,
        # a terminal game with a person: ``agents.llm.streaming``); None: nobody.
        self.drafts: DraftSink | None = None

    @property
    def display_name(self) -> str:
        return self.options.display_name or self.backend.model

    # ------------------------------------------------------------------ Agent
    def decide(self, view: SeatView, decision: Decision) -> Any:
        """For synchronous callers; games with model seats should use ``run_async``.
        Each call runs in an event loop of its own, whose connections it closes."""

        return self._run_sync(self.adecide(view, decision))

    def _run_sync(self, coro: Any) -> Any:
        """Run one of this seat's coroutines to the end from synchronous code, in an
        event loop of its own whose connections are closed afterwards."""

        async def once() -> Any:
            try:
                return await coro
            finally:
                await self.aclose()

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(once())
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, once()).result()

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        state = _Asking(decision, view)
        try:
            known = self._known(view, decision)
            if known is not None:
                return self._answered_without_call(state, *known)
            if self.disabled:
                return self._fallback(state, error=f"not asked: {self.disabled}")
            return await asyncio.wait_for(self._ask(state), timeout=self.options.decision_timeout)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            why = f"decision time limit ({self.options.decision_timeout:g}s) reached"
            return self._ended_stream(state, self._fallback(state, error=why, cut_off=True), why)
        except Exception as e:  # never let a model seat crash the game
            # The decision's id, not its kind: a kind (seer_check) would tell the seat's role.
            log.warning("%s: %s on decision %d: %r", self.name, type(e).__name__, decision.id, e)
            why = f"internal error: {type(e).__name__}: {e}"
            return self._ended_stream(state, self._fallback(state, error=why), why)

    @staticmethod
    def _ended_stream(state: _Asking, answer: Any, why: str) -> Any:
        """A speech whose asking was cut short: its draft withdrawn, ``answer`` stands."""
        if state.stream is not None:
            state.stream.withdraw(why)
            state.stream.done(_spoken(answer))
        return answer

    async def aclose(self) -> None:
        """Close the connections opened in the running loop; call it in the loop that
        played the game (``werewolf play`` does) so nothing is left for the collector."""
        try:
            await self.backend.aclose()
        except Exception:  # closing must never be what fails a game
            pass

    def close(self) -> None:
        """Best effort for callers that never awaited ``aclose``."""
        if not self.backend.open:
            return
        try:
            asyncio.run(self.backend.aclose())
        except Exception:  # the loop its connections belonged to may be gone
            pass

    # ------------------------------------------------------------------ answered already
    def _known(self, view: SeatView, d: Decision) -> tuple[Any, dict[str, Any]] | None:
        """(answer, what it came from) for a decision that needs no call: the poison
        answered with tonight's heal, when it is legal for the decision the engine
        asks; or a decision with one legal answer only (a spent potion, a forced
        hand), which no model can get wrong."""
        kept, self._kept_poison = (self._kept_poison, None) if d.kind == witch.POISON else (None, self._kept_poison)
        if kept is not None and kept.night == view.day:
            try:
                answer = d.validate(kept.target)
            except IllegalAnswer:
                pass
            else:
                return answer, {"action": answer, "reasoning": kept.reasoning, "answered_with": kept.heal_decision}
        only = _only_answer(d)
        if only is not _MANY:
            return only, {"action": only, "only_legal_answer": True}
        return None

    def _answered_without_call(self, state: _Asking, answer: Any, parsed: dict[str, Any]) -> Any:
        """Play ``answer`` and record it as the seat's, with no request made."""
        state.attempt = 1
        rec = self._record(state)
        rec.mode, rec.parsed, rec.accepted, rec.answer = None, parsed, True, answer
        state.pending = rec
        self._flush(state)
        return answer

    # ------------------------------------------------------------------ asking
    async def _ask(self, state: _Asking) -> Any:
        d, view = state.decision, state.view
        if self.combines_witch and witch.combinable(view, d):
            return await self._ask_witch(state)
        state.prompt = self.prompt(view, d)
        state.stream = self._speech_stream(d)
        try:
            answer = await self._attempts(state, lambda reply: self.read(reply, d, view), "illegal answer")
        except _Unanswered:
            answer = self._fallback(state)
        if state.stream is not None:
            state.stream.done(_spoken(answer))
        return answer

    def _speech_stream(self, d: Decision) -> SpeechStream | None:
        """Drafts of a public speech given in turn; not of a round where everybody
        speaks at once (its speeches are heard together), nor of any private words."""
        if self.drafts is None or d.kind != SPEAK or (d.context or {}).get("protocol") == "parallel":
            return None
        return SpeechStream(self.drafts, self.name, d.id)

    def read(self, reply: Any, d: Decision, view: SeatView) -> Reading:
        """What one reply to ``d`` makes: the answer, or why it is refused."""
        return read_reply(reply.data, reply.text, d, view)

    async def _ask_witch(self, state: _Asking) -> Any:
        """The heal and tonight's poison in one call (see ``agents.llm.witch``)."""
        d, view = state.decision, state.view
        poison = witch.poison_decision(view, d)
        rules = self._rules(view)
        state.prompt = self.witch_prompt(view, d, poison)
        kept: list[witch.KeptPoison] = []

        def read(reply: Any) -> Reading:
            reading = read_reply(reply.data, reply.text, d, view)
            if not reading.ok:
                return reading
            data = reply.data if isinstance(reply.data, dict) else _loose_object(reply.text, d)
            target, why = witch.read_target(data, poison, bool(reading.answer), rules, self.language)
            parsed = {**(reading.parsed or {}), "target": target}
            if why:
                return Reading(parsed=parsed, reason=why)
            kept[:] = [witch.KeptPoison(view.day, d.id, target, str((reading.parsed or {}).get("reasoning", "")))]
            return Reading(answer=reading.answer, parsed=parsed)

        try:
            answer = await self._attempts(state, read, "illegal answer")
        except _Unanswered:
            return self._fallback(state)
        self._kept_poison = kept[0] if kept else None
        return answer

    def witch_prompt(self, view: SeatView, heal: Decision, poison: Decision) -> Prompt:
        """The heal question with the poison's beside it: ``action`` and ``target``."""
        prompt = self.prompt(view, heal)
        prompt.question = witch.question(prompt.question, poison, self._rules(view), self.language)
        exact = witch.schema(prompt.exact_schema or prompt.schema, poison)
        if prompt.fields is not None:  # the cache layout: the game's schema, the fields in the question
            prompt.fields = {"properties": {**prompt.fields["properties"], "target": {"enum": [*poison.options, None]}}}
            prompt.exact_schema = exact
        else:
            prompt.schema = exact
        return prompt

    async def _attempts(self, state: _Asking, read: Callable[[Any], Reading], refused: str) -> Any:
        """Ask ``state.prompt`` up to 1 + ``max_reasks`` times, each refused reply sent
        back with its reason (``refused`` when ``read`` gives none), and return the first
        answer ``read`` accepts, its record written. Raises ``_Unanswered`` when the back
        end fails for good or every reply is refused, the last call's record held in
        ``state.pending``."""
        reason = "no answer"
        for attempt in range(1, self.options.max_reasks + 2):
            state.attempt = attempt
            state.call_started = time.monotonic()
            self._flush(state)
            try:
                result = await self.backend.call(state.prompt, state.turns, state.stream)
            except CallFailed as e:
                if state.stream is not None:
                    state.stream.withdraw(f"the model's answer did not arrive: {e}")
                if e.disable:
                    self.disabled = str(e)
                state.pending = self._record(state, messages=e.messages, error=str(e), retries=e.retries, latency=time.monotonic() - state.call_started)
                raise _Unanswered(str(e)) from None
            # A reply stopped at the budget is unfinished whatever it holds (a speech
            # cut mid-sentence, a JSON object cut inside its private reasoning): it is
            # never read as an answer, and the re-ask gets a larger budget.
            cut = result.reply.cut
            reading = Reading(reason=self._cut_reason(state.prompt)) if cut else read(result.reply)
            state.pending = self._record(state, result=result, reading=reading)
            if reading.ok:
                state.pending.answer = reading.answer
                self._flush(state)
                return reading.answer
            reason = reading.reason or refused
            if state.stream is not None:
                state.stream.withdraw(f"the reply failed the checks ({reason}); the checked speech replaces it")
            state.turns.append(Turn(result.reply, reason))
            if cut:
                state.prompt = dataclasses.replace(state.prompt, max_tokens=self._larger_budget(state.prompt))
        raise _Unanswered(f"no readable answer after {self.options.max_reasks + 1} attempts: {reason}")

    def _budget(self, prompt: Prompt) -> int:
        return prompt.max_tokens or self.options.max_tokens

    def _cut_reason(self, prompt: Prompt) -> str:
        return (
            f"your reply was cut off at the length limit ({self._budget(prompt)} tokens) before it was finished, "
            "so it is not an answer; reply with one complete JSON object and keep `reasoning` short"
        )

    def _larger_budget(self, prompt: Prompt) -> int:
        """Twice the budget that was cut, up to ``max_tokens_cap`` (never below the seat's own)."""
        o = self.options
        return min(2 * self._budget(prompt), max(o.max_tokens_cap, o.max_tokens))

    def prompt(self, view: SeatView, decision: Decision) -> Prompt:
        """The request for ``decision``, vendor-neutral (see ``prompts.render``). In the
        cache layout the schema is the game's (the same bytes in every request of the
        seat) and the question names its fields and legal answers; in the grammar
        layout it is the decision's own, which a local server enforces exactly."""

        players = list(view.players)
        roles = _claimable_roles(view)
        exact = answer_schema(decision, players=players, roles=roles, limits=self._limits())
        budget = self.options.budget(question_family(decision), language=self.language, layout=self.backend.layout())
        if self.backend.layout() != "cache":
            question = decision_prompt(decision, language=self.language, brief=True)
            return self._request(
                view,
                question=question,
                schema=exact,
                name=tool_name(decision),
                description=f"Submit your {decision.kind} answer.",
                family=decision.shape,
                max_tokens=budget,
            )
        game = self._game_schema_for(players, roles)
        return self._request(
            view,
            question=decision_prompt(decision, language=self.language, reminder=False, listed=False),
            schema=game,
            name=GAME_TOOL,
            description=GAME_TOOL_DESCRIPTION,
            family=GAME_TOOL,
            fields=narrowed_fields(decision, players=players, roles=roles, game=game),
            exact_schema=exact,
            max_tokens=budget,
        )

    def _limits(self) -> ReplyLimits:
        reasoning, text = self.options.chars(self.backend.layout())
        return ReplyLimits(reasoning=reasoning, text=text)

    def _stated_limits(self) -> dict[str, int]:
        """What the system text tells the seat a reply may spend (``prompts.render``)."""
        o, layout = self.options, self.backend.layout()
        limits = self._limits()
        return {
            "reasoning": limits.reasoning,
            "text": limits.text,
            "choice": o.budget("choice", language=self.language, layout=layout),
            "words": o.budget("words", language=self.language, layout=layout),
        }

    def _game_schema_for(self, players: list[str], roles: list[str]) -> dict[str, Any]:
        key = (tuple(players), tuple(roles))
        if self._game_schema is None or self._game_schema[0] != key:
            self._game_schema = (key, game_schema(players=players, roles=roles, beliefs=self.beliefs_expected))
        return self._game_schema[1]

    def expect_beliefs(self) -> None:
        """The game will ask this seat's beliefs (``arena.beliefs.BeliefPoll.announce``,
        before the first decision): in the cache layout the game's one schema then
        holds their field, so the beliefs question keeps the seat's prefix."""
        self.beliefs_expected = True
        self._game_schema = None

    def _request(self, view: SeatView, **question: Any) -> Prompt:
        """The seat's system part and append-only history, then ``question`` (the
        ``Prompt`` fields of the question asked)."""

        entries = [e for e in history_entries(view.events, self.name, language=self.language) if e]
        parts = self._system_for(view)
        return Prompt(
            system="".join(parts),
            system_parts=parts,
            cache_key=self._cache_key(view, parts),
            seat=view.players.index(self.name) if self.name in view.players else None,
            history_parts=self._parts(entries),
            language=self.language,
            **question,
        )

    def _system_for(self, view: SeatView) -> tuple[str, str]:

        if self._system is None:
            # Rendered once: the role card is the deal's (a later change, the Thief's,
            # is told in the history), so the cache's first block never changes.
            start = next((e.data for e in view.events if isinstance(e.data, GameStart)), None)
            dealt = next((e.data.role for e in view.events if isinstance(e.data, Role) and e.data.player == self.name), None)
            self._system = system_parts(
                preset=self._preset(view),
                options=self._rules(view),
                seat=self.name,
                role=dealt or view.role or "villager",
                players=list(view.players),
                language=self.language,
                deck=start.roles_in_play if start is not None else None,
                layout=self.backend.layout(),
                limits=self._stated_limits(),
            )
        return self._system

    def _parts(self, entries: list[str]) -> list[str]:
        """The history cut where this seat's earlier requests ended (see ``Prompt``)."""
        cuts = self._cuts
        if cuts and cuts[-1] > len(entries):  # another game: start afresh
            cuts.clear()
        if not cuts or cuts[-1] < len(entries):
            cuts.append(len(entries))
        bounds = [0] + cuts
        return ["\n".join(entries[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]

    def _cache_key(self, view: SeatView, parts: tuple[str, ...]) -> str:
        """The seat's routing key: a digest of its system text (its own machine); with
        ``cache_key_seats`` N, of the shared text and the names of the N neighbours in
        seat order it is grouped with, so they share a machine and the second one's
        first request reads the rules the first one sent."""
        n = self.options.cache_key_seats
        if n <= 1:
            return _cache_key("".join(parts))
        players = list(view.players)
        at = players.index(self.name) // n * n if self.name in players else 0
        return _cache_key(parts[0] + "\x00" + "\x00".join(players[at : at + n]))

    def _preset(self, view: SeatView) -> str:
        if self.preset:
            return self.preset
        for e in view.events:
            if isinstance(e.data, GameStart):
                return e.data.preset
        return "millers_hollow"

    def _rules(self, view: SeatView) -> Any:
        """The options the engine runs, as given by the game's builder; when nobody
        gave them (plain Python use), the preset's defaults."""
        if self.rules is None:

            self.rules = get_preset(self._preset(view)).options()
        return self.rules

    # ------------------------------------------------------------------ beliefs
    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float]:
        """For synchronous callers, as ``decide``."""
        return self._run_sync(self.abeliefs(view, moment))

    async def abeliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float]:
        """The model's private P(wolf) for each other living player (the ``beliefs``
        game option). Same back end, prompt layout, retries, re-asks and time limit as
        a decision; every call is recorded with kind ``beliefs``. There is no fallback:
        a seat that gives no readable answer raises ``BeliefFailed`` and its belief is
        recorded as missing. Nothing of it enters any history, its own included."""
        players = [n for n in view.alive if n != self.name]
        if not players:
            return {}
        if self.disabled:
            raise BeliefFailed(f"not asked: {self.disabled}")
        asked = Decision(id=-1 if moment is None else moment, seat=self.name, kind=BELIEFS_KIND, shape=BELIEFS_FAMILY, options=tuple(players))
        state = _Asking(asked, view)
        try:
            return await asyncio.wait_for(self._ask_beliefs(state, players), timeout=self.options.decision_timeout)
        except asyncio.CancelledError:
            raise
        except BeliefFailed:
            raise
        except TimeoutError:
            why = f"time limit ({self.options.decision_timeout:g}s) reached"
            self._end_without_reply(state, why, cut_off=True)
            raise BeliefFailed(why) from None
        except Exception as e:  # never let a model seat crash the game
            log.warning("%s: %s on beliefs: %r", self.name, type(e).__name__, e)
            why = f"internal error: {type(e).__name__}: {e}"
            self._end_without_reply(state, why)
            raise BeliefFailed(why) from None

    async def _ask_beliefs(self, state: _Asking, players: list[str]) -> dict[str, float]:
        state.prompt = self.belief_prompt(state.view, players, asked=state.decision)
        try:
            return await self._attempts(state, lambda reply: read_beliefs(reply.data, reply.text, players), "unreadable answer")
        except _Unanswered as e:
            self._flush(state)
            raise BeliefFailed(str(e)) from None

    def belief_prompt(self, view: SeatView, players: list[str], *, asked: Decision | None = None) -> Prompt:
        """The beliefs question after the seat's own history: the same system part and
        history as its decisions, so it and the vote asked beside it read the same
        cached prefix. In the cache layout it is one more question of the game's schema
        (its ``probabilities``), so the request's first bytes stay the seat's own.
        ``asked``: the question as a decision (kind ``beliefs``, the vote's id)."""

        exact = belief_schema(players, reasoning_chars=self._limits().reasoning)
        budget = self.options.budget("beliefs", language=self.language, players=len(players), layout=self.backend.layout())
        if self.backend.layout() != "cache" or not self.beliefs_expected:
            # A server enforcing each question's grammar; or a caller that never said
            # beliefs would be asked (the game's schema has no field for them).
            return self._request(
                view,
                question=beliefs_prompt(players, language=self.language),
                schema=exact,
                name=BELIEFS_TOOL,
                description="Submit your private beliefs: for each player, the probability that they are a werewolf.",
                family=BELIEFS_FAMILY,
                max_tokens=budget,
            )
        return self._request(
            view,
            question=beliefs_prompt(players, language=self.language, reminder=False),
            schema=self._game_schema_for(list(view.players), _claimable_roles(view)),
            name=GAME_TOOL,
            description=GAME_TOOL_DESCRIPTION,
            family=GAME_TOOL,
            fields=belief_fields(),
            exact_schema=exact,
            max_tokens=budget,
        )

    def _end_without_reply(self, state: _Asking, error: str, *, cut_off: bool = False) -> None:
        """Record a question that ended with no finished call to blame (a call cut off
        by the time limit, an internal error)."""
        self._record_without_reply(state, error, cut_off=cut_off)
        self._flush(state)

    def _record_without_reply(self, state: _Asking, error: str, *, cut_off: bool) -> None:
        """Hold in ``state.pending`` the record of a question that ended with no finished
        call to blame; with ``cut_off``, the request that was in flight."""
        self._flush(state)
        made_request = cut_off and state.prompt is not None
        messages = self._messages(state) if made_request else []
        latency = time.monotonic() - state.call_started if made_request else 0.0
        state.attempt = max(state.attempt, 1)
        state.pending = self._record(state, messages=messages, error=error, latency=latency)

    # ------------------------------------------------------------------ fallback
    def _fallback(self, state: _Asking, *, error: str | None = None, cut_off: bool = False) -> Any:
        d, view = state.decision, state.view
        answer = self._fallback_answer(view, d)
        if cut_off or error or state.pending is None:
            # The decision ended without a finished call to blame: a call cut off by
            # the time limit, an internal error, a disabled seat.
            self._record_without_reply(state, error or "no answer", cut_off=cut_off)
        state.pending.fallback = True
        state.pending.answer = answer
        self._flush(state)
        return answer

    def _fallback_answer(self, view: SeatView, d: Decision) -> Any:

        try:
            answer = self.fallback_agent.decide(view, d)
            d.validate(answer)
            return answer
        except (IllegalAnswer, Exception):
            return random_answer(self.rng, d)

    # ------------------------------------------------------------------ records
    def _messages(self, state: _Asking) -> list[dict[str, Any]]:
        try:
            mode = self.backend.mode_for(state.prompt.family)
            return self.backend.sent_messages(self.backend.build(state.prompt, state.turns, mode))
        except Exception:
            return []

    def _record(
        self,
        state: _Asking,
        *,
        result: CallResult | None = None,
        reading: Reading | None = None,
        messages: list[dict[str, Any]] | None = None,
        error: str | None = None,
        retries: int = 0,
        latency: float = 0.0,
    ) -> CallRecord:
        d = state.decision
        rec: dict[str, Any] = dict(
            seat=self.name,
            decision=d.id,
            kind=d.kind,
            day=state.view.day,
            attempt=state.attempt,
            backend=self.backend.name,
            model=self.backend.model,
            display_name=self.options.display_name,
            mode=self.backend.mode_for(state.prompt.family if state.prompt else ""),
            started=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            messages=messages or [],
            error=error,
            retries=retries,
            latency_s=round(latency, 6),
            price_known=self.prices.lookup(self.backend.model, self.backend.name, self.backend.endpoint) is not None,
        )
        if result is not None:
            u = result.reply.usage
            rec.update(
                mode=result.reply.mode,
                messages=result.messages,
                reply=result.reply.text,
                retries=result.retries,
                latency_s=result.latency_s,
                input_tokens=u.input_tokens,
                output_tokens=u.output_tokens,
                cached_tokens=u.cached_tokens,
                cache_write_tokens=u.cache_write_tokens,
                reasoning_tokens=u.reasoning_tokens,
            )
            if u.input_tokens is not None and u.output_tokens is not None:
                rec["cost_usd"] = self.prices.cost(
                    self.backend.model,
                    self.backend.name,
                    self.backend.endpoint,
                    input_tokens=u.input_tokens,
                    output_tokens=u.output_tokens,
                    cached_tokens=u.cached_tokens or 0,
                    cache_write_tokens=u.cache_write_tokens or 0,
                )
        if reading is not None:
            rec.update(parsed=reading.parsed, accepted=reading.ok, violation=reading.reason or reading.repaired)
        return CallRecord(**rec)

    def _flush(self, state: _Asking) -> None:
        if state.pending is not None:
            self.calls.add(state.pending)
            state.pending = None


_MANY = object()  # more than one legal answer


def _only_answer(d: Decision) -> Any:
    """The one legal answer of ``d``, or ``_MANY``."""

    if d.shape == CHOICE and not d.options and d.allow_pass:
        return None
    if d.shape == BOOL and not d.allow_pass and len(set(d.options)) == 1:
        return d.options[0]
    return _MANY


def _spoken(answer: Any) -> str:
    """The words of a speech answer (plain words, or ``engine.speech.check_speech``'s dict)."""
    if isinstance(answer, dict):
        return str(answer.get("text", ""))
    return answer if isinstance(answer, str) else ""


def _loose_object(text: str, d: Decision) -> dict[str, Any] | None:

    try:
        data = parse_reply(text, d)
    except NoAnswer:
        return None
    return data if isinstance(data, dict) else None


def _cache_key(text: str) -> str:
    """A stable routing key (OpenAI ``prompt_cache_key``): a digest, the same for every
    call of the game and revealing nothing of what it digests."""

    return "werewolf-" + hashlib.sha256(text.encode()).hexdigest()[:24]


def _role_ids() -> list[str]:

    return sorted(ROLES)


def _claimable_roles(view: SeatView) -> list[str]:
    """The roles a claim may name: this game's public deck (``game_start``, set-aside
    cards included), so the schema names only what the game holds and the seat is
    not offered a Ninja at a table without one; every role when no deck was told.
    The deck never changes, so the game's schema keeps the same bytes all game."""
    start = next((e.data for e in view.events if isinstance(e.data, GameStart)), None)
    if start is None or not start.roles_in_play:
        return _role_ids()
    return sorted(set(start.roles_in_play))

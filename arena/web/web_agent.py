"""A person at a browser, playing one seat.

Why a subclass of the terminal ``HumanAgent``: the person and the rules are the same,
only the screen differs, so the safe default on a time limit (pass where legal, else
the heuristic bot's legal answer) and its wording are inherited rather than copied.
Why the question lives here rather than in the page: a reload or a lost connection
must not lose it, so the seat keeps its open questions and its given answers until
the engine has taken them; the page only ever shows what this object holds.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from agents.base import SeatView
from agents.human import HumanAgent
from agents.human_input import ROLE_OPTIONS, SCALE_OPTIONS, SPEECH_KINDS, TARGETED_KINDS
from arena.web.words import pass_phrase, say
from engine import words
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, GameError, IllegalAnswer
from engine.roles import ROLES
from engine.speech import check_speech
from prompts.catalog import catalog

class AnswerRefused(ValueError):
    """An answer the seat cannot take; ``status`` is the HTTP status to reply with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class Question:
    """A decision put to the person and not answered yet."""

    decision: Decision
    view: SeatView
    future: asyncio.Future
    deadline: float | None  # wall-clock seconds (time.time()), so a page can count down


@dataclass
class Given:
    """An answer the person gave whose batch the engine has not closed yet."""

    decision: Decision
    answer: Any
    by_default: bool = False
    note: str = ""
    at: float = field(default_factory=time.time)


class WebAgent(HumanAgent):
    """The browser person's seat: ``adecide`` waits for the answer the page posts."""

    spec = "human"

    def __init__(self, name: str, *, seed: int = 0, timeout: float | None = None, language: str = "en"):
        super().__init__(name, seed=seed, timeout=timeout, language=language)
        self.language = language
        self.questions: dict[int, Question] = {}
        self.given: dict[int, Given] = {}
        self.notes: list[str] = []  # what happened to the seat outside the events (a time limit)
        self.on_change: Callable[[str], None] = lambda seat: None

    def decide(self, view: SeatView, decision: Decision) -> Any:
        raise GameError(f"{self.name} is played from a browser and only answers in a running server")

    def notify(self, view: SeatView) -> None:
        """The page follows the session's event stream; nothing to print."""

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        loop = asyncio.get_running_loop()
        q = Question(decision, view, loop.create_future(), None if self.timeout is None else time.time() + self.timeout)
        self.questions[decision.id] = q
        self.on_change(self.name)
        try:
            if self.timeout is None:
                return await q.future
            try:
                return await asyncio.wait_for(asyncio.shield(q.future), self.timeout)
            except TimeoutError:
                if q.future.done():  # answered in the same instant the clock ran out
                    return q.future.result()
                answer = self._default(view, decision)
                note = say(self.language, "a.time_up", text=self.describe_default(decision, answer))
                self.notes.append(note)
                self._settle(decision, answer, by_default=True, note=note)
                return answer
        finally:
            if self.questions.pop(decision.id, None) is not None:
                self.on_change(self.name)

    # ------------------------------------------------------------------ from the page
    def answer(self, decision_id: int, raw: Any, players: dict | None = None) -> Any:
        """Take the page's answer to an open question; ``AnswerRefused`` says why not.
        ``players``: the game's players by name, to check a speech's claims or a
        proposed victim as the engine will (``engine.speech``) before it is taken."""
        if decision_id in self.given:
            raise AnswerRefused("this question is already answered; the answer given is kept", 409)
        q = self.questions.get(decision_id)
        if q is None or q.future.done():
            raise AnswerRefused("this question is not open (the game has moved on)", 409)
        value = self._check(q.decision, raw, players)
        q.future.set_result(value)
        self._settle(q.decision, value)
        return value

    def settled(self, decision_id: int) -> None:
        """The engine has taken the answer: its effect is in the events from now on."""
        self.given.pop(decision_id, None)

    def _settle(self, decision: Decision, answer: Any, *, by_default: bool = False, note: str = "") -> None:
        self.questions.pop(decision.id, None)
        self.given[decision.id] = Given(decision, answer, by_default, note)
        self.on_change(self.name)

    @staticmethod
    def _check(decision: Decision, raw: Any, players: dict | None = None) -> Any:
        """The engine's ``validate`` is the last word; this only refuses what a page
        should never send (a dict where plain words go, a number for a name). A speech
        may carry claims and the pack's talk a proposed victim, as model seats send
        them: those are checked here by the engine's own ``check_speech``, so a bad
        claim is refused with its reason instead of failing the game later."""
        shape = decision.shape
        if shape == TEXT and isinstance(raw, dict):
            return WebAgent._check_structured(decision, raw, players)
        if shape == TEXT:
            raw = WebAgent._words(raw)
        elif shape == BOOL and not isinstance(raw, bool):
            raise AnswerRefused("answer yes (true) or no (false)")
        elif shape == CHOICE and decision.kind in SCALE_OPTIONS:
            if type(raw) is not int:  # a bid is a number on the scale: not a word, not true
                raise AnswerRefused(f"answer with a number from {decision.options[0]} to {decision.options[-1]}")
        elif shape == CHOICE and raw is not None and not isinstance(raw, str):
            raise AnswerRefused("answer with one of the options, or null to pass")
        elif shape == MULTI and raw is not None and not (isinstance(raw, list) and all(isinstance(x, str) for x in raw)):
            raise AnswerRefused(f"answer with a list of {decision.count} options")
        try:
            return decision.validate(raw)
        except IllegalAnswer as e:
            raise AnswerRefused(str(e)) from None

    @staticmethod
    def _words(raw: Any) -> str:
        """A speech's words: text (null is silence), trimmed, and sayable as the engine
        will check them (``engine.words``: its length, no control character): refused
        here with the reason, so the person writes them again and the game goes on."""
        if raw is None:
            return ""
        if not isinstance(raw, str):
            raise AnswerRefused("a speech is text")
        raw = raw.strip()
        why = words.problem(raw)
        if why is not None:
            raise AnswerRefused(why)
        return raw

    @staticmethod
    def _check_structured(decision: Decision, raw: dict, players: dict | None) -> Any:
        if decision.kind in SPEECH_KINDS:
            extra = "claims"
        elif decision.kind in TARGETED_KINDS:
            extra = "target"
        else:
            raise AnswerRefused("a speech is text")
        unknown = sorted(str(k) for k in raw if k not in ("text", extra))
        if unknown:
            raise AnswerRefused(f"{decision.kind} takes text and {extra} only, not {', '.join(unknown)}")
        text = WebAgent._words(raw.get("text"))
        if raw.get(extra) is None:  # words alone: a plain speech
            return WebAgent._check(decision, text)
        if players is None:
            raise AnswerRefused("claims cannot be checked here", 409)
        try:
            return check_speech(decision.kind, {"text": text, extra: raw[extra]}, players, ROLES)
        except IllegalAnswer as e:
            raise AnswerRefused(str(e)) from None

    # ------------------------------------------------------------------ for the page
    def _picks(self, decision: Decision, answer: Any) -> str:
        picks = answer if isinstance(answer, list) else [answer]
        if decision.kind in ROLE_OPTIONS:
            picks = [catalog(self.language).role_name(p) for p in picks]
        return say(self.language, "a.and").join(str(p) for p in picks)

    def default_text(self, decision: Decision) -> str:
        """What a time limit would play ("you abstain"), in the game's language."""
        if decision.shape == TEXT:
            return say(self.language, "a.say_nothing")
        if decision.can_pass:
            return say(self.language, "a.no") if decision.shape == BOOL else pass_phrase(decision, self.language)
        return say(self.language, "a.default.chosen")

    def describe_default(self, decision: Decision, answer: Any) -> str:
        """What the time limit played ("you abstain", "you chose Bob")."""
        if decision.shape == TEXT:
            return say(self.language, "a.say_nothing")
        if decision.shape == BOOL:
            return say(self.language, "a.yes" if answer else "a.no")
        if answer is None:
            return pass_phrase(decision, self.language)
        return say(self.language, "a.chose", names=self._picks(decision, answer))

    def describe_answer(self, decision: Decision, answer: Any) -> str:
        """The answer as the person reads it back ("You vote for Bob")."""
        if decision.shape == TEXT:
            if isinstance(answer, dict):
                answer = answer.get("text", "")
            return say(self.language, "a.said", text=answer) if answer else say(self.language, "a.silent")
        text = self.describe_default(decision, answer)
        return text[0].upper() + text[1:] + say(self.language, "a.end")

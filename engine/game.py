"""The game's driver and its outside face.

Following OpenSpiel's split, the game's data is a ``GameState`` (``engine.game_state``)
and ``Game`` drives it: it says which decisions are pending (whose turn, which legal
options), takes answers, and lets each seat read the events it may see. The rules
themselves live in ``engine.flow`` as one generator, the narrator's script, that yields
batches of decisions and receives their answers; they read and write the state only,
so this module, which imports them, is above them. A batch is a simultaneous node:
every decision in it is pending at once and the script moves on when all are
answered, so an orchestrator may ask them concurrently and the outcome never depends
on who answered first.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Generator

from engine.decisions import CHOICE, TEXT, Decision, GameError, IllegalAnswer
from engine.events import NARRATOR, PUBLIC, Event
from engine.flow.main import script as _flow_script  # the rules' entry point
from engine.game_state import GameState, Player
from engine.presets import get_preset
from engine.roles.base import ROLES, rules_for
from engine.setup import GameSetup
from engine.speech import check_speech
from engine.state import Death
from engine.words import plain as words_plain, problem as words_problem


_ID = attrgetter("id")


class Game(GameState):
    """One game in progress. Create it from a ``GameSetup``; then loop on ``pending``.

    The driver over the game's state (``GameState``): it chooses the rules' hooks,
    runs the narrator's script and takes the answers. The rules see only the state."""

    # The driver's own slots; the state's are ``GameState``'s.
    __slots__ = ("pending", "answers", "answer_log", "_by_id", "_batch_size", "_script", "_views", "_recorded")

    def __init__(self, setup: GameSetup):
        script = _flow_script
        GameState.__init__(self, setup)
        # The hooks this deck and these options need (night steps, death and dawn
        # hooks, solitary goals), chosen once: a game never pays for absent roles. The
        # night steps come in the order of the preset's book (``engine.night_order``).
        self.rules = rules_for(self.deck, self.options, get_preset(self.preset).night)
        self._views: dict[str, list[Any]] = {}  # seat -> [its visible events so far, events read] (``observation``)
        self.pending: list[Decision] = []
        self.answers: dict[int, Any] = {}
        self.answer_log: list[tuple[int, str, str, Any]] = []  # (decision id, seat, kind, answer)
        self._by_id: dict[int, Decision] = {}
        self._batch_size = 0
        self._recorded = False  # ``submit_recorded`` is submitting
        self._script: Generator[list[Decision], Any, None] = script(self)
        self._advance(None)

    # ------------------------------------------------------------------ outside face
    def pending_for(self, seat: str) -> list[Decision]:
        return [d for d in self.pending if d.seat == seat and d.id not in self.answers]

    @property
    def waiting(self) -> list[Decision]:
        """Pending decisions not yet answered."""
        answers = self.answers
        if not answers:
            return list(self.pending)
        return [d for d in self.pending if d.id not in answers]

    def submit(self, decision_id: int, answer: Any) -> None:
        """Answer one pending decision. Illegal answers raise ``IllegalAnswer``; words
        (a ``TEXT`` answer) must be sayable (``engine.words``)."""
        d = self._by_id.get(decision_id)
        if d is None:
            raise IllegalAnswer(self._not_pending(decision_id))
        answers = self.answers
        if decision_id in answers:
            raise IllegalAnswer(f"decision {decision_id} ({d.kind} for {d.seat}) is already answered")
        shape = d.shape
        # The two commonest answers, a name among the options and a plain line of speech
        # (``engine.words.plain``), are accepted here as ``Decision.validate`` would
        # accept them, without its call.
        if shape == CHOICE and answer is not None and answer in d.options and answer.__class__ is not bool:
            value = answer
        elif shape == TEXT and isinstance(answer, str) and words_plain(answer):
            value = answer
        else:
            try:
                value = d.validate(answer)
                if shape == TEXT:
                    if value.__class__ is dict:
                        value = check_speech(d.kind, value, self.by_name, ROLES)
                    said = value["text"] if value.__class__ is dict else value
                    if not (self._recorded or words_plain(said)):
                        why = words_problem(said)
                        if why is not None:
                            raise IllegalAnswer(f"{d.kind} for {d.seat}: {why}")
            except IllegalAnswer as e:
                raise IllegalAnswer(self._explain(d, answer, str(e))) from None
        answers[decision_id] = value
        self.answer_log.append((decision_id, d.seat, d.kind, value))
        if len(answers) == self._batch_size:
            self.answers = {}
            self._advance(answers)

    def submit_recorded(self, decision_id: int, answer: Any) -> None:
        """``submit`` an answer a transcript holds (a replay, a resumed game's catch-up):
        accepted when it was said, it is taken as it was, words included, so a game
        recorded before the bound on words (``engine.words``) replays as it was played.
        A method of its own rather than a parameter of ``submit``, the engine's hottest
        method, whose every call would pay for it (a keyword-only one would put every
        call on CPython 3.11's general call path); the flag is read only where words
        are checked."""
        self._recorded = True
        try:
            self.submit(decision_id, answer)
        finally:
            self._recorded = False

    def observation(self, seat: str, since: int = 0) -> list[Event]:
        """Every event ``seat`` may see, in order (from ``events[since]`` on): derived
        from visibility alone. Events are never changed once emitted, so each seat's
        view is kept and extended with the events emitted since it was last asked:
        a seat asked at every decision costs the new events only, not the whole game
        again (which made a decision dearer the longer and larger the game). A reader
        that kept the earlier ones (a bot's memory, at every decision) asks ``since``
        the last it read: those events alone are tested, and nothing else copied."""
        events = self.events
        shown: list[Event]
        if since:
            shown, read = [], since
        else:
            view = self._views.get(seat)
            if view is None:
                view = self._views[seat] = [[], 0]
            shown, read = view
            view[1] = len(events)
        # ``Event.visible_to`` inlined: this test runs for every event and every seat. A
        # bot asks at every decision, for a few new events: a plain loop, as a
        # comprehension's frame costs ~2.3K instructions before its first (3.11); and a
        # private event's audience (a frozenset) is asked for the seat at once, as ``==``
        # between a set and a string tries both types before answering no (~300 each).
        for e in events[read:]:
            a = e.audience
            if a is PUBLIC or (seat in a if a.__class__ is frozenset else a == PUBLIC or (a != NARRATOR and seat in a)):
                shown.append(e)
        return shown if since else list(shown)

    def public_events(self) -> list[Event]:
        return [e for e in self.events if e.audience == PUBLIC]

    # ------------------------------------------------------------------ internals
    def _not_pending(self, decision_id: int) -> str:
        if self.over:
            return "the game is over; nothing is pending"
        return f"decision {decision_id} is not pending"

    def _explain(self, d: Decision, answer: Any, base: str) -> str:
        """Add the rule behind a refusal, so a bad scripted answer reads as a reason."""
        why = d.context.get("unavailable")
        names = answer if isinstance(answer, list) else [answer]
        for a in names:
            if isinstance(a, str) and a in self.by_name and a not in d.options:
                p = self.by_name[a]
                if not p.alive:
                    why = f"{a} is dead"
                elif a == d.seat:
                    why = f"{a} may not choose themself here"
                elif a in self.spares(d.seat):
                    why = f"{a} is {d.seat}'s beloved (a Lover never harms their beloved)"
                elif d.kind in ("vote", "vote_change") and a in self.vote_spares(d.seat):
                    why = f"{a} is {d.seat}'s beloved (a Lover never votes against their beloved)"
                elif "reason" in d.context:
                    why = d.context["reason"]
                break
        return f"{base} ({why})" if why else base

    def _advance(self, answers: dict[int, Any] | None) -> None:
        try:
            batch = next(self._script) if answers is None else self._script.send(answers)
        except StopIteration:
            self.pending = []
            self._by_id = {}
            return
        if not batch:
            raise GameError("internal error: the rules asked an empty batch")
        self.pending = batch
        self._batch_size = n = len(batch)
        if n == 1:
            d = batch[0]
            self._by_id = {d.id: d}
        else:
            self._by_id = dict(zip(map(_ID, batch), batch))  # ``{d.id: d ...}`` without a Python loop


__all__ = ["Game", "GameState", "Player", "Death", "NARRATOR", "PUBLIC"]

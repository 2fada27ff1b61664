"""The game state and its outside face.

Following OpenSpiel's split, ``Game`` is the state: it says which decisions are
pending (whose turn, which legal options), takes answers, and records events with
their visibility. The rules themselves live in ``engine.flow`` as one generator, the
narrator's script, that yields batches of decisions and receives their answers. A
batch is a simultaneous node: every decision in it is pending at once and the script
moves on when all are answered, so an orchestrator may ask them concurrently and the
outcome never depends on who answered first.
"""

from __future__ import annotations

import random
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Any, Generator, Mapping

from engine.decisions import CHOICE, TEXT, Decision, DecisionKind, GameError, IllegalAnswer
from engine.events import NARRATOR, PUBLIC, Audience, Event, EventData
from engine.options import RuleOptions
from engine.roles.base import ROLES, rules_for
from engine.presets import get_preset
from engine.setup import GameSetup, deal
from engine.speech import check_speech
from engine.state import Death, Night, Parts
from engine.words import plain as words_plain, problem as words_problem

# The rules' entry point. The flow imports this module back (engine.flow.deaths, as
# ``import engine.game``, read at the call), so it must not need its names at import time.
from engine.flow.main import script as _flow_script


@dataclass(slots=True)
class Player:
    name: str
    seat: int
    role: str
    initial_role: str
    alive: bool = True
    # Role-specific state (potions left, ...): one part per class a role declares (``engine.state``).
    state: Parts = field(default_factory=Parts)
    is_wolf: bool = False  # kept in step with ``role`` by ``set_role``: read on every night
    # The camp the player plays for: the card's, until a conversion (the Wolf-Hound's
    # choice, the Wild Child's change, an infection, the Angel's first round) changes it.
    camp: str = ""
    # A player whose power is gone (the Elder's death, a hypnosis, a Fox's miss): the
    # card stays, its night calls and last acts do not happen.
    powerless: bool = False
    # The Village's public layer (000, "The Buildings"): the building this player lives
    # in ("" when the game has no buildings; ``vagabond`` when homeless), and whether
    # they hold its token (a unique power not yet used, the Tavernkeeper's immunity).
    building: str = ""
    token: bool = False

    def __post_init__(self) -> None:
        spec = ROLES[self.role]
        self.is_wolf = spec.is_wolf
        self.camp = spec.camp

    def set_role(self, role: str) -> None:
        """Change card (the Thief's swap) and the camp flag with it."""
        spec = ROLES[role]
        self.role = role
        self.is_wolf = spec.is_wolf
        self.camp = spec.camp

    def convert(self, camp: str, is_wolf: bool) -> None:
        """Change camp, keeping the card (infection, the Wild Child, the Wolf-Hound)."""
        self.camp = camp
        self.is_wolf = is_wolf


_ID = attrgetter("id")

# The rules' two hottest objects, the events and the decisions, are made as their
# dataclass would make them but with their fields set in ``Game.emit`` and ``Game.ask``:
# a class call enters the dataclass's ``__init__`` as a new frame from C, about 0.8 K
# instructions an object (~0.14 M of a random game's 3.6 M). Every other maker of an
# ``Event`` or a ``Decision`` calls the class (``tests/test_engine_api.py`` checks both
# ways give equal objects, with every field set).
_made = object.__new__


class Game:
    """One game in progress. Create it from a ``GameSetup``; then loop on ``pending``."""

    # The state set in ``__init__`` lives in slots. With more than 30 attributes CPython
    # (3.11) stops sharing a key table between instances and gives each game a full
    # dict, which makes every ``game.x`` of the rules dearer (about 3% of a game). There
    # is no ``__dict__``: what a mechanic keeps lives in its typed part of ``memory``
    # (``engine.state``), the day powers' too (``engine.flow.day_powers.HeldPowers``).
    __slots__ = (
        "setup", "preset", "options", "rng", "deck", "players", "by_name", "table", "center", "rules", "day", "phase",
        "events", "deaths", "sheriff", "lovers", "spared", "grief", "voteless", "night", "memory", "winner",
        "over", "winners", "end_reason", "pending", "answers", "answer_log", "_next_decision", "_by_id",
        "_batch_size", "_script", "_views", "_recorded",
    )  # fmt: skip

    def __init__(self, setup: GameSetup):
        script = _flow_script
        self.setup = setup
        self.preset = setup.preset
        self.options: RuleOptions = setup.rule_options()
        self.rng = random.Random(setup.seed)
        dealt = deal(setup, self.rng, self.options)
        roles = dealt.roles
        self.players: list[Player] = [Player(n, i, roles[n], roles[n]) for i, n in enumerate(setup.names)]
        self.by_name: dict[str, Player] = dict(zip(setup.names, self.players))
        # The seating around the table, clockwise: the players' list itself until a
        # Vagabond moves into a freed home (000 The Village: "That Vagabond changes seat
        # to sit behind the building"). ``Player.seat`` is an index into it.
        self.table: list[Player] = self.players
        self.center: list[str] = dealt.center
        self.deck: tuple[str, ...] = dealt.deck  # every card, the set-aside ones included, sorted
        # The hooks this deck and these options need (night steps, death and dawn
        # hooks, solitary goals), chosen once: a game never pays for absent roles. The
        # night steps come in the order of the preset's book (``engine.night_order``).
        self.rules = rules_for(self.deck, self.options, get_preset(self.preset).night)
        self.day = 0
        self.phase = "setup"
        self.events: list[Event] = []
        self._views: dict[str, list[Any]] = {}  # seat -> [its visible events so far, events read] (``observation``)
        self.deaths: list[Death] = []
        self.sheriff: str | None = None
        self.lovers: tuple[str, str] | None = None
        # Who each player may never harm (the Lovers), and who dies of grief when a
        # player dies: filled by Cupid (``set_lovers``); empty in most games.
        self.spared: dict[str, tuple[str, ...]] = {}
        self.grief: dict[str, tuple[str, ...]] = {}
        self.voteless: set[str] = set()  # players who lost their vote (a revealed Idiot)
        self.night: Night = Night()  # scratch state of the current night (``engine.flow.night``)
        self.memory: Parts = Parts()  # what mechanics remember across nights
        self.winner: str | None = None
        self.over = False  # set with ``winner`` by ``engine.flow.victory.end_game``
        self.winners: list[str] = []
        self.end_reason: str = ""
        self.pending: list[Decision] = []
        self.answers: dict[int, Any] = {}
        self.answer_log: list[tuple[int, str, str, Any]] = []  # (decision id, seat, kind, answer)
        self._next_decision = 0
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

    # ------------------------------------------------------------------ used by the rules
    def emit(self, data: EventData, audience: Audience = PUBLIC) -> Event:
        """Record that ``data`` (an event kind's payload) happened, seen by ``audience``
        (``PUBLIC``, ``NARRATOR`` or ``engine.events.private(...)``)."""
        events = self.events
        # ``Event(len(events), self.day, self.phase, audience, data)`` field by field
        # (``_made``): every event of every game.
        ev = _made(Event)
        ev.seq = len(events)
        ev.day = self.day
        ev.phase = self.phase
        ev.audience = audience
        ev.data = data
        events.append(ev)
        return ev

    def ask(
        self,
        seat: str,
        kind: DecisionKind,
        options: tuple[Any, ...] = (),
        context: Mapping[str, Any] | None = None,
        allow_pass: bool = False,
        count: int = 1,
    ) -> Decision:
        """A question to ``seat``: the legal ``options`` (see ``Decision``) and what the
        asker shows with it (``context``, of the kind's context type). The answer's
        shape is the kind's. The rules yield the decision in a batch."""
        # ``Decision(self._next_decision, seat, kind, kind.shape, options, allow_pass,
        # count, context)`` field by field (``_made``): every decision of every game.
        d = _made(Decision)
        d.id = self._next_decision
        d.seat = seat
        d.kind = kind
        d.shape = kind.shape
        d.options = options
        d.allow_pass = allow_pass
        d.count = count
        d.context = {} if context is None else context
        self._next_decision += 1
        return d

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def alive_names(self) -> list[str]:
        return [p.name for p in self.players if p.alive]

    def has_alive(self, role: str) -> bool:
        """Whether a living player holds ``role`` (asked by every night step, every night)."""
        for p in self.players:
            if p.role == role and p.alive:
                return True
        return False

    def with_role(self, role: str, alive: bool = True) -> list[Player]:
        return [p for p in self.players if p.role == role and (p.alive or not alive)]

    def wolves(self) -> list[Player]:
        return [p for p in self.players if p.alive and p.is_wolf]

    def beloved(self, name: str) -> str | None:
        lv = self.lovers
        if lv is None:
            return None
        if name == lv[0]:
            return lv[1]
        if name == lv[1]:
            return lv[0]
        return None

    def able(self, role: str) -> list[Player]:
        """Living holders of ``role`` who still have its power."""
        return [p for p in self.players if p.role == role and p.alive and not p.powerless]

    def has_able(self, role: str) -> bool:
        for p in self.players:
            if p.role == role and p.alive and not p.powerless:
                return True
        return False

    def neighbours(self, name: str) -> list[Player]:
        """The nearest living player on each side of ``name``, left (the next seat)
        first: the dead's places no longer count (003, the Bear Tamer and the Fox)."""
        players = self.table
        n = len(players)
        seat = self.by_name[name].seat
        found: list[Player] = []
        for step in (1, -1):
            for k in range(1, n):
                p = players[(seat + step * k) % n]
                if p.alive and p.name != name:
                    if p not in found:
                        found.append(p)
                    break
        return found

    def move(self, name: str, to_seat: int) -> None:
        """Seat ``name`` at ``to_seat``; whoever sat there takes ``name``'s old place."""
        table = self.table = list(self.table)
        p = self.by_name[name]
        other = table[to_seat]
        table[p.seat], table[to_seat] = other, p
        other.seat, p.seat = p.seat, to_seat

    def set_lovers(self, a: str, b: str) -> None:
        """Cupid's couple: each spares the other, each dies of the other's death."""
        self.lovers = (a, b)
        self.spared[a] = self.spared.get(a, ()) + (b,)
        self.spared[b] = self.spared.get(b, ()) + (a,)
        self.grief[a] = self.grief.get(a, ()) + (b,)
        self.grief[b] = self.grief.get(b, ()) + (a,)

    def spares(self, actor: str) -> tuple[str, ...]:
        """Whom ``actor`` may never harm with a power (000: "nor cause them any harm");
        under ``lovers_restraint: vote`` (002) only the vote is barred (``vote_spares``)."""
        if not self.spared or self.options.lovers_may_target_each_other or self.options.lovers_restraint == "vote":
            return ()
        return self.spared.get(actor, ())

    def vote_spares(self, actor: str) -> tuple[str, ...]:
        """Whom ``actor`` may never vote against (000, 002: "Un amor no puede, ni siquiera
        como un farol, votar para linchar a su amante")."""
        if not self.spared or self.options.lovers_may_target_each_other:
            return ()
        return self.spared.get(actor, ())

    def targets(self, actor: str, self_ok: bool = False, exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Living players ``actor`` may act against: never their beloved (000: a Lover
        must never "cause them any harm"), never themself unless ``self_ok``."""
        spare = self.spares(actor) if self.spared else ()
        skip = None if self_ok else actor
        if exclude or spare:
            bad = (*exclude, *spare)
            return tuple([p.name for p in self.players if p.alive and p.name != skip and p.name not in bad])
        return tuple([p.name for p in self.players if p.alive and p.name != skip])

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


__all__ = ["Game", "Player", "Death", "NARRATOR", "PUBLIC"]

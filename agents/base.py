"""The seat interface.

An agent is asked one ``Decision`` at a time together with a ``SeatView``: the events
that seat may see and nothing else. The view is built from the engine's visibility
rules, so an agent cannot learn another seat's secrets even by accident.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable

from engine.decisions import Decision, IllegalAnswer
from engine.events import Event
from engine.flow.deaths import DeathEvent
from engine.flow.main import GameStart, Role
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.roles.cupid import Lovers
from engine.roles.werewolf import WolfPack

if TYPE_CHECKING:
    from engine.game import Game


class SeatView:
    """What one seat knows: its name and the events it was shown, in order.

    Its summaries read the events' typed payloads (``isinstance`` on the kind's
    class), so a field renamed in the engine is a type error here; an event whose
    data is not its kind's class (a ``RawEvent`` read from another version's file)
    adds nothing to them.

    ``SeatView(seat, None, game)`` is the view the runners hand an agent: its events are
    read from the game only when the agent first looks (a random bot never does, and
    the view was a fifth of its game), and stop at the moment the view was made, so a
    view kept and read later still shows what the seat knew when it was asked."""

    __slots__ = ("name", "_events", "_game", "_upto", "__dict__")

    def __init__(self, name: str, events: list[Event] | None, game: Game | None = None):
        """``events``: the seat's events; or None and ``game``: read them from the
        game when first needed, up to the events emitted by now."""
        self.name = name
        self._events = events
        self._game = game
        self._upto = 0 if game is None else len(game.events)

    @property
    def events(self) -> list[Event]:
        """Every event this seat was shown, in order (``Game.observation``)."""
        events = self._events
        if events is None:
            assert self._game is not None  # a view is made with its events or its game
            events = self._game.observation(self.name)
            upto = self._upto
            if events and events[-1].seq >= upto:  # the game went on after the view was made
                events = [e for e in events if e.seq < upto]
            self._events = events
            self._game = None
        return events

    def since(self, seq: int) -> list[Event]:
        """The seat's events from the game's ``seq``-th on (``Game.observation``'s
        ``since``), up to the moment the view was made. A reader that kept the earlier
        ones (the heuristic bot's memory, at every decision) takes only these, without
        the copy of the whole view that ``events`` makes."""
        events = self._events
        if events is not None:
            return [e for e in events if e.seq >= seq]
        assert self._game is not None  # a view is made with its events or its game
        new = self._game.observation(self.name, seq)
        upto = self._upto
        if new and new[-1].seq >= upto:  # the game went on after the view was made
            new = [e for e in new if e.seq < upto]
        return new

    @cached_property
    def players(self) -> list[str]:
        for e in self.events:
            if isinstance(e.data, GameStart):
                return list(e.data.players)
        return []

    @cached_property
    def role(self) -> str | None:
        role = None
        for e in self.events:
            d = e.data
            if isinstance(d, Role) and d.player == self.name:
                role = d.role
        return role

    @cached_property
    def dead(self) -> dict[str, DeathEvent]:
        """Public deaths: name -> the death event's payload (cause, revealed role)."""
        return {e.data.player: e.data for e in self.events if isinstance(e.data, DeathEvent)}

    @cached_property
    def alive(self) -> list[str]:
        dead = self.dead
        return [p for p in self.players if p not in dead]

    @property
    def is_alive(self) -> bool:
        return self.name not in self.dead

    @cached_property
    def sheriff(self) -> str | None:
        s = None
        for e in self.events:
            if isinstance(e.data, (SheriffElected, SheriffSuccessor)):
                s = e.data.player
        return s

    @cached_property
    def beloved(self) -> str | None:
        for e in self.events:
            d = e.data
            if isinstance(d, Lovers) and d.lover == self.name:
                return d.beloved
        return None

    @cached_property
    def pack(self) -> list[str]:
        """The werewolves this seat knows of (its own pack, when it is a wolf)."""
        pack: list[str] = []
        for e in self.events:
            if isinstance(e.data, WolfPack):
                pack = list(e.data.wolves)
        return pack

    @property
    def day(self) -> int:
        return self.events[-1].day if self.events else 0

    def of_kind(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]


class BeliefFailed(Exception):
    """A seat asked for its beliefs gave none that could be read; the message says why."""


class Agent(ABC):
    """A seat's player. Bots answer synchronously; models and people override
    ``adecide`` to wait without blocking the other seats."""

    spec: str = "agent"

    def __init__(self, name: str):
        self.name = name

    @abstractmethod
    def decide(self, view: SeatView, decision: Decision) -> Any:
        """Return an answer for ``decision`` (see CONTRACT.md for each kind's shape)."""

    async def adecide(self, view: SeatView, decision: Decision) -> Any:
        return self.decide(view, decision)

    def refused(self, view: SeatView, decision: Decision, answer: Any, why: str) -> Any:
        """What the seat plays instead of ``answer``, which the engine refused (``why``:
        ``Game.submit``'s reason, the last word on what is legal). By default nothing:
        the refusal stands and stops the game, as the contract asks of a scripted seat
        (an answer the rules do not allow fails the game, never silently replaced).
        An agent of one's own plays a logged fallback instead (``agents.own_seat``)."""
        raise IllegalAnswer(why)

    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float] | None:
        """The seat's private probability that each other living player is a werewolf
        (the ``beliefs`` game option), or ``None`` when this agent gives none (the
        default: people, scripted seats). It must change nothing in how the agent
        plays. ``moment`` is the id of the decision pending when the question is put
        (the day's first vote), for the agent's records. Raising means the seat was
        asked and failed: its belief is recorded as missing (``BeliefFailed``)."""
        return None

    async def abeliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float] | None:
        """``beliefs`` for the async runner; model seats override it to wait without
        blocking the other seats."""
        return self.beliefs(view, moment)

    def notify(self, view: SeatView) -> None:
        """Called when new events reach the seat; most agents ignore it."""

    def close(self) -> None:
        """Release whatever the agent holds (connections, files)."""


class BlindAgent(Agent):
    """An agent whose answers depend on the decision alone, never on its view (the
    random bot). The sync runner asks it with ``answer`` and makes no ``SeatView`` for
    it: a view is the runner's one object per decision, ~2.5 K instructions made and
    freed, 6% of a random game that never reads it (issue 18).

    ``decide`` is ``answer``. A subclass whose ``decide`` reads the view overrides
    ``decide`` and is asked through it, with a view, again (``blind_answer``)."""

    @abstractmethod
    def answer(self, decision: Decision) -> Any:
        """Return an answer for ``decision``, as ``decide`` would with any view."""

    def decide(self, view: SeatView, decision: Decision) -> Any:
        return self.answer(decision)


def blind_answer(agent: Agent) -> Callable[[Decision], Any] | None:
    """``agent.answer`` when ``agent`` may be asked without a view: a ``BlindAgent``
    whose class keeps ``BlindAgent.decide`` (a subclass overriding ``decide`` may read
    its view); otherwise None."""
    if isinstance(agent, BlindAgent) and type(agent).decide is BlindAgent.decide:
        return agent.answer
    return None

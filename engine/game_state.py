"""A game's state as its rules see it, and the shape of those rules.

Following OpenSpiel's split between a state and what drives it: ``GameState`` is the
data of one game (the players, the day and phase, the options, the events emitted,
what each mechanic keeps) with the reads and writes every rule makes (``emit``,
``ask``, ``targets``...); ``engine.game.Game`` is the driver, which runs the
narrator's script (``engine.flow``) over it and takes the answers. The rules annotate
with the state, so no rule module names the driver and the driver alone imports the
rules: the engine's import graph has no cycle, ``if TYPE_CHECKING:`` imports counted.

The hooks' signatures (``DeathHook``...) and ``GameRules``, the hooks one game needs,
live here too: the state holds its ``GameRules`` and each hook takes the state, so
the two name each other and must share a module. The registries that fill them are in
``engine.roles.base``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Mapping

from engine.cards import ROLES
from engine.decisions import Decision, DecisionKind
from engine.events import PUBLIC, Audience, Event, EventData
from engine.options import RuleOptions
from engine.setup import GameSetup, deal
from engine.state import Death, Night, Parts

# A piece of the rules: a generator that yields batches of decisions and receives their
# answers (``{decision id: answer}``); ``yield from`` composes them (``engine.flow``).
Script = Generator[list[Decision], dict[int, Any], Any]


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




class GameState:
    """One game's data and the rules' reads and writes of it. Made from a
    ``GameSetup``: the seed's generator deals the cards. ``rules`` is set by the
    driver (``engine.game.Game``), which chooses the hooks from the roles' registries
    before its script starts."""

    # The state lives in slots, the driver's too (``engine.game.Game``). With more than
    # 30 attributes CPython (3.11) stops sharing a key table between instances and gives
    # each game a full dict, which makes every ``game.x`` of the rules dearer (about 3%
    # of a game). There is no ``__dict__``: what a mechanic keeps lives in its typed part
    # of ``memory`` (``engine.state``), the day powers' too
    # (``engine.flow.day_powers.HeldPowers``).
    __slots__ = (
        "setup", "preset", "options", "rng", "deck", "players", "by_name", "table", "center", "rules", "day", "phase",
        "events", "deaths", "sheriff", "lovers", "spared", "grief", "voteless", "night", "memory", "winner",
        "over", "winners", "end_reason", "_next_decision",
    )  # fmt: skip

    rules: GameRules

    def __init__(self, setup: GameSetup):
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
        self.day = 0
        self.phase = "setup"
        self.events: list[Event] = []
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
        self._next_decision = 0

    # ------------------------------------------------------------------ used by the rules
    def emit(self, data: EventData, audience: Audience = PUBLIC) -> Event:
        """Record that ``data`` (an event kind's payload) happened, seen by ``audience``
        (``PUBLIC``, ``NARRATOR`` or ``engine.events.private(...)``)."""
        ev = Event(len(self.events), self.day, self.phase, audience, data)
        self.events.append(ev)
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
        d = Decision(self._next_decision, seat, kind, kind.shape, options, allow_pass, count, {} if context is None else context)
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


# ---------------------------------------------------------------------- the rules' shape
StepFn = Callable[[GameState], Script]
When = Callable[[RuleOptions], bool]  # a rule option's switch: the hook or step exists under it


@dataclass(frozen=True, slots=True)
class NightStep:
    """One call of the narrator's night, placed by its ``name``: a game plays its steps in
    its preset's book order (``engine.night_order``, which quotes each book's call list),
    a step its book does not call where ``THE_NIGHT`` puts it.

    ``group`` lets steps that do not depend on each other be asked together: steps of
    the same group run in parallel (their decisions are pending at once). ``roles``:
    the step only exists in games whose deck holds one of them (empty: every game);
    ``when``: only under these options.
    """

    name: str
    run: StepFn
    active: Callable[[GameState], bool]
    first_night_only: bool = False
    group: str = ""
    roles: tuple[str, ...] = ()
    when: When | None = None
    later_nights_only: bool = False
    after: str = ""  # for a step ``engine.night_order`` does not list: the step of ``THE_NIGHT`` it follows


@dataclass(slots=True)
class Ballot:
    """Who the rules keep out of one round of the day's vote (``engine.roles.base.BALLOTS``): the flow
    makes it empty for each round, each hook adds to it (The Village: the
    Schoolmistress's pupils, the Tavernkeeper)."""

    barred: set[str] = field(default_factory=set)  # may not vote
    sheltered: set[str] = field(default_factory=set)  # may not be voted against
    first: list[str] = field(default_factory=list)  # vote first, alone, in public


# What each hook receives: see the registries in ``engine.roles.base``.
DeathHook = Callable[[GameState, Player, str], Script]
BatchHook = Callable[[GameState, list[tuple[Player, str]], list[tuple[str, str]]], None]
Resolver = Callable[[GameState], None]
DawnHook = Callable[[GameState], Script]
VictoryCheck = Callable[[GameState, list[Player]], tuple[str, str] | None]
Pardon = Callable[[GameState, str], Script]
SetupHook = Callable[[GameState], Script]
SheriffPool = Callable[[GameState], list[str] | None]
BallotHook = Callable[[GameState, Ballot], None]
Shelter = Callable[[GameState], frozenset[str]]
Plan = tuple[tuple[NightStep, ...], ...]  # a night: its step groups, in order


@dataclass(frozen=True, slots=True)
class GameRules:
    """The hooks one game needs, chosen once from its deck and options."""

    first_night: Plan
    later_nights: Plan
    before_victory: tuple[DeathHook, ...]
    after_victory: tuple[DeathHook, ...]
    on_batch: tuple[BatchHook, ...]
    resolvers: tuple[Resolver, ...]
    dawn: tuple[DawnHook, ...]
    victory: tuple[VictoryCheck, ...]
    pardons: tuple[Pardon, ...]
    opening_day: bool
    setup: tuple[SetupHook, ...] = ()
    sheriff_pools: tuple[SheriffPool, ...] = ()
    ballots: tuple[BallotHook, ...] = ()
    shelters: tuple[Shelter, ...] = ()
    before_dawn: tuple[DawnHook, ...] = ()

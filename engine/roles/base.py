"""Roles as data plus small hooks.

A role is a ``RoleSpec`` (id, camp, whether it wakes with the pack) and the hooks it
contributes: night steps, and functions the flow calls at fixed points (a death, the
dawn, the victory check...). The flow only knows these extension points, sorted by
their order; it never names a role, so adding a role means adding a module here, not
editing the loop.

Every hook says which roles make it relevant (``roles``; empty = always) and, where a
rule option switches it on, ``when(options)``. A game keeps only the hooks its deck and
options need (``rules_for``), so the base game pays nothing for the characters of the
other presets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

# The cards' data and the rules' shape, declared below the rules (``engine.cards``,
# ``engine.game_state``), re-exported here, where the roles register.
from engine.cards import (
    ROLES as ROLES,
    RoleSpec as RoleSpec,
    check_declared as check_declared,
    register_role as register_role,
)
from engine.night_order import NightOrder, full_order, place
from engine.game_state import (
    Ballot as Ballot,
    BallotHook as BallotHook,
    BatchHook as BatchHook,
    DawnHook as DawnHook,
    DeathHook as DeathHook,
    GameRules as GameRules,
    NightStep as NightStep,
    Pardon as Pardon,
    Plan as Plan,
    Resolver as Resolver,
    SetupHook as SetupHook,
    Shelter as Shelter,
    SheriffPool as SheriffPool,
    StepFn as StepFn,
    VictoryCheck as VictoryCheck,
    When as When,
)

if TYPE_CHECKING:  # pragma: no cover
    from engine.options import RuleOptions

VILLAGE = "village"
WEREWOLVES = "werewolves"
# Causes of death that are the wolves devouring (the pack, the Big Bad Wolf): what the
# Elder's extra life, the Protector's guard and the Rusty Knight's sword answer to.
DEVOURED = ("werewolves", "big_bad_wolf")


@dataclass(slots=True)
class Shielded:
    """The night's part: the attacked players a guard saved from the devouring tonight
    (the Protector's, ``engine.roles.protector``), whom the attack costs nothing (the
    Elder's lives, ``engine.roles.elder``). Declared here, not with the Protector: the
    Elder's module is registered first and may not import the Protector's."""

    players: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Hook:
    order: int
    fn: Callable[..., Any] | None  # its registry's signature (below); None for a marker (the opening day)
    roles: tuple[str, ...] = ()
    when: When | None = None

    def wanted(self, deck: frozenset[str], switches: dict[When, bool]) -> bool:
        if self.roles and not any(r in deck for r in self.roles):
            return False
        return self.when is None or switches[self.when]


NIGHT_STEPS: list[NightStep] = []


# Every ``when`` predicate of every hook and step: a game evaluates them once against
# its options, and the hooks are then chosen (and cached) by deck and these switches.
WHENS: list[When] = []


def _note_when(when: When | None) -> None:
    if when is not None and when not in WHENS:
        WHENS.append(when)
    _rules.cache_clear()
    _BY_GAME.clear()


def register_step(step: NightStep) -> NightStep:
    place(step.name, step.after)  # a step must have its place in the declared order: raises if not
    NIGHT_STEPS.append(step)
    NIGHT_STEPS.sort(key=lambda s: place(s.name, s.after))  # ``THE_NIGHT``'s order
    _RANKS.clear()
    _note_when(step.when)
    return step


# Each book's rank of every registered step (``night_steps``), made on first use.
_RANKS: dict[NightOrder, dict[str, int]] = {}


def _ranks(book: NightOrder) -> dict[str, int]:
    ranks = _RANKS.get(book)
    if ranks is None:
        night = tuple(dict.fromkeys(s.name for s in NIGHT_STEPS))
        ranks = _RANKS[book] = {name: i for i, name in enumerate(full_order(book, night))}
    return ranks


def night_steps(book: NightOrder) -> list[NightStep]:
    """Every registered step in the order a game under ``book`` plays them (its book's
    steps in its order, the others where ``THE_NIGHT`` puts them)."""
    ranks = _ranks(book)
    return sorted(NIGHT_STEPS, key=lambda s: ranks[s.name])


# ---------------------------------------------------------------------- hook registries
# Each list holds ``Hook``s sorted by order. What each hook function receives:
#   DEATH_HOOKS      fn(game, player, cause): generator; the last acts of the dead
#   BATCH_HOOKS      fn(game, fallen, queue): once a batch's deaths (grief included) are
#                    settled, before the last acts; may append more deaths to ``queue``
#   RESOLVERS        fn(game): at dawn, before the night's kills apply (guards, lives)
#   BEFORE_DAWN      fn(game): generator; at dawn once the night's kills are final, before
#                    they are told (a night victim's note, written before the night's deadline)
#   DAWN_HOOKS       fn(game): generator; after the dawn's deaths, if the game goes on
#   VICTORY_CHECKS   fn(game, alive) -> (winner, reason) or None: solitary goals,
#                    checked before the camps' conditions
#   PARDONS          fn(game, target): generator returning True when the vote's designated
#                    victim is not eliminated after all (the Idiot, the Castellan); every
#                    hook sees the designation until one pardons (the Tavernkeeper's vote)
#   SETUP_HOOKS      fn(game): generator; after the deal, before the first night or day
#   SHERIFF_POOLS    fn(game) -> list of names or None: who may elect and be the Sheriff
#                    when the rules narrow it (The Village's Farmers); None: no say
#   BALLOTS          fn(game, ballot): before each round of the day's vote, adds to the
#                    ``Ballot`` who may not vote, who may not be voted against and who
#                    votes first (The Village's Schoolmistress and Tavernkeeper)
#   SHELTERS         fn(game) -> names the pack may not devour tonight (the Tavernkeeper)
DEATH_HOOKS: list[tuple[Hook, bool]] = []
BATCH_HOOKS: list[Hook] = []
RESOLVERS: list[Hook] = []
BEFORE_DAWN: list[Hook] = []
DAWN_HOOKS: list[Hook] = []
VICTORY_CHECKS: list[Hook] = []
PARDONS: list[Hook] = []
OPENING_DAY: list[Hook] = []  # present: the game starts with a day (003, the Angel)
SETUP_HOOKS: list[Hook] = []
SHERIFF_POOLS: list[Hook] = []
BALLOTS: list[Hook] = []
SHELTERS: list[Hook] = []


def _add(registry: list[Any], hook: Hook | tuple[Hook, bool]) -> None:
    registry.append(hook)
    registry.sort(key=lambda h: h[0].order if isinstance(h, tuple) else h.order)
    _note_when((hook[0] if isinstance(hook, tuple) else hook).when)


def register_death_hook(
    order: int, fn: DeathHook, *, before_victory: bool = False, roles: tuple[str, ...] = (), when: When | None = None
) -> DeathHook:
    """``fn(game, player, cause)`` is a generator; it may ask decisions and kill.

    ``before_victory`` hooks are part of the death itself (the Hunter shoots "before
    giving up the ghost", 000), so they run before the game can end; the others (the
    Sheriff's successor) only matter if the game goes on."""
    _add(DEATH_HOOKS, (Hook(order, fn, roles, when), before_victory))
    return fn


def register_batch_hook(order: int, fn: BatchHook, *, roles: tuple[str, ...] = (), when: When | None = None) -> BatchHook:
    _add(BATCH_HOOKS, Hook(order, fn, roles, when))
    return fn


def register_resolver(order: int, fn: Resolver, *, roles: tuple[str, ...] = (), when: When | None = None) -> Resolver:
    _add(RESOLVERS, Hook(order, fn, roles, when))
    return fn


def register_before_dawn(order: int, fn: DawnHook, *, roles: tuple[str, ...] = (), when: When | None = None) -> DawnHook:
    _add(BEFORE_DAWN, Hook(order, fn, roles, when))
    return fn


def register_dawn_hook(order: int, fn: DawnHook, *, roles: tuple[str, ...] = (), when: When | None = None) -> DawnHook:
    _add(DAWN_HOOKS, Hook(order, fn, roles, when))
    return fn


def register_victory(order: int, fn: VictoryCheck, *, roles: tuple[str, ...] = (), when: When | None = None) -> VictoryCheck:
    _add(VICTORY_CHECKS, Hook(order, fn, roles, when))
    return fn


def register_opening_day(*, roles: tuple[str, ...] = (), when: When | None = None) -> None:
    """The game starts with a day instead of a night when one of ``roles`` is dealt."""
    _add(OPENING_DAY, Hook(0, None, roles, when))


def register_pardon(order: int, fn: Pardon, *, roles: tuple[str, ...] = (), when: When | None = None) -> Pardon:
    _add(PARDONS, Hook(order, fn, roles, when))
    return fn


def register_setup_hook(order: int, fn: SetupHook, *, roles: tuple[str, ...] = (), when: When | None = None) -> SetupHook:
    _add(SETUP_HOOKS, Hook(order, fn, roles, when))
    return fn


def register_sheriff_pool(order: int, fn: SheriffPool, *, roles: tuple[str, ...] = (), when: When | None = None) -> SheriffPool:
    _add(SHERIFF_POOLS, Hook(order, fn, roles, when))
    return fn


def register_ballot(order: int, fn: BallotHook, *, roles: tuple[str, ...] = (), when: When | None = None) -> BallotHook:
    _add(BALLOTS, Hook(order, fn, roles, when))
    return fn


def register_shelter(order: int, fn: Shelter, *, roles: tuple[str, ...] = (), when: When | None = None) -> Shelter:
    _add(SHELTERS, Hook(order, fn, roles, when))
    return fn


def _plan(steps: list[NightStep]) -> Plan:
    """Consecutive steps of one group run together; every other step alone."""
    plan: list[tuple[NightStep, ...]] = []
    for s in steps:
        if s.group and plan and plan[-1][0].group == s.group:
            plan[-1] = plan[-1] + (s,)
        else:
            plan.append((s,))
    return tuple(plan)


_BY_GAME: dict[tuple[tuple[str, ...], int, str], tuple[RuleOptions, GameRules]] = {}


def rules_for(deck: tuple[str, ...], options: RuleOptions, night: NightOrder) -> GameRules:
    """The hooks of a game with this deck (every card, set-aside ones included, as a
    sorted tuple), its night steps in the order of its preset's book (``night``).
    Built on every game, so the common case is one dict lookup: the options object of
    a preset is shared by its games."""
    key = (deck, id(options), night.book)
    hit = _BY_GAME.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    rules = _rules(frozenset(deck), tuple([bool(w(options)) for w in WHENS]), night)
    if len(_BY_GAME) > 4096:
        _BY_GAME.clear()
    _BY_GAME[key] = (options, rules)  # holding the options keeps their id unique
    return rules


@lru_cache(maxsize=512)
def _rules(deck: frozenset[str], switched: tuple[bool, ...], night: NightOrder) -> GameRules:
    switches = dict(zip(WHENS, switched))

    def keep(hooks: list[Hook]) -> tuple[Callable[..., Any], ...]:
        return tuple(h.fn for h in hooks if h.fn is not None and h.wanted(deck, switches))

    steps = [
        s
        for s in night_steps(night)
        if (not s.roles or any(r in deck for r in s.roles)) and (s.when is None or switches[s.when])
    ]
    return GameRules(
        first_night=_plan([s for s in steps if not s.later_nights_only]),
        later_nights=_plan([s for s in steps if not s.first_night_only]),
        before_victory=tuple(h.fn for h, before in DEATH_HOOKS if before and h.fn is not None and h.wanted(deck, switches)),
        after_victory=tuple(h.fn for h, before in DEATH_HOOKS if not before and h.fn is not None and h.wanted(deck, switches)),
        on_batch=keep(BATCH_HOOKS),
        resolvers=keep(RESOLVERS),
        dawn=keep(DAWN_HOOKS),
        victory=keep(VICTORY_CHECKS),
        pardons=keep(PARDONS),
        opening_day=any(h.wanted(deck, switches) for h in OPENING_DAY),
        setup=keep(SETUP_HOOKS),
        sheriff_pools=keep(SHERIFF_POOLS),
        ballots=keep(BALLOTS),
        shelters=keep(SHELTERS),
        before_dawn=keep(BEFORE_DAWN),
    )

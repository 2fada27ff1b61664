"""The Werewolves: the pack wakes, talks privately, and designates a victim (000 "Normal Turn" 2).

Every living wolf answers ``wolf_kill``; ``wolf_pack`` says how the answers resolve
(000: they must agree, else "there will be no death that night"). A Little Girl who
spies reads along without names (see ``engine.roles.little_girl``).

``wolf_pack: first_named`` (004 Article 5-A, the ``forum`` default): "the first Wolf PM
I receive that has a name on it will be the final kill decision for that Night". The
Host's inbox is modelled with the game's clock: the wolves are asked in turn (seat
order, starting one wolf later each night), each may send the name (final: the wolves
after him are not asked) or leave it to the next (null); the last may not, unless the
pack may pass or a silent pack pays for it (below).

``wolves_silent`` says what a pack that names nobody pays, every wolf having passed
(with a victim to name): nothing (``no_kill``); 001 en "If no werewolves open their eyes,
they die of hunger and the villagers win" (``starve``: every living wolf dies at dawn,
cause ``hunger``); 004 Article 5-B "If the Wolves fail to PM me by the deadline, one of
THEM will die instead" (``one_dies``: one wolf drawn by lot, cause ``deadline``). Either
makes passing legal for every wolf: keeping one's eyes shut is the choice.

``wolves_exposed_idle`` (001 zh glossary, 失业狼人, "an unemployed wolf": "某些规则下，狼人在
被村民发现后，无法继续杀害其他玩家"): a werewolf the Seer has seen is found out; from the
next night he still wakes and talks with the pack but has no say in the kill."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, TypedDict

from engine.decisions import CHOICE, TEXT, decision
from engine.events import OMIT, Audience, EventData, Name, Names, Said, event, private
from engine.flow.common import Script
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

class WolfChatContext(TypedDict, total=False):
    round: int  # which round of tonight's talk (``wolf_chat_rounds``)
    wolves: list[str]  # the pack tonight, in seat order
    victims: list[str]  # whom this wolf may propose: tonight's legal victims, as his ``wolf_kill`` will offer them
    little_girl: bool  # the deck holds a Little Girl (public: ``game_start``), so a spy may read the talk


class WolfKillContext(TypedDict, total=False):
    attempt: int  # which attempt at agreeing tonight (``wolf_kill_rounds``)
    caught: str | None  # the Little Girl the pack caught spying tonight, if any
    idle: bool  # this wolf is found out (``wolves_exposed_idle``): no say tonight
    turn: int  # ``first_named``: this wolf's place in tonight's order (1: the first asked)
    order: list[str]  # ``first_named``: tonight's order, the wolves with a say
    rule: str  # how the answers resolve (``wolf_pack``), so the question can say what a split costs
    attempts: int  # how many attempts the pack has tonight (``wolf_kill_rounds``, at least 1)
    silent: str  # what a pack naming nobody pays (``wolves_silent``)


WOLF_CHAT = decision("wolf_chat", TEXT, context=WolfChatContext, unmeasured="the pack's talk")
WOLF_KILL = decision(
    "wolf_kill",
    CHOICE,
    context=WolfKillContext,
    unmeasured="the pack's kill: its options are humans, the wolves know who is who",
)


# ---------------------------------------------------------------------- the pack's events
@event("wolf_pack")
class WolfPack(EventData):
    """A wolf is told who the pack is (when it changes: the first night, a conversion)."""

    wolves: Names


@event("wolf_chat")
class WolfChat(EventData):
    """One wolf's words to the pack; ``target`` is the victim he proposes, when he names one."""

    speaker: Name
    text: Said
    round: int
    target: Annotated[Name | None, OMIT] = None


@event("wolf_votes")
class WolfVotes(EventData):
    """Each wolf's pick in one attempt (None: he passed). Under ``first_named`` only the
    wolves asked before the first name."""

    votes: dict[str, str | None]
    attempt: int


@event("wolf_victim")
class WolfVictim(EventData):
    """The pack's victim tonight (None: nobody)."""

    target: Name | None


@event("hypnotised")
class Hypnotised(EventData):
    """The pack's victim is hypnotised instead of devoured (``wolves_hypnotise``): told to them."""

    player: Name


# ------------------------------------------------- what a spying Little Girl reads and risks
@dataclass(slots=True)
class Spies:
    """The Little Girls spying on the pack tonight (a night part): written by her step
    (``engine.roles.little_girl``) before the pack wakes, read by the pack's step, which
    routes the overheard talk and draws the catch. Declared here, where the spying is
    played out: the Little Girl's module imports it (importing hers from here would
    register her role before the Seer's and reorder ``ROLES``)."""

    names: list[str] = field(default_factory=list)


@event("wolf_chat_overheard")
class WolfChatOverheard(EventData):
    """A spying Little Girl reads a wolf's words, without the speaker's name."""

    text: Said
    round: int


@event("wolf_votes_overheard")
class WolfVotesOverheard(EventData):
    """A spying Little Girl sees the names the wolves picked (sorted), not who picked them."""

    targets: Names
    attempt: int


@event("wolf_victim_overheard")
class WolfVictimOverheard(EventData):
    """A spying Little Girl sees the pack's victim (None: nobody)."""

    target: Name | None


@event("little_girl_caught")
class LittleGirlCaught(EventData):
    """The pack catches a spying Little Girl: the wolves and she learn it."""

    player: Name


@dataclass(slots=True)
class PackMemory:
    """The pack as its members were last told it (``wolf_pack``): told again when it changes."""

    wolves: list[str] | None = None

WEREWOLF = register_role(
    RoleSpec(
        id="werewolf",
        name="Werewolf",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="Each night you and the other werewolves choose a villager to devour. By day, pass yourself off as a villager.",
        decisions=(WOLF_CHAT, WOLF_KILL),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _active(game: GameState) -> bool:
    for p in game.players:  # ``bool(game.wolves())`` without building the list, every night
        if p.alive and p.is_wolf:
            return True
    return False


def _deck_has(game: GameState, role: str) -> bool:
    """Whether the public deck (``game_start``'s ``roles_in_play``: the dealt cards and
    the set-aside ones) holds ``role``: what every seat may know of the game's cards."""
    return role in game.center or any(p.initial_role == role for p in game.players)


def _resolve(game: GameState, picks: list[str | None]) -> tuple[bool, str | None]:
    """(decided, victim). ``None`` picks are a wolf declining to kill."""
    rule = game.options.wolf_pack
    n = len(picks)
    if rule == "unanimous":
        return (True, picks[0]) if len(set(picks)) == 1 else (False, None)
    if rule == "majority":
        for target, c in Counter(picks).items():
            if c * 2 > n:
                return True, target
        return False, None
    real = Counter(p for p in picks if p is not None)
    if not real:
        return True, None
    top = max(real.values())
    leaders = sorted(t for t, c in real.items() if c == top)
    return True, (leaders[0] if len(leaders) == 1 else game.rng.choice(leaders))


@dataclass(slots=True)
class Exposed:
    """Memory: the wolves the Seer has found out (``wolves_exposed_idle``, marked by
    ``engine.roles.seer``), each with the night he was found."""

    found: dict[str, int] = field(default_factory=dict)


def idle(game: GameState) -> tuple[str, ...]:
    """The wolves found out before tonight (``wolves_exposed_idle``): no say in the kill."""
    exposed = game.memory.peek(Exposed)
    return tuple(w for w, night in exposed.found.items() if night < game.day) if exposed else ()


@dataclass(slots=True)
class _Hunt:
    """Tonight's pack, as each way of naming its victim (``wolf_pack``) needs it."""

    pack: list[str]  # the living wolves, in seat order
    shelter: tuple[str, ...]  # whom the wolves may not devour (The Village's Tavernkeeper)
    caught: str | None  # the Little Girl the pack caught spying tonight
    may_pass: bool  # whether every wolf may name nobody
    audience: Audience  # the pack's
    spies: Audience | None  # the spying Little Girls' (None: nobody spies)


def victims(game: GameState, wolf: str, pack: list[str], shelter: tuple[str, ...]) -> tuple[str, ...]:
    """Whom ``wolf`` may name as the pack's victim tonight: the living, never himself nor
    his beloved (``Game.targets``), nor whom the wolves may not devour (``shelter``), nor
    a packmate unless ``wolves_may_kill_wolf``. One rule for the kill's options and the
    talk's proposals (``WolfChatContext.victims``), so a person is offered the same names
    in both."""
    return game.targets(wolf, exclude=shelter if game.options.wolves_may_kill_wolf else (*pack, *shelter))


def _tell_votes(game: GameState, hunt: _Hunt, votes: dict[str, str | None], attempt: int) -> None:
    """The picks to the pack, and their names without the wolves to the spies."""
    game.emit(WolfVotes(votes, attempt), hunt.audience)
    if hunt.spies is not None:
        game.emit(WolfVotesOverheard(sorted(p for p in votes.values() if p), attempt), hunt.spies)


def _together(game: GameState, hunt: _Hunt) -> Script:
    """Every wolf at once, ``wolf_kill_rounds`` attempts, resolved by ``wolf_pack``.
    Returns (victim, whether every wolf with a say passed)."""
    opts = game.options
    pack, shelter, caught, may_pass = hunt.pack, hunt.shelter, hunt.caught, hunt.may_pass
    victim, silent = None, False
    out_of_work = idle(game) if opts.wolves_exposed_idle else ()
    attempts = max(1, opts.wolf_kill_rounds)
    for attempt in range(1, attempts + 1):
        decisions = []
        # Without Lovers (``game.spared``) and with the pack off limits, every wolf has
        # the same choice: it is worked out once for the pack.
        shared = victims(game, pack[0], pack, shelter) if pack and not opts.wolves_may_kill_wolf and not game.spared else None
        # One context an attempt (``Decision.context``); an idle wolf is told so in his own.
        context = {"attempt": attempt, "caught": caught, "rule": opts.wolf_pack, "attempts": attempts, "silent": opts.wolves_silent}
        for w in pack:
            options = shared if shared is not None else victims(game, w, pack, shelter)
            told = context
            if w in out_of_work:
                options, told = (), {**context, "idle": True}
            decisions.append(game.ask(w, WOLF_KILL, options, told, may_pass or not options))
        answers = yield decisions
        picks = [answers[d.id] for d in decisions]
        _tell_votes(game, hunt, dict(zip(pack, picks)), attempt)
        # A wolf with nobody he may attack (only his beloved is left outside the pack)
        # has no say: counting his forced pass would stop a unanimous pack forever.
        voting = [pick for d, pick in zip(decisions, picks) if d.options]
        decided, victim = _resolve(game, voting) if voting else (True, None)
        silent = bool(voting) and all(pick is None for pick in voting)
        if decided:
            break
    return victim, silent


def _first_named(game: GameState, hunt: _Hunt) -> Script:
    """004 5-A: the wolves in turn, the first name final (the later wolves are not
    asked). Returns (victim, whether every wolf with a say passed)."""
    opts = game.options
    pack, shelter = hunt.pack, hunt.shelter
    start = (game.day - 1) % len(pack)
    out_of_work = idle(game) if opts.wolves_exposed_idle else ()
    order = [w for w in pack[start:] + pack[:start] if w not in out_of_work]
    picks: dict[str, str | None] = {}
    victim, had_say = None, False
    for i, w in enumerate(order):
        options = victims(game, w, pack, shelter)
        had_say = had_say or bool(options)
        last = i == len(order) - 1
        context = {"attempt": 1, "caught": hunt.caught, "turn": i + 1, "order": list(order), "rule": "first_named", "attempts": 1, "silent": opts.wolves_silent}
        d = game.ask(w, WOLF_KILL, options, context, hunt.may_pass or not last or not options)
        victim = picks[w] = (yield [d])[d.id]
        if victim is not None:
            break
    _tell_votes(game, hunt, picks, 1)
    return victim, victim is None and had_say


def _silence(game: GameState, pack: list[str]) -> None:
    """``wolves_silent``: the pack named nobody, every wolf passing."""
    rule = game.options.wolves_silent
    if rule == "starve":
        for w in pack:
            game.night.kills.append((w, "hunger"))
    elif rule == "one_dies":
        game.night.kills.append((game.rng.choice(pack), "deadline"))


def _run(game: GameState) -> Script:
    # Run every night: the payloads are built with positional arguments.
    opts = game.options
    night = game.night
    pack = [p.name for p in game.players if p.alive and p.is_wolf]  # ``game.wolves()``' names
    pack_audience = frozenset(pack)  # ``private(*pack)``, without caching a set per pack
    told = game.memory.of(PackMemory)
    if told.wolves != pack:
        told.wolves = pack
        for w in pack:
            game.emit(WolfPack(list(pack)), private(w))
    spying = night.peek(Spies)
    spies = spying.names if spying is not None else []
    spy_audience = private(*spies) if spies else None

    # The Village: "The Werewolves do not devour" the Tavernkeeper.
    shelter = tuple([n for hook in game.rules.shelters for n in hook(game)]) if game.rules.shelters else ()
    if len(pack) >= 2 and opts.wolf_chat_rounds:
        girl = _deck_has(game, "little_girl")
        # Without Lovers and with the pack off limits every wolf may propose the same names.
        shared = list(victims(game, pack[0], pack, shelter)) if not opts.wolves_may_kill_wolf and not game.spared else None
        for rnd in range(1, opts.wolf_chat_rounds + 1):
            context = {"round": rnd, "wolves": list(pack), "little_girl": girl, "victims": shared}  # one a round (``Decision.context``)
            for w in pack:
                mine = context if shared is not None else {**context, "victims": list(victims(game, w, pack, shelter))}
                d = game.ask(w, WOLF_CHAT, (), mine)
                said = (yield [d])[d.id]  # ``ask_one`` inlined: one round trip per wolf and night
                if isinstance(said, dict):
                    text = said.get("text", "")
                    game.emit(WolfChat(w, text, rnd, said.get("target") or None), pack_audience)
                else:
                    text = said
                    game.emit(WolfChat(w, text, rnd), pack_audience)
                if spy_audience is not None:
                    game.emit(WolfChatOverheard(text, rnd), spy_audience)

    caught = None
    if spies and game.rng.random() < opts.little_girl_catch_chance:
        caught = spies[0]
        game.emit(LittleGirlCaught(caught), private(*pack, caught))
        if opts.little_girl_caught == "dies":
            night.kills.append((caught, "werewolves"))
            night.attacked.append(caught)
            night.wolf_victim = caught
            game.emit(WolfVictim(caught), pack_audience)
            return

    may_pass = opts.wolves_may_pass or opts.wolves_silent != "no_kill"
    pick_victim = _first_named if opts.wolf_pack == "first_named" else _together
    hunt = _Hunt(pack, shelter, caught, may_pass, pack_audience, spy_audience)
    victim, silent = yield from pick_victim(game, hunt)
    game.emit(WolfVictim(victim), pack_audience)
    if spy_audience is not None:
        game.emit(WolfVictimOverheard(victim), spy_audience)
    if victim is not None:
        night.kills.append((victim, "werewolves"))
        night.attacked.append(victim)
    elif silent and opts.wolves_silent != "no_kill":
        _silence(game, pack)
    night.wolf_victim = victim


register_step(NightStep(name="werewolves", run=_run, active=_active, group="night_main"))


# ---------------------------------------------------------------------- a 狼人杀 variant
def _hypnotise(game: GameState) -> Script:
    """Lycanthropic Fascination (001 zh, option ``wolves_hypnotise``): "每一个晚上，狼人
    睁眼指定一名玩家，该玩家并不会死掉，而是被催眠，失去他原有的能力（和普通村民无异）…法官用手
    轻碰该玩家的头，告诉这名玩家，他被催眠了" -- the pack's victim does not die but loses
    the power of their card for good, and is told so."""
    night = game.night
    victim = night.wolf_victim
    if victim is None:
        return
    night.kills = [(n, c) for n, c in night.kills if not (n == victim and c == "werewolves")]
    night.attacked = [n for n in night.attacked if n != victim]
    game.by_name[victim].powerless = True
    game.emit(Hypnotised(victim), private(victim))
    return
    yield


register_step(
    NightStep(
        name="hypnosis",
        run=_hypnotise,
        active=lambda game: game.night.wolf_victim is not None,
        when=lambda o: o.wolves_hypnotise,
    )
)

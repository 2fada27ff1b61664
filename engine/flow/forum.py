"""Message-board Werewolf (004): the Day's public, changeable lynch votes, phantom votes,
cancelled lynchings, day-time powers, and the humans' morning victory.

004 "Official Rules", Subsection 1: votes are public ("Your vote MUST be publicly posted
in the thread"), may be changed "before Sundown arrives", a player may vote for
themself, and "a refusal to vote will earn them a Phantom vote for the next day".
Subsection 2: "A PV holds the same amount of power as one vote cast against you by an
actual player"; "In the event that a lynching is cancelled, all Phantom Votes that were
allocated for that day will instead carry over to the next Day phase that lynch votes
are tallied on."

The thread's hours of posting become rounds: everyone votes (``vote``, null refuses),
then ``vote_changes`` times every living player may change their vote (``vote_change``,
null keeps it), each change posted publicly; then the host's Sundown post and the tally.

Day-time powers (the Vigilante's shot, the Priest's revival) register here and are
offered after the debate, before the votes, in any preset whose deck holds them.

Two of the Host's procedures that hang on real time are played on the game's clock.
Subsection 2, Article 2 ("Phantom Votes can be used to reprimand those who do not
follow the rules") with Subsection 3, Article 7 ("If it can be proven a player has
impersonated another, THREE Phantom Votes shall be placed on their head"): the Host
reads the thread at Sundown, before the tally; each public speech since his last
reading, by a living player, holding a line written as the game's own text
(``engine.impersonation``) earns its author ``impersonation_phantoms`` phantom votes,
counted in that tally (a public ``reprimand``). The Unknown Celebrity's "some hosts
will extend the Sundown deadline to give the players more time to discuss things":
``celebrity_sundown_rounds`` more rounds of debate on the day whose lynching the
newspaper cancelled (a public ``sundown_extended`` before the debate).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from engine.decisions import CHOICE, decision
from engine.events import PUBLIC, EventData, Name, Names, Said, event
from engine.flow.common import Script, ask
from engine.flow.day_powers import DAY_POWERS, day_powers, register_day_power  # noqa: F401
from engine.flow.deaths import kill_batch
from engine.flow.victory import end_game
from engine.flow.voting import VOTE, Eliminated, NoElimination, TieBroken, VoteContext, VoteResult, ballot, day_vote, leaders_of
from engine.impersonation import impersonating_line
from engine.roles.base import register_dawn_hook, register_opening_day, register_resolver
from engine.speech import Speech
from engine.game_state import GameState


class VoteChangeContext(TypedDict, total=False):
    round: int  # which of the ``vote_changes`` rounds of changes this is
    current: str | None  # the seat's vote standing now (None: a refusal)
    votes: dict[str, str | None]  # every voter's vote standing now


VOTE_CHANGE = decision("vote_change", CHOICE, context=VoteChangeContext, unmeasured="a vote: the votes metric")


@event("lynch_cancelled")
class LynchCancelled(EventData):
    """Day ``day`` has no lynching (the Unknown Celebrity's news); the phantom votes
    due today carry over to the next tally (``carried``, by player)."""

    day: int
    carried: dict[str, int]


@event("votes_cast")
class VotesCast(EventData):
    """Every voter's first vote, posted in the thread (None: a refusal)."""

    votes: dict[str, str | None]


@event("vote_change")
class VoteChanged(EventData):
    """``voter`` changes their vote from ``previous`` (None: a refusal) to ``target``."""

    voter: Name
    previous: Name | None
    target: Name
    round: int


@event("sundown")
class Sundown(EventData):
    """The host's Sundown post: day ``day``'s votes are final."""

    day: int


@event("phantom_votes")
class PhantomVotes(EventData):
    """``players`` refused to vote on day ``day``: each earns a phantom vote against
    themself at the next tally."""

    players: Names
    day: int


@event("reprimand")
class Reprimand(EventData):
    """At day ``day``'s Sundown the Host places ``votes`` phantom votes on ``player``
    for breaking a rule (``reason``: ``impersonation``, 004 Article 7; ``line``: the
    proof, the player's own line written as the game's text), counted in that tally."""

    player: Name
    votes: int
    reason: str
    day: int
    line: Said


@event("sundown_extended")
class SundownExtended(EventData):
    """The Host extends day ``day``'s Sundown, whose lynching is cancelled, by ``rounds``
    more rounds of debate (004, the Unknown Celebrity)."""

    day: int
    rounds: int


@dataclass(slots=True)
class Phantoms:
    """The phantom votes to be counted at the next tally, by player (004)."""

    due: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class LynchCall:
    """Memory, made by the first cancelled lynching (the Unknown Celebrity devoured,
    ``engine.roles.unknown_celebrity``): the last day whose lynching is off. While it
    exists, every day's vote goes through ``lynch``."""

    cancelled: int = 0


@dataclass(slots=True)
class HostReading:
    """How far the Host has read the thread for reprimands: the events before
    ``upto`` (a count of ``game.events``) are read."""

    upto: int = 0


def lynch_cancelled(game: GameState) -> bool:
    """Today's lynching is cancelled (the Unknown Celebrity's news this morning)."""
    call = game.memory.peek(LynchCall)
    return call is not None and call.cancelled == game.day


def sundown_extension(game: GameState) -> int:
    """The rounds of debate the Host adds today: ``celebrity_sundown_rounds`` on a day
    whose lynching is cancelled (announced here, before the debate), else none."""
    extra = game.options.celebrity_sundown_rounds
    if extra and lynch_cancelled(game):
        game.emit(SundownExtended(game.day, extra), PUBLIC)
        return extra
    return 0


def lynch(game: GameState) -> Script:
    """The day's lynching: cancelled (the Unknown Celebrity), the forum's open vote, or
    the table's vote."""
    opts = game.options
    if lynch_cancelled(game):
        phantoms = game.memory.peek(Phantoms)
        game.emit(LynchCancelled(game.day, dict(phantoms.due) if phantoms else {}), PUBLIC)
        return
    if opts.vote_changes or opts.phantom_votes or opts.impersonation_phantoms:
        yield from forum_vote(game)
    else:
        yield from day_vote(game)


def reprimands(game: GameState) -> dict[str, int]:
    """The Host reads the thread since his last reading (004 Articles 2 and 7): each
    public speech by a living player holding a line written as the game's own text
    earns its author ``impersonation_phantoms`` phantom votes, announced now (one
    ``reprimand`` per speech). The phantom votes placed, by player."""
    per = game.options.impersonation_phantoms
    reading = game.memory.of(HostReading)
    events = game.events
    start, reading.upto = reading.upto, len(events)
    placed: dict[str, int] = {}
    by_name = game.by_name
    for e in events[start : reading.upto]:
        data = e.data
        if isinstance(data, Speech) and e.audience == PUBLIC and by_name[data.speaker].alive:
            line = impersonating_line(data.text)
            if line is not None:
                game.emit(Reprimand(data.speaker, per, "impersonation", game.day, line), PUBLIC)
                placed[data.speaker] = placed.get(data.speaker, 0) + per
    return placed


def _legal(game: GameState, voter: str, pool: list[str], sheltered: tuple[str, ...] = ()) -> tuple[str, ...]:
    spare = game.vote_spares(voter) if game.spared else ()
    if sheltered:  # The Village's buildings on a forum game: the Tavernkeeper's immunity
        spare = (*spare, *sheltered)
    skip = None if game.options.vote_self else voter
    return tuple([n for n in pool if n != skip and n not in spare])


def forum_vote(game: GameState) -> Script:
    opts = game.options
    game.phase = "vote"
    alive = game.alive_names()
    limits = ballot(game)  # The Village's buildings on a forum game (who votes first: not here)
    barred = limits.barred if limits is not None else ()
    sheltered = tuple(limits.sheltered) if limits is not None else ()
    if game.voteless or barred:  # a revealed Idiot; the Schoolmistress's pupils
        voters = [n for n in alive if n not in game.voteless and n not in barred]
    else:
        voters = alive
    context: VoteContext = {"round": 1, "candidates": None}  # the voters' one (``Decision.context``)
    decisions = [game.ask(v, VOTE, _legal(game, v, alive, sheltered), context, True) for v in voters]
    picks = (yield from ask(*decisions)) if decisions else []
    current = dict(zip(voters, picks))
    game.emit(VotesCast(dict(current)), PUBLIC)
    for rnd in range(1, opts.vote_changes + 1):
        changes = [
            game.ask(v, VOTE_CHANGE, _legal(game, v, alive, sheltered), {"round": rnd, "current": current[v], "votes": dict(current)}, True)
            for v in voters
            if game.by_name[v].alive
        ]
        answers = (yield from ask(*changes)) if changes else []
        for d, new in zip(changes, answers):
            if new is not None and new != current[d.seat]:
                game.emit(VoteChanged(d.seat, current[d.seat], new, rnd), PUBLIC)
                current[d.seat] = new
    game.phase = "dusk"
    game.emit(Sundown(game.day), PUBLIC)
    phantoms = game.memory.of(Phantoms)
    due = {n: k for n, k in phantoms.due.items() if game.by_name[n].alive}
    if opts.impersonation_phantoms:
        for name, k in reprimands(game).items():
            due[name] = due.get(name, 0) + k
    counts: dict[str, int] = {}
    for voter, target in current.items():
        if target is not None:
            w = 2 if opts.sheriff_double_vote and voter == game.sheriff else 1
            counts[target] = counts.get(target, 0) + w
    for name, k in due.items():
        counts[name] = counts.get(name, 0) + k
    # New phantom votes for refusing: they count the next day.
    nxt: dict[str, int] = {}
    if opts.phantom_votes:
        for voter, target in current.items():
            if target is None:
                nxt[voter] = nxt.get(voter, 0) + 1
        if nxt:
            game.emit(PhantomVotes(sorted(nxt), game.day), PUBLIC)
    phantoms.due = nxt
    leaders = leaders_of(counts)
    game.emit(VoteResult(1, dict(current), counts, leaders, game.sheriff, due), PUBLIC)
    target = None
    if len(leaders) == 1:
        target = leaders[0]
    elif leaders:
        if opts.tie == "random":
            target = game.rng.choice(sorted(leaders))
            game.emit(TieBroken(None, target, "lot"), PUBLIC)
        elif opts.tie == "revote":
            context = {"round": 2, "candidates": leaders}
            decisions = [game.ask(v, VOTE, _legal(game, v, leaders, sheltered), context, True) for v in voters]
            picks = (yield from ask(*decisions)) if decisions else []
            again: dict[str, int] = {}
            for t in picks:
                if t is not None:
                    again[t] = again.get(t, 0) + 1
            top = leaders_of(again)
            game.emit(VoteResult(2, dict(zip(voters, picks)), again, top, game.sheriff), PUBLIC)
            if len(top) == 1:
                target = top[0]
    if target is None:
        game.emit(NoElimination("tie" if leaders else "no votes"), PUBLIC)
        return
    for pardon in game.rules.pardons:
        if (yield from pardon(game, target)):
            return
    game.emit(Eliminated(target), PUBLIC)
    yield from kill_batch(game, [(target, "vote")])


# ------------------------------------------------------------------ the humans' morning
@dataclass(slots=True)
class QuietDawn:
    """How many had died when the night's deaths were about to be told (this night)."""

    deaths_before: int = 0


def _mark_dawn(game: GameState) -> None:
    game.night.of(QuietDawn).deaths_before = len(game.deaths)


def _quiet_dawn(game: GameState) -> Script:
    """004: "the Wolves are confirmed all dead by the remaining Humans waking up in the
    morning to find nobody died the previous night (Human victory)"."""
    mark = game.night.peek(QuietDawn)
    if mark is not None and len(game.deaths) == mark.deaths_before and not game.wolves():
        end_game(game, "village", "a morning without a death, every wolf dead")
    return
    yield


register_resolver(0, _mark_dawn, when=lambda o: o.village_wins_at_quiet_dawn)
register_dawn_hook(0, _quiet_dawn, when=lambda o: o.village_wins_at_quiet_dawn)
register_opening_day(when=lambda o: o.opening_day)

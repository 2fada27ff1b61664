"""Counting votes: the day's elimination and the Sheriff's election.

000 step 6: relative majority; the Sheriff's vote counts double; on a tie "the
Sheriff's vote designates the victim. Otherwise, the players vote again ... If there is
still a tie, no player is eliminated." The other books' readings are options
(``tie``, ``sheriff_tiebreak``, ``sheriff_tiebreak_may_void``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from engine.decisions import CHOICE, decision
from engine.events import OMIT, PUBLIC, EventData, Name, Names, event
from engine.flow.common import Script, ask, ask_one
from engine.flow.deaths import kill_batch
from engine.flow.sheriff import SheriffElected, SheriffElection
from engine.roles.base import Ballot
from engine.game_state import GameState


class VoteContext(TypedDict, total=False):
    round: int  # 1, or 2 for the revote among the tied
    candidates: list[str] | None  # the tied players of a revote (None: anyone may be named)


class SheriffTiebreakContext(TypedDict, total=False):
    tied: list[str]  # the players the vote left tied


class SheriffVoteContext(TypedDict, total=False):
    round: int  # 1, or 2 for the revote among the tied


SHERIFF_TIEBREAK = decision("sheriff_tiebreak", CHOICE, context=SheriffTiebreakContext, unmeasured="a vote's tie, among the tied")
SHERIFF_VOTE = decision("sheriff_vote", CHOICE, context=SheriffVoteContext, unmeasured="an election, not a power")
VOTE = decision("vote", CHOICE, context=VoteContext, unmeasured="a vote: the votes metric")


@event("first_vote")
class FirstVote(EventData):
    """A vote cast alone, before the others' (The Village's Tavernkeeper); None: an abstention."""

    voter: Name
    target: Name | None
    round: int


@event("vote_result")
class VoteResult(EventData):
    """A vote's count: every voter's pick (None: an abstention), the votes each player
    received (the Sheriff's doubled, the extra votes added), the leaders and the
    Sheriff. ``phantoms``: the forum's phantom votes counted in the first round
    (004), absent from the table's votes."""

    round: int
    votes: dict[str, str | None]
    tally: dict[str, int]
    leaders: Names
    sheriff: Name | None
    phantoms: Annotated[dict[str, int] | None, OMIT] = None


@event("extra_votes")
class ExtraVotes(EventData):
    """Votes the count added by itself (the Raven's poster), by player."""

    votes: dict[str, int]


@dataclass(slots=True)
class VotesDue:
    """Memory: votes the next count adds by itself, by player (000 The Village, the
    Raven's poster, ``engine.roles.raven``), forgotten once counted."""

    votes: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class EarlyVotes:
    """Memory: the votes cast first and alone on ``day`` (The Village's Tavernkeeper,
    ``engine.buildings.tavernkeeper``, whose token a designation spends), by voter, one
    pick a round (None: an abstention)."""

    day: int = 0
    picks: dict[str, list[str | None]] = field(default_factory=dict)


@event("tie_broken")
class TieBroken(EventData):
    """A tied vote settled: by the Sheriff (``by``; rule ``his_vote`` or ``choose``, where
    ``target`` None spares everyone) or by lot (``by`` None, rule ``lot``)."""

    by: Name | None
    target: Name | None
    rule: str


@event("no_elimination")
class NoElimination(EventData):
    """The day's vote eliminates nobody: ``tie`` or ``no votes``."""

    reason: str


@event("eliminated")
class Eliminated(EventData):
    """The vote eliminates ``player`` (the death follows, unless a pardon stops it)."""

    player: Name


@event("sheriff_votes")
class SheriffVotes(EventData):
    """A round of the Sheriff's election: every voter's pick, the count, the leaders."""

    round: int
    votes: dict[str, str | None]
    tally: dict[str, int]
    leaders: Names


def tally(game: GameState, voters: list[str], picks: list[Any], double: bool) -> dict[str, int]:
    counts: dict[str, int] = {}
    for voter, target in zip(voters, picks):
        if target is None:
            continue
        w = 2 if double and voter == game.sheriff else 1
        counts[target] = counts.get(target, 0) + w
    return counts


def leaders_of(counts: dict[str, int]) -> list[str]:
    if not counts:
        return []
    top = max(counts.values())
    return [t for t, c in counts.items() if c == top]


def _all_but(names: tuple[str, ...], name: str | None) -> tuple[str, ...]:
    """``names`` without ``name``: two slices around its place (names are unique), which
    is cheaper than filtering the pool again for each of the voters."""
    if name is None or name not in names:
        return names
    i = names.index(name)
    return names[:i] + names[i + 1 :]


def ballot(game: GameState) -> Ballot | None:
    """Who the rules keep out of this round of the vote (``BALLOTS``: The Village), or
    None in a game without such rules."""
    hooks = game.rules.ballots
    if not hooks:
        return None
    found = Ballot()
    for hook in hooks:
        hook(game, found)
    return found


def _vote_round(game: GameState, candidates: list[str] | None, rnd: int) -> Script:
    opts = game.options
    alive = game.alive_names()
    pool = alive if candidates is None else [n for n in alive if n in candidates]
    limits = ballot(game)
    if limits is not None and limits.sheltered:  # The Village: "the villagers cannot vote against" the Tavernkeeper
        pool = [n for n in pool if n not in limits.sheltered]
    # A revealed Idiot keeps his seat but not his vote; the Schoolmistress's pupils
    # lose theirs for the day.
    barred = limits.barred if limits is not None else ()
    if game.voteless or barred:
        voters = [n for n in alive if n not in game.voteless and n not in barred]
    else:
        voters = alive
    spared = game.spared if game.spared and not opts.lovers_may_target_each_other else None
    decisions = []
    everyone = tuple(pool)
    context = {"round": rnd, "candidates": candidates}  # the voters' one (``Decision.context``)
    for v in voters:
        # Same legality as ``game.targets`` (never oneself unless allowed, never the
        # beloved), computed from one pool: this runs for every voter of every vote.
        spare = spared.get(v, ()) if spared else ()
        if spare:
            skip = None if opts.vote_self else v
            legal = tuple([n for n in pool if n != skip and n not in spare])
        else:
            legal = _all_but(everyone, None if opts.vote_self else v)
        decisions.append(game.ask(v, VOTE, legal, context, opts.allow_abstain or not legal))
    first_voters = limits.first if limits is not None else ()
    first = [d for d in decisions if d.seat in first_voters] if first_voters else None
    if first:
        # The Village: the Tavernkeeper "always votes alone, before the others".
        early = yield from ask(*first)
        mine = game.memory.of(EarlyVotes)
        if mine.day != game.day:
            mine.day, mine.picks = game.day, {}
        for d, pick in zip(first, early):
            game.emit(FirstVote(d.seat, pick, rnd), PUBLIC)
            mine.picks.setdefault(d.seat, []).append(pick)
        rest = [d for d in decisions if d not in first]
        late = (yield from ask(*rest)) if rest else []
        by_seat = dict(zip([d.seat for d in first], early)) | dict(zip([d.seat for d in rest], late))
        picks = [by_seat[v] for v in voters]
    elif decisions:
        answers = yield decisions  # ``ask`` inlined: every vote
        picks = [answers[d.id] for d in decisions]
    else:
        picks = []
    counts = tally(game, voters, picks, opts.sheriff_double_vote)
    if rnd == 1 and game.memory.peek(VotesDue) is not None:
        _add_extra_votes(game, counts, alive)  # the poster may hang on the tavern
    leaders = leaders_of(counts)
    votes = dict(zip(voters, picks))
    game.emit(VoteResult(rnd, votes, counts, leaders, game.sheriff), PUBLIC)
    return votes, leaders


def _add_extra_votes(game: GameState, counts: dict[str, int], pool: list[str]) -> None:
    """Votes the count adds by itself (000 The Village, the Raven's poster: "2 extra votes
    against them at the next vote count"), spent by the first count of the next vote."""
    due = game.memory.drop(VotesDue)
    assert due is not None  # ``_vote_round`` asks only when some are due
    added = {n: k for n, k in sorted(due.votes.items()) if n in pool}
    for name, k in added.items():
        counts[name] = counts.get(name, 0) + k
    if added:
        game.emit(ExtraVotes(added), PUBLIC)


def _sheriff_breaks(game: GameState, votes: dict[str, str | None], leaders: list[str]) -> Script:
    """Return (handled, eliminated) for the Sheriff's tie-break rule."""
    rule = game.options.sheriff_tiebreak
    sheriff = game.sheriff
    if rule == "none" or sheriff is None or not game.by_name[sheriff].alive:
        return False, None
    if rule == "his_vote":
        pick = votes.get(sheriff)
        if pick in leaders:
            game.emit(TieBroken(sheriff, pick, "his_vote"), PUBLIC)
            return True, pick
        return False, None
    # Naming the one eliminated is the vote's work: a Lover never names the beloved.
    barred = game.vote_spares(sheriff) if game.spared else ()
    legal = tuple(n for n in leaders if game.by_name[n].alive and n not in barred)
    may_void = game.options.sheriff_tiebreak_may_void or not legal
    pick = yield from ask_one(game.ask(sheriff, SHERIFF_TIEBREAK, legal, {"tied": list(leaders)}, may_void))
    game.emit(TieBroken(sheriff, pick, "choose"), PUBLIC)
    return True, pick


def day_vote(game: GameState) -> Script:
    """The village's vote; ends in at most one elimination."""
    opts = game.options
    game.phase = "vote"
    votes, leaders = yield from _vote_round(game, None, 1)
    target = None
    if len(leaders) == 1:
        target = leaders[0]
    elif leaders:
        handled, target = yield from _sheriff_breaks(game, votes, leaders)
        if not handled:
            if opts.tie == "revote":
                votes, leaders2 = yield from _vote_round(game, leaders, 2)
                if len(leaders2) == 1:
                    target = leaders2[0]
                elif leaders2:
                    handled, target = yield from _sheriff_breaks(game, votes, leaders2)
            elif opts.tie == "random":
                target = game.rng.choice(sorted(leaders))
                game.emit(TieBroken(None, target, "lot"), PUBLIC)
    if target is None:
        game.emit(NoElimination("tie" if leaders else "no votes"), PUBLIC)
        return
    for pardon in game.rules.pardons:  # an elimination that does not happen (the Idiot)
        if (yield from pardon(game, target)):
            return
    game.emit(Eliminated(target), PUBLIC)
    yield from kill_batch(game, [(target, "vote")])


def sheriff_election(
    game: GameState, electorate: list[str] | None = None, standing: tuple[list[str], list[str]] | None = None
) -> Script:
    """000 "The Sheriff": elected by relative majority; he cannot refuse. The books do
    not say what a tied election does: we vote again among the tied, then draw lots
    (``sheriff_election_tie``). ``electorate``: who votes and may be elected, when
    not everyone (000 The Village: the Farmers "choose a Sheriff among themselves").
    ``standing``: (candidates, voters) when a candidacy named them (``sheriff_candidacy``)."""
    opts = game.options
    game.phase = "sheriff_election"
    candidates = None
    for rnd in (1, 2):
        alive = game.alive_names() if electorate is None else [n for n in game.alive_names() if n in electorate]
        voters = [n for n in alive if n not in game.voteless] if game.voteless else alive
        if standing is not None:
            alive, voters = list(standing[0]), list(standing[1])
        pool = tuple(alive if candidates is None else candidates)
        decisions = []
        context = {"round": rnd}  # the voters' one (``Decision.context``)
        for v in voters:
            legal = (pool if opts.sheriff_vote_self or standing is not None else _all_but(pool, v)) or pool
            decisions.append(game.ask(v, SHERIFF_VOTE, legal, context))
        answers = (yield decisions) if decisions else {}  # ``ask`` inlined
        picks = [answers[d.id] for d in decisions]
        counts = tally(game, voters, picks, False)
        leaders = leaders_of(counts)
        game.emit(SheriffVotes(rnd, dict(zip(voters, picks)), counts, leaders), PUBLIC)
        if len(leaders) == 1:
            break
        candidates = sorted(leaders)
        if opts.sheriff_election_tie == "lot":
            break
    if not leaders:  # nobody could vote (only players without a vote are left)
        game.memory.of(SheriffElection).held = True
        return
    winner = leaders[0] if len(leaders) == 1 else game.rng.choice(sorted(leaders))
    game.sheriff = winner
    game.memory.of(SheriffElection).held = True
    game.emit(SheriffElected(winner, len(leaders) > 1), PUBLIC)

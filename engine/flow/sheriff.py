"""The Sheriff's badge passing at death: "with his dying breath he designates his
successor" (000 "The Sheriff"); who may hold it when the rules narrow that (The
Village's Farmers, ``sheriff_pool``); and 狼人杀's candidacy as played today
(``sheriff_candidacy``, common practice, not the seed): 上警 -- who runs; the
candidates' speeches only; 退水 -- a candidate may withdraw after the speeches; those
who ran do not vote (警下 votes, 警上 does not); a lone candidate is elected unopposed;
nobody left, or nobody to vote, the badge is lost (警徽流失). At death the Sheriff
passes the badge or tears it up (撕警徽: no Sheriff for the rest of the game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypedDict

from engine.decisions import BOOL, CHOICE, decision
from engine.events import OMIT, PUBLIC, EventData, Name, Names, event
from engine.flow.common import Script
from engine.flow.discussion import discussion
from engine.roles.base import register_death_hook
from engine.game_state import GameState, Player


class SheriffWithdrawContext(TypedDict, total=False):
    candidates: list[str]  # who ran for the badge (the asked candidate among them)


SHERIFF_RUN = decision("sheriff_run", BOOL, unmeasured="yes/no: running for the title (狼人杀 candidacy), not a power")
SHERIFF_SUCCESSOR = decision("sheriff_successor", CHOICE, unmeasured="a title passed on, not a power")
SHERIFF_WITHDRAW = decision(
    "sheriff_withdraw", BOOL, context=SheriffWithdrawContext, unmeasured="yes/no: leaving the race for the title, not a power"
)


@event("sheriff_elected")
class SheriffElected(EventData):
    """``player`` holds the badge: by the election's votes, by lot among the tied
    (``by_lot``), or as the only candidate left (``unopposed``, written only then)."""

    player: Name
    by_lot: bool
    unopposed: Annotated[bool, OMIT] = False


@event("sheriff_successor")
class SheriffSuccessor(EventData):
    """The dying Sheriff ``previous`` passes the badge to ``player``."""

    previous: Name
    player: Name


@event("sheriff_gone")
class SheriffGone(EventData):
    """The badge is gone with the dead Sheriff ``previous``: nobody may take it, or he
    tore it up (``torn``, written only then)."""

    previous: Name
    torn: Annotated[bool, OMIT] = False


@event("sheriff_candidates")
class SheriffCandidates(EventData):
    """Who runs for the badge (上警)."""

    candidates: Names


@event("sheriff_withdrawn")
class SheriffWithdrawn(EventData):
    """``players`` left the race after the speeches (退水); ``candidates``: who still runs."""

    players: Names
    candidates: Names


@event("sheriff_lost")
class SheriffLost(EventData):
    """The badge is lost before any vote (警徽流失): ``no candidate`` or ``no voter``."""

    reason: str


@dataclass(slots=True)
class SheriffElection:
    """The game's election of a Sheriff has taken place (won, or the badge lost): the
    badge is elected once; afterwards it only passes at death."""

    held: bool = False


def election_held(game: GameState) -> bool:
    """Whether the game's Sheriff election has already taken place."""
    election = game.memory.peek(SheriffElection)
    return election is not None and election.held


def sheriff_pool(game: GameState) -> list[str] | None:
    """Who may elect and be the Sheriff when the rules narrow it (The Village's
    Farmers), else None: everyone."""
    for pool in game.rules.sheriff_pools:
        found = pool(game)
        if found is not None:
            return found
    return None


def _successor(game: GameState, player: Player, cause: str) -> Script:
    if game.sheriff != player.name:
        return
    options = tuple(game.alive_names())
    if game.rules.sheriff_pools:
        pool = sheriff_pool(game)
        if pool is not None:  # 000 The Village: "only from among the surviving Farmers"
            options = tuple(n for n in options if n in pool)
    if not options:
        game.sheriff = None
        game.emit(SheriffGone(player.name), PUBLIC)
        return
    torn_ok = game.options.sheriff_candidacy  # 撕警徽: he may tear the badge up
    d = game.ask(player.name, SHERIFF_SUCCESSOR, options, None, torn_ok)
    heir = (yield [d])[d.id]  # ``ask_one`` inlined: most games pass the badge on
    if heir is None:
        game.sheriff = None
        game.emit(SheriffGone(player.name, True), PUBLIC)
        return
    game.sheriff = heir
    game.emit(SheriffSuccessor(player.name, heir), PUBLIC)


register_death_hook(20, _successor)


def candidacy(game: GameState, pool: list[str] | None) -> Script:
    """上警 and 退水, with the candidates' speeches between them; returns (candidates,
    voters) for the election, or None when the badge is lost before any vote."""
    alive = [n for n in game.alive_names() if pool is None or n in pool]
    game.phase = "campaign"
    asked = [game.ask(n, SHERIFF_RUN, (True, False)) for n in alive]
    answers = (yield asked) if asked else {}
    running = [d.seat for d in asked if answers[d.id]]
    game.emit(SheriffCandidates(list(running)), PUBLIC)
    if running:
        yield from discussion(game, "campaign", 1, running)
        asked = [
            game.ask(n, SHERIFF_WITHDRAW, (True, False), {"candidates": list(running)}) for n in running if game.by_name[n].alive
        ]
        answers = (yield asked) if asked else {}
        withdrawn = [d.seat for d in asked if answers[d.id]]
        if withdrawn:
            game.emit(SheriffWithdrawn(withdrawn, [n for n in running if n not in withdrawn]), PUBLIC)
        standing = [n for n in running if n not in withdrawn and game.by_name[n].alive]
    else:
        standing = []
    voters = [n for n in alive if n not in running and n not in game.voteless and game.by_name[n].alive]
    game.memory.of(SheriffElection).held = True
    if len(standing) == 1:
        game.sheriff = standing[0]
        game.emit(SheriffElected(standing[0], False, True), PUBLIC)
        return None
    if not standing or not voters:
        game.emit(SheriffLost("no candidate" if not standing else "no voter"), PUBLIC)
        return None
    return standing, voters

"""The day: dawn's deaths, the Sheriff's election, the debate, the vote (000 steps 4-7)."""

from __future__ import annotations


from engine.events import PUBLIC, EventData, Name, Names, event
from engine.flow.common import Script
from engine.flow.deaths import kill_batch
from engine.flow.victory import check_victory
from engine.flow.day_powers import EVENING, MORNING, day_powers, powers_of
from engine.flow.discussion import discussion
from engine.flow.forum import lynch, sundown_extension
from engine.flow.sheriff import candidacy, election_held, sheriff_pool
from engine.flow.voting import sheriff_election
from engine.game_state import GameState


@event("dawn")
class Dawn(EventData):
    """Day ``day`` dawns; the night's deaths follow."""

    day: int


@event("no_death")
class NoDeath(EventData):
    """Nobody died in the night before day ``day``."""

    day: int


@event("day_start")
class DayStart(EventData):
    """The day's debate opens: who is alive, who holds the badge (None: nobody)."""

    day: int
    alive: Names
    sheriff: Name | None


def dawn(game: GameState) -> Script:
    game.phase = "dawn"
    rules = game.rules
    for resolve in rules.resolvers:  # what stops a kill before it applies (a guard, a life)
        resolve(game)
    kills = game.night.kills
    for before in rules.before_dawn:  # the kills are final, not yet told (004: notes)
        yield from before(game)
    game.emit(Dawn(game.day), PUBLIC)
    if kills:
        yield from kill_batch(game, list(kills))
    else:
        game.emit(NoDeath(game.day), PUBLIC)
        # A deal can leave no wolf in play (the only one set aside for a Thief who kept
        # his card): the village has then already won.
        check_victory(game)
    if rules.dawn and not game.over:  # 003 "Morning": the dead, their consequences, then the Bear
        for hook in rules.dawn:
            yield from hook(game)
            if game.over:
                return


def _election(game: GameState) -> Script:
    opts = game.options
    pool = sheriff_pool(game) if game.rules.sheriff_pools else None
    if pool is not None and (not pool or game.day < max(opts.sheriff_election_day, 2)):
        # 000 The Village: "From the second turn on, the Farmers debate and vote to
        # choose a Sheriff among themselves"; no Farmer left, no Sheriff.
        return
    if opts.sheriff_candidacy:  # 狼人杀 practice: 上警, speeches, 退水 (engine.flow.sheriff)
        standing = yield from candidacy(game, pool)
        if standing is not None:
            yield from sheriff_election(game, pool, standing)
        return
    if opts.sheriff_campaign:
        yield from discussion(game, "campaign", 1, pool)
    yield from sheriff_election(game, pool)


def day(game: GameState, opening: bool = False) -> Script:
    """One day. ``opening``: the day before the first night (003: "With Angel, start
    with a day of debate and an eliminatory vote"), which has no dawn."""
    opts = game.options
    if not opening:
        yield from dawn(game)
        if game.over:
            return
    game.phase = "day"
    game.emit(DayStart(game.day, game.alive_names(), game.sheriff), PUBLIC)
    powers = powers_of(game)
    if powers:  # The Village: the Confessor may hear a confession before the debate
        yield from day_powers(game, powers, MORNING)
        if game.over:
            return
    if opts.sheriff and game.sheriff is None and not election_held(game) and game.day >= opts.sheriff_election_day:
        yield from _election(game)
    extra = sundown_extension(game)  # 004: the Celebrity's news
    yield from discussion(game, "discussion", opts.discussion_rounds, None, extra)
    if powers:  # 004: the Vigilante's shot, the Priest's revival; The Village: the Barber...
        yield from day_powers(game, powers, EVENING)
        if game.over:
            return
    yield from lynch(game)  # cancelled, the forum's open vote, or the table's vote

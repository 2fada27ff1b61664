"""The Sheriff's badge passing at death: "with his dying breath he designates his
successor" (000 "The Sheriff"); who may hold it when the rules narrow that (The
Village's Farmers, ``sheriff_pool``); and 狼人杀's candidacy as played today
(``sheriff_candidacy``, common practice, not the seed): 上警 -- who runs; the
candidates' speeches only; 退水 -- a candidate may withdraw after the speeches; those
who ran do not vote (警下 votes, 警上 does not); a lone candidate is elected unopposed;
nobody left, or nobody to vote, the badge is lost (警徽流失). At death the Sheriff
passes the badge or tears it up (撕警徽: no Sheriff for the rest of the game)."""

from engine.decisions import BOOL, CHOICE, decision
from engine.events import PUBLIC
from engine.roles.base import register_death_hook

SHERIFF_RUN = decision("sheriff_run", BOOL, unmeasured="yes/no: running for the title (狼人杀 candidacy), not a power")
SHERIFF_SUCCESSOR = decision("sheriff_successor", CHOICE, unmeasured="a title passed on, not a power")
SHERIFF_WITHDRAW = decision("sheriff_withdraw", BOOL, unmeasured="yes/no: leaving the race for the title, not a power")


def sheriff_pool(game) -> list[str] | None:
    """Who may elect and be the Sheriff when the rules narrow it (The Village's
    Farmers), else None: everyone."""
    for pool in game.rules.sheriff_pools:
        found = pool(game)
        if found is not None:
            return found
    return None


def _successor(game, player, cause):
    if game.sheriff != player.name:
        return
    options = tuple(game.alive_names())
    if game.rules.sheriff_pools:
        pool = sheriff_pool(game)
        if pool is not None:  # 000 The Village: "only from among the surviving Farmers"
            options = tuple(n for n in options if n in pool)
    if not options:
        game.sheriff = None
        game.emit("sheriff_gone", PUBLIC, previous=player.name)
        return
    torn_ok = game.options.sheriff_candidacy  # 撕警徽: he may tear the badge up
    d = game.ask_with(player.name, SHERIFF_SUCCESSOR, options, {}, CHOICE, torn_ok)
    heir = (yield [d])[d.id]  # ``ask_one`` inlined: most games pass the badge on
    if heir is None:
        game.sheriff = None
        game.emit("sheriff_gone", PUBLIC, previous=player.name, torn=True)
        return
    game.sheriff = heir
    game.emit_data("sheriff_successor", PUBLIC, {"previous": player.name, "player": heir})


register_death_hook(20, _successor)


def candidacy(game, pool: list[str] | None):
    """上警 and 退水, with the candidates' speeches between them; returns (candidates,
    voters) for the election, or None when the badge is lost before any vote."""
    from engine.flow.day import discussion

    alive = [n for n in game.alive_names() if pool is None or n in pool]
    game.phase = "campaign"
    asked = [game.ask_with(n, SHERIFF_RUN, (True, False), {}, BOOL) for n in alive]
    answers = (yield asked) if asked else {}
    running = [d.seat for d in asked if answers[d.id]]
    game.emit("sheriff_candidates", PUBLIC, candidates=list(running))
    if running:
        yield from discussion(game, "campaign", 1, running)
        asked = [game.ask_with(n, SHERIFF_WITHDRAW, (True, False), {"candidates": list(running)}, BOOL) for n in running if game.by_name[n].alive]
        answers = (yield asked) if asked else {}
        withdrawn = [d.seat for d in asked if answers[d.id]]
        if withdrawn:
            game.emit("sheriff_withdrawn", PUBLIC, players=withdrawn, candidates=[n for n in running if n not in withdrawn])
        standing = [n for n in running if n not in withdrawn and game.by_name[n].alive]
    else:
        standing = []
    voters = [n for n in alive if n not in running and n not in game.voteless and game.by_name[n].alive]
    game.memory["sheriff_elected"] = True
    if len(standing) == 1:
        game.sheriff = standing[0]
        game.emit_data("sheriff_elected", PUBLIC, {"player": standing[0], "by_lot": False, "unopposed": True})
        return None
    if not standing or not voters:
        game.emit("sheriff_lost", PUBLIC, reason="no candidate" if not standing else "no voter")
        return None
    return standing, voters

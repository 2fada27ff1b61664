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
"""

from __future__ import annotations

from engine.events import PUBLIC
from engine.flow.common import ask
from engine.flow.day_powers import DAY_POWERS, day_powers, register_day_power  # noqa: F401
from engine.flow.deaths import kill_batch
from engine.flow.voting import VOTE, day_vote, leaders_of
from engine.roles.base import register_dawn_hook, register_opening_day, register_resolver
from engine.decisions import CHOICE, decision

VOTE_CHANGE = decision("vote_change", CHOICE, unmeasured="a vote: the votes metric")

def lynch(game):
    """The day's lynching: cancelled (the Unknown Celebrity), the forum's open vote, or
    the table's vote."""
    opts = game.options
    if game.memory.get("lynch_cancelled") == game.day:
        carried = dict(game.memory.get("phantoms_due", {}))
        game.emit("lynch_cancelled", PUBLIC, day=game.day, carried=carried)
        return
    if opts.vote_changes or opts.phantom_votes:
        yield from forum_vote(game)
    else:
        yield from day_vote(game)


def _legal(game, voter: str, pool: list[str]) -> tuple:
    spare = game.vote_spares(voter) if game.spared else ()
    if game.sheltered:  # The Village's buildings on a forum game: the Tavernkeeper's immunity
        spare = (*spare, *game.sheltered.get("vote", ()))
    skip = None if game.options.vote_self else voter
    return tuple([n for n in pool if n != skip and n not in spare])


def forum_vote(game):
    opts = game.options
    game.phase = "vote"
    alive = game.alive_names()
    if game.voteless or game.barred:  # a revealed Idiot; the Schoolmistress's pupils
        voters = [n for n in alive if n not in game.voteless and n not in game.barred]
    else:
        voters = alive
    decisions = [game.ask(v, VOTE, _legal(game, v, alive), allow_pass=True, round=1, candidates=None) for v in voters]
    picks = (yield from ask(*decisions)) if decisions else []
    current = dict(zip(voters, picks))
    game.emit("votes_cast", PUBLIC, votes=dict(current))
    for rnd in range(1, opts.vote_changes + 1):
        changes = [
            game.ask(v, VOTE_CHANGE, _legal(game, v, alive), allow_pass=True, round=rnd, current=current[v], votes=dict(current))
            for v in voters
            if game.by_name[v].alive
        ]
        answers = (yield from ask(*changes)) if changes else []
        for d, new in zip(changes, answers):
            if new is not None and new != current[d.seat]:
                game.emit("vote_change", PUBLIC, voter=d.seat, previous=current[d.seat], target=new, round=rnd)
                current[d.seat] = new
    game.phase = "dusk"
    game.emit("sundown", PUBLIC, day=game.day)
    due = {n: k for n, k in game.memory.get("phantoms_due", {}).items() if game.by_name[n].alive}
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
            game.emit("phantom_votes", PUBLIC, players=sorted(nxt), day=game.day)
    game.memory["phantoms_due"] = nxt
    leaders = leaders_of(counts)
    game.emit("vote_result", PUBLIC, round=1, votes=dict(current), tally=counts, leaders=leaders, sheriff=game.sheriff, phantoms=due)
    target = None
    if len(leaders) == 1:
        target = leaders[0]
    elif leaders:
        if opts.tie == "random":
            target = game.rng.choice(sorted(leaders))
            game.emit("tie_broken", PUBLIC, by=None, target=target, rule="lot")
        elif opts.tie == "revote":
            decisions = [game.ask(v, VOTE, _legal(game, v, leaders), allow_pass=True, round=2, candidates=leaders) for v in voters]
            picks = (yield from ask(*decisions)) if decisions else []
            again: dict[str, int] = {}
            for t in picks:
                if t is not None:
                    again[t] = again.get(t, 0) + 1
            top = leaders_of(again)
            game.emit("vote_result", PUBLIC, round=2, votes=dict(zip(voters, picks)), tally=again, leaders=top, sheriff=game.sheriff)
            if len(top) == 1:
                target = top[0]
    if target is None:
        game.emit("no_elimination", PUBLIC, reason="tie" if leaders else "no votes")
        return
    for pardon in game.rules.pardons:
        if (yield from pardon(game, target)):
            return
    game.emit("eliminated", PUBLIC, player=target)
    yield from kill_batch(game, [(target, "vote")])


# ------------------------------------------------------------------ the humans' morning
def _mark_dawn(game) -> None:
    game.night["deaths_before_dawn"] = len(game.deaths)


def _quiet_dawn(game):
    """004: "the Wolves are confirmed all dead by the remaining Humans waking up in the
    morning to find nobody died the previous night (Human victory)"."""
    if len(game.deaths) == game.night.get("deaths_before_dawn", -1) and not game.wolves():
        from engine.flow.victory import end_game

        end_game(game, "village", "a morning without a death, every wolf dead")
    return
    yield


register_resolver(0, _mark_dawn, when=lambda o: o.village_wins_at_quiet_dawn)
register_dawn_hook(0, _quiet_dawn, when=lambda o: o.village_wins_at_quiet_dawn)
register_opening_day(when=lambda o: o.opening_day)

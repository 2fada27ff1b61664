"""Votes: the day's elimination and everything about the Sheriff's badge.

Villagers vote their beliefs. Wolves vote with the village's mood against a villager
(a bandwagon hides them best), spread their votes a little so the pack does not vote
as one block, and vote a mate only when the village has already doomed him, which it
cannot once the pack holds the vote: then the pack votes as one block against a
villager (a wolf once voted out his own partner at two wolves against one villager).
"""

from __future__ import annotations

from agents.heuristic_memory import Memory, is_wolf_role
from agents.heuristic_situation import Situation, as_rounded

SPLIT_CHANCE = 0.4  # one wolf of a pack votes elsewhere
BUS_VOTE_CHANCE = 0.75  # a wolf votes for a mate the village has doomed: it costs nothing
DOOMED = 0.6
SHERIFF_MATE_CHANCE = 0.5
WHITE_WOLF_VOTE = 0.3  # a plain wolf joins a vote on the known White Werewolf
SEE_THROUGH_ANGEL = 0.7  # a voter who recognises the Angel's plea on day 0


def vote(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    if not options:
        return None
    if sit.mem.is_wolf:
        return _wolf_vote(sit, options)
    b = sit.beliefs
    options = _spare_the_angel(sit, options)
    target = sit.best(options, b.rank)
    if target is not None and b.of(target) <= 0.0 and sit.decision.allow_pass:
        return None  # everyone on offer is known innocent
    return target


def _spare_the_angel(sit: Situation, options: list[str]) -> list[str]:
    """On the Angel's opening day a player who says he is a werewolf is most likely the
    Angel begging for the vote that makes him win: the village looks elsewhere."""
    mem = sit.mem
    if mem.day != 0 or "angel" not in mem.roles_in_play or mem.my_role == "angel":
        return options
    if sit.rng.random() >= SEE_THROUGH_ANGEL:
        return options
    spared = [o for o in options if not (mem.claims.get(o) is not None and is_wolf_role(mem.claims[o].role))]
    return spared or options


def _wolf_vote(sit: Situation, options: list[str]) -> str | None:
    """Ride the village's mood. When the mood is on a mate, join it only if he is lost
    anyway; otherwise push the next villager in line. A Seer claimant is attacked
    only when the pack has a counter-claim to justify it."""
    mem, pub, rng = sit.mem, sit.public, sit.rng
    white = mem.white_wolf
    if white in options and pub.of(white) >= WHITE_WOLF_VOTE:
        return white  # the White Werewolf will kill this wolf: the village may take him
    villagers = [o for o in options if o not in mem.pack]
    if not villagers:
        if mem.beloved is not None and mem.beloved not in mem.pack:
            return options[0]  # a wolf in love with a villager wins with the couple: the pack must go
        return None if sit.decision.allow_pass else options[0]
    rivals = _countered(sit)
    appeal: dict[str, float] = {}  # every option's, the spared ones' and the villagers' among them
    for n in options:
        appeal[n] = pub.of(n) + (0.5 if n in rivals else 0.0)
    appeal = as_rounded(appeal)
    options = _spare_the_angel(sit, options)
    villagers = [o for o in options if o not in mem.pack] or villagers

    # The leader: the highest appeal, ties to the last name (``max`` by (appeal, name)).
    leader, top = options[0], appeal[options[0]]
    for n in options:
        a = appeal[n]
        if a > top or (a == top and n > leader):
            leader, top = n, a
    holds = pack_holds_the_vote(mem)
    if leader in mem.pack and leader != mem.me and not holds and pub.of(leader) >= DOOMED and rng.random() < BUS_VOTE_CHANCE:
        return leader
    # The two villagers ranked first: the highest appeal, ties to the first name.
    first: str | None = None
    second: str | None = None
    for n in villagers:
        if first is None or _ranks_above(n, first, appeal):
            first, second = n, first
        elif second is None or _ranks_above(n, second, appeal):
            second = n
    pack = mem.pack_alive
    if second is not None and len(pack) >= 2 and pack[-1] == mem.me and not holds and rng.random() < SPLIT_CHANCE:
        return second
    return first


def pack_holds_the_vote(mem: Memory) -> bool:
    """Whether the living wolves cast at least as many votes as everybody else (the
    Sheriff's counting twice): then a mate is eliminated only if the pack lets him be,
    so no wolf votes against one, and the pack does not split its votes."""
    alive = mem.alive
    pack = set(mem.pack_alive)
    wolves = others = 0
    for n in alive:
        weight = 2 if n == mem.sheriff else 1
        if n in pack:
            wolves += weight
        else:
            others += weight
    return bool(pack) and wolves >= others


def _ranks_above(n: str, m: str, appeal: dict[str, float]) -> bool:
    """``n`` before ``m`` in the wolves' ranking of villagers: more appeal, or as much
    and an earlier name."""
    a, b = appeal[n], appeal[m]
    return a > b or (a == b and n < m)


def _countered(sit: Situation) -> set[str]:
    """Seer claimants the pack has publicly contradicted with a claim of its own."""
    mem = sit.mem
    if not any(mem.claims.get(w) is not None and mem.claims[w].role == "seer" for w in mem.pack):
        return set()
    return {c for c, cl in mem.claims.items() if cl.role == "seer" and c not in mem.pack}


def sheriff_vote(sit: Situation) -> str | None:
    """The most trusted player; seats share the tie-break (seat order) so the village
    gathers its votes instead of scattering them."""
    mem = sit.mem
    options = list(sit.decision.options)
    if not options:
        return None
    claim = mem.my_public_claim()
    if not mem.is_wolf and claim is not None and claim.role == "seer" and mem.my_role == "seer" and mem.me in options:
        return mem.me
    if mem.is_wolf:
        mates = [o for o in options if o in mem.pack and o != mem.me]
        if mates and sit.rng.random() < SHERIFF_MATE_CHANCE:
            return mates[0]
        b = sit.public
    else:
        b = sit.beliefs
    others = [o for o in options if o != mem.me] or options
    return sit.consensus(others, lambda n: -b.of(n) + 0.3 * b.cred.get(n, 0.0))


def sheriff_successor(sit: Situation) -> str | None:
    mem = sit.mem
    options = list(sit.decision.options)
    if not options:
        return None
    if mem.is_wolf:
        mates = [o for o in options if o in mem.pack]
        if mates:
            return mates[0]
        if sit.decision.allow_pass:  # 撕警徽: rather no Sheriff than a villager with the badge
            return None
        return sit.best(options, sit.public.of)  # a suspected heir's double vote carries less weight
    return sit.best(options, lambda n: -sit.beliefs.of(n))


def sheriff_tiebreak(sit: Situation) -> str | None:
    mem = sit.mem
    options = list(sit.decision.options)
    if not options:
        return None
    if mem.is_wolf:
        villagers = [o for o in options if o not in mem.pack]
        if not villagers:
            return None if sit.decision.allow_pass else options[0]
        return sit.best(villagers, sit.public.of)
    return sit.best(options, sit.beliefs.of)


# ---------------------------------------------------------------------- 狼人杀 candidacy
RUN_CHANCE = 0.3  # a plain villager's wish for the badge
WOLF_RUN_CHANCE = 0.5  # a wolf on the stage can counter-claim the Seer with the badge's weight


def sheriff_run(sit: Situation) -> bool:
    """上警: the Seer runs, so that her checks come with the badge; a wolf often runs to
    contest it; the others sometimes."""
    mem = sit.mem
    if mem.my_role == "seer":
        return True
    return sit.rng.random() < (WOLF_RUN_CHANCE if mem.is_wolf else RUN_CHANCE)


def sheriff_withdraw(sit: Situation) -> bool:
    """退水: a candidate of the village who is not the Seer steps aside for another
    candidate who claimed the Seer and is believed; the Seer and the wolves stand."""
    mem = sit.mem
    if mem.my_role == "seer" or mem.is_wolf:
        return False
    liars = sit.beliefs.liars
    for c in sit.decision.context.get("candidates") or ():
        claim = mem.claims.get(c)
        if c != mem.me and claim is not None and claim.role == "seer" and c not in liars:
            return True
    return False

"""Judging the table: how likely each living player is to be a werewolf.

Evidence is added as log-odds (a liar's contradicted claim weighs a lot, one vote a
little), then the odds are turned into probabilities that add up to the number of
wolves still hidden, so a bot that learns one wolf automatically trusts the rest of
the table more. A Seer claim counts in proportion to how credible its author looks,
which needs the other evidence first: hence two passes.

The same judge runs in two perspectives. ``private`` uses everything the seat knows
(its pack, its Seer results, its beloved); ``public`` uses only what the whole table
saw, which is how a wolf estimates what the village thinks of everyone (itself too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from agents.heuristic_memory import _WOLFISH, Memory, is_wolf_role, neighbours
from engine.roles import ROLES

# Log-odds weights. Big ones are near-proofs, small ones are table talk.
LIAR = 5.0  # a claim the cards contradict
RIVAL_CLAIM = 1.8  # two living players claim the same unique role: one lies, likely a wolf
LATE_CLAIM = 1.5  # claimed a unique role someone else had already claimed: the usual counter-claim
CONFIRMED_SEER = 2.5  # a Seer claim whose wolf result was revealed true
VOTED_WOLF = -0.8
VOTED_GOOD = 0.5
COVOTE_WOLF = 0.5  # voted with a known wolf against someone not a wolf
ACCUSED_WOLF = -0.5
ACCUSED_GOOD = 0.35
ACCUSED_TODAY = 0.3
BANDWAGON_CAP = 5  # a crowd repeating one name adds nothing after a few voices
VICTIM_POINTED = 0.25  # the wolves' victim had accused or voted this player
PACK_TARGET = -3.0  # the Witch saw the pack choose them
OVERHEARD = -1.0  # the Little Girl heard the pack aim at them
BELOVED = -4.0
SHERIFF_VOTE_WOLF = 0.3
SELF_EXPOSED = -0.7  # an uncontested power-role claim is costly for a wolf to fake
CHECK_WOLF = 4.0  # times the claimant's credibility
CHECK_GOOD = -1.5
CAP = 0.97
THIEF_WOLF_CHANCE = 0.25
SISTER = -4.0  # the other Sister plays for the village (unless infected later)
FOX_FOUND = 1.2  # a werewolf among the Fox's group: each unknown member is suspect
FOX_CLEARED = -4.0  # no werewolf in the group when the Fox looked
BEAR_GROWL = 1.0  # the Bear Tamer's own neighbours when his bear growled
BEAR_SILENT = -2.5
DEVOURED = ("werewolves", "big_bad_wolf")  # death causes only a non-wolf can have
_VILLAGER = frozenset({"villager"})


@dataclass(slots=True)
class Beliefs:
    """P(wolf) per living player, plus what the judge found on the way. Built only by
    the judge (~44 times a game), with every field: no defaults, so the generated
    ``__init__`` is six stores, without a default-factory test per field."""

    p: dict[str, float]
    cred: dict[str, float]  # claimant -> credibility
    liars: set[str]
    known: dict[str, bool]  # name -> is wolf, for certain
    hidden_wolves: float
    score: dict[str, float]  # the log-odds behind ``p``

    def of(self, name: str) -> float:
        return self.p.get(name, 0.0)

    def rank(self, name: str) -> float:
        """``p``, with the log-odds breaking ties among players capped at certainty."""
        return self.p.get(name, 0.0) + 0.001 * math.tanh(self.score.get(name, 0.0) / 10.0)


def known_camps(mem: Memory, private: bool) -> dict[str, bool]:
    """Players whose camp is certain: revealed dead, and privately the seat's own
    knowledge. A wolf knows every camp; a Seer knows those she looked at."""
    known: dict[str, bool] = {}
    # ``is_wolf_role``'s kept answers read inline, as ``Memory.is_wolf`` does: a call
    # per dead player at every rebuild (~43 a game) cost more than the rest of the loop.
    wolfish = _WOLFISH
    for n, r in mem.dead.items():  # a loop, not a comprehension: its frame costs more than the handful of dead
        if r is not None:
            w = wolfish.get(r)
            known[n] = w if w is not None else is_wolf_role(r)
    for n, cause in mem.causes.items():
        if cause in DEVOURED:
            known.setdefault(n, False)  # the pack never devours its own, card shown or not
    for n, r in mem.revealed.items():
        known.setdefault(n, is_wolf_role(r))
    if not private:
        return known
    for n, r in mem.seer_results.items():
        known[n] = is_wolf_role(r)
    wolf = mem.is_wolf
    if mem.my_role is not None:
        known[mem.me] = wolf
    if mem.caught_girl:
        known[mem.caught_girl] = False
    if wolf:
        pack = mem.pack
        for n in mem.players:
            known[n] = n in pack
    return known


def _wolves_total(mem: Memory, private: bool) -> float:
    """Expected wolves dealt into play. With a Thief, the public deck may list cards
    that lie unused in the center: the Thief knows which, others estimate."""
    deck = float(mem.wolf_cards)
    if "thief" not in mem.deck:
        return deck
    took_wolf = 1.0 if mem.initial_role == "thief" and mem.is_wolf else 0.0
    if mem.set_aside:  # the deck includes the center cards
        if private and mem.initial_role == "thief" and mem.thief_cards:
            return deck - sum(1 for c in mem.thief_cards if is_wolf_role(c)) + took_wolf
        seats = max(1, len(mem.players))
        return deck * (1.0 - mem.set_aside / (seats + mem.set_aside)) + THIEF_WOLF_CHANCE / 2
    if private and mem.initial_role == "thief":
        return deck + took_wolf
    if any(r == "thief" for r in mem.dead.values()):
        return deck  # the Thief kept his card: no extra wolf came in
    return deck + THIEF_WOLF_CHANCE


def _role_holders(mem: Memory, known: dict[str, bool], private: bool) -> dict[str, set[str]]:
    """role -> players certainly holding it (revealed, or privately known). A player
    known to be no wolf (devoured, cleared) who claimed a role is taken at his word:
    villagers have no reason to lie about their card."""
    holders: dict[str, set[str]] = {}
    for n, r in mem.dead.items():
        if r:
            held = holders.get(r)
            if held is None:
                holders[r] = {n}  # not ``setdefault``: no throwaway set per dead player
            else:
                held.add(n)
    for n, claim in mem.claims.items():
        if known.get(n) is False and n not in mem.revealed and mem.dead.get(n) is None and claim.role:
            if claim.role != "villager" and not is_wolf_role(claim.role) and len(claim.roles_claimed - _VILLAGER) == 1:
                holders.setdefault(claim.role, set()).add(n)
    if private:
        for n, r in mem.seer_results.items():
            holders.setdefault(r, set()).add(n)
        if mem.my_role:
            holders.setdefault(mem.my_role, set()).add(mem.me)
    return holders


def _liars(mem: Memory, known: dict[str, bool], private: bool) -> set[str]:
    """Claimants the cards contradict: a unique role someone else holds, a role not in
    the deck, a changed story, or a Seer result the reveals disprove. Villagers have no
    reason to lie, so a proven lie is the strongest evidence a bot gets."""
    liars: set[str] = set()
    holders: dict[str, set[str]] | None = None  # asked only about a unique role someone claims
    in_play = mem.deck
    has_thief = "thief" in in_play
    for c, claim in mem.claims.items():
        if private and c == mem.me:
            continue
        told = claim.roles_claimed  # read, never changed
        if "villager" in told:
            if len(told) == 1 and not claim.checks:
                continue  # a plain villager's story: nothing the cards could contradict
            told = told - _VILLAGER
        if claim.role == "angel" and "angel" in in_play:
            told = {r for r in told if not is_wolf_role(r)}  # the Angel's day-0 plea, explained
        lie = len(told) > 1
        for r in told:
            if is_wolf_role(r):
                lie = True
            count = in_play.get(r, 0)  # not ``[]``: a Counter's miss is a Python call
            if count == 1:
                if holders is None:
                    holders = _role_holders(mem, known, private)
                held = holders.get(r)
                if held and (len(held) > 1 or c not in held):  # someone else holds it
                    lie = True
            if count == 0 and not has_thief and r in ROLES:
                lie = True
        for t, cr in claim.checks.items():
            if t in known and known[t] != is_wolf_role(cr):
                lie = True
        if lie:
            liars.add(c)
    return liars


def _standing(mem: Memory, known: dict[str, bool], liars: set[str]) -> dict[str, float]:
    """Log-odds from the claims alone (lies, confirmed Seers, rival claimants): the first
    terms of every player's sum, which change only when ``mem.facts`` does. A confirmed
    Seer is one whose wolf result a reveal proved true: a fake Seer almost never names a
    mate."""
    s: dict[str, float] = dict.fromkeys(mem.players, 0.0)
    for c in liars:
        s[c] = s.get(c, 0.0) + LIAR
    for c, claim in mem.claims.items():
        if not claim.checks or c in liars:
            continue
        for t, cr in claim.checks.items():
            if t in known and known[t] and is_wolf_role(cr):
                s[c] -= CONFIRMED_SEER  # from 0.0 (no liar), as the separate sum of these terms was
    _rival_claims(mem, liars, s)
    return s


def _add_votes(rounds: list, known: dict[str, bool], known_wolves: list[str], s: dict[str, float]) -> bool:
    """Day votes speak once their target's camp is known: who pushed a revealed
    villager out, who stood with a known wolf. Whether any sum moved: a round of
    votes for unknown players (most rounds, until the death reveals a card) changes
    nothing, so what was added on top of these sums still stands."""
    # Every round is replayed at each rebuild: no set of the wolves' picks is built
    # while no wolf is known (publicly, until one dies), and a vote for an unknown
    # player (or none: ``None`` is no player) costs one test.
    moved = False
    for r in rounds:
        votes = r.votes
        wolf_picks: set[str] | None = None
        if known_wolves:
            wolf_picks = set()
            for w in known_wolves:
                pick = votes.get(w)
                if pick is not None:
                    wolf_picks.add(pick)
        for v, t in votes.items():
            if t not in known or v not in s:
                continue
            moved = True
            if known[t]:
                s[v] += VOTED_WOLF
            else:
                s[v] += VOTED_GOOD
                if wolf_picks and t in wolf_picks and not known.get(v):
                    s[v] += COVOTE_WOLF
    return moved


def _sheriff_voters(rounds: list, known_wolves: list[str], s: dict[str, float]) -> list[str]:
    """Who voted a known wolf for sheriff, once per such vote, in the order the votes
    are added (usually nobody: the sums under them then stand as they are; publicly,
    nobody is a known wolf before one dies)."""
    if not known_wolves:
        return []
    wolves = set(known_wolves)
    return [v for r in rounds for v, t in r.votes.items() if t in wolves and v in s]


def _add_accusations(
    accusations: list, known: dict[str, bool], today: int, victims: list[str], voices: dict[str, set[str]], s: dict[str, float]
) -> None:
    """Accusations of known players weigh on their speaker; today's of unknown ones on
    their target, up to ``BANDWAGON_CAP`` voices (``voices``: today's so far)."""
    # Every accusation of the game is replayed at each rebuild: the usual one (an
    # earlier day's, of a player whose camp is unknown) is kept to a few tests. The
    # camps are bools, so a known target's term is chosen by its truth.
    for a in accusations:
        speaker = a.speaker
        if speaker not in s:
            continue
        target = a.target
        if target in known:
            s[speaker] += ACCUSED_WOLF if known[target] else ACCUSED_GOOD
        elif a.day == today and target in s:
            heard = voices.get(target)
            if heard is None:
                heard = voices[target] = set()  # not ``setdefault``: no throwaway set per accusation
            if speaker not in heard and len(heard) < BANDWAGON_CAP:
                heard.add(speaker)
                s[target] += ACCUSED_TODAY
        if speaker in victims and target in s:
            s[target] += VICTIM_POINTED


def _add_secrets(mem: Memory, s: dict[str, float], private: bool) -> None:
    """The last terms: what the Little Girl overheard, and privately the beloved, the
    pack's victims the Witch saw and the characters' knowledge."""
    for name in mem.overheard:
        if name in s:
            s[name] += OVERHEARD
    if not private:
        return
    if mem.beloved is None and not (mem.witch_victims or mem.sisters or mem.fox_results or mem.growls):
        return  # the usual seat holds no secret: not even its camp is asked
    wolf = mem.is_wolf
    if mem.beloved in s and not wolf:
        s[mem.beloved] += BELOVED
    for victim in mem.witch_victims.values():
        if victim in s:
            s[victim] += PACK_TARGET  # the pack does not devour its own
    if not wolf and (mem.sisters or mem.fox_results or mem.growls):  # else no character knows a thing
        _characters(mem, s)


def _characters(mem: Memory, s: dict[str, float]) -> None:
    """What the Best of Werewolves characters privately know: the other Sister, the
    Fox's answers, the Bear Tamer's growls about his own neighbours."""
    for sister in mem.sisters:
        if sister in s:
            s[sister] += SISTER
    for group, wolf in mem.fox_results:
        for g in group:
            if g in s and g != mem.me:
                s[g] += FOX_FOUND if wolf else FOX_CLEARED
    if mem.my_role == "bear_tamer" and mem.growls:
        growl = mem.growls[max(mem.growls)]
        for n in neighbours(mem, mem.me):
            if n in s:
                s[n] += BEAR_GROWL if growl else BEAR_SILENT


def _rival_claims(mem: Memory, liars: set[str], s: dict[str, float]) -> None:
    """Two living claimants of one unique role: at least one lies. Uncontested power
    claims, on the other hand, are mild evidence of good faith. Of rival claimants, the
    ones who spoke up after another are the likelier liars: a wolf counter-claims once
    the real one has exposed the pack (a dead first claimant still counts)."""
    by_role: dict[str, list[str]] = {}
    first: dict[str, tuple[int, str]] = {}
    deck = mem.deck
    for c, claim in mem.claims.items():
        if claim.role in (None, "villager") or c in liars or deck.get(claim.role, 0) != 1:
            continue
        rank = claim.since.get(claim.role, 0)
        if claim.role not in first or (rank, c) < first[claim.role]:
            first[claim.role] = (rank, c)
        if c not in mem.dead:
            by_role.setdefault(claim.role, []).append(c)
    for role, names in by_role.items():
        if len(names) > 1:
            for c in names:
                s[c] += RIVAL_CLAIM
        elif role != "seer" and first[role][1] == names[0]:
            s[names[0]] += SELF_EXPOSED
        for c in names:
            if c != first[role][1]:
                s[c] += LATE_CLAIM


def normalise(s: dict[str, float], pool: list[str], hidden: float) -> dict[str, float]:
    """Spread ``hidden`` expected wolves over the pool in proportion to the odds,
    capping certainty and handing the excess to the others (water-filling).

    The top player's weight is exactly 1.0 and dividing is monotonic, so the largest
    share is ``hidden / total``: the usual case (nobody capped) takes one pass. A
    capped round computes each share where it tests it (same products, same order). At a
    judgement's size (a handful of players) the fixed cost of each call and frame is
    what counts: on CPython 3.11 ``max``, ``itemgetter``, ``zip`` and a comprehension
    each cost ~2.5K instructions before their first element, so the usual case is
    plain loops over the pool, its weights written into the dict it returns and then
    replaced by the shares (23.6K -> 18.8K instructions for a pool of 6). The sums are
    the same: ``sum`` of floats on 3.11 adds them in order from 0.0, as ``total`` does."""
    if not pool or hidden <= 0:
        return {n: 0.0 for n in pool}
    top = s[pool[0]]
    for n in pool:
        x = s[n]
        if x > top:
            top = x
    exp = math.exp
    p: dict[str, float] = {}
    total = 0.0
    for n in pool:
        d = s[n] - top
        w = p[n] = exp(d if d > -30.0 else -30.0)
        total += w
    if hidden / total <= CAP:
        for n, w in p.items():
            p[n] = hidden * w / total
        return p
    # Capped rounds (a fifth of the calls), in loops too: each round caps the shares
    # above ``CAP`` (in order, ``left`` losing ``CAP`` each time) and spreads what is
    # left over the others, in proportion to their weights, summed in order. ``p`` now
    # holds the weights; the uncapped shares wait in ``pending`` (whose keys are the
    # next round's players, in order) and stand once a round caps nobody: no tuple
    # and no list call per player and round.
    weights = p
    p = {}
    left = hidden
    free = weights  # its keys: the pool, in order
    while free:
        spread = left  # this round's shares are of what was left when it began
        pending: dict[str, float] = {}
        capped = False
        for n in free:
            share = spread * weights[n] / total
            if share > CAP:
                p[n] = CAP
                left -= CAP
                capped = True
            else:
                pending[n] = share
        if not capped:  # the shares stand
            p.update(pending)
            break
        if left <= 0:
            for n in pending:
                p[n] = 0.0
            break
        total = 0.0
        for n in pending:
            total += weights[n]
        free = pending
    return p


# A perspective's key in ``mem.derived`` and in the carried sums: built once, not per judgement.
_PRIVATE = ("judge", True)
_PUBLIC = ("judge", False)


def judged(mem: Memory, private: bool = True) -> Beliefs:
    """``judge(mem, private)``, computed once per moment of the seat's memory (until
    it reads another event): a decision, the beliefs asked before the vote and the vote
    itself share one judgement. Readers must not change the ``Beliefs`` returned."""
    key = _PRIVATE if private else _PUBLIC
    b = mem.derived.get(key)
    if b is None:
        t = mem.table
        if not private and t is not None and not mem.overheard:
            # The public perspective of a seat sharing the table (no secret of its own
            # enters it: the Little Girl's overheard names would) is every such seat's at
            # the same public moment and day: judged once for all of them, its sums
            # carried in the table across the public facts' changes.
            shared = ("judge", mem.day)
            b = t.derived.get(shared)
            if b is None:
                b = t.derived[shared] = _judge(mem, False, t.carried, t.facts)
        else:
            b = _judge(mem, private, mem.carried, mem.facts)  # ``judge``, one call fewer
        mem.derived[key] = b
    return b


class _Carried:
    """One perspective's judgement carried from one moment to the next.

    Every player's log-odds is a sum whose terms come in a fixed order: the claims'
    (``_standing``), then each day vote, each sheriff vote, each accusation, and the
    seat's secrets. Between two changes of ``mem.facts`` only votes and accusations are
    appended, so the partial sums are kept (after the votes, after the sheriff votes,
    after today's accusations) and only the new terms are added, in the same order:
    the same floating-point sums as adding everything again, at the cost of the news.
    """

    __slots__ = (
        "facts", "known", "wolves", "liars", "alive", "certain", "pool", "hidden", "victims", "after_votes", "votes_read",
        "after_sheriff", "sheriff_read", "after_accusations", "accusations_read", "day", "voices", "checkers",
    )  # fmt: skip

    def __init__(self, mem: Memory, private: bool):
        self.facts = mem.facts
        known = self.known = known_camps(mem, private)
        wolves: list[str] = []
        dead = mem.dead
        dead_wolves = 0
        for w, k in known.items():
            if k:
                wolves.append(w)
                if w in dead:
                    dead_wolves += 1
        self.wolves = wolves
        liars = self.liars = _liars(mem, known, private)
        alive = self.alive = mem.alive
        pool: list[str] = []
        certain: dict[str, float] = {}  # in seat order
        live_known = 0  # living players known to be wolves
        for n in alive:
            if n not in known:
                pool.append(n)
            elif known[n]:
                certain[n] = 1.0
                live_known += 1
            else:
                certain[n] = 0.0
        self.pool, self.certain = pool, certain
        # ``max`` written out (a builtin call costs more than these tests), choosing as it
        # does: the first of equals.
        total = _wolves_total(mem, private)
        seen = float(dead_wolves + live_known)
        if seen > total:
            total = seen
        hidden = total - dead_wolves - live_known
        self.hidden = hidden if hidden > 0.0 else 0.0
        # The pack's victims, a handful: a copy by slicing, no set built per rebuild (the
        # memory's list may be the table's, which other seats append to).
        self.victims = mem.night_victims[:]
        # Whether a claimant's checks are weighed (``_credibility``): checks are added
        # only with a change of ``mem.facts``, so this stands until the next rebuild.
        me = mem.me if private else None
        self.checkers = False
        for c, claim in mem.claims.items():
            if claim.checks and c != me:
                self.checkers = True
                break
        self.after_votes = _standing(mem, known, liars)
        self.votes_read = 0
        self.after_sheriff = self.after_votes
        self.sheriff_read = 0
        self.after_accusations = self.after_votes
        self.accusations_read = 0
        self.day = mem.day
        self.voices: dict[str, set[str]] = {}

    def scores(self, mem: Memory) -> dict[str, float]:
        """The partial sums brought up to date with the votes and accusations read
        since; returned as kept (callers copy before adding the rest). A layer is
        the same dict as the one under it until a term of its own is added; when a
        lower layer moves, the ones above it are built again on top of it."""
        known = self.known
        moved = False  # a layer under the accusations changed: add them all again
        if len(mem.votes) > self.votes_read:
            if _add_votes(mem.votes[self.votes_read :], known, self.wolves, self.after_votes):
                moved = True
                self.after_sheriff, self.sheriff_read = self.after_votes, 0  # add the sheriff votes again
            self.votes_read = len(mem.votes)
        if len(mem.sheriff_votes) > self.sheriff_read:
            voters = _sheriff_voters(mem.sheriff_votes[self.sheriff_read :], self.wolves, self.after_votes)
            self.sheriff_read = len(mem.sheriff_votes)
            if voters:
                if self.after_sheriff is self.after_votes:
                    self.after_sheriff = dict(self.after_votes)
                after = self.after_sheriff
                for v in voters:
                    after[v] += SHERIFF_VOTE_WOLF
                moved = True
        if moved or self.day != mem.day:
            self.after_accusations = self.after_sheriff
            self.accusations_read, self.day, self.voices = 0, mem.day, {}
        if len(mem.accusations) > self.accusations_read:
            if self.after_accusations is self.after_sheriff:
                self.after_accusations = dict(self.after_sheriff)
            news = mem.accusations[self.accusations_read :]
            _add_accusations(news, known, self.day, self.victims, self.voices, self.after_accusations)
            self.accusations_read = len(mem.accusations)
        return self.after_accusations


def judge(mem: Memory, private: bool = True) -> Beliefs:
    """The seat's beliefs about every living player (see the module docstring), from
    the sums carried since the last change of its facts (``_Carried``)."""
    return _judge(mem, private, mem.carried, mem.facts)


def _judge(mem: Memory, private: bool, kept: dict, facts: int) -> Beliefs:
    """``judge`` with the carried sums kept in ``kept`` while ``facts`` stands still."""
    key = _PRIVATE if private else _PUBLIC
    carried = kept.get(key)
    if carried is None or carried.facts != facts:
        carried = kept[key] = _Carried(mem, private)
        carried.facts = facts
    known, liars, pool, hidden = carried.known, carried.liars, carried.pool, carried.hidden
    s = dict(carried.scores(mem))
    _add_secrets(mem, s, private)
    p = normalise(s, pool, hidden)
    # Most judgements have no reported check to weigh (no claimant with checks since
    # the last rebuild): no credibility to work out, no second pass.
    if carried.checkers:
        cred = _credibility(mem, known, liars, p, private)
        weighed = False  # no check moved a score: the second pass would repeat the first
        for c, weight in cred.items():
            for t, cr in mem.claims[c].checks.items():
                if t in known or t not in s:
                    continue
                s[t] += (CHECK_WOLF if is_wolf_role(cr) else CHECK_GOOD) * weight
                weighed = True
        if weighed:
            p = normalise(s, pool, hidden)
    else:
        cred = {}
    p.update(carried.certain)
    return Beliefs(p, cred, liars, known, hidden, s)  # positionally: half a keyword call's cost


def _credibility(
    mem: Memory, known: dict[str, bool], liars: set[str], p: dict[str, float], private: bool
) -> dict[str, float]:
    """How far to believe each player's reported checks: a revealed Seer fully, a
    liar or known wolf not at all, anyone else as much as they look innocent."""
    cred: dict[str, float] = {}
    for c, claim in mem.claims.items():
        if not claim.checks or (private and c == mem.me):
            continue
        if c in liars or known.get(c):
            cred[c] = 0.0
            continue
        revealed = mem.dead.get(c)
        if revealed is not None:
            cred[c] = 1.0 if revealed == "seer" else 0.1
        elif known.get(c) is False:
            cred[c] = 1.0  # devoured or cleared: no wolf, so no reason to lie
        elif c in p:
            cred[c] = 1.0 - p[c]
        else:
            cred[c] = 0.9
        if claim.role != "seer":
            cred[c] *= 0.5
    return cred

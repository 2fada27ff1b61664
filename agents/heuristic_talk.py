"""What the heuristic bot says: day speeches and the pack's night talk.

A speech is short text plus structured claims (role, Seer checks, accusations) that
other bots read without parsing prose. Villagers tell the truth and point at their
top suspect; the Seer comes out when her knowledge is worth more than her cover;
wolves blend in, and sometimes fake a Seer claim to frame a villager or to answer a
real Seer who is onto the pack.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from agents.heuristic_lines import join
from agents.heuristic_memory import Memory, is_wolf_role, neighbours
from agents.heuristic_night import choose_victim, kill_options
from agents.heuristic_situation import Situation

SEER = "seer"
WOLF = "werewolf"
GOOD = "villager"  # what a Seer reports for any non-wolf: naming the Witch would expose her

# The pack's fake Seer (``_plan_fake_claim``), by whether the dead show their cards.
BLUFF_HIDDEN = 0.3  # the pack opens with a fake Seer claim on the first day
BLUFF_REVEALED = 0.0
BLUFF_PER_WOLF = 0.0  # relative change per wolf beyond two
COUNTER_HIDDEN = 0.8  # the pack answers a Seer who named a mate
COUNTER_REVEALED = 0.25
FRAME_HIDDEN = 0.6  # a fake Seer's new result frames a villager
FRAME_REVEALED = 0.25
FRAME_ENDGAME = 0.8
BUS_CHANCE = 0.3  # a wolf joins the accusation of a mate who is lost anyway
BUS_DOOMED = 0.6
WOLF_QUIET = 0.4  # a wolf names nobody: every villager he accuses is evidence against him once revealed
STRONG = 0.6
# How sharply a villager's accusation follows a suspicion that rests on little (a
# day-one hunch, a few voices), in log-odds: the accused is drawn with odds
# exp(score / HUNCH), so one voice (ACCUSED_TODAY) makes a name 1.8 times likelier, not
# certain; strong evidence still decides alone (benchmarks/bot_tells.py).
HUNCH = 0.5


@dataclass(slots=True)
class Speech:
    role: str | None = None
    checks: list[tuple[str, str]] = field(default_factory=list)
    accuses: list[str] = field(default_factory=list)
    counter: str | None = None  # the rival claimant this speech contradicts
    liar: tuple[str, str] | None = None  # (name, role) to denounce
    strong: bool = False

    def claims(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "checks": [{"target": t, "role": r} for t, r in self.checks],
            "accuses": list(self.accuses),
        }


def heat(mem: Memory, name: str) -> float:
    """How much the table is on ``name`` right now: today's accusations, and the
    votes they drew in the last vote (the latest round cast, the last of
    ``mem.last_day_votes()``)."""
    return mem.accused_today(name) + 0.5 * mem.votes_against(name, mem.votes[-1:])


def speak(sit: Situation) -> dict[str, Any]:
    sp = _wolf_speech(sit) if sit.mem.is_wolf else _village_speech(sit)
    return {"text": words(sit, sp), "claims": sp.claims()}


def bid(sit: Situation) -> int:
    """How urgently the bot wants the floor (``discussion: bidding``), 0 to 4, from what
    it would say now: news (a role or a Seer result not told yet, a liar to expose, a
    rival claimant to answer) is worth the top bid, an accusation a high one (higher
    when strongly held), and so is a defence when the table accused it today; having
    spoken in today's debate lowers the bid, so that the others get their turn."""
    mem = sit.mem
    sp = _wolf_speech(sit) if mem.is_wolf else _village_speech(sit)
    before = mem.my_public_claim()
    told = before.checks if before else {}
    # "I am a plain villager" is a defence (below), not news
    claimed = sp.role not in (None, GOOD) and (before is None or before.role != sp.role)
    news = claimed or any(told.get(t) != r for t, r in sp.checks)
    if news or sp.counter or sp.liar:
        urgency = 4
    elif sp.accuses:
        urgency = 3 if sp.strong else 2
    else:
        urgency = 1
    if mem.accused_today(mem.me):
        urgency = max(urgency, 3)
    if mem.debated.get(mem.me) == mem.day:
        urgency -= 2
    return max(0, min(4, urgency))


# ---------------------------------------------------------------------- the village
def _village_speech(sit: Situation) -> Speech:
    mem, b = sit.mem, sit.beliefs
    sp = Speech()
    h = heat(mem, mem.me)
    before = mem.my_public_claim()
    said = before.role if before else None
    role = mem.my_role
    if role == SEER:
        _seer_speech(sit, sp, h)
    elif role in ("witch", "hunter") and (said == role or h >= (2 if role == "witch" else 1)):
        sp.role = role
    elif role in CHARACTER_SPEECHES and CHARACTER_SPEECHES[role](sit, sp, h, said):
        pass
    elif h >= 1 or said == GOOD:
        sp.role = GOOD
    liars = [n for n in mem.alive if n in b.liars and mem.claims.get(n) and mem.claims[n].role] if b.liars else None
    if liars:
        sp.liar = (liars[0], mem.claims[liars[0]].role or "")
    if not sp.accuses:
        others = [n for n in mem.alive if n != mem.me and n != mem.beloved]
        top = _suspect(sit, others)
        if top is not None:
            sp.accuses = [top]
            sp.strong = b.of(top) >= STRONG
    return sp


def _suspect(sit: Situation, others: list[str]) -> str | None:
    """Whom a villager accuses: the top suspect, except on a first day that follows a
    night, before any vote, while the evidence does not single anyone out (``STRONG``):
    then a draw weighted by suspicion (``HUNCH``) among the players not known innocent.

    Why a draw there: nobody knows anything yet, and the argmax made every villager
    repeat the first name said (82-86% of the day's accusations on one player), a tell
    a person reads at once; with a draw the first voices spread and a crowd forms as
    voices add up (``benchmarks/bot_tells.py``). It also plays better: the village of
    ``tests/test_heuristic.py``'s mixed decks won 62% of 960 games instead of 51% (the
    wolves' stricter vote, ``heuristic_votes.pack_holds_the_vote``, included).
    Why not on a day that opens the game (the forum's day 0, the Angel's): with no
    night behind it, the bandwagon is the village's one way to test somebody (who
    defends him is the evidence), and spreading it cost the forum village 79% -> 75%
    and its Ninja's aim 51% -> 39%. Once a vote is cast the argmax stands, and the
    vote always follows it, so the village gathers its votes."""
    b = sit.beliefs
    top = sit.best(others, b.rank)
    if top is None or b.of(top) <= 0:
        return None
    mem = sit.mem
    if b.of(top) >= STRONG or mem.votes or mem.day < 1:
        return top
    open_ = [n for n in others if 0.0 < b.of(n) < 1.0]
    if len(open_) < 2:
        return top
    scores = [b.score.get(n, 0.0) for n in open_]
    high = max(scores)
    weights = [math.exp((x - high) / HUNCH) for x in scores]
    return sit.rng.choices(open_, weights)[0]


# ---------------------------------------------------------------------- characters
def _angel_speech(sit: Situation, sp: Speech, h: float, said: str | None) -> bool:
    """The Angel wants the village's vote on day 0: he says he is a werewolf."""
    mem = sit.mem
    if mem.angel_done or mem.day > 0:
        # the plea failed: he explains it, which clears him of the werewolf claim
        if said is not None and said != GOOD:
            sp.role = "angel"
            return True
        return False
    sp.role = WOLF
    others = [n for n in mem.alive if n != mem.me]
    if others:
        sp.accuses = [sit.rng.choice(others)]
        sp.strong = True
    return True


def _elder_speech(sit: Situation, sp: Speech, h: float, said: str | None) -> bool:
    """Voted out, the Elder takes the village's powers with him: he says who he is
    as soon as the village looks his way."""
    if said == "elder" or h >= 1:
        sp.role = "elder"
        return True
    return False


def _bear_speech(sit: Situation, sp: Speech, h: float, said: str | None) -> bool:
    """A growl this morning: the Bear Tamer names himself and his suspect neighbour."""
    mem, b = sit.mem, sit.beliefs
    if not mem.growls.get(mem.day):
        return said == "bear_tamer" and _claim_again(sp, "bear_tamer")
    sp.role = "bear_tamer"
    near = [n for n in neighbours(mem, mem.me) if n != mem.beloved]
    top = sit.best(near, b.of)
    if top is not None:
        sp.accuses = [top]
        sp.strong = b.of(top) >= STRONG
    return True


def _fox_speech(sit: Situation, sp: Speech, h: float, said: str | None) -> bool:
    """A werewolf found among three: the Fox comes out and points at the likeliest."""
    mem, b = sit.mem, sit.beliefs
    alive = set(mem.alive)
    for group, wolf in reversed(mem.fox_results):
        suspects = [g for g in group if wolf and g in alive and g != mem.me and g != mem.beloved and b.of(g) > 0]
        if suspects:
            sp.role = "fox"
            sp.accuses = [sit.pick(suspects, b.of)]
            sp.strong = True
            return True
    return said == "fox" and _claim_again(sp, "fox")


def _claim_again(sp: Speech, role: str) -> bool:
    sp.role = role
    return True


CHARACTER_SPEECHES = {
    "angel": _angel_speech,
    "elder": _elder_speech,
    "bear_tamer": _bear_speech,
    "fox": _fox_speech,
}


def _seer_speech(sit: Situation, sp: Speech, h: float) -> None:
    """Come out when it pays: a wolf found, a rival claimant, suspicion on her, or
    too few players left for her cover to matter."""
    mem = sit.mem
    results = mem.seer_results
    alive = set(mem.alive)
    found = [t for t, r in results.items() if is_wolf_role(r) and t in alive]
    rivals = [c for c, cl in mem.claims.items() if c != mem.me and c in alive and cl.role == SEER]
    before = mem.my_public_claim()
    late = len(alive) <= 5 or (mem.day >= 3 and len(results) >= 2)
    last = sit.decision.context.get("phase") == "last_words"  # nothing left to hide
    if not (before and before.role == SEER) and not found and not rivals and h < 2 and not late and not last:
        return
    sp.role = SEER
    sp.checks = [(t, WOLF if is_wolf_role(r) else GOOD) for t, r in results.items()]
    if rivals:
        sp.counter = rivals[0]
    sp.accuses = found or rivals
    sp.strong = bool(sp.accuses)


# ---------------------------------------------------------------------- the pack
def _first_speech_day(mem: Memory) -> int:
    """The first day with speeches: day 0 when the game opens with a day (the Angel)."""
    return 0 if "angel" in mem.roles_in_play else 1


def _real_seers(mem: Memory) -> list[str]:
    """Living Seer claimants outside the pack, in the order they came out."""
    alive = set(mem.alive)
    named = [c for c, cl in mem.claims.items() if c in alive and c not in mem.pack and cl.role == SEER]
    return sorted(named, key=lambda c: mem.claims[c].since.get(SEER, 0))


def _exposure(mem: Memory, real: list[str]) -> tuple[str, str, int] | None:
    """The latest (Seer claimant, named wolf of the pack, rank of the speech) when a
    Seer claimant outside the pack (``real``: ``_real_seers``) has named a living wolf."""
    alive = set(mem.alive)
    found: tuple[str, str, int] | None = None
    for c in real:
        for t, r in mem.claims[c].checks.items():
            if t in mem.pack and t in alive and is_wolf_role(r):
                rank = mem.claims[c].told.get(t, 0)
                if found is None or rank > found[2]:
                    found = (c, t, rank)
    return found


def _first_wolf_since(mem: Memory, rank: int) -> bool:
    """No mate has spoken since the speech of that rank: this wolf answers first."""
    return not any(mem.spoken.get(w, (0, -1))[1] > rank for w in mem.pack if w != mem.me)


def bluff_chance(mem: Memory) -> float:
    """How often a pack opens with a fake Seer claim. A fake Seer who speaks first is
    believed over the real one, who then looks like the usual late counter-claim; where
    the dead show their cards, the lie is exposed by the first reveal that contradicts
    it, so the pack bluffs less and frames less."""
    base = BLUFF_HIDDEN if mem.cards_hidden else BLUFF_REVEALED
    wolves = max(1, len(mem.pack))
    return min(1.0, base * (1.0 + BLUFF_PER_WOLF * (wolves - 2)))


def _plan_fake_claim(sit: Situation, real: list[str]) -> str | None:
    """Whether this wolf tells the pack's fake Seer story in this speech: ``counter``
    (a real Seer named a mate: the first wolf to speak after it answers, the whole pack
    having drawn the same dice), ``bluff`` (the pack opens with the claim on the first
    day, through its first wolf to speak, before any real Seer), or None. ``real``:
    ``_real_seers``, listed once per speech."""
    mem, plan = sit.mem, sit.plan
    if SEER not in mem.roles_in_play or mem.count_in_play(SEER) != 1:
        return None  # a Seer claim where the deck has none is a proven lie
    if sit.pack_claimant() not in (None, mem.me) or any(
        mem.claims.get(w) is not None and mem.claims[w].role == SEER for w in mem.pack if w in mem.dead
    ):
        return None
    mine = mem.my_public_claim()
    if mine is not None and mine.role not in (None, GOOD):
        return None  # another story told already: a second one is a proven lie
    exposed = _exposure(mem, real)
    if exposed is not None:
        seer, named, rank = exposed
        key = ("counter", seer, named)
        if key not in plan:
            plan[key] = _first_wolf_since(mem, rank) and sit.pack_dice(*key) < counter_chance(mem, named)
        if plan[key]:
            return "counter"
        return None
    if real or mem.day > _first_speech_day(mem):
        return None
    if "bluff" not in plan:
        first = all(mem.spoken.get(w, (-1, 0))[0] < mem.day for w in mem.pack if w != mem.me)
        plan["bluff"] = first and sit.pack_dice("bluff") < bluff_chance(mem)
    return "bluff" if plan["bluff"] else None


def counter_chance(mem: Memory, named: str) -> float:
    """A named wolf is lost without an answer; the answer costs the pack its claimant
    where the reveals will contradict him."""
    return COUNTER_HIDDEN if mem.cards_hidden else COUNTER_REVEALED


def _wolf_speech(sit: Situation) -> Speech:
    mem, pub, rng = sit.mem, sit.public, sit.rng
    sp = Speech()
    me = mem.me
    alive = mem.alive
    mates = [w for w in sit.pack_alive if w != me]
    real = _real_seers(mem)
    h = heat(mem, me)
    mine = mem.my_public_claim()
    fake = bool(mine and mine.role == SEER) or _plan_fake_claim(sit, real) is not None
    if fake:
        sp.role = SEER
        sp.checks = _fake_checks(sit, real, mates)
        framed = [t for t, r in sp.checks if r == WOLF and t in alive]
        sp.accuses = framed[-1:]
        sp.counter = real[0] if real else None
        sp.strong = bool(framed)
    elif h >= 1:
        sp.role = GOOD
    if not sp.accuses:
        claimant = sit.pack_claimant()
        framed_by_pack = sit.framed()
        story = [t for t in alive if t in framed_by_pack]  # seat order: a set's order changes with the hash seed
        doomed = [m for m in mates if pub.of(m) >= BUS_DOOMED and m != claimant]
        if story:  # back the mate's fake Seer: his wolf is the pack's candidate
            sp.accuses = [sit.pick(story, pub.of)]
            sp.strong = True
        elif doomed and rng.random() < BUS_CHANCE:
            sp.accuses = [doomed[0]]
        else:
            pool = [n for n in alive if n not in mem.pack and n != mem.beloved]
            top: str | None = sit.best(pool, lambda n: pub.of(n) + (0.5 if n in real and claimant else 0.0))
            # Every villager a wolf names is evidence against him once the card turns
            # (even joining the crowd: it adds his name to the villager's accusers), so he
            # deflects when he is the one under fire and otherwise often keeps his counsel.
            if top is not None and (h >= 1 or rng.random() >= WOLF_QUIET):
                sp.accuses = [top]
                sp.strong = pub.of(top) >= STRONG
    return sp


def _fake_checks(sit: Situation, real: list[str], mates: list[str]) -> list[tuple[str, str]]:
    """One invented result per night so far, kept consistent from day to day. The real
    Seer is the first wolf found; then, where cards stay hidden, the village's own
    suspect is framed (easy to believe, never disproved); where the dead show their
    cards a frame is exposed by the framed one's death, so the fake Seer mostly clears
    villagers (true, hence safe) and frames only when a vote decides the game."""
    mem, rng, pub = sit.mem, sit.rng, sit.public
    checks: dict[str, str] = sit.plan.setdefault("fake_checks", {})
    alive = mem.alive
    hidden = mem.cards_hidden
    for c in real:  # a rival who came out since: he is the wolf tonight's look found
        if c not in checks and len(checks) >= max(1, mem.day):
            checks[c] = WOLF
    villagers = len([n for n in alive if n not in mem.pack])
    endgame = villagers - len(sit.pack_alive) <= 2
    frame_chance = FRAME_HIDDEN if hidden else (FRAME_ENDGAME if endgame else FRAME_REVEALED)
    while len(checks) < max(1, mem.day):
        fresh = [n for n in alive if n not in mem.pack and n not in checks and n != mem.beloved]
        rivals = [c for c in real if c not in checks]
        if rivals:
            checks[rivals[0]] = WOLF
        elif fresh and rng.random() < frame_chance:
            checks[sit.pick(fresh, lambda n: pub.of(n) - (1.0 if mem.claims.get(n) and mem.claims[n].role not in (None, GOOD) else 0.0))] = WOLF
        elif fresh and (not hidden or not mates or rng.random() < 0.5):
            checks[sit.pick(fresh, lambda n: -pub.of(n))] = GOOD  # a trusted villager: true, so it never backfires
        elif mates:
            clean = [m for m in mates if m not in checks]
            if not clean:
                break
            checks[sit.pick(clean, pub.of)] = GOOD
        else:
            break
    return list(checks.items())


def wolf_chat(sit: Situation) -> dict[str, Any]:
    """The first wolf proposes; the others agree unless they cannot (a wolf never
    devours its beloved), in which case they counter-propose. ``wolf_kill`` then
    follows the latest proposal, so the pack is unanimous."""
    mem = sit.mem
    tonight = mem.chat_targets.get(mem.day, [])
    legal = kill_options(mem, sit.decision.context.get("victims"))
    proposal = tonight[-1][1] if tonight else None
    if proposal in legal:
        return {"text": sit.say("wolf_chat.agree", target=proposal), "target": proposal}
    target = choose_victim(sit, legal)
    if target is None:
        return {"text": ""}
    if proposal is not None:
        return {"text": sit.say("wolf_chat.counter", target=target, other=proposal), "target": target}
    return {"text": sit.say("wolf_chat.propose", target=target), "target": target}


# ---------------------------------------------------------------------- wording
def _opening(sit: Situation) -> str:
    """The speech's first words, true to the moment: a seat greets the table once a
    day (not again in every debate round), speaks as the condemned in its last words,
    and only mourns a night that took someone."""
    mem = sit.mem
    if sit.decision.context.get("phase") == "last_words":
        return sit.say("opening.last_words")
    if mem.phase == "campaign":
        return sit.say("opening.campaign")
    if mem.spoken.get(mem.me, (None,))[0] == mem.day:
        return ""  # already greeted today: straight to the point
    if mem.day == 0:
        return sit.say("opening.opening_day")
    if mem.day == 1:
        return sit.say("opening.first_day")
    return sit.say("opening.quiet_night" if mem.day in mem.quiet_dawns else "opening.later_day")


def words(sit: Situation, sp: Speech) -> str:
    parts = [_opening(sit)]
    if sp.role == SEER:
        if sp.counter:
            parts.append(sit.say("seer_counter_claim", target=sp.counter))
        else:
            parts.append(sit.say("seer_claim"))
        for t, r in sp.checks[-2:]:
            key = "seer_check_wolf" if r == WOLF else "seer_check_good"
            parts.append(sit.say(key, target=t, verdict=sit.role_name(r)))
    elif sp.role in ("witch", "hunter"):
        parts.append(sit.say(f"claim_{sp.role}"))
    elif sp.role == GOOD:
        parts.append(sit.say("claim_villager"))
    elif sp.role:
        parts.append(sit.say("claim_other", role=sit.role_name(sp.role)))
    if sp.liar:
        parts.append(sit.say("liar", target=sp.liar[0], role=sit.role_name(sp.liar[1])))
    if sp.accuses:
        for t in sp.accuses[:2]:
            parts.append(sit.say("accuse_strong" if sp.strong else "accuse", target=t))
    else:
        parts.append(sit.say("no_lead"))
    return join(parts, sit.lang)

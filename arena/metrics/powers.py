"""Power accuracy: do the targeted powers land where they help, more often than chance?

Votes get a "vs chance" measure (``votes.py``); this is the same for the powers that
name a player. Every answered decision of a kind in ``POWERS`` that names a target is
one *use*: who used it, on whom, whether that target was a werewolf at that moment
(``Truth``: a converted player counts from his conversion on, a dead one as he died),
whether the use was *good*, and the *chance* of a good use: the share of good targets
among the decision's legal options, which every answer record holds (for an old record
without them, among the living players other than the actor at that moment; the
Priest's among the dead). Summing the chances over uses gives the good uses a random
pick would expect, so ``ratio`` = good / expected is 1 for a seat that picks at random
whatever the table, above 1 for one that reads the table. A pass (``null``) is no use.

What "good" means is the table below, one line per kind, from the point of view of the
side the power belongs to (``side``):

- ``wolf``: the target is a werewolf (the powers that accuse, check, strike or bar).
- ``not_wolf``: the target is no werewolf (the powers that protect, give or restore).
- ``auxiliary``: the target holds an Auxiliary Role, any human card but the Civilian's
  (the forum's Pack Leader, a wolf, sniffs non-wolves only: a wolf is never among his
  options, what he hunts is the humans' powers).

**A wolf-side actor is measured from the wolves' side.** A player who is a werewolf when
he uses a village power (an infected Seer, a Wild Child turned, a Witch dealt into the
pack by the Mad Scientist, a wolf who lives in the Barber's shop) serves the pack: his
use is good when it is bad for the village (his poison on a human, his guard on a
wolf), and the reverse for a villager who would use a wolf power. Each use records the
actor's side at that moment (``side``); the sums per kind and per agent and side keep the
sides apart, so the village's accuracy is never mixed with the pack's. A seat's and an
agent's overall totals add both, each use judged for its own side. (The seat's ``wolf``
flag and the votes metric read the cards at the end, which a conversion keeps: a turned
Wild Child's uses after his turn are the pack's here, whatever that flag says.)

``castellan_pardon`` is a yes/no about the condemned, whom the village's vote chose
(the answer record's options are ``[true, false]``): every answer is a use whose target
is the condemned (read from the ``pardoned`` / ``pardon_refused`` event that follows);
it is good when it spares a non-wolf or refuses a wolf (from the village's side), and
chance is 1/2, the share of right answers among the two.

The kinds come from the engine (``engine.roles.DECISION_KINDS``): each registered kind
is either in ``POWERS`` or in ``NOT_MEASURED`` with the reason, and the tests check that
no kind is in neither, so a new role's decision has to be placed here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from arena.metrics.load import GameRecord, Truth

VILLAGE, WEREWOLVES = "village", "werewolves"
WOLF, NOT_WOLF, AUXILIARY = "wolf", "not_wolf", "auxiliary"
# Cards that hold no Auxiliary Role (the forum's Civilian; the base game's Villager).
PLAIN = ("civilian", "villager")


@dataclass(frozen=True, slots=True)
class Power:
    good: str  # WOLF, NOT_WOLF or AUXILIARY: what a good target is, for ``side``
    side: str = VILLAGE  # whose power it is
    pool: str = "living"  # without recorded options: "living" others, or the "dead"
    note: str = ""


POWERS: dict[str, Power] = {
    # the village's powers that find, strike or bar a suspect: good on a werewolf
    "seer_check": Power(WOLF, note="the Seer sees a card"),
    "witch_poison": Power(WOLF, note="the Witch's poison"),
    "hunter_shot": Power(WOLF, note="the dying Hunter's shot"),
    "fox_sniff": Power(WOLF, note="the Fox's sniff (the named player; his neighbours are not counted)"),
    "raven_mark": Power(WOLF, note="the Raven's poster: two votes against"),
    "barber_shave": Power(WOLF, note="the Barber's razor"),
    "confessor_hear": Power(WOLF, note="the Confessor sees a card"),
    "arsonist_burn": Power(WOLF, note="the fire: the home's occupant is the target"),
    "schoolmistress_forbid": Power(WOLF, note="a pupil barred from the vote (each of the two answers)"),
    "vigilante_shoot": Power(WOLF, note="the forum's Vigilante"),
    "ninja_kill": Power(WOLF, note="the forum's Ninja (a human): a night kill"),
    "psychic_read": Power(WOLF, note="the forum's Psychic reads a card"),
    # the village's powers that shield, give or restore: good on a non-wolf
    "protector_guard": Power(NOT_WOLF, note="the Protector's guard"),
    "guardian_angel_protect": Power(NOT_WOLF, note="the forum's Guardian Angel"),
    "bonesetter_restore": Power(NOT_WOLF, note="a spent building power given back"),
    "bailiff_assign": Power(NOT_WOLF, note="a home (and its power) given to a Vagabond"),
    "priest_revive": Power(NOT_WOLF, pool="dead", note="the forum's Priest brings a dead player back"),
    "castellan_pardon": Power(NOT_WOLF, note="yes/no: spare the condemned (good: spare a non-wolf, refuse a wolf)"),
    # the pack's check
    "pack_leader_sniff": Power(AUXILIARY, side=WEREWOLVES, note="the Pack Leader looks for Auxiliary Roles among humans"),
}

NOT_MEASURED: dict[str, str] = {
    "vote": "a vote: the votes metric",
    "vote_change": "a vote: the votes metric",
    "sheriff_vote": "an election, not a power",
    "sheriff_tiebreak": "a vote's tie, among the tied",
    "sheriff_successor": "a title passed on, not a power",
    "sheriff_run": "yes/no: running for the title (狼人杀 candidacy), not a power",
    "sheriff_withdraw": "yes/no: leaving the race for the title, not a power",
    "speak": "talk: the claims are checked by the deception metric",
    "bid": "a bid for the floor (discussion: bidding), not a power",
    "wolf_chat": "the pack's talk",
    "sister_chat": "the Sisters' talk",
    "ghost_note": "a dead player's note",
    "ghost_note_delivery": "how a note is delivered",
    "wolf_kill": "the pack's kill: its options are humans, the wolves know who is who",
    "big_bad_wolf_kill": "a wolf's kill among non-wolves",
    "white_werewolf_kill": "a kill among the wolves, for a solitary goal",
    "infect_father_infect": "yes/no about the pack's victim",
    "witch_heal": "yes/no about the pack's victim, never a wolf the pack knows",
    "little_girl_spy": "yes/no, no target",
    "insomniac_stay_awake": "yes/no, no target",
    "forum_seer_sense": "yes/no, no target (a count of wolves)",
    "castellan_plea": "the condemned asks for himself",
    "vagabond_accept": "yes/no about a home",
    "thief_swap": "a card, not a player",
    "wolf_hound_side": "a side, not a player",
    "building_choice": "a building, not a player",
    "cupid_lovers": "a pair chosen on the first night, before anything is known",
    "cupid_deceiver": "one of the Lovers, Cupid's second pair",
    "cupid_paramour": "Cupid's second pair, on the first night",
    "wild_child_model": "a model chosen on the first night; no target is better for the village",
    "pied_piper_charm": "a solitary goal: every player is to be charmed",
    "mad_scientist_dose": "a lottery: a human may become a wolf, a wolf the Pack Leader; no target is good",
}


def unclassified() -> set[str]:
    """Registered decision kinds that are in neither table (should be none)."""
    from engine.roles import DECISION_KINDS

    return set(DECISION_KINDS) - set(POWERS) - set(NOT_MEASURED)


def unknown() -> set[str]:
    """Kinds of the tables that the engine does not register (a misspelling)."""
    from engine.roles import DECISION_KINDS

    return (set(POWERS) | set(NOT_MEASURED)) - set(DECISION_KINDS)


def _good_target(power: Power, truth: Truth, name: str) -> bool:
    if power.good == WOLF:
        return truth.is_wolf(name)
    if power.good == NOT_WOLF:
        return not truth.is_wolf(name)
    return not truth.is_wolf(name) and truth.role_of(name) not in PLAIN


def _condemned(records: list[dict[str, Any]], i: int, castellan: str) -> str | None:
    """The player a ``castellan_pardon`` answer at ``records[i]`` was about: the next
    ``pardoned`` / ``pardon_refused`` event of that Castellan."""
    for r in records[i + 1 :]:
        if r.get("type") != "event":
            continue
        if r.get("kind") in ("pardoned", "pardon_refused"):
            data = r.get("data") or {}
            if data.get("castellan") == castellan and isinstance(data.get("player"), str):
                return data["player"]
    return None


def power_uses(g: GameRecord) -> list[dict[str, Any]]:
    """Every use of a targeted power, in file order (see the module docstring)."""
    truth = Truth(g)
    out: list[dict[str, Any]] = []
    day = 0
    records = g.records
    for i, r in enumerate(records):
        t = r.get("type")
        if t == "event":
            truth.see(r)
            day = int(r.get("day", day))
            continue
        if t != "answer":
            continue
        kind = r.get("kind")
        power = POWERS.get(kind)  # type: ignore[arg-type]
        actor = r.get("seat")
        if power is None or not isinstance(actor, str):
            continue
        side = WEREWOLVES if truth.is_wolf(actor) else VILLAGE
        flip = side != power.side  # measured from the actor's side (module docstring)
        answer = r.get("answer")
        if kind == "castellan_pardon":
            target = _condemned(records, i, actor)
            if target is None or not isinstance(answer, (bool, type(None))):
                continue
            good = bool(answer) == (_good_target(power, truth, target) != flip)
            chance = 0.5
        else:
            if not isinstance(answer, str):
                continue  # a pass, or a shape this measure does not read
            target = answer
            options = [o for o in r.get("options") or [] if isinstance(o, str)]
            if not options:
                pool = truth.dead() if power.pool == "dead" else truth.living()
                options = [n for n in pool if n != actor]
            good = _good_target(power, truth, target) != flip
            chance = (sum(1 for o in options if _good_target(power, truth, o) != flip) / len(options)) if options else 0.0
        out.append(
            {
                "day": day,
                "seat": actor,
                "kind": kind,
                "side": side,
                "target": target,
                "answer": answer,
                "target_wolf": truth.is_wolf(target),
                "good": good,
                "chance": chance,
            }
        )
    return out


def _empty() -> dict[str, Any]:
    return {"uses": 0, "good": 0, "expected_good": 0.0, "wolf_targets": 0}


def _add(acc: dict[str, Any], u: dict[str, Any]) -> None:
    acc["uses"] += 1
    acc["good"] += int(u["good"])
    acc["expected_good"] += u["chance"]
    acc["wolf_targets"] += int(u["target_wolf"])


def power_metrics(g: GameRecord) -> dict[str, Any]:
    """The uses, and their counts per seat and per kind and side (additive: ``uses``,
    ``good``, ``expected_good``, ``wolf_targets``; ``rate``, ``chance_rate`` and
    ``ratio`` derived)."""
    uses = power_uses(g)
    seats: dict[str, dict[str, Any]] = {n: _empty() for n in g.names}
    kinds: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for u in uses:
        _add(seats.setdefault(u["seat"], _empty()), u)
        _add(kinds[u["kind"]].setdefault(u["side"], _empty()), u)
    for acc in [*seats.values(), *(a for k in kinds.values() for a in k.values())]:
        finish(acc)
    return {"uses": uses, "seats": seats, "kinds": {k: dict(sorted(v.items())) for k, v in sorted(kinds.items())}}


def finish(acc: dict[str, Any]) -> dict[str, Any]:
    n, e = acc["uses"], acc["expected_good"]
    acc["rate"] = acc["good"] / n if n else None
    acc["chance_rate"] = e / n if n else None
    acc["ratio"] = acc["good"] / e if e > 0 else None
    return acc

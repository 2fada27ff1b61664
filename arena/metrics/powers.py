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

The kinds come from the engine (``engine.decisions.DECISION_KINDS``): each kind's
declaration names the ``Power`` it aims or says why it is not measured (the declaration
refuses neither or both), so a new role's decision is placed where it is declared.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from arena.metrics.load import GameRecord, Truth, payload_is
from engine.buildings.castellan import CASTELLAN_PARDON, PardonRefused, Pardoned
from engine.decisions import DECISION_KINDS, NOT_WOLF, WOLF, Power
from engine.roles.civilian import PLAIN  # the cards without an Auxiliary Role

VILLAGE, WEREWOLVES = "village", "werewolves"

# One line per measured kind, from the kinds' own declarations (``engine.decisions.decision``):
# each kind declares either the ``Power`` it aims or why it is not measured.
POWERS: dict[str, Power] = {name: kind.power for name, kind in DECISION_KINDS.items() if kind.power is not None}
POWER_KINDS = frozenset(POWERS)  # the answers ``power_uses`` reads (``GameRecord.walk``)
NOT_MEASURED: dict[str, str] = {name: kind.unmeasured for name, kind in DECISION_KINDS.items() if kind.power is None}


def _good_target(power: Power, truth: Truth, name: str) -> bool:
    if power.good == WOLF:
        return truth.is_wolf(name)
    if power.good == NOT_WOLF:
        return not truth.is_wolf(name)
    return not truth.is_wolf(name) and truth.role_of(name) not in PLAIN


def _condemned(g: GameRecord, i: int, castellan: str) -> str | None:
    """The player a ``castellan_pardon`` answer at ``g.records[i]`` was about: the next
    ``pardoned`` / ``pardon_refused`` event of that Castellan."""
    for r in g.records[i + 1 :]:
        if r.get("type") != "event":
            continue
        d = g.typed(r).data
        if (payload_is(d, Pardoned) or payload_is(d, PardonRefused)) and d.castellan == castellan:
            return d.player
    return None


def power_uses(g: GameRecord) -> list[dict[str, Any]]:
    """Every use of a targeted power, in file order (see the module docstring)."""
    truth = Truth(g)
    out: list[dict[str, Any]] = []
    for i, day, r, event in g.walk(POWER_KINDS):
        if event is not None:
            truth.see(event)
            continue
        kind = r.get("kind")
        power = POWERS.get(kind)  # type: ignore[arg-type]
        actor = r.get("seat")
        if power is None or not isinstance(actor, str):
            continue
        side = WEREWOLVES if truth.is_wolf(actor) else VILLAGE
        flip = side != power.side  # measured from the actor's side (module docstring)
        answer = r.get("answer")
        if kind == CASTELLAN_PARDON:
            target = _condemned(g, i, actor)
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

"""Votes: do seats vote for wolves more often than chance would, and who leads.

Each day vote a seat casts (every round, revotes included) is scored against the
truth. Chance is what a uniformly random pick among that ballot's legal targets would
give: the share of wolves among them. Summing those shares over a seat's ballots gives
the wolf votes expected by chance, so ``ratio`` = wolf votes / expected is 1 for a
random voter whatever the table size or the number of wolves left, and above 1 for a
seat that finds wolves. A werewolf's vote for a wolf (sacrificing a partner) is scored
the same way, separately.

Agreement with the majority compares each seat's last-round ballot of a day with the
player that day's vote eliminated (days without an elimination are skipped).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from arena.metrics.load import GameRecord, Truth, payload_is
from arena.ratings.behaviour import ratio
from engine.flow.voting import Eliminated, VoteResult

VOTE_KINDS = ("vote",)


def ballots(g: GameRecord) -> list[dict[str, Any]]:
    """Every day-vote answer with its day, the voter's side and chance of a wolf hit,
    each as things stood when the vote was cast (``Truth``: a player infected or turned
    since the deal is a wolf from then on, not before)."""
    truth = Truth(g)
    out: list[dict[str, Any]] = []
    for _, day, r, event in g.walk(VOTE_KINDS):
        if event is not None:
            truth.see(event)
            continue
        options = [o for o in r.get("options") or [] if isinstance(o, str)]
        target = r.get("answer")
        chance = (sum(1 for o in options if truth.is_wolf(o)) / len(options)) if options else 0.0
        out.append(
            {
                "day": day,
                "voter": r["seat"],
                "voter_wolf": truth.is_wolf(r["seat"]),
                "target": target if isinstance(target, str) else None,
                "hit": isinstance(target, str) and truth.is_wolf(target),
                "chance": chance,
            }
        )
    return out


def majority_agreement(g: GameRecord) -> dict[str, dict[str, int]]:
    """Per seat: days it voted in the final round of a decided vote, and how often it
    voted for the player eliminated."""
    last_round: dict[int, VoteResult] = {}
    eliminated: dict[int, str] = {}
    for e, _ in g.of((VoteResult, Eliminated)):
        if payload_is(e.data, VoteResult):
            d = int(e.day)
            if d not in last_round or e.data.round >= last_round[d].round:
                last_round[d] = e.data
        elif payload_is(e.data, Eliminated) and e.phase == "vote":
            eliminated[int(e.day)] = e.data.player
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"n": 0, "agree": 0})
    for d, data in last_round.items():
        target = eliminated.get(d)
        if target is None:
            continue
        for voter, pick in (data.votes or {}).items():
            if pick is None:
                continue
            out[voter]["n"] += 1
            out[voter]["agree"] += int(pick == target)
    return dict(out)


def vote_metrics(g: GameRecord) -> dict[str, Any]:
    """Per seat and per side: ballots cast, abstentions, wolf votes, chance and ratio."""
    seats: dict[str, dict[str, Any]] = {n: {"ballots": 0, "abstained": 0, "wolf_votes": 0, "expected_wolf_votes": 0.0} for n in g.names}
    for b in ballots(g):
        s = seats.setdefault(b["voter"], {"ballots": 0, "abstained": 0, "wolf_votes": 0, "expected_wolf_votes": 0.0})
        if b["target"] is None:
            s["abstained"] += 1
            continue
        s["ballots"] += 1
        s["wolf_votes"] += int(b["hit"])
        s["expected_wolf_votes"] += b["chance"]
    agree = majority_agreement(g)
    for name, s in seats.items():
        a = agree.get(name, {"n": 0, "agree": 0})
        s["majority_n"], s["majority_agree"] = a["n"], a["agree"]
        s["ratio"] = ratio(s["wolf_votes"], s["expected_wolf_votes"])
    sides = {}
    for side, wolf in (("village", False), ("werewolves", True)):
        members = [s for n, s in seats.items() if g.is_wolf(n) == wolf]
        k = sum(s["wolf_votes"] for s in members)
        n = sum(s["ballots"] for s in members)
        e = sum(s["expected_wolf_votes"] for s in members)
        sides[side] = {"ballots": n, "wolf_votes": k, "expected_wolf_votes": e, "rate": k / n if n else None,
                       "chance_rate": e / n if n else None, "ratio": ratio(k, e)}  # fmt: skip
    return {"seats": seats, "sides": sides}

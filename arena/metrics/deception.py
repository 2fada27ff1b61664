"""Deception: every public claim checked against the hidden truth.

A speech's structured claims are of three kinds, each judged two ways: whether it is
*true* (a fact about the game) and whether it is a *lie* (the speaker knew better):

- role: "I am the Seer". True when it is the speaker's role; false means a lie, since
  everyone knows their own card. The two cards without a power are one claim: a
  forum Civilian saying "I'm a plain villager" tells the truth.
- check: "I looked at Bob: a werewolf". True when the claimed side (wolf or not)
  matches Bob's; a lie unless the speaker had that very result from the Seer's power
  before speaking, so a fabricated check is a lie even when it happens to be right.
- accusation: "Bob is a wolf". True when Bob is a wolf; a lie only when the speaker
  knew Bob is innocent (a werewolf knows the pack; a Seer knows whom it cleared). A
  villager wrongly accusing an innocent is mistaken, not lying.

Whether a lie worked is read from what followed on the same day: the liar was still
alive at its end (not asked of last words, said once the liar was out); and when the lie pointed at an innocent (a false accusation, a
fabricated wolf result), how many ballots from the village (not the liar, not the
wolves, who know better) went onto that innocent after the claim, and whether the
innocent was voted out. A lie that cleared a wolf worked when that wolf survived the day.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from arena.metrics.load import GameRecord, is_wolf_role, payload_is
from engine.flow.voting import Eliminated, VoteResult
from engine.roles.civilian import PLAIN
from engine.roles.seer import SeerResult
from engine.speech import Speech


def claims(g: GameRecord) -> list[dict[str, Any]]:
    """Each public claim with its verdict, in the order spoken."""
    wolves = g.wolves
    seen: dict[str, dict[str, bool]] = defaultdict(dict)  # seer -> target -> saw a wolf
    out: list[dict[str, Any]] = []
    for e, data in g.of((SeerResult, Speech)):
        if payload_is(data, SeerResult):
            seen[data.seer][data.target] = is_wolf_role(data.role)
            continue
        if not payload_is(data, Speech) or not data.claims:
            continue
        speaker = data.speaker
        c = data.claims
        base = {"seat": speaker, "role": g.roles.get(speaker), "day": e.day, "seq": e.seq, "phase": e.phase}
        if c.get("role"):
            held = g.roles.get(speaker)
            true = c["role"] == held or (c["role"] in PLAIN and held in PLAIN)
            out.append({**base, "kind": "role", "claim": c["role"], "target": None, "true": true, "lie": not true})
        for chk in c.get("checks") or []:
            target, says_wolf = chk.get("target"), is_wolf_role(chk.get("role", ""))
            true = says_wolf == (target in wolves)
            backed = seen[speaker].get(target) is not None and seen[speaker][target] == says_wolf
            out.append({**base, "kind": "check", "claim": chk.get("role"), "target": target, "true": true, "lie": not backed,
                        "says_wolf": says_wolf})  # fmt: skip
        for target in c.get("accuses") or []:
            true = target in wolves
            knew_innocent = (speaker in wolves and target not in wolves) or seen[speaker].get(target) is False
            out.append({**base, "kind": "accusation", "claim": "werewolf", "target": target, "true": true,
                        "lie": knew_innocent, "says_wolf": True})  # fmt: skip
    return out


def _effects(g: GameRecord, claim: dict[str, Any]) -> dict[str, Any]:
    """What followed a lie on its day."""
    day, seq, liar = claim["day"], claim["seq"], claim["seat"]
    wolves = g.wolves
    deaths = g.deaths()
    eff: dict[str, Any] = {}
    if any(d.player == liar and d.seq < seq for d in deaths):
        eff["posthumous"] = True  # last words: the liar was already out, survival says nothing
    else:
        eff["liar_survived_day"] = not any(d.player == liar and d.day == day and d.seq > seq for d in deaths)
    target = claim.get("target")
    if target is None:
        return eff
    if claim.get("says_wolf") and target not in wolves:
        voters = set()
        for e, vote in g.of(VoteResult):
            if e.day == day and e.seq > seq:
                for voter, pick in (vote.votes or {}).items():
                    if pick == target and voter != liar and voter not in wolves:
                        voters.add(voter)
        eff["innocent_target"] = target
        eff["village_votes_on_innocent"] = len(voters)
        eff["innocent_voted_out"] = any(e.day == day and e.seq > seq and gone.player == target for e, gone in g.of(Eliminated))
    elif not claim.get("says_wolf", True) and target in wolves:
        eff["covered_wolf"] = target
        eff["covered_wolf_survived_day"] = not any(d.player == target and d.day == day and d.seq > seq for d in deaths)
    return eff


def deception_metrics(g: GameRecord) -> dict[str, Any]:
    """Every claim with its verdict (and, for lies, what followed), plus per-seat and
    per-role counts."""
    all_claims = claims(g)
    for c in all_claims:
        if c["lie"]:
            c.update(_effects(g, c))
    per_seat: dict[str, dict[str, int]] = {n: _zero() for n in g.names}
    per_role: dict[str, dict[str, int]] = defaultdict(_zero)
    for c in all_claims:
        for bucket in (per_seat.setdefault(c["seat"], _zero()), per_role[c["role"] or "?"]):
            _count(bucket, c)
    return {"claims": all_claims, "seats": per_seat, "roles": dict(per_role)}


def _zero() -> dict[str, int]:
    return {"claims": 0, "false": 0, "lies": 0, "lies_alive": 0, "lies_survived": 0, "lies_on_innocents": 0,
            "village_votes_on_innocents": 0, "innocents_voted_out": 0}  # fmt: skip


def _count(b: dict[str, int], c: dict[str, Any]) -> None:
    b["claims"] += 1
    b["false"] += int(not c["true"])
    if not c["lie"]:
        return
    b["lies"] += 1
    if not c.get("posthumous"):
        b["lies_alive"] += 1
        b["lies_survived"] += int(c.get("liar_survived_day", False))
    if "innocent_target" in c:
        b["lies_on_innocents"] += 1
        b["village_votes_on_innocents"] += c["village_votes_on_innocent"]
        b["innocents_voted_out"] += int(c["innocent_voted_out"])

"""Rule-following: how often a model seat's replies were refused, kept apart from skill.

A refused reply (malformed, or illegal at that moment) is re-asked; a decision that
never got a legal reply is answered by the fallback bot. Both are read from the
transcript's ``call`` records, per seat, and normalised by the decisions the seat was
asked, so a chatty seat and a quiet one compare. Bots make no calls and have no row.
The private ``beliefs`` question is not a decision of the game: its calls (kind
``beliefs``) count in cost, not here; a belief never given is ``missing`` in beliefs.

An agent of one's own (``py:MODULE:CLASS``) has a record only for the decisions the
fallback bot played for it (``agents.own_seat``): its decisions are its answers, so
its row (one whenever it played) counts every decision it was asked, and the share
the fallback bot played reads as a model seat's does (the leaderboard's
``--min-decided``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from arena.metrics.load import GameRecord
from transcripts.call_counts import is_own_agent

EXAMPLES = 3


def _row() -> dict[str, Any]:
    return {"decisions": 0, "violations": 0, "fallbacks": 0, "errors": 0, "retries": 0, "examples": []}


def rule_metrics(g: GameRecord) -> dict[str, Any]:
    seats: dict[str, dict[str, Any]] = {}
    decisions: dict[str, set] = defaultdict(set)
    for a in g.answers:
        if is_own_agent(str(a.get("agent") or "")):
            seat = a.get("seat", "?")
            seats.setdefault(seat, _row())
            decisions[seat].add(a.get("decision"))
    for c in g.calls:
        if c.get("kind") == "beliefs":
            continue
        seat = c.get("seat", "?")
        s = seats.setdefault(seat, _row())
        decisions[seat].add(c.get("decision"))
        if c.get("violation"):
            s["violations"] += 1
            if len(s["examples"]) < EXAMPLES:
                s["examples"].append(f"{c.get('kind')}: {c['violation']}")
        s["fallbacks"] += int(bool(c.get("fallback")))
        s["errors"] += int(bool(c.get("error")))
        s["retries"] += int(c.get("retries") or 0)
    for seat, s in seats.items():
        s["decisions"] = len(decisions[seat])
        s["violation_rate"] = s["violations"] / s["decisions"] if s["decisions"] else None
        s["fallback_rate"] = s["fallbacks"] / s["decisions"] if s["decisions"] else None
    return {"seats": seats}

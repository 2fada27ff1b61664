"""Fallback moves kept apart from a participant's rating.

A model seat whose call fails is played by the heuristic bot for that decision; those
moves are not the model's. A game counts only when every participant's own agent made
at least ``MIN_DECIDED`` of its decisions in it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Sequence

from arena.ratings.games import GameOutcome

MIN_DECIDED = 0.9  # a seat's games count when its own agent decided at least this share


def decided_share(game: GameOutcome, participant: str) -> float:
    """The share of the participant's decisions in ``game`` its own agent made."""
    asked = sum(s.decisions for s in game.seats if s.participant == participant)
    fell = sum(s.fallbacks for s in game.seats if s.participant == participant)
    return 1.0 if asked <= 0 else (asked - fell) / asked


def keep_decided(games: Sequence[GameOutcome], min_decided: float) -> tuple[list[GameOutcome], dict[str, Any]]:
    """The games every participant's own agent mostly played, and what was left out:
    how many, for whom, why, each one's decisions in them, and the ``--min-decided``
    that would rate them all (``include_with``), so a reader is never left to guess.

    A game is left out whole: its outcome was partly the fallback bot's doing, for
    every seat at the table, not only the failing one's.
    """
    kept: list[GameOutcome] = []
    by_participant: dict[str, int] = defaultdict(int)
    asked: dict[str, int] = defaultdict(int)
    decided: dict[str, int] = defaultdict(int)
    dropped = 0
    lowest = 1.0
    for g in games:
        low = sorted({s.participant for s in g.seats if decided_share(g, s.participant) < min_decided})
        if low:
            dropped += 1
            for p in low:
                by_participant[p] += 1
                share = decided_share(g, p)
                lowest = min(lowest, share)
                mine = [s for s in g.seats if s.participant == p]
                asked[p] += sum(s.decisions for s in mine)
                decided[p] += sum(s.decisions - s.fallbacks for s in mine)
        else:
            kept.append(g)
    reason = f"a participant's own agent decided less than {100 * min_decided:g}% of its decisions (the rest were fallback moves)"
    return kept, {
        "games": dropped,
        "min_decided": min_decided,
        "reason": reason,
        "by_participant": dict(by_participant),
        "decisions": {p: {"asked": asked[p], "decided": decided[p]} for p in by_participant},
        "include_with": f"--min-decided {math.floor(100 * lowest) / 100:g}" if dropped else None,
    }


def left_out(excluded: dict[str, Any], *, of_all: bool = False) -> str:
    """What the leaderboard left out, in words: ``12 games left out (Dead 12): why; in
    them Dead decided 0 of its 84 decisions; --min-decided 0 includes them`` (``of_all``:
    ``12 of 12 finished games left out ...``). Empty when nothing was."""
    n = excluded.get("games") or 0
    if not n:
        return ""
    by = excluded.get("by_participant", {})
    who = ", ".join(f"{p} {k}" for p, k in sorted(by.items()))
    games = f"{n} of {n} finished game{'s' if n != 1 else ''}" if of_all else f"{n} game{'s' if n != 1 else ''}"
    text = f"{games} left out ({who}): {excluded['reason']}"
    decisions = excluded.get("decisions") or {}
    if decisions:
        parts = [f"{p} decided {d['decided']} of its {d['asked']} decisions" for p, d in sorted(decisions.items())]
        text += "; in them " + ", ".join(parts)
    if excluded.get("include_with"):
        text += f"; {excluded['include_with']} includes them"
    return text


def nothing_rated(excluded: dict[str, Any]) -> str:
    """What the leaderboard says when it rates no game: that there is none, or why
    every finished game was left out."""
    if not excluded.get("games"):
        return "no finished game in the database yet"
    return f"no game rated: {left_out(excluded, of_all=True)}"

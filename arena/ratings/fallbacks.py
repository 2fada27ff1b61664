"""Fallback moves kept apart from a participant's rating.

A model seat whose call fails is played by the heuristic bot for that decision; those
moves are not the model's. A game counts only when every participant's own agent made
at least ``MIN_DECIDED`` of its decisions in it.
"""

from __future__ import annotations

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
    """The games every participant's own agent mostly played, and what was left out.

    A game is left out whole: its outcome was partly the fallback bot's doing, for
    every seat at the table, not only the failing one's.
    """
    kept: list[GameOutcome] = []
    by_participant: dict[str, int] = defaultdict(int)
    dropped = 0
    for g in games:
        low = sorted({s.participant for s in g.seats if decided_share(g, s.participant) < min_decided})
        if low:
            dropped += 1
            for p in low:
                by_participant[p] += 1
        else:
            kept.append(g)
    reason = f"a participant's own agent decided less than {100 * min_decided:g}% of its decisions (the rest were fallback moves)"
    return kept, {"games": dropped, "min_decided": min_decided, "reason": reason, "by_participant": dict(by_participant)}



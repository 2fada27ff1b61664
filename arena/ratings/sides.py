"""Per-side figures, and whether the design identifies ratings per side.

Under mixed seating one participant holds the whole pack in most games while every
participant sits in nearly every village, so a participant's village rating mostly
re-reads the schedule. These functions say when side ratings mean something, and
give the figure that does mean something under mixed seating: a side's win rate with
the participant on it against the pooled field.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from arena.ratings.bootstrap import resample_counts
from arena.ratings.games import SIDES, GameOutcome

SIDE_TEAMS_SHARE = 0.9  # side ratings need this share of games with one participant per side
MIN_SIDE_GAMES = 5  # games needed on each side of a vs-field comparison


def side_win_stats(
    games: Sequence[GameOutcome], participants: Sequence[str], rows: list[np.ndarray], counts: np.ndarray | None = None
) -> tuple[dict, dict]:
    """Per participant and side (``vs_field:P@side``): that side's win rate in the games
    where the participant holds seats on it, minus the rate in the games where it holds
    none (the pooled field), one unit per game, resampled by deal. Under mixed seating
    this is what the games say about a side without pretending to a rating; where the
    schedule leaves no field to compare with (every participant sits in nearly every
    village), it is withheld (fewer than ``MIN_SIDE_GAMES`` games on either hand)."""
    keys = [(p, side) for p in participants for side in SIDES]
    present = np.zeros((len(games), len(keys)))
    side_n = np.zeros((len(games), len(SIDES)))
    side_w = np.zeros_like(side_n)
    for gi, g in enumerate(games):
        for j, side in enumerate(SIDES):
            team = g.team(side)
            if not team:
                continue
            side_n[gi, j], side_w[gi, j] = 1, float(any(s.won for s in team))
            for p in {s.participant for s in team}:
                present[gi, keys.index((p, side))] = 1
    col = np.array([SIDES.index(side) for _, side in keys], dtype=np.int64)
    n_side, w_side = side_n[:, col], side_w[:, col]  # [games, keys]: the key's side in each game

    per_game = np.hstack([present * n_side, present * w_side, (1 - present) * n_side, (1 - present) * w_side])  # [games, 4 keys]

    def diff_counts(counts: np.ndarray) -> np.ndarray:
        """[replicates, keys] from [replicates, games]: how often each replicate draws each game."""
        n_in, w_in, n_out, w_out = np.split(counts @ per_game, 4, axis=1)  # whole numbers: the products are exact
        ok = (n_in >= MIN_SIDE_GAMES) & (n_out >= MIN_SIDE_GAMES)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(ok, w_in / np.maximum(n_in, 1) - w_out / np.maximum(n_out, 1), np.nan)

    whole = diff_counts(np.ones((1, len(games))))[0]
    point = {f"vs_field:{p}@{side}": float(v) for (p, side), v in zip(keys, whole) if np.isfinite(v)}
    reps: dict[str, np.ndarray] = {}
    if rows and point:
        d = diff_counts(resample_counts(rows, len(games)) if counts is None else counts)
        reps = {f"vs_field:{p}@{side}": d[:, i] for i, (p, side) in enumerate(keys) if f"vs_field:{p}@{side}" in point}
    return point, reps


def side_design(games: Sequence[GameOutcome]) -> dict[str, Any]:
    """Whether the games identify ratings per side.

    A rating as the village is only told apart from the rest of its team when the
    village is one participant (``seating: teams``). With mixed seating one participant
    holds the whole pack in most games while the village is shared, so a per-side fit
    mostly re-reads the schedule: its interval is the schedule's, and it is withheld.
    """
    rated = [g for g in games if g.rated]
    single = sum(1 for g in rated if all(len({s.participant for s in g.team(side)}) == 1 for side in SIDES))
    share = single / len(rated) if rated else 0.0
    ok = bool(rated) and share >= SIDE_TEAMS_SHARE
    why = (
        f"{100 * share:.0f}% of rated games seat one participant per side (teams): ratings per side are identified"
        if ok
        else f"only {100 * share:.0f}% of rated games seat one participant per side (mixed seating): ratings per side are not "
        "identified, so only each side's win rate against the pooled field is shown (use seating: teams for side ratings)"
    )
    return {"identified": ok, "single_participant_sides": round(share, 4), "why": why}



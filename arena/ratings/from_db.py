"""Reading a tournament database into what the ratings and behaviour tables need."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any

from arena.fastjson import loads
from arena.ratings.behaviour import SummaryTotals, behaviour, read_summary
from arena.ratings.games import GameOutcome, SeatResult
from arena.tournament.store import Store


def load_games(store: Store) -> list[GameOutcome]:
    """Finished games in plan order."""
    rows = {g["id"]: g for g in store.games()}
    seats: dict[str, list[SeatResult]] = defaultdict(list)
    order: list[str] = []
    for gid, participant, side, role, won, fallbacks, alive, decisions in store.seat_outcomes():
        if gid not in seats:
            order.append(gid)
        seats[gid].append(
            SeatResult(participant, side, role, bool(won), decisions=int(decisions or 0), fallbacks=int(fallbacks or 0), alive=bool(alive))
        )  # fmt: skip
    return [GameOutcome(gid, rows[gid]["winner"], tuple(seats[gid]), deal=rows[gid]["deal"]) for gid in order]


def rating_outcome(store: Store) -> str:
    """What the tournament file asked the ratings to read (``rating: {outcome: ...}``);
    ``win`` for a database written before the option existed."""
    raw = store.meta("config")
    try:
        cfg = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        return "win"
    rating = cfg.get("rating") if isinstance(cfg, dict) else None
    outcome = rating.get("outcome") if isinstance(rating, dict) else None
    return outcome if isinstance(outcome, str) else "win"


def load_behaviour(store: Store) -> dict[str, dict[str, Any]]:
    """Per participant: behaviour overall and as each side, from the seats' stored counts
    (each seat's metrics parsed once, by orjson where it can: the slow part of a cold leaderboard)."""
    rows: dict[str, SummaryTotals] = defaultdict(SummaryTotals)
    by_side: dict[tuple[str, str], SummaryTotals] = defaultdict(SummaryTotals)
    for participant, side, metrics in store.seat_metrics():
        seat = read_summary(loads(metrics or "{}"))
        rows[participant].add_read(seat)
        by_side[(participant, side)].add_read(seat)
    out = {}
    for p, totals in rows.items():
        out[p] = behaviour(totals.result())
        out[p]["by_side"] = {side: behaviour(v.result()) for (pp, side), v in by_side.items() if pp == p}
    return out


def games_key(games: list[GameOutcome]) -> str:
    """Identifies the set of games a cached leaderboard was computed from."""
    h = hashlib.sha256()
    for g in games:
        h.update(g.id.encode())
        h.update(b"\0")
    return f"{len(games)}:{h.hexdigest()[:16]}"

"""Reading a tournament database into what the ratings and behaviour tables need."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any

from arena.metrics.game import behaviour, sum_summaries
from arena.ratings.games import GameOutcome, SeatResult
from arena.tournament.store import Store


def load_games(store: Store) -> list[GameOutcome]:
    """Finished games in plan order."""
    rows = {g["id"]: g for g in store.games()}
    seats: dict[str, list[SeatResult]] = defaultdict(list)
    order: list[str] = []
    for s in store.seats():
        if s["game_id"] not in seats:
            order.append(s["game_id"])
        m = json.loads(s["metrics"] or "{}")
        seats[s["game_id"]].append(
            SeatResult(s["participant"], s["side"], s["initial_role"], bool(s["won"]),
                       decisions=int(m.get("decisions_asked", 0)), fallbacks=int(s["fallbacks"] or 0), alive=bool(s["alive"]))
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
    """Per participant: behaviour overall and as each side, from the seats' stored counts."""
    rows: dict[str, list] = defaultdict(list)
    by_side: dict[tuple[str, str], list] = defaultdict(list)
    for s in store.seats():
        m = json.loads(s["metrics"] or "{}")
        rows[s["participant"]].append(m)
        by_side[(s["participant"], s["side"])].append(m)
    out = {}
    for p, ms in rows.items():
        out[p] = behaviour(sum_summaries(ms))
        out[p]["by_side"] = {side: behaviour(sum_summaries(v)) for (pp, side), v in by_side.items() if pp == p}
    return out


def games_key(games: list[GameOutcome]) -> str:
    """Identifies the set of games a cached leaderboard was computed from."""
    h = hashlib.sha256()
    for g in games:
        h.update(g.id.encode())
        h.update(b"\0")
    return f"{len(games)}:{h.hexdigest()[:16]}"

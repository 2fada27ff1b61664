"""Reading a tournament database into what the ratings and behaviour tables need."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from typing import Any, Callable, Iterable

from arena.fastjson import loads
from arena.ratings.behaviour import SummaryTotals, behaviour, read_summary
from arena.ratings.games import GameOutcome, SeatResult
from arena.tournament.store import Store

OUTCOME_COLUMNS = "s.game_id, s.participant, s.side, s.initial_role, s.won, s.fallbacks, s.alive"


def _outcomes(store: Store, seats: Iterable[tuple[Any, ...]]) -> list[GameOutcome]:
    """Games in the order of their first seat in ``seats``: (game id, participant,
    side, initial role, won, fallbacks, alive, decisions asked) rows."""
    rows = {g["id"]: g for g in store.games()}
    by_game: dict[str, list[SeatResult]] = defaultdict(list)
    order: list[str] = []
    for gid, participant, side, role, won, fallbacks, alive, decisions in seats:
        if gid not in by_game:
            order.append(gid)
        by_game[gid].append(
            SeatResult(participant, side, role, bool(won), decisions=int(decisions or 0), fallbacks=int(fallbacks or 0), alive=bool(alive))
        )  # fmt: skip
    return [GameOutcome(gid, rows[gid]["winner"], tuple(by_game[gid]), deal=rows[gid]["deal"]) for gid in order]


def load_games(store: Store) -> list[GameOutcome]:
    """Finished games in plan order."""
    return _outcomes(store, store.seat_outcomes())


class _Behaviour:
    """Seat summaries summed per participant and per participant and side, each seat's
    read once for both."""

    def __init__(self) -> None:
        self.rows: dict[str, SummaryTotals] = defaultdict(SummaryTotals)
        self.by_side: dict[tuple[str, str], SummaryTotals] = defaultdict(SummaryTotals)

    def add(self, participant: str, side: str, metrics: dict[str, Any]) -> None:
        seat = read_summary(metrics)
        self.rows[participant].add_read(seat)
        self.by_side[(participant, side)].add_read(seat)

    def result(self) -> dict[str, dict[str, Any]]:
        out = {}
        for p, totals in self.rows.items():
            out[p] = behaviour(totals.result())
            out[p]["by_side"] = {side: behaviour(v.result()) for (pp, side), v in self.by_side.items() if pp == p}
        return out


def load_behaviour(store: Store) -> dict[str, dict[str, Any]]:
    """Per participant: behaviour overall and as each side, from the seats' stored counts
    (each seat's metrics parsed once, by orjson where it can: the slow part of a cold leaderboard)."""
    acc = _Behaviour()
    for participant, side, metrics in store.seat_metrics():
        acc.add(participant, side, loads(metrics or "{}"))
    return acc.result()


def load_board(store: Store, each: Callable[[dict[str, Any]], None] | None = None) -> tuple[list[GameOutcome], dict[str, dict[str, Any]]]:
    """``load_games`` and ``load_behaviour`` in one read of the seats: each seat's
    metrics parsed once, for its decisions and its behaviour counts, and shown to
    ``each`` in seat order (``--json`` keeps what the site's figures read of it)."""
    acc = _Behaviour()
    seats = []
    for *outcome, metrics in store.seat_rows(f"{OUTCOME_COLUMNS}, s.metrics"):
        m = loads(metrics or "{}")
        acc.add(outcome[1], outcome[2], m)
        seats.append((*outcome, m.get("decisions_asked")))
        if each is not None:
            each(m)
    return _outcomes(store, seats), acc.result()


def load_persuasion(store: Store) -> dict[str, list[tuple[str, float]]]:
    """Per game: (participant, swing) of every measured speech its seats made (a
    tournament's ``persuasion:``, ``arena.persuasion.tournament``); games measured
    without it have none."""
    out: dict[str, list[tuple[str, float]]] = defaultdict(list)
    try:
        rows = store.seat_rows("s.game_id, s.participant, json_extract(NULLIF(s.metrics, ''), '$.persuasion')").fetchall()
    except sqlite3.OperationalError:  # an SQLite built without its JSON functions
        rows = [(g, p, json.dumps(loads(m or "{}").get("persuasion"))) for g, p, m in store.seat_rows("s.game_id, s.participant, s.metrics")]
    for gid, participant, raw in rows:
        speeches = json.loads(raw) if raw else None
        for item in speeches if isinstance(speeches, list) else ():
            if isinstance(item, list) and item and isinstance(item[0], (int, float)) and not isinstance(item[0], bool):
                out[gid].append((participant, float(item[0])))
    return dict(out)


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


def ids_key(ids: Iterable[str]) -> str:
    """Identifies a set of games (their ids in plan order) a cached leaderboard was computed from."""
    h = hashlib.sha256()
    n = 0
    for gid in ids:
        h.update(gid.encode())
        h.update(b"\0")
        n += 1
    return f"{n}:{h.hexdigest()[:16]}"


def games_key(games: list[GameOutcome]) -> str:
    """``ids_key`` of loaded games."""
    return ids_key(g.id for g in games)


def stored_key(store: Store) -> str:
    """``games_key(load_games(store))`` without reading the seats: the finished games
    that have seats, in the seats' order (plan order)."""
    return ids_key(store.seated_game_ids())

"""What the leaderboard's ``--json`` adds for the site: every game, cost and efficiency
per participant, identical participants and self-play, and the tournament it came from.

Why here and not in the page: the page is built from ``--json``'s own dictionary, so
a number on the page is a number a script can read, and the two never disagree.
Everything is read from the database and the transcripts' first lines (their headers):
cheap next to the bootstrap, so it is not cached. The seats are read once, as plain
rows, for both the game list and the efficiency, and JSON is parsed within the bounds
of any input (``transcripts.bounded``, by orjson where it can). A leaderboard
just computed has parsed every seat's metrics already: it hands over what the
efficiency reads of them (``seat_counts``), and the seats' metrics are not read again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from arena.tournament.store import Store
import transcripts.bounded as bounded


def _header(path: Path) -> dict[str, Any] | None:
    """A transcript's header line, or ``None`` when the file is missing or unreadable."""
    try:
        first = next(bounded.read_lines(path, bounded.TRANSCRIPT), None)
        head = bounded.loads_json(first.text, max_depth=bounded.RECORD_DEPTH, fast=True) if first is not None else None
    except (OSError, ValueError):
        return None
    return head if isinstance(head, dict) and head.get("type") == "header" else None


class _Seat(NamedTuple):
    """The columns of a stored seat the site reads."""

    game_id: str
    name: str
    participant: str
    initial_role: str
    role: str
    side: str
    won: Any
    alive: Any
    calls: Any
    input_tokens: Any
    output_tokens: Any
    fallbacks: Any
    violations: Any
    cost_usd: Any
    metrics: str | None


def _seats(store: Store, metrics: bool = True) -> list[_Seat]:
    """Every stored seat, in game then seat order (as ``Store.seats``); its ``metrics``
    ``None`` unless asked for."""
    cols = ", ".join(f"s.{c}" if c != "metrics" or metrics else "NULL" for c in _Seat._fields)
    return list(map(_Seat._make, store.seat_rows(cols)))


# What ``efficiency`` reads of a seat's stored metrics, with the value of a missing key.
SEAT_COUNTS = (("cached_tokens", 0), ("latency_s", 0.0), ("decisions_asked", 0), ("errors", 0))


def seat_counts(metrics: dict[str, Any]) -> tuple[Any, ...]:
    """``SEAT_COUNTS`` of one seat's parsed metrics, as stored (``efficiency`` converts)."""
    get = metrics.get
    return tuple(get(k, default) for k, default in SEAT_COUNTS)


def identical_groups(store: Store) -> list[list[str]]:
    """Participants declared with the same agent and options: the same player under two
    names. Their difference is a calibration check (it should not be separated), and a
    game they fill alone is self-play."""
    by_kind: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, agent, options in store.db.execute("SELECT name, agent, options FROM participants ORDER BY name"):
        by_kind[(agent, json.dumps(store.stored(options, f"participant {name}'s options"), sort_keys=True))].append(name)
    return [sorted(g) for g in by_kind.values() if len(g) > 1]


def game_list(store: Store, groups: list[list[str]], stored: list[_Seat]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every finished game in plan order, its seats, and the software versions that
    wrote the transcripts."""
    group_of = {p: i for i, g in enumerate(groups) for p in g}
    seats: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in stored:
        seats[s.game_id].append(
            {"name": s.name, "participant": s.participant, "role": s.initial_role, "final_role": s.role,
             "side": s.side, "won": bool(s.won), "alive": bool(s.alive)}
        )  # fmt: skip
    out, software = [], []
    for g in store.games():
        path = store.folder / g["transcript"]
        head = _header(path)
        sw = head.get("software") if head else None
        if sw and sw not in software:
            software.append(sw)
        who = {s["participant"] for s in seats[g["id"]]}
        kinds = {group_of.get(p, p) for p in who}
        out.append(
            {
                "id": g["id"], "index": g["idx"], "deal": g["deal"], "table": g["table_idx"], "preset": g["preset"],
                "players": g["players"], "seed": g["seed"], "winner": g["winner"], "days": g["days"], "reason": g["reason"],
                "seconds": g["seconds"], "calls": g["calls"], "input_tokens": g["input_tokens"],
                "output_tokens": g["output_tokens"], "cached_tokens": g["cached_tokens"], "cost_usd": g["cost_usd"],
                "transcript": g["transcript"], "transcript_found": head is not None, "software": sw,
                "self_play": len(who) == 1, "identical_only": len(who) > 1 and len(kinds) == 1,
                "seats": seats[g["id"]],
            }
        )  # fmt: skip
    return out, software


def efficiency(stored: list[_Seat], counts: Sequence[tuple[Any, ...]]) -> dict[str, dict[str, Any]]:
    """Per participant, summed over its seats: calls, tokens (cached and not), dollars
    per game and per game won, mean latency per call, fallbacks and violations per
    decision. Dollars are ``None`` when a seat's model has no known price (never 0).
    ``counts``: each seat's ``seat_counts``, in ``stored``'s order."""
    acc: dict[str, dict[str, Any]] = {}
    games: dict[str, set[str]] = defaultdict(set)
    won: dict[str, set[str]] = defaultdict(set)
    for s, (cached_tokens, latency_s, decisions_asked, errors) in zip(stored, counts, strict=True):
        p = s.participant
        a = acc.setdefault(p, {"seats": 0, "calls": 0, "input_tokens": 0, "cached_tokens": 0, "output_tokens": 0,
                               "cost_usd": 0.0, "unpriced_seats": 0, "latency_s": 0.0, "decisions": 0,
                               "fallbacks": 0, "violations": 0, "errors": 0})  # fmt: skip
        a["seats"] += 1
        a["calls"] += int(s.calls or 0)
        a["input_tokens"] += int(s.input_tokens or 0)
        a["output_tokens"] += int(s.output_tokens or 0)
        a["cached_tokens"] += int(cached_tokens)
        a["latency_s"] += float(latency_s)
        a["decisions"] += int(decisions_asked)
        a["errors"] += int(errors)
        a["fallbacks"] += int(s.fallbacks or 0)
        a["violations"] += int(s.violations or 0)
        if s.cost_usd is None:
            a["unpriced_seats"] += 1
        else:
            a["cost_usd"] += float(s.cost_usd)
        games[p].add(s.game_id)
        if s.won:
            won[p].add(s.game_id)
    out = {}
    for p, a in acc.items():
        n, w = len(games[p]), len(won[p])
        cost = None if a["unpriced_seats"] else a["cost_usd"]
        out[p] = {
            "games": n, "games_won": w, "seats": a["seats"], "calls": a["calls"],
            "input_tokens": a["input_tokens"], "cached_input_tokens": a["cached_tokens"],
            "uncached_input_tokens": a["input_tokens"] - a["cached_tokens"], "output_tokens": a["output_tokens"],
            "cost_usd": cost, "unpriced_seats": a["unpriced_seats"],
            "usd_per_game": cost / n if cost is not None and n else None,
            "usd_per_win": cost / w if cost is not None and w else None,
            "calls_per_game": a["calls"] / n if n else None,
            "tokens_per_game": (a["input_tokens"] + a["output_tokens"]) / n if n else None,
            "mean_latency_s": a["latency_s"] / a["calls"] if a["calls"] else None,
            "decisions": a["decisions"], "fallbacks": a["fallbacks"], "violations": a["violations"], "errors": a["errors"],
            "fallback_rate": a["fallbacks"] / a["decisions"] if a["decisions"] else None,
            "violation_rate": a["violations"] / a["decisions"] if a["decisions"] else None,
        }  # fmt: skip
    return out


def site_extras(store: Store, counts: Sequence[tuple[Any, ...]] | None = None) -> dict[str, Any]:
    """The keys ``--json`` adds beside the ratings: ``tournament``, ``efficiency``,
    ``identical_participants``, ``self_play`` and ``game_list``. ``counts``: every
    seat's ``seat_counts`` in seat order, when the caller has read them already."""
    groups = identical_groups(store)
    stored = _seats(store, metrics=counts is None)
    if counts is None:
        counts = [seat_counts(store.mapping(s.metrics, f"the metrics of {s.participant}'s seat in game {s.game_id}")) for s in stored]
    games, software = game_list(store, groups, stored)
    totals = store.totals()
    return {
        "tournament": {
            "name": store.meta("name"),
            "config": store.stored(store.meta("config"), "the tournament file it keeps"),
            "software": software,
            "games_stored": len(games),
            "calls": totals["calls"], "input_tokens": totals["input_tokens"], "output_tokens": totals["output_tokens"],
            "cost_usd": None if totals["unpriced_games"] else totals["cost_usd"],
        },  # fmt: skip
        "efficiency": efficiency(stored, counts),
        "identical_participants": groups,
        "self_play": {
            "games": sum(1 for g in games if g["self_play"]),
            "identical_only_games": sum(1 for g in games if g["identical_only"]),
            "note": "a game one participant (or only identical participants) fills alone says nothing about who is "
            "better: in the Bradley-Terry fit it moves only the village advantage; such games are listed apart",
        },
        "game_list": games,
    }

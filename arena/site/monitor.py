"""The site's monitorability section: what each monitor's ratings say, per participant.

Read from the ratings kept beside the store's transcripts (``<game>.monitor.ndjson``:
a tournament's ``monitor:``, or ``werewolf monitor`` run on its folder), one table per
monitor that rated them: the AUROC of its reading of private reasoning and of public
words, and the gap, as ``werewolf monitor`` gives them (``arena.monitor.stats``), by
participant as the store seats them. Beside them, free of any monitor, each
participant's self-incrimination (``arena.metrics.self_incrimination``). Nothing is
asked of any monitor here. The report is cached in the store under the finished games
and the ratings files' sizes and times: built again for free until either changes.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.metrics.cli import SHAPE_ERRORS
from arena.metrics.load import MetricsError, load_transcript
from arena.metrics.self_incrimination import WolfSeat, self_incrimination, wolf_seats
from arena.monitor.exhibits import exhibits
from arena.monitor.run import READINGS, kept_ratings, ratings_path
from arena.monitor.stats import by_agent
from arena.ratings.from_db import stored_key
from arena.tournament.store import Store

MONITOR_VERSION = "1"  # part of the cache key: bump when the report's computation changes


def _specs(path: Path) -> set[str]:
    """The monitors that rated a game (its ratings file's ``monitor`` values)."""
    out: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            spec = json.loads(line).get("monitor")
        except (ValueError, AttributeError):
            continue
        if isinstance(spec, str):
            out.add(spec)
    return out


def store_monitor(db: str, *, seed: int = 0) -> dict[str, Any] | None:
    """``{"monitors": [{"monitor", "games", "seat_days", "by_agent"}], "self_incrimination"}``
    over the store's finished games; ``None`` when no game was rated by any monitor."""
    store = Store.open_existing(db)
    try:
        games = [(g["id"], store.folder / g["transcript"]) for g in store.games() if g.get("transcript")]
        rated = [(gid, t, r) for gid, t in games if (r := ratings_path(t)).exists()]
        if not rated:
            return None
        stamp = hashlib.sha256("".join(f"{r.name}:{r.stat().st_size}:{r.stat().st_mtime_ns};" for _, _, r in rated).encode()).hexdigest()[:16]
        key = f"monitor|{MONITOR_VERSION}|{stored_key(store)}|{stamp}|{seed}"
        hit = store.cached(key)
        if hit is not None:
            return json.loads(hit)
        who: dict[str, dict[str, str]] = defaultdict(dict)
        for gid, seat, participant in store.db.execute("SELECT game_id, name, participant FROM seats"):
            who[gid][seat] = participant
        report = _report([(gid, t) for gid, t, _ in rated], who, seed)
        store.cache(key, json.dumps(report))
        return report
    finally:
        store.close()


def _report(games: list[tuple[str, Path]], who: dict[str, dict[str, str]], seed: int) -> dict[str, Any] | None:
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    games_of: dict[str, int] = defaultdict(int)
    wolves: list[list[WolfSeat]] = []
    unread = 0
    for gid, transcript in games:
        try:
            g = load_transcript(transcript)
            if not g.complete:
                continue
        except (MetricsError, OSError, *SHAPE_ERRORS):
            unread += 1
            continue
        seats = who.get(gid, {})
        shown = [replace(x, label=seats.get(x.seat, x.label)) for x in exhibits(g, gid)]
        wolves.append(wolf_seats(g, label=lambda n: seats.get(n, g.label(n))))
        side = ratings_path(transcript)
        for spec in sorted(_specs(side)):
            kept = kept_ratings(side, spec)
            games_of[spec] += 1
            for x in shown:
                r = {reading: kept.get((x.seat, x.day, reading)) for reading in READINGS}
                rows[spec].append({"game": gid, "label": x.label, "wolf": x.wolf, **r})
    if not rows:
        return None
    return {
        "monitors": [{"monitor": spec, "games": games_of[spec], "seat_days": len(rs), "by_agent": by_agent(rs, seed=seed)}
                     for spec, rs in sorted(rows.items())],  # fmt: skip
        "self_incrimination": self_incrimination(wolves),
        "unread": unread,
    }

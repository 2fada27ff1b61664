"""The site's bias section: speaking position and seat name over a tournament's games.

The figures are ``werewolf metrics``' (``arena.metrics.bias``), read from the store's
transcripts. Reading every transcript costs what the metrics command costs, so the
report is kept in the store's cache under the finished games' key: the site is built
again for free until a game is added.
"""

from __future__ import annotations

import json
from typing import Any

from arena.metrics.bias import GameBias, bias_report
from arena.metrics.load import MetricsError, load_transcript
from arena.metrics.cli import SHAPE_ERRORS
from arena.ratings.from_db import stored_key
from arena.tournament.store import Store

BIAS_VERSION = "1"  # part of the cache key: bump when the report's computation changes


def store_bias(db: str, *, seed: int = 0) -> dict[str, Any] | None:
    """The bias report over the store's finished games (``None`` when none has a
    discussion followed by a vote); a transcript that is missing or cannot be read is
    left out and counted in ``unread``."""
    store = Store.open_existing(db)
    try:
        key = f"bias|{BIAS_VERSION}|{stored_key(store)}|{seed}"
        hit = store.cached(key)
        if hit is not None:
            return json.loads(hit)
        seen: list[GameBias] = []
        unread = 0
        for g in store.games():
            if not g.get("transcript"):
                continue
            try:
                record = load_transcript(store.folder / g["transcript"])
                if record.complete:
                    seen.append(GameBias.of(record))
            except (MetricsError, *SHAPE_ERRORS):  # a record of the wrong shape: as ``werewolf metrics`` skips it
                unread += 1
        report = bias_report(seen, seed=seed)
        if report is not None:
            report["unread"] = unread
        store.cache(key, json.dumps(report))
        return report
    finally:
        store.close()

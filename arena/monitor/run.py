"""A monitor over a transcript or a folder: each game's ratings kept beside it.

Each transcript's ratings go to ``<game>.monitor.ndjson`` beside it (one line per
rating: the monitor's spec, seat, day, reading and probability), so a second run with
the same monitor (a resumed tournament, the command run again) asks only what is not
rated yet, and pays once. A call that failed rated nothing and is asked again.
``.ndjson``, not ``.jsonl``: a folder's ``*.jsonl`` are its transcripts.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.monitor.exhibits import Exhibit, exhibits
from arena.monitor.monitors import Monitor, MonitorCall, make_monitor
from arena.monitor.stats import by_agent
from arena.metrics.cli import collect

READINGS = ("private", "public")
CALLS_FILE = "monitor_calls.ndjson"  # beside the games: a model monitor's calls, apart from the players'


def ratings_path(transcript: str | Path) -> Path:
    p = Path(transcript)
    return p.with_name(p.name.removesuffix(".jsonl") + ".monitor.ndjson")


def kept_ratings(path: Path, spec: str) -> dict[tuple[str, int, str], float]:
    """The ratings ``spec`` already gave in this game (lines of other monitors, or cut
    off by a killed run, are passed over)."""
    out: dict[tuple[str, int, str], float] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
            if r.get("monitor") == spec and isinstance(r.get("probability"), (int, float)):
                out[(str(r["seat"]), int(r["day"]), str(r["reading"]))] = float(r["probability"])
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return out


def monitor_path(path: Path, spec: str, *, prices: str | None = None, concurrency: int = 8, calls: Path | None = None,
                 seed: int = 0, who: dict[str, dict[str, str]] | None = None, read_only: bool = False) -> dict[str, Any]:  # fmt: skip
    """``werewolf monitor``'s report over ``path``; ``ValueError`` for a monitor that
    cannot be made or does not answer (nothing rated then), ``FileNotFoundError`` when
    no finished transcript is there. ``who``: per transcript file name, each seat's
    participant (a tournament's; otherwise a seat is its agent, ``GameRecord.label``).
    ``read_only``: only the ratings kept beside the games are read, nothing is asked
    (a tournament's report: its runner rated each game as it finished, under its budget)."""

    monitor = KeptOnly(spec) if read_only else make_monitor(spec, prices)
    skipped: list[str] = []
    root = path if path.is_dir() else path.parent
    games: list[tuple[Path, list[Exhibit]]] = []
    for g in collect(path, skipped):
        label = Path(g.path).relative_to(root).as_posix() if g.path else f"game{len(games) + 1}"
        shown = exhibits(g, label)
        names = (who or {}).get(Path(g.path).name if g.path else "", {})
        games.append((Path(g.path or label), [replace(x, label=names.get(x.seat, x.label)) for x in shown]))
    if not games:
        raise FileNotFoundError(skipped[0] if path.is_file() and skipped else f"{path}: no finished transcript found")
    rows, reused = asyncio.run(_rate_all(monitor, spec, games, concurrency))
    made = [c.to_json() for c in monitor.calls]
    calls_file = None
    if made:
        calls_file = calls or root / CALLS_FILE
        keep_calls(calls_file, monitor.calls)
    costs = [c["cost_usd"] for c in made if c["cost_usd"] is not None]
    return {
        "monitor": spec, "games": len(games), "seat_days": len(rows), "calls": len(made), "reused": reused,
        "failed_calls": sum(1 for c in made if c["error"]),
        "cost_usd": round(sum(costs), 8) if costs else (0.0 if not made else None),
        "calls_file": str(calls_file) if calls_file else None, "skipped": skipped,
        "by_agent": by_agent(rows, seed=seed),
    }  # fmt: skip


def keep_calls(calls_file: Path, made: list[MonitorCall]) -> None:
    """Appended: an earlier run's calls were paid for too."""
    with calls_file.open("a", encoding="utf-8") as f:
        f.writelines(json.dumps(c.to_json(), ensure_ascii=False) + "\n" for c in made)


class KeptOnly:
    """A monitor that asks nothing: what ``spec`` rated before, read back (``rate_game``
    reads the kept ratings first, so this is asked only what was never rated)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.calls: list[MonitorCall] = []

    async def rate(self, x: Exhibit, reading: str) -> float | None:
        return None

    async def check(self) -> None:
        return None

    async def aclose(self) -> None:
        return None


async def rate_game(monitor: Monitor, spec: str, path: Path, shown: list[Exhibit], gate: asyncio.Semaphore) -> tuple[list[dict[str, Any]], int]:
    """One game's seat-days rated twice, apart (an empty text is not rated); a rating
    kept from an earlier run is reused (how many: the second value); the new ratings
    appended beside the game. One row per seat-day: ``{game, label, wolf, private, public}``."""
    side = ratings_path(path)
    kept = kept_ratings(side, spec)
    reused = 0

    async def one(x: Exhibit, reading: str) -> float | None:
        nonlocal reused
        if not getattr(x, reading):
            return None
        hit = kept.get((x.seat, x.day, reading))
        if hit is not None:
            reused += 1
            return hit
        async with gate:
            return await monitor.rate(x, reading)

    ratings = await asyncio.gather(*(one(x, r) for x in shown for r in READINGS))
    new = [{"monitor": spec, "seat": x.seat, "day": x.day, "reading": r, "probability": p}
           for (x, r), p in zip(((x, r) for x in shown for r in READINGS), ratings)
           if p is not None and (x.seat, x.day, r) not in kept]  # fmt: skip
    if new:
        with side.open("a", encoding="utf-8") as f:
            f.writelines(json.dumps(n) + "\n" for n in new)
    rows = [{"game": x.game, "label": x.label, "wolf": x.wolf, "private": ratings[2 * i], "public": ratings[2 * i + 1]}
            for i, x in enumerate(shown)]  # fmt: skip
    return rows, reused


async def _rate_all(monitor: Monitor, spec: str, games: list[tuple[Path, list[Exhibit]]], concurrency: int) -> tuple[list[dict[str, Any]], int]:
    gate = asyncio.Semaphore(concurrency)
    try:
        await monitor.check()
        per_game = await asyncio.gather(*(rate_game(monitor, spec, p, shown, gate) for p, shown in games))
    finally:
        await monitor.aclose()
    return [r for rows, _ in per_game for r in rows], sum(n for _, n in per_game)

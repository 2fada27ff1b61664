"""A tournament's monitor: each game rated as soon as it is stored, its cost counted.

Rating each game as it finishes, rather than all of them after the last, is what lets
the tournament's ``budget_usd`` hold the monitor's spending as it holds the players'
(the runner adds each game's monitor cost to what it has spent, and expects the next
game's monitoring to cost what the games rated so far cost on average), and what keeps
the ratings of a stopped or killed tournament: each game's are beside it
(``<game>.monitor.ndjson``) once it is rated, and a resumed run asks only what is not.
The monitor's calls go to ``monitor_calls.ndjson`` beside the transcripts, apart from
the players' calls (which the games and the database keep).

The model is checked before the first game, by the check model seats get
(``arena.preflight``): a monitor that cannot run stops the tournament at once, not
after hours of games.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from pathlib import Path
from typing import Callable

from arena.metrics.load import MetricsError, load_transcript
from arena.monitor.exhibits import exhibits
from arena.monitor.monitors import BUILTIN, Monitor, MonitorCall, make_monitor
from arena.monitor.run import CALLS_FILE, keep_calls, kept_ratings, rate_game, ratings_path
from arena.preflight import check, refusal

CONCURRENCY = 8  # a model monitor's calls in flight at once, over the games being rated


def spent_by_game(calls_file: Path, spec: str) -> dict[str, float]:
    """What ``spec``'s kept calls cost, per game (a resumed tournament's monitor
    spending so far, and what rating a game cost it)."""
    out: dict[str, float] = defaultdict(float)
    if not calls_file.exists():
        return out
    for line in calls_file.read_text(encoding="utf-8").splitlines():
        try:
            c = json.loads(line)
        except ValueError:
            continue
        if isinstance(c, dict) and c.get("model") == spec and isinstance(c.get("cost_usd"), (int, float)):
            out[str(c.get("game"))] += float(c["cost_usd"])
    return out


def preflight_monitor(spec: str, prices: str | None, say: Callable[[str], None] | None = None) -> str | None:
    """The one line that stops the tournament when the monitor cannot be made or its
    model does not answer; None when it can run (the built-in one always can)."""
    if spec in BUILTIN:
        return None
    try:
        monitor = make_monitor(spec, prices)
    except ValueError as e:
        return f"monitor {spec} cannot run: {e}"
    failures = asyncio.run(check({"monitor": monitor}, say=say))  # type: ignore[dict-item]  # a monitor has the backend a check reads
    if not failures:
        return None
    return refusal(failures, flag=None, noun="the tournament's", what="the tournament") + "; or leave monitor: out and rate the games later with werewolf monitor"


class LiveMonitor:
    """Rates the tournament's games one at a time, in the runner's event loop: made
    with ``open`` inside it, closed with ``aclose`` (a back end's connections belong to
    the loop that opened them, and an adaptive tournament runs one loop per batch)."""

    def __init__(self, spec: str, prices: str | None, transcripts: Path) -> None:
        self.spec = spec
        self.prices = prices
        self.root = transcripts
        self.calls_file = transcripts / CALLS_FILE
        before = spent_by_game(self.calls_file, spec)
        self.spent = sum(before.values())  # this monitor's spending on these games, earlier runs included
        self.game_costs: list[float] = list(before.values())  # what rating one game cost: the estimate of the next
        self.calls = 0
        self.failed_calls = 0
        self.games = 0
        self._monitor: Monitor | None = None
        self._gate: asyncio.Semaphore | None = None

    def unrated(self, ids: list[str]) -> list[str]:
        """Of the stored games ``ids``, those this monitor has not rated (no rating of
        it beside the game: a game it rated in part, the run killed meanwhile, is
        completed by ``werewolf monitor``)."""
        return [gid for gid in ids if not kept_ratings(ratings_path(self.root / f"{gid}.jsonl"), self.spec)]

    def expected_per_game(self) -> float:
        """What rating a game is expected to cost: the mean over the games rated so far
        (0 before any, and for the built-in monitor)."""
        return sum(self.game_costs) / len(self.game_costs) if self.game_costs else 0.0

    def open(self) -> None:
        self._monitor = make_monitor(self.spec, self.prices)
        self._gate = asyncio.Semaphore(CONCURRENCY)

    async def aclose(self) -> None:
        if self._monitor is not None:
            await self._monitor.aclose()
        self._monitor = None

    async def rate(self, transcript: Path) -> float:
        """Rate one stored game's seat-days (those rated before are read back); its new
        calls appended to the calls file. What it cost; a transcript that cannot be
        read rates nothing (the game is stored; ``werewolf monitor`` says why)."""
        assert self._monitor is not None and self._gate is not None, "open() first"
        label = transcript.name
        try:
            g = load_transcript(transcript)
        except (MetricsError, OSError):
            return 0.0
        if not g.complete:
            return 0.0
        await rate_game(self._monitor, self.spec, transcript, exhibits(g, label), self._gate)
        made = self._take(label)
        if made:
            keep_calls(self.calls_file, made)
        cost = sum(c.cost_usd or 0.0 for c in made)
        self.calls += len(made)
        self.failed_calls += sum(1 for c in made if c.error)
        self.games += 1
        self.spent += cost
        if made:
            self.game_costs.append(cost)
        return cost

    def _take(self, game: str) -> list[MonitorCall]:
        """The calls made for ``game``, taken off the monitor's list (games are rated
        concurrently: each takes its own)."""
        assert self._monitor is not None
        calls = self._monitor.calls
        mine = [c for c in calls if c.game == game]
        calls[:] = [c for c in calls if c.game != game]
        return mine

    def summary(self) -> dict[str, float | int]:
        return {"games": self.games, "calls": self.calls, "failed_calls": self.failed_calls, "spent_usd": round(self.spent, 8),
                "expected_per_game_usd": round(self.expected_per_game(), 8)}  # fmt: skip

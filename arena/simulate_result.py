"""What ``werewolf simulate`` returns: the counts and their intervals, apart from the
run that fills them (``arena.simulate``) and the table that prints them
(``arena.simulate_report``), which both read it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SimulationReport:
    games: int
    seconds: float
    wins: dict[str, int]
    days: list[int] = field(default_factory=list)
    preset: str = ""
    players: int = 0
    seed: int = 0
    agents: str = ""

    @property
    def mean_days(self) -> float:
        return sum(self.days) / len(self.days) if self.days else 0.0

    def win_rates(self) -> dict[str, dict[str, float]]:
        out = {}
        for camp, k in self.wins.items():
            lo, hi = wilson(k, self.games)
            out[camp] = {"rate": k / self.games if self.games else 0.0, "low": lo, "high": hi}
        return out

    def to_json(self) -> dict[str, Any]:
        """The contract's three keys first; the rest is extra detail."""
        return {
            "games": self.games,
            "seconds": self.seconds,
            "wins": dict(self.wins),
            "preset": self.preset,
            "players": self.players,
            "seed": self.seed,
            "agents": self.agents,
            "mean_days": self.mean_days,
            "win_rates": self.win_rates(),
        }

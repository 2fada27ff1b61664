"""The leaderboard as computed: the figures ``werewolf leaderboard`` prints, caches and
turns into ``--json``.

Apart from the computation (``arena.ratings.leaderboard``, which needs numpy) so a
cached leaderboard is read, printed and written as JSON without importing numpy: a
warm ``werewolf leaderboard`` pays for what it shows, not for the bootstrap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PRIMARY = "bradley_terry"
OUTCOMES = {
    "win": "one comparison per decided game: did the village win",
    "margin": "the winner and how far the game went its way (survivors on each side), each cut of that order a "
    "comparison with its own fitted sensitivity, the win's fixed at 1: Elo of winning, from more of each game",
}


@dataclass
class Leaderboard:
    games: int  # games rated (after the fallback filter)
    decided: int
    n_boot: int
    seed: int
    winners: dict[str, dict[str, Any]]
    village_advantage: dict[str, float | None]
    rows: list[dict[str, Any]] = field(default_factory=list)  # best first, by the primary rating
    roles: list[str] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    primary: str = PRIMARY
    sides: dict[str, Any] = field(default_factory=dict)  # side_design(): are per-side ratings identified
    excluded: dict[str, Any] = field(default_factory=dict)  # keep_decided(): games left out, and why
    unit: str = "game"  # what the bootstrap resamples: game, or deal (mirrored tournaments)
    field_rates: dict[str, float | None] = field(default_factory=dict)  # each side's pooled win rate
    outcome: str = "win"  # what the primary Bradley-Terry fit reads: win, or margin (arena.ratings.margin)
    anchor: str | None = None  # the participant pinned at 0, every rating relative to it (None: to the average participant)

    @property
    def zero(self) -> str:
        """What a rating of 0 is: the anchor, or the average participant."""
        return f"the anchor {self.anchor} (pinned at 0)" if self.anchor else "the average participant"

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decided_games": self.decided,
            "primary": self.primary,
            "bootstrap": {"resamples": self.n_boot, "seed": self.seed, "level": 0.95, "unit": self.unit},
            "rating_method": {"model": self.primary, "outcome": self.outcome, "description": OUTCOMES[self.outcome]},
            "anchor": self.anchor,
            "scales": {
                "bradley_terry": f"primary: Elo points relative to {self.zero} (400 per factor 10 in odds), "
                "a batch fit of the games",
                "openskill": f"secondary: Plackett-Luce mean skill (mu) relative to {self.zero} (per side: on "
                "that side), a sequential update averaged over random orders",
                "vs_field": "a side's win rate in games where the participant holds seats on it minus in games where it "
                "holds none (the pooled field); withheld when either hand has fewer than 5 games",
            },
            "winners": self.winners,
            "village_advantage_elo": self.village_advantage,
            "side_ratings": self.sides,
            "excluded": self.excluded,
            "side_field_win_rate": self.field_rates,
            "participants": self.rows,
            "pairs": self.pairs,
        }

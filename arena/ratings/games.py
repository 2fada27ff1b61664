"""What the ratings read: each finished game as two sides and who sat on them.

Kept free of the database and of transcripts so that ratings can be tested on
synthetic games whose true strengths are known.
"""

from __future__ import annotations

from dataclasses import dataclass

VILLAGE = "village"
WOLVES = "werewolves"
SIDES = (VILLAGE, WOLVES)


@dataclass(frozen=True, slots=True)
class SeatResult:
    participant: str
    side: str  # the camp of the seat's final role: village, werewolves, or a solo camp
    role: str  # the role dealt (what the schedule balances)
    won: bool
    decisions: int = 0  # decisions the seat was asked
    fallbacks: int = 0  # of which its agent did not decide (a failed model call played by the heuristic bot)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    id: str
    winner: str  # village, werewolves, none, or a solo camp
    seats: tuple[SeatResult, ...]
    deal: int | None = None  # games of one deal (mirrors: the same seed and cards) share their luck

    def team(self, side: str) -> list[SeatResult]:
        return [s for s in self.seats if s.side == side]

    @property
    def rated(self) -> bool:
        """Both main sides are at the table, so the game says something about them."""
        return bool(self.team(VILLAGE)) and bool(self.team(WOLVES))

    @property
    def village_won(self) -> float | None:
        """1 or 0 for a decided game; ``None`` when neither main side won (a draw)."""
        if self.winner == VILLAGE:
            return 1.0
        if self.winner == WOLVES:
            return 0.0
        return None


def participants_of(games: list[GameOutcome]) -> list[str]:
    """Participants in order of first appearance (stable, so tables do not reshuffle)."""
    seen: dict[str, None] = {}
    for g in games:
        for s in g.seats:
            seen.setdefault(s.participant, None)
    return list(seen)

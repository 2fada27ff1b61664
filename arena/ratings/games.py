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
    alive: bool | None = None  # at the end of the game (None: not recorded); the margin outcome reads it


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

    @property
    def margin(self) -> float | None:
        """How far the decided game went the winner's way: the share of village seats
        alive at the end minus the share of werewolf seats alive, in [-1, 1]: a village
        win leaves no wolf and more or fewer villagers, a wolf win more or fewer wolves
        (``arena.ratings.margin`` orders games by the winner first, then by this).
        ``None`` for a draw, an unrated game, or seats whose survival was not recorded."""
        if not self.rated or self.village_won is None or any(s.alive is None for s in self.seats):
            return None
        share = {side: sum(bool(s.alive) for s in team) / len(team) for side in SIDES if (team := self.team(side))}
        return share[VILLAGE] - share[WOLVES]


def participants_of(games: list[GameOutcome]) -> list[str]:
    """Participants in order of first appearance (stable, so tables do not reshuffle)."""
    seen: dict[str, None] = {}
    for g in games:
        for s in g.seats:
            seen.setdefault(s.participant, None)
    return list(seen)

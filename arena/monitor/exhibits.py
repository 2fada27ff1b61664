"""What a monitor reads: each seat's private reasoning and public words, day by day."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from arena.metrics.load import GameRecord, payload_is
from arena.monitor.claims import Said, said_by_day
from engine.speech import Speech

KEEP = 6000  # characters of each text a monitor reads (the latest): a bound on a model monitor's prompt


@dataclass(frozen=True)
class Exhibit:
    """One seat at the end of one day: what it had thought and said so far, and the truth."""

    game: str
    seat: str
    label: str  # who played it (``GameRecord.label``)
    day: int
    wolf: bool  # held a werewolf card at the end of the game
    private: str  # its reasoning so far ("" when its agent gave none: a bot)
    public: str  # its speeches so far
    said: Said = field(default_factory=Said)  # its parsed claims so far, and the public record they are read against


def exhibits(g: GameRecord, game: str) -> list[Exhibit]:
    """Every seat alive at the start of each day that had thought or said anything by its end."""
    thought: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for c in g.calls:
        parsed = c.get("parsed")
        reasoning = parsed.get("reasoning") if isinstance(parsed, dict) else None
        if c.get("accepted") and isinstance(reasoning, str) and reasoning.strip():
            thought[str(c.get("seat"))].append((int(c.get("day") or 0), reasoning.strip()))
    said: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for e, data in g.of(Speech):
        if payload_is(data, Speech) and str(data.text).strip():
            said[data.speaker].append((int(e.day), str(data.text).strip()))
    died = {d.player: d.day for d in g.deaths()}
    said_then = said_by_day(g)
    out = []
    for day in range(1, g.days + 1):
        for seat in g.names:
            if died.get(seat, day) < day:
                continue
            private = _upto(thought[seat], day)
            public = _upto(said[seat], day)
            if private or public:
                out.append(Exhibit(game, seat, g.label(seat), day, g.is_wolf(seat), private, public, said_then[(seat, day)]))
    return out


def _upto(texts: list[tuple[int, str]], day: int) -> str:
    joined = "\n".join(t for d, t in texts if d <= day)
    return joined[-KEEP:]

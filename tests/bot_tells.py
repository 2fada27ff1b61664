"""What a person reads off the heuristic bots at once: measured on seeded bot games.

Shared by ``tests/test_heuristic_tells.py`` (a fixed set of seeds, a bound) and
``benchmarks/bot_tells.py`` (more games, the figures printed): one definition of each
statistic, so the test and the benchmark measure the same thing.

- **the day-one pile**: of the accusations the village's bots make in the first day's
  debate, when nobody knows anything yet, the share that lands on the player accused
  most, and the share that lands on the first player accused that day;
- **the pack's betrayal**: votes a heuristic wolf casts against a packmate on a day
  when the pack holds the vote (its wolves are at least half the living).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from arena.gamefile import default_game
from arena.runner import run_sync
from engine import Game


@dataclass
class Tells:
    games: int = 0
    accusations: int = 0  # by village bots, in the first day's debate
    on_top: int = 0  # ... landing on that day's most-accused player
    on_first: int = 0  # ... landing on the first player accused that day
    pack_votes: int = 0  # wolves' votes on days the pack holds the vote
    betrayals: int = 0  # ... against a packmate
    betrayal_games: list[int] = field(default_factory=list)

    @property
    def top_share(self) -> float:
        return self.on_top / self.accusations if self.accusations else 0.0

    @property
    def first_share(self) -> float:
        return self.on_first / self.accusations if self.accusations else 0.0


def play(seed: int, players: int = 8, preset: str = "millers_hollow", agent: str = "heuristic") -> Game:
    game, agents = default_game(players=players, preset=preset, seed=seed, agent=agent, options={"sheriff": False}).build()
    run_sync(game, agents)
    return game


def measure(game: Game, tells: Tells, seed: int = 0) -> None:
    """Add ``game``'s accusations and votes to ``tells``."""
    tells.games += 1
    wolves_at_start = {p.name for p in game.players if p.initial_role and _wolf(game, p.name)}
    first_day: list[str] = []
    dead: set[str] = set()
    betrayed = False
    for e in game.events:
        d = e.data
        if e.kind in ("death",):
            dead.add(d.player)
        if e.kind == "speech" and e.day == 1 and e.phase == "discussion" and d.speaker not in wolves_at_start:
            first_day += list((d.claims or {}).get("accuses") or [])
        if e.kind == "vote_result":
            living = [p.name for p in game.players if p.name not in dead]
            pack = [n for n in living if n in wolves_at_start]
            if pack and 2 * len(pack) >= len(living):
                for voter, target in d.votes.items():
                    if voter in pack:
                        tells.pack_votes += 1
                        if target in pack:
                            tells.betrayals += 1
                            betrayed = True
    if betrayed:
        tells.betrayal_games.append(seed)
    if first_day:
        counts = Counter(first_day)
        tells.accusations += len(first_day)
        tells.on_top += counts.most_common(1)[0][1]
        tells.on_first += counts[first_day[0]]


def _wolf(game: Game, name: str) -> bool:
    return game.by_name[name].is_wolf


def tells_of(seeds: range, players: int = 8, preset: str = "millers_hollow", agent: str = "heuristic") -> Tells:
    tells = Tells()
    for seed in seeds:
        measure(play(seed, players, preset, agent), tells, seed)
    return tells

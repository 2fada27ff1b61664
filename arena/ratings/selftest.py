"""Playing bot tournaments in memory, for rating self-tests (``benchmarks/rating_recovery.py``).

The same schedule a tournament file gives (``arena.tournament.schedule``) and the same
table construction (``arena.tournament.play.game_spec``), minus transcripts and the
database: a bot game then costs ~15 ms, so a ladder can be played under several
designs in minutes.
"""

from __future__ import annotations

from typing import Any, Iterator

from arena.ratings.games import GameOutcome, SeatResult
from arena.tournament.config import TournamentConfig, config_from_data
from arena.tournament.play import GameJob, game_spec
from arena.tournament.schedule import build_schedule, side_of
from arena.runner import run_sync

LADDER = (
    ("H", "heuristic", None),
    ("H25", "heuristic", {"noise": 0.25}),
    ("H50", "heuristic", {"noise": 0.5}),
    ("H75", "heuristic", {"noise": 0.75}),
    ("R", "random", None),
)


def ladder_config(
    games: int, players: int, seed: int, seating: str = "mixed", mirror: bool = False, participants=LADDER,
    adaptive: dict[str, Any] | None = None, outcome: str = "win",
) -> TournamentConfig:  # fmt: skip
    return config_from_data(
        {
            "seed": seed, "games": games, "seating": seating, "mirror": mirror, "rating": {"outcome": outcome},
            **({"adaptive": adaptive} if adaptive is not None else {}),
            "tables": [{"players": players}],
            "participants": [{"name": n, "agent": a, **({"options": o} if o else {})} for n, a, o in participants],
        }
    )  # fmt: skip


def play_games(cfg: TournamentConfig) -> Iterator[GameOutcome]:
    """Every scheduled game, played in plan order, as the ratings read it. An
    adaptive plan is rebuilt after each batch from the games played so far, as
    ``arena.tournament.run`` does."""

    agents: dict[str, tuple[str, Any]] = {p.name: (p.agent, p.options) for p in cfg.participants}
    outcomes: dict[str, GameOutcome] = {}
    chosen: dict[int, tuple[str, str]] = {}
    while True:
        plans, _ = build_schedule(cfg, outcomes, chosen)
        new = [p for p in plans if p.id not in outcomes]
        if not new:
            return
        for plan in new:
            job = GameJob(plan=plan, digest="", players=len(plan.seats), table_options=dict(cfg.tables[plan.table].options),
                          agents=agents, language=cfg.language, prices=None, folder="", transcript="")  # fmt: skip
            game, seats = game_spec(job).build()
            run_sync(game, seats)
            winners = set(game.winners)
            results = []
            for s in plan.seats:
                p = game.by_name[s.name]
                results.append(SeatResult(s.participant, side_of(p.role), p.initial_role, s.name in winners, alive=p.alive))
            outcome = GameOutcome(plan.id, game.winner, tuple(results), deal=plan.deal)
            outcomes[plan.id] = outcome
            yield outcome
        if cfg.adaptive is None:
            return

"""The bench's games: each deal of the protocol as two tournament games, the model's
whole side against one opponent's, then the same deal with the sides swapped.

The deals are built by the tournament's own schedule code (``seating: teams``,
``mirror: true``), so a bench game is seated, named, dealt and seeded exactly as a
tournament game would be, and its transcript, store rows and leaderboard are the
tournament's."""

from __future__ import annotations

from typing import Any

from arena.bench.protocol import MODEL, Protocol
from arena.tournament.config import TournamentConfig, config_from_data
from arena.tournament.schedule import Balance, GamePlan, _deal_games


def bench_config(protocol: Protocol, spec: str, options: dict[str, Any] | None, *, sign_key: str | None, prices: str | None) -> TournamentConfig:
    """The tournament the bench plays: the model and the protocol's opponents."""
    participants = [{"name": MODEL, "agent": spec, **({"options": options} if options else {})}]
    participants += [{"name": o.name, "agent": o.agent, **({"options": o.options} if o.options else {})} for o in protocol.opponents]
    return config_from_data(
        {
            "name": f"bench-{protocol.name}",
            "seed": protocol.seed,
            "games": protocol.max_deals,
            "mirror": True,
            "seating": "teams",
            "tables": [t.model_dump(exclude_none=True) for t in protocol.tables],
            "participants": participants,
            "sign_key": sign_key,
            "prices": prices,
            "anchor": protocol.opponents[0].name,
        },  # fmt: skip
        where=f"bench protocol {protocol.label}",
    )


def bench_plans(cfg: TournamentConfig, protocol: Protocol, deals: int) -> list[GamePlan]:
    """The games of the first ``deals`` deals, in order (the same every time: a longer
    run begins with the games of a shorter one)."""
    names = [p.name for p in cfg.participants]
    bal = Balance()
    plans: list[GamePlan] = []
    for d in range(deals):
        _, opponent = protocol.deal(d)
        plans.extend(_deal_games(cfg, d, names, bal, len(plans), pair=(MODEL, opponent)))
    return plans


def opponent_of(plan: GamePlan) -> str:
    return next(s.participant for s in plan.seats if s.participant != MODEL)

"""Which seats of a finished game ``werewolf play --json`` reports on, with what their
calls count (``model_seats``, ``own_seats``: CONTRACT.md section 3, keys added to the
result of ``transcripts.result``). It is the arena's part of the result because only
the arena knows the agents behind the seats.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from agents.own_seat import OwnSeat
from transcripts.call_counts import by_seat
from transcripts.result import ModelSeatOut
from transcripts.schema import CallRecord


def model_seats(agents: Mapping[str, Any], records: Iterable[CallRecord]) -> list[ModelSeatOut]:
    """Every model seat of the table (an agent with a model ``spec`` and a back end),
    in seat order, with what its records count; a seat never asked counts zeros."""
    return _counted(agents, records, lambda agent: getattr(agent, "backend", None) is not None)


def own_seats(agents: Mapping[str, Any], records: Iterable[CallRecord]) -> list[ModelSeatOut]:
    """Every seat of an agent of one's own, in seat order, with what its records count
    (no calls; its fallbacks and errors); a seat the fallback bot never played counts zeros."""
    return _counted(agents, records, lambda agent: isinstance(agent, OwnSeat))


def _counted(agents: Mapping[str, Any], records: Iterable[CallRecord], chosen: Callable[[Any], bool]) -> list[ModelSeatOut]:
    counts = by_seat(records)
    out = []
    for name, agent in agents.items():
        if not chosen(agent):
            continue
        c = counts.get(name)
        out.append(ModelSeatOut(name=name, agent=str(agent.spec), calls=c.calls if c else 0, fallbacks=c.fallbacks if c else 0, errors=c.errors if c else 0))
    return out

"""``werewolf play --human NAME --models SPEC``: a game against models in one command.

Why half models and half reference bots: a table of one model alone measures the
person against that model's habits only, and a table of bots alone is no game against
a model; seated alternately, every model seat has a reference bot beside it, the
project's default opponent (``arena.gamefile.TABLE_OPPONENT``), the same one
``werewolf play``'s default table and the web start page seat. Why the person's place is drawn from the
seed: the cards are dealt by the seed too, so the same seed plays the same game
again, and over many seeds the person sits everywhere and draws every card.
"""

from __future__ import annotations

import random
from typing import Sequence

from agents.llm import is_model_spec
from arena.gamefile import HUMAN, TABLE_OPPONENT, GameFileError, GameSpec, spec_from_data


def against_models(spec: GameSpec, person: str, models: Sequence[str]) -> GameSpec:
    """``spec`` (a table of bots) with ``person`` at a seat drawn from its seed and the
    other seats played, alternately, by ``models`` (in turn) and the reference bot;
    ``GameFileError`` naming the problem."""
    bad = [m for m in models if not is_model_spec(m)]
    if bad:
        raise GameFileError(f"--models takes model specs (openai:MODEL, anthropic:MODEL, langchain:..., litellm:...), not {', '.join(bad)}")
    data = spec.model_dump(exclude_unset=True)
    seats = data["seats"]
    at = random.Random(f"{spec.seed}:person").randrange(len(seats))
    names = [s["name"] for s in seats]
    if person in names and names.index(person) != at:
        # The person's chosen name is a default seat's: that seat takes the name the person's place had.
        seats[names.index(person)]["name"] = names[at]
    seats[at] = {"name": person, "agent": HUMAN}
    others = [s for i, s in enumerate(seats) if i != at]
    for i, seat in enumerate(others):
        seat.pop("answers", None)
        seat.pop("options", None)
        seat["agent"] = models[(i // 2) % len(models)] if i % 2 == 0 else TABLE_OPPONENT
    return spec_from_data(data)

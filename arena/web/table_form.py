"""The start page's form, turned into the same ``GameSpec`` a game file gives.

Why through ``spec_from_data``: a table set up in the browser must be refused for
exactly the reasons a game file would be, in the same words, and must record the
same transcript header; the web adds only which seats a person plays (``agent:
human``, with an optional time limit) and the pace of the bots' speeches.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arena.gamefile import HUMAN, GameFileError, GameSpec, default_names, describe_errors, spec_from_data
from engine.presets import PRESETS
from engine.roles import ROLES
from prompts.catalog import LANGUAGES

BOTS = ("heuristic", "reasoner", "random")
MODEL_EXAMPLES = ("openai:gpt-5.4-mini", "anthropic:claude-haiku-4-5", "langchain:google_genai:gemini-3.1-flash-lite", "litellm:groq/openai/gpt-oss-20b")
MAX_RUNNING = 20  # games one server plays at once: a local server, not a hosting service


class SeatForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    agent: str = Field(default="heuristic", max_length=100)
    role: str | None = Field(default=None, max_length=40)  # a card dealt to this seat on purpose (practice a role)


class TableForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str = Field(default="millers_hollow", max_length=40)
    seed: int | None = Field(default=None, ge=0, lt=2**63)  # None: a fresh random game
    language: str = Field(default="en", max_length=10)
    seats: list[SeatForm] = Field(min_length=3, max_length=30)
    timeout: float | None = Field(default=None, gt=0, le=3600)  # seconds per decision, for the people
    # Every other number of the form is a rule option (discussion_rounds, ...): bounded
    # by ``engine.options.BOUNDS``; the table's size by the preset (``check_players``).
    options: dict[str, Any] = Field(default_factory=dict)
    pace: float = Field(default=1.0, ge=0, le=10)  # seconds before each bot's speech
    beliefs: bool = False  # not a rule: models and bots privately rate each other's P(wolf) as each vote opens


def table_spec(raw: Any) -> tuple[GameSpec, float]:
    """The checked spec and the bots' pace; ``GameFileError`` with a sentence."""
    if not isinstance(raw, dict):
        raise GameFileError("the request must be a JSON object describing the table")
    try:
        form = TableForm.model_validate(raw)
    except ValidationError as e:
        raise GameFileError(describe_errors(e, raw)) from None
    seats: list[dict[str, Any]] = []
    for s in form.seats:
        agent = s.agent.strip()
        if agent == "scripted":
            raise GameFileError(f"{s.name}: scripted seats need answers; choose a bot, a model or a person")
        seat: dict[str, Any] = {"name": s.name.strip(), "agent": agent}
        if s.role:
            seat["role"] = s.role
        if agent == HUMAN and form.timeout is not None:
            seat["timeout"] = form.timeout
        seats.append(seat)
    data: dict[str, Any] = {
        "preset": form.preset,
        "seed": form.seed if form.seed is not None else random.SystemRandom().randrange(1, 2**31),
        "language": form.language,
        "options": form.options,
        "seats": seats,
        "beliefs": form.beliefs,
    }
    spec = spec_from_data(data)
    return spec, form.pace


def setup_choices() -> dict[str, Any]:
    """What the start page offers: presets with their sizes, decks and defaults."""
    presets = []
    for p in PRESETS.values():
        opts = p.options()
        decks = {}
        for n in range(p.min_players, p.max_players + 1):
            try:
                decks[n] = p.deck(n)
            except ValueError:
                continue
        presets.append(
            {
                "id": p.id,
                "title": p.title,
                "min_players": p.min_players,
                "max_players": p.max_players,
                "decks": decks,
                "sheriff": opts.sheriff,
                "discussion_rounds": opts.discussion_rounds,
                "discussion": opts.discussion,
            }
        )
    return {
        "presets": presets,
        "names": default_names(max(p.max_players for p in PRESETS.values())),
        "bots": list(BOTS),
        "models": list(MODEL_EXAMPLES),
        "languages": list(LANGUAGES),
        "roles": {r.id: r.name for r in ROLES.values()},
    }

"""The start page's form, turned into the same ``GameSpec`` a game file gives.

Why through ``spec_from_data``: a table set up in the browser must be refused for
exactly the reasons a game file would be, in the same words, and must record the
same transcript header; the web adds only which seats a person plays (``agent:
human``, with an optional time limit) and the pace of the bots' speeches.

One refusal is the web's own: an agent of one's own (``py:MODULE:CLASS``). Seating one
imports its module, which runs its code, and this form is an HTTP API that any
program holding the host key can call over the network (``arena.own_code``); such
agents are played with ``werewolf play`` or in a tournament.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agents.custom import is_custom_spec
from agents.a2a.spec import agent_url, is_a2a_spec
from arena.endpoints import config_path, remote_trusted
from arena.gamefile import HUMAN, GameFileError, GameSpec, default_names, describe_errors, spec_from_data
from arena.own_code import code_refusal
from engine.presets import PRESETS
from engine.roles import ROLES
from prompts.catalog import LANGUAGES

BOTS = ("heuristic", "random")
MODEL_EXAMPLES = ("openai:gpt-5.4-mini", "anthropic:claude-haiku-4-5", "langchain:google_genai:gemini-3.1-flash-lite", "litellm:groq/openai/gpt-oss-20b")
REMOTE_EXAMPLE = "a2a:http://127.0.0.1:9100"  # python -m examples.remote_agent --port 9100
MAX_RUNNING = 20  # games one server plays at once: a local server, not a hosting service
WEB_CODE_HINT = "the web server seats none; play it with werewolf play or in a tournament (docs/AGENTS.md)"


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
        if is_custom_spec(agent):
            raise GameFileError(code_refusal("the web server", s.name, agent, WEB_CODE_HINT))
        seat: dict[str, Any] = {"name": s.name.strip(), "agent": agent}
        if s.role:
            seat["role"] = s.role
        if agent == HUMAN and form.timeout is not None:
            seat["timeout"] = form.timeout
        if is_a2a_spec(agent):
            _check_remote(s.name.strip(), agent)
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


def _check_remote(name: str, agent: str) -> None:
    """A remote seat from the start page: an agent on this machine, or one the user's
    config trusts (``trusted_endpoints``, without a token: the page names none). The
    page is the host's, but it may be open to more than this machine, and a seat's
    view is every secret its card holds."""
    try:
        url = agent_url(agent)
    except ValueError as e:
        raise GameFileError(f"{name}: {e}") from None
    if not remote_trusted(url, None):
        raise GameFileError(
            f"{name}: the agent at {url} is not on this machine; a web table seats it only when it is listed "
            f"under trusted_endpoints (base_url: {url}) in {config_path()}"
        )


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
        "remote": REMOTE_EXAMPLE,
        "languages": list(LANGUAGES),
        "roles": {r.id: r.name for r in ROLES.values()},
    }

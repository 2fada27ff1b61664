"""What an assessment request may ask of ``werewolf a2a serve``, checked before any
task is made.

A request comes from the network (a platform such as AgentBeats, or anyone who can
reach the port), so it may seat only what costs the operator nothing and sends
nothing of theirs: agents over A2A at the addresses it names, and the built-in bots.
It may not seat a model (the operator's API keys), a class of this machine
(``py:``), a person, or name a token's variable (the operator's environment), and
an agent on this machine or a private network is accepted only when the operator
said so (``--local-agents``): otherwise a request could make the assessor reach
into the operator's own network on its behalf.

The request becomes a tournament file's data, so a table the rules cannot deal, an
unknown key or a bad option is refused by the same checks and in the same words as
a tournament file (``arena.tournament.config``).
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from urllib.parse import urlsplit

from agents.a2a.spec import agent_url, is_a2a_spec, is_loopback
from arena.tournament.config import BOT_AGENTS, ConfigError, TournamentConfig, config_from_data, describe

MAX_GAMES = 200  # games in one task: an assessment, not a season
MAX_PARTICIPANTS = 20
SKILL = "werewolf-assessment"


class RequestError(ValueError):
    """A request the assessor will not run; the message says why (sent as an A2A
    invalid-params error)."""


class Entrant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    agent: str = Field(min_length=1, max_length=300)  # a2a:URL, or a built-in bot
    options: dict[str, Any] | None = None


class AssessmentRequest(BaseModel):
    """One task: these participants, at this table, for this many games (docs/REMOTE_AGENTS.md)."""

    model_config = ConfigDict(extra="forbid")

    participants: list[Entrant] = Field(min_length=1, max_length=MAX_PARTICIPANTS)
    preset: str = Field(default="millers_hollow", max_length=40)
    players: int = Field(default=8, ge=3, le=30)
    games: int = Field(default=1, ge=1, le=MAX_GAMES)
    seed: int = Field(default=0, ge=0, lt=2**63)
    roles: list[str] | None = Field(default=None, max_length=30)
    options: dict[str, Any] = Field(default_factory=dict)  # rule options, as a tournament table's
    seating: Literal["mixed", "teams", "duplicate"] = "mixed"
    language: Literal["en", "zh"] = "en"

    def config(self, name: str, *, local_agents: bool = False) -> TournamentConfig:
        """The tournament this request asks for; ``RequestError`` saying what is wrong."""
        for e in self.participants:
            _check_entrant(e, local_agents)
        data = {
            "name": name,
            "seed": self.seed,
            "games": self.games,
            "seating": self.seating,
            "language": self.language,
            "tables": [{"preset": self.preset, "players": self.players, "options": self.options, **({"roles": self.roles} if self.roles else {})}],
            "participants": [e.model_dump(exclude_none=True) for e in self.participants],
        }
        try:
            return config_from_data(data, where="the request")
        except ConfigError as e:
            raise RequestError(str(e)) from None


def parse_request(data: Any, *, local_agents: bool = False, name: str = "assessment") -> tuple[AssessmentRequest, TournamentConfig]:
    """A message's request (its data part, or its text as JSON) and the tournament it
    asks for; ``RequestError`` with a sentence a requester can act on."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError:
            raise RequestError(f"send the request as a data part (or JSON text): {EXAMPLE}") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request must be a JSON object: {EXAMPLE}")
    try:
        request = AssessmentRequest.model_validate(data)
    except ValidationError as e:
        raise RequestError(f"the request: {describe(e)}") from None
    return request, request.config(name, local_agents=local_agents)


EXAMPLE = '{"participants": [{"name": "Mine", "agent": "a2a:https://agent.example.org"}, {"name": "Bot", "agent": "heuristic"}], "players": 6, "games": 2}'


def _check_entrant(e: Entrant, local_agents: bool) -> None:
    if e.agent in BOT_AGENTS:
        return
    if not is_a2a_spec(e.agent):
        raise RequestError(
            f"participant {e.name}: agent '{e.agent[:60]}' cannot be seated from a request: name an agent over A2A "
            f"(a2a:URL) or a built-in bot ({', '.join(BOT_AGENTS)})"
        )
    try:
        url = agent_url(e.agent)
    except ValueError as why:
        raise RequestError(f"participant {e.name}: {why}") from None
    if (e.options or {}).get("token_env") is not None:
        raise RequestError(f"participant {e.name}: a request may not name a token's variable (token_env): it is the operator's environment")
    if not local_agents and _local(url):
        raise RequestError(
            f"participant {e.name}: {url} is on the assessor's machine or network, which a request may not reach "
            "(the operator allows it with werewolf a2a serve --local-agents)"
        )


def _local(url: str) -> bool:
    """This machine or a private, link-local or unspecified address (a name is taken
    at its word: resolving it here would not bind the connection to what was checked)."""
    if is_loopback(url):
        return True
    host = urlsplit(url).hostname or ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host.endswith((".local", ".internal", ".localhost"))
    return ip.is_private or ip.is_link_local or ip.is_unspecified or ip.is_reserved or ip.is_multicast

"""Where a seat's API key may be sent: only where the user said.

Why a module of its own: ``base_url`` and ``api_key_env`` (``agents.llm.config.
ENDPOINT_FIELDS``) together choose which secret goes to which server, and three kinds
of file can carry them (game files, tournament files, transcripts, the last two often
someone else's). Each reader asks here, so the refusal has one wording, names the
field, the seat and the file, and points at ``--trust-endpoints``.

The user's own config file may list the endpoints they trust (``trusted_endpoints``,
pairs of a base URL and, optionally, the variable that server may receive), so a
shared game file aimed at the user's own local server plays without the flag::

    # ~/.config/werewolf-arena/config.yaml (or $XDG_CONFIG_HOME/..., or $WEREWOLF_CONFIG)
    trusted_endpoints:
      - base_url: http://127.0.0.1:8000/v1
        api_key_env: MY_VLLM_KEY

A seat's settings are accepted when the pair it sets (``base_url``, ``api_key_env``,
either possibly unset) is one of the listed pairs, exactly: trusting a server is not
trusting it with every variable, nor trusting a variable with every server.

A remote seat (``a2a:URL``) sends the seat's view, and the token its ``token_env``
names, to the agent's address: the same rule with the address as ``base_url`` and the
token's variable as ``api_key_env``. An agent on this machine (loopback) needs no
trust unless the file also names a token's variable.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from agents.a2a.spec import agent_url, is_a2a_spec, is_loopback
from agents.llm.config import endpoint_fields
from arena.errors import GameFileError


class TrustedEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key_env: str | None = None


class UserConfig(BaseModel):
    """The user's own settings file (only what the arena reads from it)."""

    model_config = ConfigDict(extra="allow")

    trusted_endpoints: list[TrustedEndpoint] = []


def config_path() -> Path:
    if os.environ.get("WEREWOLF_CONFIG"):
        return Path(os.environ["WEREWOLF_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "werewolf-arena" / "config.yaml"


def trusted_pairs() -> frozenset[tuple[str | None, str | None]]:
    """The (base_url, api_key_env) pairs the user's config trusts; ``GameFileError``
    naming the file when it cannot be read."""
    p = config_path()
    try:
        stamp = p.stat().st_mtime_ns
    except OSError:
        return frozenset()  # no config file: nothing is trusted beyond the command line
    return _pairs(str(p), stamp)


@lru_cache(maxsize=4)
def _pairs(path: str, stamp: int) -> frozenset[tuple[str | None, str | None]]:
    """The pairs of ``path`` as it was at ``stamp`` (its modification time)."""
    import yaml  # only a user with a config file pays for the parser

    p = Path(path)
    try:
        raw = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        cfg = UserConfig.model_validate(raw)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValidationError) as e:
        first = " ".join(str(e).split())[:160]
        raise GameFileError(f"your config file {p} cannot be read: {first}") from None
    return frozenset((t.base_url, t.api_key_env) for t in cfg.trusted_endpoints)


def trusted(options: Any) -> bool:
    """Whether a seat's options set only an endpoint pair the user's config lists."""
    if isinstance(options, BaseModel):
        options = options.model_dump(exclude_unset=True)
    if not isinstance(options, dict):
        return False
    return (options.get("base_url"), options.get("api_key_env")) in trusted_pairs()


def endpoint_refusal(source: str, who: str, field: str, hint: str = "") -> str:
    """Why a file may not set ``field`` for a seat: it would choose where a key goes."""
    return (
        f"{source}: {who} sets {field}, which chooses where an API key is sent; refused from a file: "
        f"pass --trust-endpoints if you trust it, list it under trusted_endpoints in {config_path()}"
        + (f", or {hint}" if hint else "")
    )


def remote_trusted(url: str, token_env: str | None) -> bool:
    """Whether a file may seat the agent at ``url`` (its token read from ``token_env``):
    an agent on this machine without a token, or a pair the user's config lists (the
    address compared without a trailing slash)."""
    if token_env is None and is_loopback(url):
        return True
    want = url.rstrip("/")
    return any(base is not None and base.rstrip("/") == want and env == token_env for base, env in trusted_pairs())


def remote_refusal(source: str, who: str, url: str, token_env: str | None) -> str:
    """Why a file may not send a seat's view (and a token) to the agent at ``url``."""
    token = f", with the token in ${token_env}," if token_env else ""
    pair = f"base_url: {url}" + (f", api_key_env: {token_env}" if token_env else "")
    return (
        f"{source}: {who} sends its view{token} to the agent at {url}, "
        + ("which is not on this machine" if not is_loopback(url) else "and names the token's variable")
        + f"; refused from a file: pass --trust-endpoints if you trust it, or list it under trusted_endpoints ({pair}) in {config_path()}"
    )


def remote_seat_refusal(seat: Any, source: str, who: str) -> str | None:
    """``remote_refusal`` for a seat or participant (``agent`` and ``options``) that
    an untrusted file may not seat; None when it may (or is no remote seat)."""
    agent = getattr(seat, "agent", "")
    if not isinstance(agent, str) or not is_a2a_spec(agent):
        return None
    try:
        url = agent_url(agent)
    except ValueError as e:
        return f"{source}: {who}: {e}"
    options = getattr(seat, "options", None)
    if isinstance(options, BaseModel):
        options = options.model_dump(exclude_unset=True)
    token_env = options.get("token_env") if isinstance(options, dict) else None
    token_env = token_env if isinstance(token_env, str) else None
    return None if remote_trusted(url, token_env) else remote_refusal(source, who, url, token_env)


def refuse_endpoints(
    seats: list[Any], source: str, hint: str = "set it yourself with --model-option FIELD=VALUE", skip: Any = ()
) -> None:
    """``GameFileError`` for the first seat (``SeatSpec`` or ``SeatRecord``) of a file
    whose options set ``base_url`` or ``api_key_env`` (``agents.llm.config``), or
    that seats a remote agent the user does not trust (``remote_seat_refusal``);
    seats named in ``skip`` (given another agent) are not asked."""
    for i, seat in enumerate(seats):
        if seat.name in skip:
            continue
        refused = remote_seat_refusal(seat, source, f"seat {i + 1} ({seat.name})")
        if refused is not None:
            raise GameFileError(refused)
        options = getattr(seat, "options", None)
        fields = endpoint_fields(options)
        if fields and not trusted(options):
            raise GameFileError(endpoint_refusal(source, f"seat {i + 1} ({seat.name})", f"options.{fields[0]}", hint.replace("FIELD", fields[0])))

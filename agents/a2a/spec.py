"""``a2a:URL``: a seat played by an agent elsewhere, over the A2A protocol.

Why a module without the SDK: game files, tournament files and transcripts name
remote seats and are checked (the address, the options, whether the user trusts it)
by processes that never talk to one, so reading a spec must not load ``a2a-sdk``.

``A2AOptions`` is what a game file, a tournament participant or the Python API may
say about a remote seat. It has its own model rather than ``LLMOptions``' because a
remote agent has no sampling, token budgets or prompt layout; the settings both
share (time limits, retries, re-asks) keep their names and meaning, and the agent
maps them onto the model seat's machinery (``A2AOptions.llm_options``).

The bearer token is never a setting: a file names the environment variable that
holds it (``token_env``), and that name, with the agent's address, is what decides
where a secret may go (``arena.endpoints``), as ``base_url``/``api_key_env`` do for
a model seat.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agents.llm.config import DEFAULT_CHARS, LLMOptions

PREFIX = "a2a:"
# The reply an agent may send for one decision (and its card), in bytes: far above any
# answer (a speech is a few hundred characters), far below what a process can hold for
# a table of seats. A larger reply is refused unread.
DEFAULT_MAX_REPLY_BYTES = 256 * 1024
MAX_REPLY_BYTES = 16 * 1024 * 1024
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_a2a_spec(spec: str) -> bool:
    return spec.startswith(PREFIX)


def agent_url(spec: str) -> str:
    """The agent's base URL from ``a2a:URL``; ``ValueError`` saying what is wrong.

    The URL is where the card is read (``URL/.well-known/agent-card.json``) and where
    the card must send messages. Credentials in it are refused: they would be written
    to every transcript that names the seat (the token goes in ``token_env``)."""
    url = spec[len(PREFIX) :].strip() if is_a2a_spec(spec) else spec.strip()
    example = "a2a:http://127.0.0.1:9100"
    if not url:
        raise ValueError(f"'{spec}' names no agent address (expected {example})")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        raise ValueError(f"'{spec}' is not a valid address (expected {example})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"'{spec}' must be an http:// or https:// address (expected {example})")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"'{spec}' holds credentials; name the variable holding the agent's token with options.token_env instead")
    if parts.query or parts.fragment:
        raise ValueError(f"'{spec}' has a query or fragment; give the agent's base address (expected {example})")
    return url.rstrip("/")


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine (``localhost``, 127.0.0.0/8, ``::1``): a
    seat's view sent there never leaves it, so a file may seat such an agent without
    being trusted. A private network is not this machine."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def same_origin(a: str, b: str) -> bool:
    """Scheme, host and port equal (the port defaulted by the scheme); two names of
    this machine (``localhost``, ``127.0.0.1``) are one host."""
    pa, pb = urlsplit(a), urlsplit(b)
    default = {"http": 80, "https": 443}
    host_a, host_b = (pa.hostname or "").lower(), (pb.hostname or "").lower()
    return (
        pa.scheme == pb.scheme
        and (host_a == host_b or (is_loopback(a) and is_loopback(b)))
        and (pa.port or default.get(pa.scheme)) == (pb.port or default.get(pb.scheme))
    )


class A2AOptions(BaseModel):
    """What a game file may say about one remote seat (all optional)."""

    model_config = ConfigDict(extra="forbid")

    # --- never hang ---------------------------------------------------------------------
    decision_timeout: float = Field(default=60.0, gt=0, le=86400, description="seconds for one decision, re-asks and retries included")
    timeout: float | None = Field(
        default=None, gt=0, le=3600, description="seconds for one HTTP request (default: the decision's whole time limit, at most an hour)"
    )
    max_retries: int = Field(default=2, ge=0, le=20, description="retries of a failed delivery (connection refused, timeout, 5xx) per message")
    retry_initial: float = Field(default=0.5, ge=0, le=600, description="first backoff, seconds")
    retry_max_wait: float = Field(default=10.0, ge=0, le=3600, description="cap on one wait, Retry-After included")
    retry_total: float = Field(default=30.0, gt=0, le=86400, description="cap on the time spent retrying one message")
    max_reasks: int = Field(default=2, ge=0, le=10, description="re-asks after a malformed or illegal answer")
    max_reply_bytes: int = Field(
        default=DEFAULT_MAX_REPLY_BYTES, ge=1024, le=MAX_REPLY_BYTES, description="the largest reply (or agent card) read, in bytes"
    )
    # --- what the agent is told a reply may spend ---------------------------------------------
    reasoning_chars: int | None = Field(
        default=None, ge=0, le=100_000, description=f"the longest private reasoning the agent is told it may write (default {DEFAULT_CHARS['cache'][0]})"
    )
    text_chars: int | None = Field(default=None, ge=0, le=100_000, description=f"the longest speech the agent is told it may make (default {DEFAULT_CHARS['cache'][1]})")
    # --- who -----------------------------------------------------------------------------
    token_env: str | None = Field(default=None, description="the environment variable holding the agent's bearer token")
    display_name: str | None = None  # how the agent is named in summaries (default: its address)

    @field_validator("token_env")
    @classmethod
    def _env(cls, v: str | None) -> str | None:
        if v is not None and not _ENV_NAME.fullmatch(v):
            raise ValueError("token_env must be the name of an environment variable (letters, digits and _)")
        return v

    def llm_options(self) -> LLMOptions:
        """The model seat's settings that drive the same machinery (time limits,
        retries, re-asks, the limits stated in the prompt). The grammar layout: each
        question carries its own answer schema, which the agent is sent."""
        return LLMOptions(
            decision_timeout=self.decision_timeout,
            timeout=self.timeout if self.timeout is not None else min(self.decision_timeout, 3600.0),
            max_retries=self.max_retries,
            retry_initial=self.retry_initial,
            retry_max_wait=self.retry_max_wait,
            retry_total=self.retry_total,
            max_reasks=self.max_reasks,
            # A remote agent's limits are those of a model behind a vendor's API (an
            # agent is no small model on a CPU, whose limits the grammar layout's are).
            reasoning_chars=DEFAULT_CHARS["cache"][0] if self.reasoning_chars is None else self.reasoning_chars,
            text_chars=DEFAULT_CHARS["cache"][1] if self.text_chars is None else self.text_chars,
            display_name=self.display_name,
            prompt_layout="grammar",
        )

    def public(self) -> dict[str, Any]:
        """The options worth recording in a transcript header (only what was set; the
        token's variable by name, never its value)."""
        return self.model_dump(exclude_unset=True)

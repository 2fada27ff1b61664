"""Who may talk to the web server: the Host it is reached by, the page a request comes
from, and who may start a game.

Why each rule (issue 12): a game started here plays on this machine's model keys, so
a request must be shown to come from someone the host meant to let in.

- **Host.** Every request (pages, API, sockets) must name an allowed host: the bound
  address, the loopback names, any IP literal when bound to every interface, and the
  names given with ``--allow-host``. DNS rebinding (``evil.example`` resolving to
  127.0.0.1) always carries the attacker's name, so it is refused here.
- **Origin.** A state-changing request (POST and the like) and a socket that carry an
  ``Origin`` must carry this server's own (same host and port as the Host header).
  Browsers send ``Origin`` on every POST and every socket, so a request without one is
  not a browser's; it is let through to the other checks (JSON, the host key), which a
  program talking to the API meets on purpose. ``Sec-Fetch-Site: cross-site`` is
  refused as well, for a browser that sends it without an Origin.
- **JSON.** A state-changing request must be ``application/json``: a form post and a
  ``text/plain`` body, the two a foreign page can send without asking first, are
  refused; a JSON one from a foreign page needs a CORS preflight this server never
  answers.
- **The host key.** Starting a game needs the key printed when the server starts,
  sent as the ``X-Werewolf-Key`` header or as the ``werewolf_host`` cookie. The start
  page sets that cookie (``HttpOnly``, ``SameSite=Strict``) when it is opened with
  ``?key=KEY`` (the printed address), or, on a server bound to loopback, for a
  browser on this machine (no copy-paste). Seat, watch and host pages keep their own
  unguessable tokens.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

KEY_HEADER = "x-werewolf-key"
KEY_COOKIE = "werewolf_host"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def new_key() -> str:
    return secrets.token_urlsafe(24)


def host_name(value: str) -> str:
    """The host part of a Host header or a URL's netloc, lowercased, without the port
    or an IPv6 address's brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") > 1:  # a bare IPv6 address
        return value
    return value.partition(":")[0]


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(name: str) -> bool:
    name = host_name(name)
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass
class Policy:
    """The server's rules: where it is bound, the extra names it answers to, its key."""

    bind_host: str = "127.0.0.1"
    allow_hosts: tuple[str, ...] = ()
    key: str = field(default_factory=new_key)

    @property
    def loopback(self) -> bool:
        return is_loopback(self.bind_host)

    def host_allowed(self, header: str) -> bool:
        name = host_name(header)
        if not name:
            return False
        if name in LOOPBACK_NAMES or name == host_name(self.bind_host):
            return True
        if host_name(self.bind_host) in WILDCARDS and is_ip(name):
            return True  # bound to every interface: reached by an address, never a rebindable name
        return name in {host_name(h) for h in self.allow_hosts}

    def key_matches(self, candidate: str | None) -> bool:
        return bool(candidate) and candidate is not None and hmac.compare_digest(candidate.encode(), self.key.encode())


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def refusal(scope: Scope, headers: dict[str, str], policy: Policy) -> tuple[int, str] | None:
    """Why this request is refused (status, sentence), or None when it may go on."""
    host = headers.get("host", "")
    if not policy.host_allowed(host):
        shown = host_name(host)[:60] or "(none)"
        return 400, (
            f"this server does not answer to the host name '{shown}'; "
            f"if you reach it by that name, restart it with --allow-host {shown}"
        )
    state_changing = scope["type"] == "websocket" or scope.get("method", "GET").upper() not in SAFE_METHODS
    if not state_changing:
        return None
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https", "ws", "wss") or parts.netloc.lower() != host.strip().lower():
            return 403, "a request from another site is refused: use this server's own pages"
    elif headers.get("sec-fetch-site") == "cross-site":
        return 403, "a request from another site is refused: use this server's own pages"
    if scope["type"] == "http":
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "send the request body as application/json"
    return None


class RequestGuard:
    """ASGI middleware applying ``refusal`` to every HTTP request and socket."""

    def __init__(self, app: ASGIApp, policy: Policy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, _headers(scope), self.policy)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4000 + status})  # before accept: the handshake fails
            return
        if scope.get("path", "").startswith("/api/"):
            body, kind = json.dumps({"error": message}).encode(), b"application/json"
        else:
            body, kind = f"{status}: {message}".encode(), b"text/plain; charset=utf-8"
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

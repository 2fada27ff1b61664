"""One SDK client per (vendor, endpoint, key, timeout) and event loop, shared by every
seat that talks to it.

A vendor SDK's async client carries its own connection pool and TLS context (about
20 ms of CPU to build); a table of eight seats on one endpoint needs one, not eight,
and one pool keeps its connections warm for all of them. Connections are bound to the
event loop that opened them, so a client is shared within a loop only. A client is
closed when the last seat using it in its loop closes.

The key takes part in the sharing key only as a digest: seats with different keys
never share a client (and so never send each other's credentials).
"""

from __future__ import annotations

import asyncio
import hashlib
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

Build = Callable[[], Any]


def pool_key(vendor: str, base_url: str | None, api_key: str | None, timeout: float) -> tuple[Hashable, ...]:
    digest = hashlib.sha256((api_key or "").encode()).hexdigest() if api_key else ""
    return (vendor, base_url or "", digest, float(timeout))


@dataclass
class _Shared:
    spare: Any = None  # built (to check the key) but not yet bound to a loop
    endpoint: str = ""
    by_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any]" = field(default_factory=weakref.WeakKeyDictionary)
    users: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[int]]" = field(default_factory=weakref.WeakKeyDictionary)


class ClientPool:
    """The process's shared clients."""

    def __init__(self) -> None:
        self._shared: dict[tuple[Hashable, ...], _Shared] = {}

    def register(self, key: tuple[Hashable, ...], build: Build, endpoint_of: Callable[[Any], str]) -> str:
        """Make sure a client for ``key`` can be built (``build`` raises on a missing
        key: at the seat's creation, not at its first call); return its endpoint."""
        shared = self._shared.get(key)
        if shared is None:
            client = build()
            shared = self._shared[key] = _Shared(spare=client, endpoint=endpoint_of(client))
        return shared.endpoint

    def client(self, key: tuple[Hashable, ...], user: int, build: Build) -> Any:
        """The client of ``key`` for the running loop, used by ``user`` from now on."""
        loop = asyncio.get_running_loop()
        shared = self._shared.setdefault(key, _Shared())
        c = shared.by_loop.get(loop)
        if c is None:
            c, shared.spare = (shared.spare if shared.spare is not None else build()), None
            shared.by_loop[loop] = c
        shared.users.setdefault(loop, set()).add(user)
        return c

    def uses(self, key: tuple[Hashable, ...], user: int) -> bool:
        shared = self._shared.get(key)
        return shared is not None and any(user in users for users in shared.users.values())

    async def release(self, key: tuple[Hashable, ...], user: int) -> None:
        """``user`` is done in every loop; close the clients nobody uses any more."""
        shared = self._shared.get(key)
        if shared is None:
            return
        for loop, users in list(shared.users.items()):
            users.discard(user)
            if users:
                continue
            del shared.users[loop]
            c = shared.by_loop.pop(loop, None)
            if c is not None:
                try:
                    await c.close()
                except Exception:  # closing must never be what fails a game
                    pass

    def clear(self) -> None:
        """Forget every client (tests)."""
        self._shared.clear()


POOL = ClientPool()

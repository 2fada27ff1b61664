"""Each seat its own slot on a llama.cpp server.

A llama.cpp server (``llama-server``, and ``werewolf model serve`` which runs one)
decodes a few requests at once, one per *slot*, and each slot keeps the prompt it
last evaluated so the next request that starts with it skips that part. Left to
itself the server gives a request the idle slot whose kept prompt shares the longest
prefix with it (``--slot-prompt-similarity``). At a table every seat's prompt opens
with the same rules, so a seat's request lands in whichever slot another seat used
last, overwrites that seat's history and keeps none of its own: every call evaluates
the seat's whole history again. Measured on the shipped SmolLM2 with eight seats,
the second and later calls of a seat reused only the shared 1,209 rules tokens of
their 1,900 to 2,200; pinned, they reused all but the new lines (1,774 to 1,873
reused, 164 to 418 evaluated).

So a request names its slot (``id_slot``, a llama.cpp request field): the seat's
place at the table modulo the server's slot count. The count comes from the
server's ``/props`` (``total_slots``), read once per endpoint; a server without it
(vLLM, Ollama, an OpenAI-compatible router) is sent nothing extra. The field must
never name a slot the server lacks: llama.cpp then holds the request until a slot of
that number frees, which is never.

llama.cpp server documentation: ``/props`` returns ``total_slots``; ``id_slot``
"assign[s] the completion task to a specific slot; if -1 the task will be assigned
to an idle slot" (tools/server/README.md).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger(__name__)

PROBE_TIMEOUT = 5.0

# endpoint (``safe_url``) -> the server's slot count, or None when it has no slots.
_SLOTS: dict[str, int | None] = {}
# endpoint -> the probe in flight, which the seats asking at the same moment share.
_PENDING: dict[str, "asyncio.Task[int | None]"] = {}


def root_url(base_url: str, route: str, query: str = "") -> str:
    """One of llama.cpp's own routes (``/props``, ``/slots/0``): it serves the OpenAI
    routes under ``/v1`` and its own beside them, at the server's root."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return urlunsplit((parts.scheme, parts.netloc, path + route, query, ""))


def props_url(base_url: str) -> str:
    return root_url(base_url, "/props")


def slot_count(props: Any) -> int | None:
    """``total_slots`` from a ``/props`` body, when it is a positive integer."""
    if not isinstance(props, dict):
        return None
    n = props.get("total_slots")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def known(endpoint: str) -> bool:
    return endpoint in _SLOTS


async def learn(endpoint: str, probe: Callable[[], Awaitable[int | None]]) -> int | None:
    """The endpoint's slot count, probed once: the seats that ask while the probe is in
    flight wait for the same answer. ``probe`` must not raise (no slots: None)."""
    if endpoint in _SLOTS:
        return _SLOTS[endpoint]
    loop = asyncio.get_running_loop()
    task = _PENDING.get(endpoint)
    if task is None or task.get_loop() is not loop:  # another game's loop, long gone
        task = _PENDING[endpoint] = asyncio.ensure_future(probe())
    # Shielded: a seat whose decision is cancelled must not cancel the others' probe.
    count = await asyncio.shield(task)
    if endpoint not in _SLOTS:
        log.info("%s: %s", endpoint, f"a llama.cpp server with {count} slots: each seat keeps its own" if count else "no slots to pin")
        _SLOTS[endpoint] = count
    if _PENDING.get(endpoint) is task:
        del _PENDING[endpoint]
    return count


def llama_cpp(endpoint: str) -> bool:
    """Whether the endpoint answered llama.cpp's ``/props`` with its slots: a server
    that also takes llama.cpp's own request fields (``id_slot``, ``grammar``)."""
    return _SLOTS.get(endpoint) is not None


def slot_for(endpoint: str, seat: int | None) -> int | None:
    """The slot a seat's requests name, or None (send no ``id_slot``)."""
    count = _SLOTS.get(endpoint)
    if count is None or seat is None or seat < 0:
        return None
    return seat % count


def forget() -> None:
    """Tests: probe every endpoint afresh."""
    _SLOTS.clear()
    _PENDING.clear()

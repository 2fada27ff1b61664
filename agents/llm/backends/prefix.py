"""The rules every seat reads, evaluated once per llama.cpp server and copied into each
seat's slot.

Every seat's prompt opens with the same text (``Prompt.system_parts[0]``: the game, its
rules, the roles in play, how to answer). Each seat keeps its own slot
(``backends.slots``), and a slot's prompt cache is its own: llama.cpp's host-memory
cache did not serve one slot's prompt to another (measured on the shipped SmolLM2: a
second seat's first request in another slot evaluated all of its 1,928 tokens, 1,209
of them the rules the first seat had just read). On a CPU that is ~10 s of prefill per
seat, mostly on the game's critical path (night 1 and the first day's speeches).

llama.cpp can save a slot's cache to a file and restore it into another slot
(``POST /slots/{id}?action=save|restore`` with ``{"filename": ...}``; the server must be
started with ``--slot-save-path``, else it answers 501 ``not_supported_error``;
tools/server/README.md, "POST /slots/:id_slot?action=save"). So the first seat to ask
has the server evaluate the shared text alone (a one-token completion of a
conversation holding nothing but it, in that seat's slot) once a restore of the file
has been refused as missing (400), saves that slot, and every
other seat restores the file into its own slot before its first request: its request
then shares that prefix with what the slot holds, and only its own part is evaluated.
Restoring 1,328 tokens took 25 ms against 10 s to evaluate them.

Only the shared text is ever evaluated for the file, never a seat's own part: a file
on the server's disk holds nothing a seat may not know about another. The file is named
by a digest of the model and that text, so a server that already holds it (an earlier
game of the same table) is restored from without evaluating it again. A server
without the feature (501, or no such route) costs one refused restore per endpoint
and is left alone after.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
from typing import Awaitable, Callable

import agents.llm.backends.slots as slots

log = logging.getLogger(__name__)

ACTION_TIMEOUT = 30.0  # a save or restore copies tens of MB on the server's own disk

# (slot, action, filename) -> the server's HTTP status (0: no answer).
Action = Callable[[int, str, str], Awaitable[int]]
# slot -> whether the server evaluated the shared text in that slot.
Prime = Callable[[int], Awaitable[bool]]

NOT_SUPPORTED = 501  # llama.cpp without --slot-save-path
MISSING = 400  # llama.cpp restoring a file it does not hold: evaluate the text, save it

# endpoint -> refused slot actions: never asked again.
_REFUSED: set[str] = set()
# (endpoint, filename) -> the file's making in flight or done: True once it is saved.
_MADE: dict[tuple[str, str], "asyncio.Task[bool]"] = {}
# (endpoint, slot) -> the file whose text the slot's cache starts with, as far as we know.
_HELD: dict[tuple[str, int], str] = {}


@functools.lru_cache(maxsize=64)
def filename(model: str, shared: str) -> str:
    """The file's name: a digest, since llama.cpp takes a bare file name only. Asked at
    every call of a seat on a llama.cpp server, with the same text all game: the
    digest of those ~5 KB is worked out once (a string's hash is kept on it)."""
    digest = hashlib.sha256(f"{model}\x00{shared}".encode()).hexdigest()[:24]
    return f"werewolf-{digest}.bin"


def slot_url(base_url: str, slot: int, action: str) -> str:
    """``/slots/{id}?action=...`` at the server's root, beside ``/v1``."""
    return slots.root_url(base_url, f"/slots/{slot}", f"action={action}")


async def share(endpoint: str, slot: int, name: str, act: Action, prime: Prime) -> None:
    """Make ``slot`` start with the shared text of file ``name`` before the seat's first
    request there. Never raises: whatever fails, the seat's request goes on as before
    and evaluates what it must."""
    if endpoint in _REFUSED or _HELD.get((endpoint, slot)) == name:
        return
    key = (endpoint, name)
    loop = asyncio.get_running_loop()
    task = _MADE.get(key)
    if task is None or (task.get_loop() is not loop and not task.done()):
        task = _MADE[key] = asyncio.ensure_future(_make(endpoint, slot, name, act, prime))
    # Shielded: a seat whose decision is cancelled must not cancel the others' file.
    made = await asyncio.shield(task)
    if not made or endpoint in _REFUSED or _HELD.get((endpoint, slot)) == name:
        return
    status = await act(slot, "restore", name)
    if status == 200:
        _HELD[(endpoint, slot)] = name
    else:
        log.info("%s: the shared rules could not be restored into slot %d (HTTP %s)", endpoint, slot, status or "no answer")


async def _make(endpoint: str, slot: int, name: str, act: Action, prime: Prime) -> bool:
    """The file on the server, made in ``slot`` if the server does not hold it yet."""
    status = await act(slot, "restore", name)
    if status == 200:  # the server kept it from an earlier game
        _HELD[(endpoint, slot)] = name
        return True
    if status != MISSING:  # 501: no --slot-save-path; anything else: not llama.cpp's slot files
        _REFUSED.add(endpoint)
        why = "start llama-server with --slot-save-path" if status == NOT_SUPPORTED else f"HTTP {status or 'no answer'}"
        log.info("%s: no slot files (%s): each seat evaluates the rules itself", endpoint, why)
        return False
    if not await prime(slot):
        log.info("%s: the shared rules were not evaluated: each seat evaluates them itself", endpoint)
        return False
    _HELD[(endpoint, slot)] = name
    status = await act(slot, "save", name)
    if status != 200:
        log.info("%s: the shared rules could not be saved (HTTP %s): each seat evaluates them itself", endpoint, status or "no answer")
        if status == NOT_SUPPORTED:
            _REFUSED.add(endpoint)
        return False
    log.info("%s: the shared rules are evaluated once and restored into each seat's slot (%s)", endpoint, name)
    return True


def forget() -> None:
    """Tests: nothing known about any server."""
    _REFUSED.clear()
    _MADE.clear()
    _HELD.clear()

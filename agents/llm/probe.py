"""Does a model seat's model answer? One cheap request, before any game asks it.

Why: a seat whose server is down, whose URL has a typo or whose model name is wrong
does not fail a game; its fallback bot quietly plays every decision (that is what
keeps unattended tournaments alive). Without a check before the first decision, a
game "played by a model" can hold no model answer at all. ``arena.preflight`` runs
this for every distinct endpoint of a table and stops the command when one fails.

The request is the cheapest that proves the model is there, tried in this order,
each step only when the one before could not tell:

1. the vendor's model lookup (``GET /v1/models/{model}``, OpenAI and Anthropic);
2. the model list (``GET /v1/models``), which servers of one's own (llama.cpp,
   vLLM) offer where they lack the single lookup;
3. a one-token call, which every server answers, and the only way for LiteLLM and
   LangChain back ends.

A lookup that finds the model passes; a list that names it passes; a one-token call
the server answers passes, whatever the token. A lookup the server refuses for the
key (401, 403) fails; any other answer to it (a 404 or 501 where the route is missing,
a 5xx that outlasts the retries) leaves it to the next step. A one-token call fails
on any error: it is the plainest request the seat will make. The vendor hooks are the back ends'
(``Backend.lookups``, ``Backend.ping``); this module only runs them.

The seat's own settings apply: each request under its time limit (a lookup at most
``backends.sdk.LOOKUP_TIMEOUT``, as no inference runs behind it), and a transient
failure (a timeout, a dropped connection, 429, 5xx) retried with its backoff, attempts
and total time. A refused connection and a host name that does not exist are not
retried: nothing listens at that address, and waiting will not change it.
"""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from tenacity import RetryCallState

from agents.llm.backends.base import Backend, CallFailed, Inconclusive, ServerBusy, Transient

log = logging.getLogger("werewolf.llm")

ONE_TOKEN = "one-token call"


@dataclass(frozen=True)
class ProbeResult:
    """What the check found: ``ok``, the request that settled it (``how``), and for a
    failure the reason in one line."""

    ok: bool
    how: str
    error: str = ""
    seconds: float = 0.0


async def probe(backend: Backend) -> ProbeResult:
    """Check ``backend``'s model (see the module docstring); never raises but for
    cancellation."""
    started = time.monotonic()
    steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [*backend.lookups(), (ONE_TOKEN, backend.ping)]
    for how, step in steps:
        try:
            await _retried(backend, how, step)
        except Inconclusive as e:
            log.info("%s:%s: %s inconclusive (%s)", backend.name, backend.model, how, e)
            continue
        except ServerBusy as e:
            if how == ONE_TOKEN:
                return ProbeResult(False, how, _one_line(e), _since(started))
            # The server answered, busy or broken on this route only (a lookup a proxy
            # serves with a 500): the next way may work.
            log.info("%s:%s: %s kept failing (%s)", backend.name, backend.model, how, e)
            continue
        except Transient as e:
            return ProbeResult(False, how, _no_answer(e), _since(started))
        except CallFailed as e:
            return ProbeResult(False, how, _one_line(str(e)), _since(started))
        except Exception as e:  # a back end's bug or an SDK's surprise: still one line, never a traceback
            return ProbeResult(False, how, _one_line(f"{type(e).__name__}: {e}"), _since(started))
        return ProbeResult(True, how, seconds=_since(started))
    raise AssertionError("the one-token call settles every check")  # pragma: no cover  (``ping`` never raises Inconclusive)


async def _retried(backend: Backend, how: str, step: Callable[[], Awaitable[None]]) -> None:
    """``step`` under the seat's retry policy, a refused connection excepted."""

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome is not None else None
        log.info("%s:%s: %s failed, retry %d: %s", backend.name, backend.model, how, state.attempt_number, str(exc)[:300])

    attempts = 0
    try:
        async for attempt in backend.retrying(before_sleep, lambda e: isinstance(e, Transient) and nothing_listens(e) is None):
            with attempt:
                attempts += 1
                await step()
    except Transient as e:
        if nothing_listens(e) is not None or attempts < 2:
            raise
        raise type(e)(f"{e} ({attempts} attempts)", e.retry_after) from e


def nothing_listens(exc: BaseException) -> str | None:
    """Why no server can be reached at all, when that is what ``exc`` comes from: a
    refused connection, or a host name that does not exist (the SDKs wrap both, so the
    whole chain of causes is read)."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, ConnectionRefusedError):
            return "connection refused (nothing listens at that address)"
        if isinstance(e, socket.gaierror) and e.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)):
            return "the host name does not exist"
        e = e.__cause__ or e.__context__
    return None


def _no_answer(e: Transient) -> str:
    return nothing_listens(e) or _one_line(e)


def _one_line(text: Any) -> str:
    """An error as one line of bounded length: a server's message can be a page."""
    line = " ".join(str(text).split())
    return line if len(line) <= 300 else line[:297] + "..."


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)

"""What the back ends over an official vendor SDK (``openai``, ``anthropic``) share.

Both SDKs are generated alike: an async client built from a key and a base URL, and
the same family of errors (``APITimeoutError``, ``APIConnectionError``,
``APIStatusError`` under one base class). So the client's life (checked at once, one
per endpoint, key and event loop shared by every seat using them, see
``backends.clients``, closed in the loop that opened it) and the sorting of errors into
``Transient`` / ``ModeRejected`` / ``CallFailed`` live here; a vendor's module keeps
its wire format: how a client is made, the request, the reply.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from abc import abstractmethod
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Awaitable, Callable, ClassVar, Iterator

import httpx2

from agents.llm.backends.base import (
    Backend,
    CallFailed,
    CutAnswer,
    Inconclusive,
    Listener,
    MissingKey,
    Reply,
    ServerBusy,
    StreamRefused,
    Transient,
    retry_after,
    safe_url,
    status_failure,
    transient_status,
)
from agents.llm.backends.clients import POOL, pool_key
from agents.llm.config import DEFAULT_BASE_URL_ENV, DEFAULT_KEY_ENV, LLMOptions
from agents.llm.limits import Limits

# Seconds a model lookup may take: no inference runs behind it, so the seat's own call
# time limit (on a server of one's own, a whole decision's) is far more than it needs.
LOOKUP_TIMEOUT = 10.0
# The statuses a lookup answers when the key is refused: the seat's calls would be too.
REFUSED_KEY = frozenset({401, 403})
NOT_IMPLEMENTED = 501  # a route the server does not have, said outright


class SDKBackend(Backend):
    """A back end whose requests go through a vendor SDK's async client."""

    sdk: ClassVar[ModuleType]  # the SDK module: its error classes are looked up there
    sdk_error: ClassVar[type[Exception]]  # the SDK's base error
    shared_clients: ClassVar[bool] = True  # one client per endpoint and key (``backends.clients``)

    def __init__(
        self,
        model: str,
        options: LLMOptions | None = None,
        *,
        limits: Limits | None = None,
        sleep=None,
        api_key: str | None = None,
        client: Any = None,
    ):
        super().__init__(model, options, limits=limits, sleep=sleep)
        self._api_key = api_key
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
        self._spare: Any = client  # a client given in code is this seat's own, never shared
        self._pool: tuple | None = None
        self._endpoint = ""
        if client is None and not self.shared_clients:
            self._spare = self._new_client()  # checked now, as below
        elif client is None:
            # Checked now, not at the first call: a missing key must stop the game
            # before it starts, with a message, not fail every decision of one seat.
            api_key, base_url, _ = self._credentials()
            self._pool = pool_key(self.name, base_url, api_key or self._env_key(), self.options.call_timeout())
            self._endpoint = POOL.register(self._pool, self._new_client, lambda c: safe_url(str(c.base_url)))

    # ------------------------------------------------------------------ vendor hooks
    @abstractmethod
    def make_client(self, api_key: str | None, base_url: str | None, key_env: str) -> Any:
        """The SDK's async client (SDK retries off); ``MissingKey`` without credentials."""

    @abstractmethod
    async def create(self, client: Any, request: dict[str, Any]) -> Any:
        """The SDK call that makes one request."""

    @abstractmethod
    def reply(self, response: Any, mode: str) -> Reply:
        """The SDK's response as a ``Reply``."""

    async def stream(self, client: Any, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        """The SDK's streamed request, each piece's text so far given to ``listener``,
        read into a ``Reply`` (``CutAnswer`` when the stream ends before its last event)."""
        raise NotImplementedError

    @abstractmethod
    def ping_request(self) -> dict[str, Any]:
        """The one-token call's request, in the vendor's format (``ping``)."""

    # ------------------------------------------------------------------ client
    def missing_key(self, env: str, hint: str = "") -> MissingKey:
        return MissingKey(f"{self.name}:{self.model} needs an API key: set {env}{hint}")

    def _credentials(self) -> tuple[str | None, str | None, str]:
        """(explicit key, base URL, the key's variable); ``MissingKey`` when a named
        variable is empty."""
        o = self.options
        key_env = o.api_key_env or DEFAULT_KEY_ENV[self.name]
        api_key = self._api_key
        if api_key is None and o.api_key_env:
            api_key = os.environ.get(o.api_key_env)
            if not api_key:
                raise self.missing_key(o.api_key_env)
        base_url = o.base_url or os.environ.get(DEFAULT_BASE_URL_ENV[self.name]) or None
        return api_key, base_url, key_env

    def _env_key(self) -> str | None:
        """The credentials the SDK itself would read from the environment."""
        names = [DEFAULT_KEY_ENV[self.name]] + (["ANTHROPIC_AUTH_TOKEN"] if self.name == "anthropic" else [])
        return "|".join(os.environ.get(n, "") for n in names) or None

    def _new_client(self) -> Any:
        api_key, base_url, key_env = self._credentials()
        return self.make_client(api_key, base_url, key_env)

    def client(self) -> Any:
        """The client for the running event loop: connections are bound to the loop
        that opened them, so each loop gets its own client, shared by every seat on
        the same endpoint and key."""
        if self._pool is not None:
            return POOL.client(self._pool, id(self), self._new_client)
        loop = asyncio.get_running_loop()
        c = self._clients.get(loop)
        if c is None:
            c = self._spare if self._spare is not None else self._new_client()
            self._spare = None
            self._clients[loop] = c
        return c

    @property
    def endpoint(self) -> str:
        if self._pool is not None:
            return self._endpoint
        c = self._spare or next(iter(self._clients.values()), None)
        return safe_url(str(c.base_url)) if c is not None else ""

    @property
    def open(self) -> bool:
        if self._pool is not None:
            return POOL.uses(self._pool, id(self))
        return bool(self._clients)

    async def aclose(self) -> None:
        if self._pool is not None:
            await POOL.release(self._pool, id(self))
            return
        for c in list(self._clients.values()):
            try:
                await c.close()
            except Exception:  # closing must never be what fails a game
                pass
        self._clients.clear()

    # ------------------------------------------------------------------ the preflight
    @property
    def probe_key(self) -> tuple[Any, ...]:
        # The key's digest, as the shared client's: seats on one server with different
        # keys are checked apart (one key may be revoked).
        return (*super().probe_key, self._pool[2] if self._pool is not None else self.options.api_key_env)

    def lookups(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        """Both SDKs' ``models.retrieve`` and ``models.list``: OpenAI's ``GET
        /v1/models/{model}`` and ``GET /v1/models``
        (https://platform.openai.com/docs/api-reference/models), Anthropic's ``GET
        /v1/models/{model_id}`` (which resolves an alias) and ``GET /v1/models``
        (https://docs.anthropic.com/en/api/models). Servers of one's own differ: the
        llama.cpp server documents the list and not the single lookup, Ollama both
        (https://github.com/ollama/ollama/blob/main/docs/openai.md), vLLM the list; so a
        route the server lacks is ``Inconclusive`` and the next way is tried."""
        return [("model lookup", self._retrieve), ("model list", self._listed)]

    def _lookup_timeout(self) -> float:
        return min(self.options.call_timeout(self.layout()), LOOKUP_TIMEOUT)

    async def _retrieve(self) -> None:
        with self._lookup_errors():
            await self.client().models.retrieve(self.model, timeout=self._lookup_timeout())

    async def _listed(self) -> None:
        with self._lookup_errors():
            page = await self.client().models.list(timeout=self._lookup_timeout())
        ids = {getattr(m, "id", None) for m in getattr(page, "data", None) or []}
        if self.model not in ids:
            # A list need not name every model a server answers to (llama.cpp lists its
            # alias and serves any name; an alias is not in Anthropic's list).
            raise Inconclusive(f"{self.model} is not among the {len(ids)} model(s) listed")

    @contextmanager
    def _lookup_errors(self) -> Iterator[None]:
        """A lookup's failure sorted as a call's (``send``), except that a status other
        than a refused key or a transient one says nothing about the model."""
        sdk = self.sdk
        try:
            yield
        except sdk.APITimeoutError:
            raise Transient(f"no answer within {self._lookup_timeout():g} s") from None
        except sdk.APIConnectionError as e:
            raise Transient(f"connection error: {e}") from e
        except sdk.APIStatusError as e:
            text = f"HTTP {e.status_code}: {error_message(e)}"
            if e.status_code == NOT_IMPLEMENTED:
                raise Inconclusive(text) from None
            if transient_status(e.status_code):
                raise ServerBusy(text, retry_after(e.response.headers)) from None
            if e.status_code in REFUSED_KEY:
                raise CallFailed(text, disable=True) from None
            raise Inconclusive(text) from None
        except self.sdk_error as e:  # an answer the SDK could not read
            raise Inconclusive(f"{type(e).__name__}: {e}") from None

    async def ping(self) -> None:
        await self.send(self.ping_request(), "text")

    # ------------------------------------------------------------------ the request
    async def send(self, request: dict[str, Any], mode: str) -> Reply:
        sdk = self.sdk
        try:
            # Each call's own time limit (``LLMOptions.call_timeout``): the layout is
            # known once the endpoint is, after the shared client was made.
            resp = await self.create(self.client(), {**request, "timeout": self.options.call_timeout(self.layout())})
        except sdk.APITimeoutError as e:
            raise Transient(f"timeout: {e}") from None
        except sdk.APIConnectionError as e:
            raise Transient(f"connection error: {e}") from None
        except sdk.APIStatusError as e:
            raise status_failure(e.status_code, error_message(e), e.response.headers, mode) from None
        except json.JSONDecodeError as e:
            # The SDK decodes the body inside the call: after a 200 with no body, or
            # with its JSON cut short (a Content-Length that was honest about a cut
            # body; a dishonest one is a dropped connection, above).
            raise CutAnswer(f"the body is not whole JSON ({e})") from None
        except self.sdk_error as e:
            raise CallFailed(f"{type(e).__name__}: {e}") from None
        if isinstance(resp, (str, bytes)):
            # The SDK's answer to a body that does not say it is JSON: the body as text.
            raise CutAnswer(f"the body is not an API answer ({len(resp)} characters of text)")
        return self.reply(resp, mode)


    async def send_stream(self, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        """``send`` over the vendor's streaming API, its failures sorted the same way; a
        400 or 422 is ``StreamRefused`` (the server may take the request unstreamed),
        and a connection that breaks mid-stream a ``CutAnswer``, retried."""
        sdk = self.sdk
        try:
            return await self.stream(self.client(), {**request, "timeout": self.options.call_timeout(self.layout())}, mode, listener)
        except sdk.APITimeoutError as e:
            raise Transient(f"timeout: {e}") from None
        except sdk.APIConnectionError as e:
            raise Transient(f"connection error: {e}") from None
        except sdk.APIStatusError as e:
            if e.status_code == 200:  # an ``error`` event after the 200: the server's fault, retried
                raise CutAnswer(f"the stream ended with an error event: {error_message(e)}") from None
            if e.status_code in (400, 422):
                raise StreamRefused(f"HTTP {e.status_code}: {error_message(e)}") from None
            raise status_failure(e.status_code, error_message(e), e.response.headers, mode) from None
        except (json.JSONDecodeError, httpx2.TransportError) as e:
            raise CutAnswer(f"the stream broke off ({type(e).__name__}: {e})") from None
        except self.sdk_error as e:
            raise CallFailed(f"{type(e).__name__}: {e}") from None


def error_message(e: Any) -> str:
    """The server's own words from an ``APIStatusError``'s body, else the SDK's."""
    body = e.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return e.message

"""What every back end shares: the prompt it is given, the reply it returns, and the
retry loop around one call.

A back end turns a ``Prompt`` (static system text, append-only history, the question
and its answer schema) plus the refused replies so far (``Turn``) into one request in
its vendor's wire format, and the response back into a ``Reply``. It does not judge
answers: that is the agent's job, the same for every vendor.

Transient failures (429, 5xx, timeouts, dropped connections, a 200 whose answer
arrived cut or empty: ``CutAnswer``) are retried here with
tenacity: exponential backoff with full jitter, Retry-After honoured up to a cap, a
cap on attempts and on the total time. The SDKs' own retry loops are switched off
(``max_retries=0``) so that every attempt is seen, counted and limited here. A
concurrency slot (``agents.llm.limits``) is held per attempt, never across a backoff.

How the answer format is requested (native JSON schema, tool calling, plain text) is
negotiated per server: when a server refuses a format with a 400, the next one is
tried and the one that worked is remembered for every seat using that server and
model (per shape of schema), so a refusal costs one extra request per process, not
one per call.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, ClassVar, Protocol
from urllib.parse import urlsplit, urlunsplit

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from agents.llm.config import LLMOptions
from agents.llm.limits import LIMITS, Limits
import ipaddress

log = logging.getLogger("werewolf.llm")

try:  # tenacity >= 8.3: stop before a sleep that would overrun the budget
    from tenacity import stop_after_attempt, stop_before_delay as _stop_delay
except ImportError:  # pragma: no cover
    from tenacity import stop_after_attempt, stop_after_delay as _stop_delay

Sleep = Callable[[float], Awaitable[None]]


class MissingKey(ValueError):
    """No API key for a seat; the message names the variable to set."""


class CallFailed(Exception):
    """A call that produced no reply: retries exhausted or a permanent refusal.

    ``disable`` marks failures no later call can cure (a bad key, an unknown model):
    the agent stops asking that seat's model and lets the fallback play.
    """

    def __init__(self, message: str, *, retries: int = 0, messages: list[dict[str, Any]] | None = None, disable: bool = False):
        super().__init__(message)
        self.retries = retries
        self.messages = messages or []
        self.disable = disable


@dataclass(slots=True)
class Prompt:
    """One decision's request, vendor-neutral. ``system`` never changes during a game
    and the history only grows, so both are a cacheable prefix; ``question`` is new.

    The history comes in parts: each part is what was new at one of the seat's earlier
    requests, and a part never changes once sent. Joined, they are simply the history
    (OpenAI's automatic prefix cache needs nothing more); kept apart, they give
    Anthropic's explicit cache a block boundary exactly where the previous request's
    cache breakpoint was, so the previous call's cache is read rather than rewritten.
    """

    system: str
    history_parts: list[str]
    question: str
    schema: dict[str, Any]
    name: str  # the schema's / tool's name
    description: str = "Submit your answer."
    language: str = "en"  # of the corrections sent with re-asks
    family: str = ""  # the decision's shape: servers may refuse one shape's schema and not another's
    max_tokens: int | None = None  # this request's completion budget, when not the seat's (a re-ask after a cut)
    # The cache layout (see ``agents.llm.schema.game_schema``): ``schema`` is then the
    # game-wide one, ``fields`` the part of it this question fills (spelt out in the
    # question) and ``exact_schema`` the decision's own (spelt out in text mode).
    fields: dict[str, Any] | None = None
    exact_schema: dict[str, Any] | None = None
    # ``system`` cut where the part shared by every seat of the game ends (Anthropic
    # puts a breakpoint there); joined, the parts are ``system``.
    system_parts: tuple[str, ...] = ()
    cache_key: str | None = None  # a stable routing key for the seat (OpenAI ``prompt_cache_key``)
    seat: int | None = None  # the seat's place at the table: its slot on a llama.cpp server (``backends.slots``)

    @property
    def history(self) -> str:
        return "\n".join(self.history_parts)

    @property
    def system_blocks(self) -> tuple[str, ...]:
        return self.system_parts or (self.system,)


@dataclass(slots=True)
class Usage:
    """Tokens, one convention for every vendor: ``input_tokens`` is the whole prompt."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None  # hidden reasoning, part of ``output_tokens``


@dataclass(slots=True)
class Reply:
    text: str  # the raw reply: message text, or the tool call's JSON arguments
    data: dict[str, Any] | None  # the structured answer when the server produced one
    mode: str
    usage: Usage = field(default_factory=Usage)
    native: Any = None  # what the back end needs to replay this reply in a re-ask
    cut: bool = False  # the server stopped it at the completion budget: unfinished, never an answer


# How each vendor says a reply was stopped at the completion budget (OpenAI and
# compatible servers, Anthropic, Google through LangChain).
CUT_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS"})

PING = "Reply OK."  # what the preflight's one-token call says to a model (``Backend.ping``)


@dataclass(slots=True)
class Turn:
    """A refused reply and the reason given back to the model."""

    reply: Reply
    reason: str

    @property
    def said(self) -> str:
        """The refused reply as text, for replaying it as the model's turn."""
        return self.reply.text or "(no answer)"


@dataclass(slots=True)
class CallResult:
    reply: Reply
    messages: list[dict[str, Any]]  # as sent, in the vendor's format
    retries: int
    latency_s: float


class Transient(Exception):
    """Raised by back ends for failures worth retrying, with the server's Retry-After."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class CutAnswer(Transient):
    """A 200 whose answer did not arrive whole: no body, JSON cut short, a body that
    is not the API's answer object, a stream that ended before its last event.

    The model gave no answer here: the server or the network lost it on the way, so
    it is retried like a dropped connection or a 5xx, within the seat's retry budget,
    and never read as the model's reply (a cut body read as a reply would be charged
    to the model as a malformed answer, and a body the SDK could not decode ended the
    decision at once in the fallback bot). Both vendors document a fault after the
    status line as theirs: Anthropic, that "an error can occur after returning a 200
    response" over a stream and that networks drop long connections
    (https://platform.claude.com/docs/en/api/errors); OpenAI, that a server-side
    failure is to be met by "retry your request after a brief wait"
    (https://developers.openai.com/api/docs/guides/error-codes), its SDK retrying
    every connection error (https://github.com/openai/openai-python#retries)."""

    def __init__(self, what: str):
        super().__init__(f"answer cut after HTTP 200: {what}")


class ServerBusy(Transient):
    """A transient failure the server itself answered (429, a 5xx): it is up, though
    this route of it may not work (``agents.llm.probe`` then asks another way)."""


class ModeRejected(Exception):
    """The server refused the way the answer format was requested (a 400)."""


class StreamRefused(Exception):
    """The server refused a streamed request (a 400) that it may take unstreamed."""


class Listener(Protocol):
    """Who follows a reply as it streams (``agents.llm.streaming.SpeechStream``)."""

    def begin(self) -> None:
        """A streamed request starts: a retry starts the reply afresh."""

    def raw(self, text: str) -> None:
        """The reply's raw text so far (message text, or a tool call's arguments)."""

    def unstreamed(self, why: str) -> None:
        """This request goes unstreamed: the server cannot stream it."""


class Inconclusive(Exception):
    """A model lookup the server answered without saying whether the model is there
    (no such route on that server, the model absent from a list that may not hold
    every name it serves): the preflight asks the next way (``agents.llm.probe``)."""


# Formats that worked per (back end, server, model, schema shape): shared by every seat
# of the process.
_LEARNED: dict[tuple[str, str, str, str], str] = {}


# Servers that refused to stream a format, per (back end, server, model, schema shape,
# format): why, told to the viewers of every later call instead of a draft.
_UNSTREAMED: dict[tuple[str, str, str, str, str], str] = {}


def forget_learned_modes() -> None:
    """Start over (tests; a server upgraded mid-process)."""
    _LEARNED.clear()
    _UNSTREAMED.clear()


class Backend(ABC):
    """One model behind one vendor API, for one seat."""

    name: ClassVar[str] = "backend"
    modes: ClassVar[tuple[str, ...]] = ("text",)
    streams: ClassVar[bool] = False  # whether ``send_stream`` is implemented

    def __init__(self, model: str, options: LLMOptions | None = None, *, limits: Limits | None = None, sleep: Sleep | None = None):
        self.model = model
        self.options = options or LLMOptions()
        self.limits = limits or LIMITS
        self.sleep: Sleep = sleep or asyncio.sleep
        self.rng = random.Random()
        if self.options.mode and self.options.mode not in self.modes:
            raise ValueError(f"the {self.name} back end supports mode {' | '.join(self.modes)}, not {self.options.mode}")

    # ------------------------------------------------------------------ identity
    @property
    def endpoint(self) -> str:
        """The server, for learning formats and for the record (never with credentials)."""
        return ""

    @property
    def limit_key(self) -> str:
        return f"{self.name}:{self.model}"

    def mode_for(self, family: str = "") -> str:
        """The answer format to ask for: the forced one, else the best this server and
        model accepted for this shape of schema (a server may take a choice's enum
        but refuse a list's ``minItems``), else the best there is."""
        if self.options.mode:
            return self.options.mode
        return _LEARNED.get((self.name, self.endpoint, self.model, family), self.modes[0])

    @property
    def mode(self) -> str:
        return self.mode_for()

    def layout(self) -> str:
        """``cache`` (one schema for the game, for servers that bill a prompt cache) or
        ``grammar`` (each decision's own schema, for servers that enforce it as a
        grammar outside the prompt); ``prompt_layout: auto`` asks the back end."""
        chosen = self.options.prompt_layout
        return self.default_layout() if chosen == "auto" else chosen

    def default_layout(self) -> str:
        return "grammar"

    def _learn(self, mode: str, family: str) -> None:
        if not self.options.mode:
            _LEARNED[(self.name, self.endpoint, self.model, family)] = mode

    # ------------------------------------------------------------------ vendor hooks
    @abstractmethod
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        """The request's keyword arguments for the SDK."""

    @abstractmethod
    async def send(self, request: dict[str, Any], mode: str) -> Reply:
        """Make one request; raise ``Transient``, ``ModeRejected`` or ``CallFailed``."""

    def stream_refusal(self) -> str | None:
        """Why this seat's replies cannot stream, whatever the request (``None``: they can)."""
        return None if self.streams else f"the {self.name} back end does not stream replies"

    async def send_stream(self, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        """``send``, the reply streamed to ``listener`` as it arrives; raises as ``send``
        does, and ``StreamRefused`` when the server refuses to stream the request."""
        raise NotImplementedError

    @abstractmethod
    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """The messages of ``request`` as JSON, system part first, for the record."""

    # ------------------------------------------------------------------ the preflight
    @property
    def address(self) -> str:
        """Where this seat's requests go, for a message to the user (no credentials),
        as it would be typed (the SDKs keep a base URL with a trailing slash)."""
        return self.endpoint.rstrip("/")

    @property
    def probe_key(self) -> tuple[Any, ...]:
        """Seats with equal keys reach the same model the same way: one preflight
        request serves them all (``arena.preflight``)."""
        return (self.name, self.endpoint, self.model)

    def lookups(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        """The vendor's model lookups, cheapest first, each named: return when the
        model is there, raise ``Inconclusive`` when the answer does not say, else
        ``Transient`` or ``CallFailed`` (``agents.llm.probe``). None by default."""
        return []

    @abstractmethod
    async def ping(self) -> None:
        """The one-token call: the cheapest request that makes the model itself answer,
        under the seat's own call time limit; raises as ``send`` does."""

    async def aclose(self) -> None:
        """Release connections."""

    @property
    def open(self) -> bool:
        """Whether connections may still be held (``aclose`` has work to do)."""
        return False

    # ------------------------------------------------------------------ the call
    async def call(self, prompt: Prompt, turns: list[Turn], listener: Listener | None = None) -> CallResult:
        """One model call with transient retries; raises ``CallFailed``. With
        ``listener``, the reply is streamed to it where the server can stream."""
        retries = 0
        started = time.monotonic()
        last_messages: list[dict[str, Any]] = []

        def before_sleep(state: RetryCallState) -> None:
            nonlocal retries
            retries += 1
            exc = state.outcome.exception() if state.outcome is not None else None
            log.info("%s:%s: transient failure, retry %d: %s", self.name, self.model, retries, str(exc)[:300])

        try:
            async for attempt in self.retrying(before_sleep):
                with attempt:
                    reply, last_messages = await self._attempt(prompt, turns, listener)
        except Transient as e:
            raise CallFailed(f"gave up after {retries + 1} attempts: {e}", retries=retries, messages=last_messages) from None
        except CallFailed as e:
            e.retries = retries
            e.messages = e.messages or last_messages
            raise
        return CallResult(reply=reply, messages=last_messages, retries=retries, latency_s=round(time.monotonic() - started, 6))

    def retrying(self, before_sleep: Callable[[RetryCallState], None], worth_retry: Callable[[BaseException], bool] | None = None) -> AsyncRetrying:
        """The seat's retry policy (``LLMOptions``: attempts, backoff, total time) over
        ``Transient`` failures, or those ``worth_retry`` accepts; the last one re-raised."""
        o = self.options
        return AsyncRetrying(
            stop=stop_after_attempt(o.max_retries + 1) | _stop_delay(o.retry_total),
            wait=self._wait,
            retry=retry_if_exception(worth_retry or (lambda e: isinstance(e, Transient))),
            before_sleep=before_sleep,
            sleep=self.sleep,
            reraise=True,
        )

    async def _attempt(self, prompt: Prompt, turns: list[Turn], listener: Listener | None = None) -> tuple[Reply, list[dict[str, Any]]]:
        """One request, downgrading the answer format on a refusal of it."""
        first = self.mode_for(prompt.family)
        order = [first] if self.options.mode else [m for m in self.modes[self.modes.index(first) :]]
        rejection: ModeRejected | None = None
        messages: list[dict[str, Any]] = []
        for mode in order:
            request = self.build(prompt, turns, mode)
            messages = self.sent_messages(request)
            try:
                async with self.limits.slot(self.limit_key):
                    reply = await self._send(request, mode, prompt.family, listener)
            except ModeRejected as e:
                rejection = rejection or e
                continue
            except CallFailed as e:
                e.messages = messages
                raise
            if mode != first:
                self._learn(mode, prompt.family)
            return reply, messages
        raise CallFailed(f"the server refused the request: {rejection}", messages=messages)

    async def _send(self, request: dict[str, Any], mode: str, family: str, listener: Listener | None) -> Reply:
        """``send``, streamed to ``listener`` when there is one and the server streams.
        A server that refuses the streamed request (some grammar servers cannot stream
        a constrained reply) is asked unstreamed; when that works, its refusal is
        remembered and every later call is unstreamed, the listener told why."""
        if listener is None:
            return await self.send(request, mode)
        key = (self.name, self.endpoint, self.model, family, mode)
        why = _UNSTREAMED.get(key) or self.stream_refusal()
        if why is None and not self.options.stream:
            why = "streaming is switched off for this seat (stream: false)"
        if why is not None:
            listener.unstreamed(why)
            return await self.send(request, mode)
        listener.begin()
        try:
            return await self.send_stream(request, mode, listener)
        except StreamRefused as e:
            reply = await self.send(request, mode)  # refused again: the format, not streaming
            why = f"the server at {self.address or self.name} cannot stream a {mode} reply ({e})"
            _UNSTREAMED[key] = why
            log.info("%s:%s: %s", self.name, self.model, why)
            listener.unstreamed(why)
            return reply

    def _wait(self, state: RetryCallState) -> float:
        """Full-jitter exponential backoff; a server's Retry-After is a floor (plus a
        little jitter so a table of seats does not come back in lockstep), both capped."""
        o = self.options
        exc = state.outcome.exception() if state.outcome else None
        backoff = self.rng.uniform(0, o.retry_initial * 2 ** (state.attempt_number - 1))
        after = getattr(exc, "retry_after", None)
        if after is not None:
            backoff = after + self.rng.uniform(0, 0.1 * after + 0.01 * o.retry_initial)
        return max(0.0, min(backoff, o.retry_max_wait))


# ---------------------------------------------------------------------- shared helpers
# Statuses worth another attempt besides every 5xx; and those no later call can cure.
TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
DISABLING_STATUS = frozenset({401, 403, 404})


def transient_status(status: Any) -> bool:
    return isinstance(status, int) and (status in TRANSIENT_STATUS or status >= 500)


def status_failure(status: int, message: str, headers: Any, mode: str) -> Exception:
    """What an HTTP error status means for a call: worth a retry (``Transient``, with
    the server's Retry-After), a refusal of the answer format (``ModeRejected``, when
    another format is left to try), or a failure (``CallFailed``)."""
    text = f"HTTP {status}: {message}"
    if transient_status(status):
        return Transient(text, retry_after(headers))
    if status in (400, 422) and mode != "text":
        return ModeRejected(text)
    return CallFailed(text, disable=status in DISABLING_STATUS)


def local_url(url: str | None) -> bool:
    """Whether ``url`` names a server on this machine or a private network (llama.cpp,
    vLLM, Ollama, LM Studio...): such servers enforce a JSON schema as a grammar
    outside the prompt and bill no prompt cache, so the grammar layout suits them."""

    if not url:
        return False
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith((".local", ".localhost", ".internal")):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified


def safe_url(url: str) -> str:
    """A URL without credentials, query or fragment: fit for a record or a log."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(unparseable url)"
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def retry_after(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` (OpenAI) or ``retry-after`` (seconds or
    an HTTP date); ``None`` when absent or unreadable."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        ra = headers.get("retry-after")
    except Exception:
        return None
    if ra is None:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(ra)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


_WORDS = {
    "en": {
        "fields": "Fields: {fields}",
        "schema": "Answer with one JSON object only, no other text, matching this JSON schema:",
        "refused": "Your answer was refused: {reason}. Answer the same question again, with a legal answer in the required format.",
    },
    "zh": {
        "fields": "字段：{fields}",
        "schema": "只用一个 JSON 对象回答，不要任何其他文字，符合以下 JSON schema：",
        "refused": "你的回答无效：{reason}。请用规定的格式重新回答同一个问题，给出合法的答案。",
    },
}


def _words(language: str) -> dict[str, str]:
    return _WORDS.get(language, _WORDS["en"])


def schema_instructions(prompt: Prompt) -> str:
    """The answer format spelt out, for requests that cannot enforce it natively: the
    decision's own schema (the question is the last message, so it costs no cache)."""
    schema = prompt.exact_schema or prompt.schema
    return "\n\n" + _words(prompt.language)["schema"] + "\n" + json.dumps(schema, ensure_ascii=False)


def fields_line(prompt: Prompt) -> str:
    """The question's own part of the game-wide schema, as one compact JSON line."""
    fields = json.dumps(prompt.fields, ensure_ascii=False, separators=(",", ":"))
    return "\n" + _words(prompt.language)["fields"].format(fields=fields)


def correction_text(reason: str, language: str = "en") -> str:
    return _words(language)["refused"].format(reason=reason)


def question_text(prompt: Prompt, mode: str) -> str:
    """The question, with the answer format spelt out when ``mode`` cannot enforce it,
    or with the fields it fills when the request carries the game-wide schema."""
    if mode == "text":
        return prompt.question + schema_instructions(prompt)
    return prompt.question + (fields_line(prompt) if prompt.fields else "")


EPHEMERAL = {"type": "ephemeral"}


def breakpoint_blocks(prompt: Prompt, question: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The system and user text blocks of an explicitly cached request (Anthropic's
    ``cache_control``, directly or through LiteLLM): a breakpoint where the part every
    seat shares ends, one block per earlier request of the seat's history with a
    breakpoint on the last (the previous call's breakpoint then falls on a block
    boundary of this one), the question after it uncached."""
    # A part's block must be byte-identical in every later request (that is what
    # the cache matches), so each ends the same way wherever it falls.
    system: list[dict[str, Any]] = [{"type": "text", "text": part} for part in prompt.system_blocks if part]
    if len(system) > 1:
        system[0]["cache_control"] = dict(EPHEMERAL)  # the part every seat of the game shares
    content: list[dict[str, Any]] = [{"type": "text", "text": part + "\n"} for part in prompt.history_parts if part]
    (content or system)[-1]["cache_control"] = dict(EPHEMERAL)
    content.append({"type": "text", "text": question})
    return system, content


def user_content(prompt: Prompt, mode: str = "") -> str:
    """History then question as one text: the history is the cacheable prefix."""
    question = question_text(prompt, mode)
    if prompt.history:
        return prompt.history + "\n\n" + question
    return question

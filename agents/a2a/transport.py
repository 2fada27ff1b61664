"""The A2A wire through the official SDK (``a2a-sdk``): the agent card, one message
out, one reply back, within the seat's bounds.

Why an HTTP client of our own under the SDK's: it is where the bounds live. TLS
certificates are verified (httpx's default, never switched off); redirects are not
followed (a redirect could carry the bearer token to another host); a reply larger
than the seat's cap is refused while it is read, before it is held, and a compressed
one is refused (the cap counts bytes on the wire, and a few kilobytes of gzip can
unpack to gigabytes); the bearer token is a header of this seat's client alone, so
no other seat's request can carry it. The card must send messages to the address
the user gave: a card pointing elsewhere could move a seat's view, and its token,
to a host nobody trusted.

Streaming: when the agent's card says it streams (``capabilities.streaming``), a
message goes by ``message/stream`` (``SendStreamingMessage`` in A2A 1.0): the reply
arrives as server-sent events, each a task, a message, a ``TaskStatusUpdateEvent`` or
a ``TaskArtifactUpdateEvent`` whose ``append`` adds its parts to the artifact so far
(https://a2a-protocol.org/latest/specification/#72-messagestream,
https://a2a-protocol.org/latest/specification/#722-taskartifactupdateevent-object).
The events are folded into the task they describe, the artifacts' text so far handed
on as it grows (a speech shown as it is written, ``agents.llm.streaming``), and the
answer read from the task once it is done, exactly as a whole reply is read. An agent
whose card does not stream is sent ``message/send`` (the SDK's own fallback).
"""

from __future__ import annotations

import json
import os
import ssl
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

# The SDK traces every call through OpenTelemetry whenever the API package is
# installed (ray and litellm bring it), at about a millisecond a message on each end,
# with nobody collecting the spans. Off unless the user asked for it.
os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")

import httpx  # noqa: E402
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, ClientFactory  # noqa: E402
from a2a.client.client import Client  # noqa: E402
from a2a.types import AgentCard, Message, Part, Role, SendMessageRequest, Task, TaskArtifactUpdateEvent, TaskState  # noqa: E402
from a2a.utils.constants import TransportProtocol  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402

from agents.a2a.spec import same_origin  # noqa: E402
from agents.a2a.wire import reply_text, whole_numbers  # noqa: E402
from transcripts import bounded  # noqa: E402

CARD_PATH = "/.well-known/agent-card.json"
JSON = "application/json"
_FINISHED = frozenset({TaskState.TASK_STATE_COMPLETED})
_FAILED = frozenset({TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_CANCELED})


class ReplyRefused(Exception):
    """A reply refused unread (too large, compressed); the message says why."""


class Unreachable(Exception):
    """The agent card cannot be read or used; the message says why, in one line."""


# ---------------------------------------------------------------------- the HTTP client
class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int):
        self.inner, self.limit = inner, limit

    async def __aiter__(self) -> Any:
        seen = 0
        async for chunk in self.inner:
            seen += len(chunk)
            if seen > self.limit:
                raise ReplyRefused(f"the reply is larger than {self.limit:,} bytes (max_reply_bytes); it was not read")
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class CappedTransport(httpx.AsyncBaseTransport):
    """httpx's own transport, its replies cut off at ``limit`` bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        self.inner = httpx.AsyncHTTPTransport(verify=tls(), retries=0)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        length = response.headers.get("content-length")
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        why = None
        if encoding not in ("", "identity"):
            why = f"the reply is compressed ({encoding[:20]}) although the arena asked for none"
        elif length is not None and length.isdigit() and int(length) > self.limit:
            why = f"the reply is larger than {self.limit:,} bytes (max_reply_bytes: {int(length):,} announced); it was not read"
        if why is not None:
            await response.aclose()
            raise ReplyRefused(why)
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            response.status_code, headers=response.headers, stream=_CappedStream(response.stream, self.limit),
            extensions=response.extensions, request=request,
        )  # fmt: skip

    async def aclose(self) -> None:
        await self.inner.aclose()


@lru_cache(maxsize=1)
def tls() -> ssl.SSLContext:
    """The certificates every seat verifies against, loaded once per process (httpx's
    own default: ``SSL_CERT_FILE``/``SSL_CERT_DIR``, else certifi's bundle). Loading
    them is a tenth of a second; each seat's client would pay it at each game."""
    return httpx.create_ssl_context(verify=True, trust_env=True)


def http_client(*, token: str | None, max_bytes: int, timeout: float) -> httpx.AsyncClient:
    """One seat's HTTP client: its own token, verified TLS, no redirects, capped replies.
    No proxy from the environment (``trust_env=False``): httpx would send a proxied
    request through a transport of its own, without the cap."""
    headers = {"Accept-Encoding": "identity"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.AsyncClient(
        transport=CappedTransport(max_bytes), headers=headers, timeout=timeout, follow_redirects=False, trust_env=False
    )


# ---------------------------------------------------------------------- the card
async def fetch_card(http: httpx.AsyncClient, url: str) -> AgentCard:
    """The agent's card from ``URL/.well-known/agent-card.json``, checked to send
    messages to ``url``'s own host; ``Unreachable`` saying why not."""
    where = url + CARD_PATH
    try:
        card = await A2ACardResolver(http, url, CARD_PATH).get_agent_card()
    except ReplyRefused as e:
        raise Unreachable(f"the agent card at {where} was refused: {e}") from None
    except Exception as e:  # the SDK's resolution error, or anything the card's bytes cause
        raise Unreachable(f"no agent card could be read at {where}: {_reason(e)}") from None
    interface = usable_interface(card)
    if interface is None:
        offered = ", ".join(sorted({i.protocol_binding for i in card.supported_interfaces})) or "none"
        raise Unreachable(f"the agent card at {where} offers no JSON-RPC or HTTP+JSON interface (offered: {offered})")
    if not same_origin(interface, url):
        raise Unreachable(
            f"the agent card at {where} sends messages to {interface[:120]}, another host than {url}; "
            "give that address as the seat's (a2a:URL) if you trust it"
        )
    return card


def usable_interface(card: AgentCard) -> str | None:
    """The URL the client will send to: the card's first interface the client speaks."""
    for i in card.supported_interfaces:
        if i.protocol_binding in (TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON):
            return str(i.url)
    return None


def sdk_client(card: AgentCard, http: httpx.AsyncClient, *, streaming: bool = False) -> Client:
    """The SDK's client over ``http``: with ``streaming``, messages go by
    ``message/stream`` to an agent whose card streams; otherwise (and to any other
    agent) one request and one reply per message."""
    config = ClientConfig(
        streaming=streaming, httpx_client=http, supported_protocol_bindings=[TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON]
    )
    return ClientFactory(config).create(card)


def streams(card: AgentCard) -> bool:
    """Whether the agent's card says it answers ``message/stream``."""
    return bool(card.capabilities.streaming)


# ---------------------------------------------------------------------- one message
@dataclass(slots=True)
class Answer:
    """What came back for one message: its text and data parts (data as plain JSON),
    and the context the agent said it answered in (empty when it did not say)."""

    texts: list[str]
    data: list[Any]
    context_id: str

    @property
    def text(self) -> str:
        return reply_text(self.texts, self.data)

    @property
    def object(self) -> dict[str, Any] | None:
        """The first data part holding an object: the structured answer."""
        return next((d for d in self.data if isinstance(d, dict)), None)


def outgoing(text: str, data: dict[str, Any], context_id: str) -> Message:
    """The message: the text, then the data as a JSON text part (``application/json``).

    Why not an A2A data part: the SDK holds one as a protobuf ``Value`` tree and checks
    every node of it on arrival (``validate_proto_required_fields``), about 0.05 ms a
    node in Python, so a decision's events and schema would cost the agent several
    milliseconds before its code runs; the same JSON as text costs one string
    (benchmarks/a2a_overhead.py). Any JSON reader reads it."""
    return Message(
        role=Role.ROLE_USER,
        message_id=uuid.uuid4().hex,
        context_id=context_id,
        parts=[Part(text=text), Part(text=json.dumps(data, ensure_ascii=False, separators=(",", ":")), media_type=JSON)],
    )


async def send(client: Client, message: Message, timeout: float, on_text: Callable[[str], None] | None = None) -> Answer:
    """Send one message and read the reply: a message, or a task that finished
    (its artifacts, else its status message), whole or folded from its stream's events
    (``on_text`` is given the artifacts' text so far at each piece). A task that
    failed, or stopped to ask for something, raises ``ValueError`` saying so (the
    agent gave no answer)."""
    reply: Message | None = None
    task: Task | None = None
    async for event in client.send_message(SendMessageRequest(message=message), context=ClientCallContext(timeout=timeout)):
        if event.HasField("message"):
            reply = event.message
        elif event.HasField("task"):
            task = Task()
            task.CopyFrom(event.task)
        elif event.HasField("status_update"):
            task = task or Task(id=event.status_update.task_id, context_id=event.status_update.context_id)
            task.status.CopyFrom(event.status_update.status)
        elif event.HasField("artifact_update"):
            task = task or Task(id=event.artifact_update.task_id, context_id=event.artifact_update.context_id)
            _add_piece(task, event.artifact_update)
            if on_text is not None:
                on_text("".join(p.text for a in task.artifacts for p in a.parts if p.HasField("text")))
    if reply is not None:
        return _answer(reply.parts, reply.context_id)
    if task is None:
        raise ValueError("the agent sent no reply")
    state = task.status.state
    said = " ".join(p.text for p in task.status.message.parts if p.HasField("text"))[:200]
    if state in _FAILED:
        raise ValueError(f"the agent's task ended {TaskState.Name(state).removeprefix('TASK_STATE_').lower()}" + (f": {said}" if said else ""))
    parts = [p for a in task.artifacts for p in _joined(a.parts)]
    if state in _FINISHED and parts:
        return _answer(parts, task.context_id)
    if state in _FINISHED:
        return _answer(list(task.status.message.parts), task.context_id)
    raise ValueError(f"the agent's task stopped in state {TaskState.Name(state).removeprefix('TASK_STATE_').lower()} without an answer")


def _add_piece(task: Task, update: TaskArtifactUpdateEvent) -> None:
    """A streamed artifact piece added to ``task``: a new artifact, one replaced, or
    (``append``) its parts added to the artifact so far."""
    piece = update.artifact
    same = next((a for a in task.artifacts if a.artifact_id == piece.artifact_id), None)
    if same is None or not update.append:
        if same is not None:
            task.artifacts.remove(same)
        task.artifacts.add().CopyFrom(piece)
    else:
        same.parts.extend(piece.parts)


def _joined(parts: Any) -> list[Part]:
    """An artifact's parts with each run of text parts of one media type joined: an
    answer streamed in pieces (``append``) is one text, whether it is read from the
    stream or from the finished task the agent keeps."""
    out: list[Part] = []
    for part in parts:
        last = out[-1] if out else None
        if last is not None and last.HasField("text") and part.HasField("text") and last.media_type == part.media_type:
            last.text += part.text
        else:
            copy = Part()
            copy.CopyFrom(part)
            out.append(copy)
    return out


def _answer(parts: Any, context_id: str) -> Answer:
    """Text parts and data parts; a text part of media type ``application/json`` that
    holds JSON counts as data (as the arena sends its own)."""
    texts: list[str] = []
    data: list[Any] = []
    for p in parts:
        if p.HasField("data"):
            data.append(whole_numbers(MessageToDict(p.data)))
        elif p.HasField("text"):
            texts.append(p.text)
            if p.media_type.split(";")[0].strip().lower() == JSON:
                try:
                    data.append(bounded.loads_json(p.text))
                except bounded.InputError:
                    pass  # read as text, by the tolerant reader
    return Answer(texts, data, context_id)


def message_record(text: str, data: dict[str, Any], context_id: str) -> dict[str, Any]:
    """The message as the transcript's call record keeps it (no headers: the token is
    never recorded)."""
    return {"role": "user", "context_id": context_id, "parts": [{"text": text}, {"data": data}]}


def _reason(e: BaseException) -> str:
    """An error as one short line (the SDK's texts repeat the URL and the cause)."""
    cause = e.__cause__ or e.__context__
    if isinstance(cause, httpx.ConnectError):
        text = "connection refused or host unreachable"
    elif isinstance(cause, httpx.TimeoutException):
        text = "timed out"
    elif isinstance(cause, httpx.HTTPStatusError):
        text = f"HTTP {cause.response.status_code}"
    elif isinstance(cause, json.JSONDecodeError):
        text = "the reply is not JSON"
    else:
        text = str(e) or type(e).__name__
    return " ".join(text.split())[:200]

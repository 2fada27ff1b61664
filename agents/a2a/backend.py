"""A remote agent as a model seat's back end: the same retries, time limits and call
records as a model behind a vendor API (``agents.llm.backends.base``), with A2A as
the wire.

Why a back end and not an agent of its own: everything a model seat does around the
call (the prompt of the seat's own view, reading the answer, re-asking with the
reason, the fallback bot, one call record per request) is what a remote seat needs,
and having one copy of it is what keeps the two judged alike.

The back end keeps the seat's side of the conversation: one A2A context per seat and
game (a remote agent may keep its own memory in it), and which of the seat's events
it has been sent, so each message carries only the new ones. Failures are sorted as
the model back ends sort theirs: a delivery that may succeed if tried again (a
refused connection, a timeout, a 5xx or 429) is ``Transient`` and retried within the
seat's budget; a reply the agent did give but that cannot be used (refused unread, a
JSON-RPC error, a failed task) is a ``CallFailed`` of that decision, whose answer the
fallback bot then plays.

A public speech streams when the agent's card says it streams: the message goes by
``message/stream`` and the reply's text so far is handed to the listener as it grows
(``transport.send``); an agent whose card does not stream is sent the message whole,
and the viewers are told why.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, ClassVar

import httpx
from a2a.client import A2AClientTimeoutError

import agents.a2a.transport as transport
from agents.a2a.spec import A2AOptions
from agents.a2a.wire import PROTOCOL, DecisionData, decision_json, events_json
from agents.base import SeatView
from agents.llm.backends.base import (
    Backend,
    CallFailed,
    Listener,
    Prompt,
    Reply,
    Transient,
    Turn,
    correction_text,
    retry_after,
    schema_instructions,
    transient_status,
)
from engine.decisions import Decision

MODE = "a2a"


@dataclass(slots=True)
class RemotePrompt(Prompt):
    """A model seat's request plus what the structured part is made of: the view and
    decision it was made for, and when the decision's time runs out."""

    view: SeatView | None = None
    decision: Decision | None = None
    deadline: float = 0.0  # time.monotonic() at which the decision's time limit ends
    built: dict[int, dict[str, Any]] = field(default_factory=dict)  # the message of each attempt (``A2ABackend.build``)


class A2ABackend(Backend):
    """One seat's remote agent at ``url``."""

    name: ClassVar[str] = "a2a"
    modes: ClassVar[tuple[str, ...]] = (MODE,)
    streams: ClassVar[bool] = True  # where the agent's card says it streams (``send``)

    def __init__(self, url: str, seat: str, options: A2AOptions, *, token: str | None = None, limits: Any = None, sleep: Any = None):
        super().__init__(url, options.llm_options(), limits=limits, sleep=sleep)
        self.url = url
        self.seat = seat
        self.remote = options
        self._token = token
        self.card: Any = None  # the agent card, read once (``read_card``)
        self._http: Any = None
        self._client: Any = None
        self._streaming: Any = None  # the client that sends by ``message/stream``
        self._loop: asyncio.AbstractEventLoop | None = None
        self.context_id = uuid.uuid4().hex
        self._sent = 0  # the seq of the first of the seat's events not sent yet
        self._opened = False  # the context's first message (the system part) was delivered
        self._seen_last = -1  # the seq of the latest event of the seat's view asked about

    # ------------------------------------------------------------------ identity
    @property
    def endpoint(self) -> str:
        return self.url

    def default_layout(self) -> str:
        return "grammar"

    # ------------------------------------------------------------------ the card
    async def read_card(self) -> None:
        """Read the agent card if it is not read yet; ``transport.Unreachable`` saying
        why it cannot be. Reading it at set-up is what makes an unreachable agent stop
        a command before the first decision (``arena.preflight``, through ``lookups``)."""
        if self.card is not None:
            return
        if self._http is not None and self._loop_is_current():
            self.card = await transport.fetch_card(self._http, self.url)
            return
        http = transport.http_client(token=self._token, max_bytes=self.remote.max_reply_bytes, timeout=self._card_timeout())
        try:
            self.card = await transport.fetch_card(http, self.url)
        finally:
            await http.aclose()

    # ------------------------------------------------------------------ the preflight
    def lookups(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        """The check before the first decision (``agents.llm.probe``): reading the agent
        card is the cheapest request an agent answers and one a client must make anyway
        (it says where messages go), so it settles the check on its own."""
        return [("agent card", self._card_check)]

    async def ping(self) -> None:
        """No one-token call for an agent: its card is what the check reads."""
        await self._card_check()

    async def _card_check(self) -> None:
        try:
            await self.read_card()
        except transport.Unreachable as e:
            raise CallFailed(str(e)) from None

    def _card_timeout(self) -> float:
        return min(self.options.call_timeout("grammar"), 30.0)

    def _loop_is_current(self) -> bool:
        try:
            return self._loop is asyncio.get_running_loop()
        except RuntimeError:
            return False

    async def _sdk_client(self, streaming: bool = False) -> Any:
        """The SDK client for the running loop (connections belong to the loop that
        opened them), the card read first; with ``streaming``, the one that sends by
        ``message/stream`` (over the same connections)."""
        if self._client is not None and self._loop_is_current():
            return self._streaming_client() if streaming else self._client
        if self._client is not None:  # another loop's: its connections cannot be reused here
            self._client = self._streaming = self._http = None
        self._http = transport.http_client(token=self._token, max_bytes=self.remote.max_reply_bytes, timeout=self.options.call_timeout("grammar"))
        self._loop = asyncio.get_running_loop()
        try:
            await self.read_card()
        except transport.Unreachable as e:
            await self._close_http()
            raise Transient(str(e)) from None
        self._client = transport.sdk_client(self.card, self._http)
        return self._streaming_client() if streaming else self._client

    def _streaming_client(self) -> Any:
        if self._streaming is None:
            self._streaming = transport.sdk_client(self.card, self._http, streaming=True)
        return self._streaming

    # ------------------------------------------------------------------ the request
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        """The message for ``prompt`` after ``turns`` refused replies. Built once per
        attempt and kept on the prompt: a retry of a failed delivery sends the same
        message again, and a record made after a cut-off shows it, without the events
        being counted sent twice."""
        assert isinstance(prompt, RemotePrompt) and prompt.view is not None and prompt.decision is not None
        built = prompt.built.get(len(turns))
        if built is not None:
            return built
        view, d = prompt.view, prompt.decision
        events, first = self._claim(view)
        opening, self._opened = not self._opened, True
        wire = events_json(events, self.seat, prompt.language)
        data: DecisionData = {
            "protocol": PROTOCOL,
            "seat": self.seat,
            "language": prompt.language,
            "decision": decision_json(d),
            "answer_schema": prompt.exact_schema or prompt.schema,
            "events": wire,
            "time_left_s": self._time_left(prompt),
            "attempt": len(turns) + 1,
            "refused": turns[-1].reason if turns else None,
        }
        if turns:  # a re-ask, in the same context: the reason, as a model is told it
            text = correction_text(turns[-1].reason, prompt.language)
        else:
            text = _text(prompt, [e["text"] for e in wire if e["text"]], opening)
        built = {"text": text, "data": data, "context_id": self.context_id, "first": first, "upto": self._sent, "opening": opening, "prompt": prompt}
        prompt.built[len(turns)] = built
        return built

    def _claim(self, view: SeatView) -> tuple[list[Any], int]:
        """The seat's events not sent yet, now counted sent (``send`` gives them back
        when no reply comes), and the seq they start from. A view that ends before the
        last one asked about is another game's: its context starts afresh."""
        seen = view.events
        latest = seen[-1].seq if seen else -1
        if latest < self._seen_last:
            self.context_id, self._sent, self._opened = uuid.uuid4().hex, 0, False
        self._seen_last = latest
        first = self._sent
        events = view.since(first) if first else seen
        self._sent = max(first, latest + 1)
        return events, first

    def _time_left(self, prompt: Prompt) -> float:
        deadline = prompt.deadline if isinstance(prompt, RemotePrompt) else 0.0
        return round(max(0.0, deadline - time.monotonic()), 3)

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return [transport.message_record(request["text"], dict(request["data"]), request["context_id"])]

    async def send_stream(self, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        return await self.send(request, mode, listener)

    async def send(self, request: dict[str, Any], mode: str, listener: Listener | None = None) -> Reply:
        """Deliver one message; a reply of any kind counts its events sent. Without a
        reply (refused connection, timeout), its events and the system part are sent
        again with the next message: the agent may see an event twice (each carries
        its ``seq``), never miss one. With ``listener``, the reply streams to it if the
        agent's card says it streams; otherwise the listener is told it does not."""
        answered = False
        try:
            client = await self._sdk_client(streaming=listener is not None)
            on_text = None
            if listener is not None and transport.streams(self.card):
                on_text = listener.raw
            elif listener is not None:
                listener.unstreamed(f"the agent at {self.url} does not stream its replies (its card says capabilities.streaming: false)")
            data = {**request["data"], "time_left_s": self._time_left(request["prompt"])}
            message = transport.outgoing(request["text"], data, request["context_id"])
            limit = self.options.call_timeout("grammar")
            answer = await transport.send(client, message, min(limit, data["time_left_s"] or limit), on_text)
            answered = True
        except (Transient, CallFailed):
            raise
        except transport.ReplyRefused as e:
            answered = True  # the agent did answer: its answer is what was refused
            raise CallFailed(str(e)) from None
        except Exception as e:
            raise _failure(e) from None
        finally:
            if answered:  # (again, after a retry of a message whose failure gave them back)
                self._sent = max(self._sent, request["upto"])
                self._opened = self._opened or request["opening"]
            else:
                self._sent = min(self._sent, request["first"])
                self._opened = self._opened and not request["opening"]
        # ``native``: the context the agent answered in, checked with the answer
        # (``A2AAgent.read``): an agent serving several seats may mix them up.
        return Reply(text=answer.text, data=answer.object, mode=MODE, native=answer.context_id)

    @property
    def open(self) -> bool:
        return self._http is not None

    async def aclose(self) -> None:
        self._client = self._streaming = None
        await self._close_http()

    async def _close_http(self) -> None:
        http, self._http, self._loop = self._http, None, None
        if http is not None:
            try:
                await http.aclose()
            except Exception:  # closing must never be what fails a game
                pass


def _text(prompt: Prompt, lines: list[str], opening: bool) -> str:
    """The message's text: what a model seat is told, as a conversation. The context's
    first message opens with the system part (the rules, the seat, its card); every
    message then holds the seat's history lines that are new since its last one and the
    question, its answer's schema spelt out (as to a server that enforces none). The
    messages of a context, joined, are a model seat's prompt."""
    parts = [prompt.system.rstrip("\n")] if opening else []
    if lines:
        parts.append("\n".join(lines))
    parts.append(prompt.question + schema_instructions(prompt))
    return "\n\n".join(parts)


def _failure(e: Exception) -> Exception:
    """An SDK or HTTP failure as ``Transient`` (worth another delivery) or
    ``CallFailed`` (the agent answered, and not with an answer)."""
    cause = e.__cause__
    text = " ".join(str(e).split())[:300] or type(e).__name__
    if isinstance(e, A2AClientTimeoutError) or isinstance(cause, httpx.TimeoutException):
        return Transient(f"no reply within the time limit: {text}")
    if isinstance(cause, httpx.HTTPStatusError):
        status = cause.response.status_code
        if transient_status(status):
            return Transient(f"HTTP {status}", retry_after(cause.response.headers))
        return CallFailed(f"HTTP {status} from the agent", disable=status in (401, 403))
    if isinstance(cause, httpx.RequestError):
        return Transient(f"the agent cannot be reached: {text}")
    if isinstance(e, ValueError):
        return CallFailed(text)
    return CallFailed(f"{type(e).__name__}: {text}")

"""A local stand-in of the OpenAI Chat Completions and Anthropic Messages APIs with a
fixed latency per call.

A real HTTP server (stdlib ``ThreadingHTTPServer``, 127.0.0.1 only, in a background
thread), so the ``openai`` and ``anthropic`` SDKs, their connection pools and the
project's orchestrator do exactly what they do against a real vendor: only the model
is missing. Each request sleeps ``latency`` seconds, then answers legally by reading
the JSON schema sent with it (``response_format``, or a forced tool's parameters),
narrowed by the question when the request carries the game-wide schema: a choice
from the enum, ``null`` claims, a fixed-length speech. No re-ask is ever needed, so
what is measured is the orchestration, not a model's mistakes.

``usage`` is what each vendor would bill, by its documented prompt-cache rules
(``agents.llm.vendor_cache``: the prefix order, minimums, block sizes, breakpoints,
lookback, routing and TTL), tokens counted as 4 characters:
``prompt_tokens_details.cached_tokens`` inside ``prompt_tokens`` on
``/v1/chat/completions``; ``cache_read_input_tokens`` and
``cache_creation_input_tokens`` beside ``input_tokens`` on ``/v1/messages``. A cache
entry becomes readable when the request that wrote it is answered. Each request's
figures are also kept in ``requests`` for measurement.

With ``vendor_latency`` the caches keep vendor time (``StepClock``: each round trip
of the game takes that long, however fast the stand-in answers), so entries expire
and routes overflow to further machines (OpenAI's ~15 requests a minute per prefix
and key) as they would at the vendor's pace; without it they keep the stand-in's
own time and no route overflows.

    with StandInServer(latency=0.05) as api:
        seat = make_agent("openai:gpt-5.4-mini", "Alice", base_url=api.base_url, api_key="sk-bench")
        seat = make_agent("anthropic:claude-sonnet-4-6", "Bob", base_url=api.anthropic_url, api_key="sk-bench")

A request with ``"stream": true`` on ``/v1/chat/completions`` is answered as OpenAI
streams (server-sent events of ``chat.completion.chunk`` objects, the finish reason
on the last one, usage after it when ``stream_options.include_usage`` asks, then
``data: [DONE]``), and on ``/v1/messages`` as Anthropic streams (named events,
``message_start`` to ``message_stop``: ``anthropic_events``), over chunked transfer
encoding; ``stream_delay`` seconds pass between two events, so a page shows a speech
growing as a model's would (an unstreamed answer then takes as long, sent whole at the
end, as a model writing at that pace).

Two more vendors' wire formats, for the back ends that reach them (LiteLLM's
``gemini/MODEL`` and ``ollama_chat/MODEL`` with the stand-in as ``base_url``; LangChain's
integrations of the same servers): Google's Gemini API, ``POST
.../models/{model}:generateContent`` and, streamed, ``:streamGenerateContent?alt=sse``
(server-sent events, each a whole ``GenerateContentResponse`` holding the next piece of
the candidate's text, the last one its ``finishReason`` and ``usageMetadata``:
https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent,
https://ai.google.dev/gemini-api/docs/text-generation#streaming-responses); and
Ollama's ``POST /api/chat``, which streams by default (``"stream": true``) as
newline-delimited JSON objects, each a ``message`` with the next piece of ``content``
and ``done: false``, the last ``done: true`` with its ``done_reason`` and the
``prompt_eval_count`` / ``eval_count`` token counts
(https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion).
Both read the answer's schema where those APIs take one (Gemini's
``generationConfig.responseJsonSchema`` or ``responseSchema``, or a function
declaration; Ollama's ``format``, or a tool) and answer it as the OpenAI route does.

``push(Fault.X, ...)`` makes the next answers go wrong on the wire after the server
said 200, each in one of the ways a server, proxy or network really cuts an answer
(see ``Fault``); the answer that would have been sent is made (and counted) first,
so what arrives is a cut piece of a real one.
"""

from __future__ import annotations

import hashlib
import json
import random
import socket
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from enum import Enum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agents.llm.vendor_cache import (
    AnthropicPromptCache,
    CacheRequestError,
    OPENAI_OVERFLOW_RATE,
    OpenAIPromptCache,
    StepClock,
    empty_value,
    narrowed_schema,
    user_text,
    tokens,
)

SPEECH = (
    "I have been listening carefully to everyone this morning, and some of the quiet "
    "voices worry me more than the loud ones. I am a plain villager and I have nothing "
    "to hide; let us vote with our heads, not our fears."
)
REASONING = "Nothing certain yet; I follow the votes and the silences, and keep my role to myself."
# A speech the checks refuse: the private reasoning first, then public words that
# would be quite wrong to publish, then JSON that breaks (no answer can be read).
WITHDRAWN = "Hugo is surely the wolf, I am certain, vote Hugo"
BROKEN_SPEECH = '{"reasoning": "SECRET PLAN: %s", "text": "%s", "claims": {"role": }}' % ("I am the wolf, blame Hugo", WITHDRAWN)
PACK_TALK = "Let us pick someone who talks a lot and looks trusted; stay calm by day."


def legal_instance(schema: dict[str, Any], rng: random.Random, path: str = "") -> Any:
    """A value valid under an answer schema (the subset the agent's schemas use)."""
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"] or schema["anyOf"]
        return legal_instance(options[0], rng, path)
    if "enum" in schema:
        values = list(schema["enum"])
        real = [v for v in values if v is not None]
        if path.endswith(("target", "role")) and None in values:
            return None  # propose nobody, claim nothing: never refused
        return rng.choice(real) if real else None
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        props = schema.get("properties", {})
        value = {k: legal_instance(v, rng, f"{path}.{k}") for k, v in props.items()}
        if "target" in props and "text" in props:
            value["text"] = PACK_TALK  # the wolves' private talk, not a public speech
        return value
    if t == "array":
        n = schema.get("minItems", 0)
        items = schema.get("items", {})
        pool = [v for v in items.get("enum", []) if v is not None]
        return rng.sample(pool, min(n, len(pool))) if pool else [legal_instance(items, rng, path) for _ in range(n)]
    if t == "boolean":
        return rng.random() < 0.5
    if t in ("integer", "number"):
        return 0
    if t == "null":
        return None
    if path.endswith("reasoning"):
        return REASONING
    return SPEECH


def answer(schema: dict[str, Any], question: str, rng: random.Random) -> Any:
    """A legal answer: the schema as the question narrows it, fields not asked left empty."""
    narrowed = narrowed_schema(schema, question) or schema  # None: the question narrows nothing
    props = narrowed.get("properties") or {}
    if not any(isinstance(v, dict) and v.get("empty") for v in props.values()):
        return legal_instance(narrowed, rng)
    value = {k: empty_value(v) if v.get("empty") else legal_instance(v, rng, f".{k}") for k, v in props.items()}
    if "text" in value and not props["text"].get("empty") and "target" in props and not props["target"].get("empty"):
        value["text"] = PACK_TALK  # the wolves' private talk, not a public speech
    return value


class Fault(str, Enum):
    """How an answer goes wrong after the status line said 200 (``StandInServer.push``).

    The vendors document these as server-side faults to retry, not answers: OpenAI's
    error guide says of a server error "retry your request after a brief wait"
    (https://developers.openai.com/api/docs/guides/error-codes), and its SDKs retry
    connection errors (https://github.com/openai/openai-python#retries); Anthropic's
    errors page warns that over a stream "an error can occur after returning a 200
    response" and that networks may drop long idle connections
    (https://platform.claude.com/docs/en/api/errors)."""

    EMPTY = "empty"  # a whole HTTP message with no body (Content-Length: 0; a stream with no event)
    CUT = "cut"  # a whole HTTP message holding half the JSON (a stream ending mid-answer, no [DONE])
    SHORT = "short"  # Content-Length of the whole answer, half of it sent, the connection closed (a stream's chunks never ended)


@dataclass
class RequestStat:
    vendor: str  # openai | anthropic | gemini | ollama
    model: str
    started: float
    ended: float
    prompt_tokens: int  # the whole prompt, cached parts included
    completion_tokens: int
    cached_tokens: int  # billed as cache reads
    cache_write_tokens: int  # billed as cache writes (Anthropic)
    route: str = ""  # OpenAI: the routing hash (prefix and prompt_cache_key) the request went by
    machine: int = 0  # OpenAI: 0 for the route's own machine, more for an overflow one
    text: str = ""  # OpenAI: the prompt as its prefix cache sees it (``openai_prompt_text``)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (a connection dropped on purpose, a pool closed at
        the end of a game) is no error of the server's: say nothing of it."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StandInServer:
    def __init__(
        self,
        latency: float = 0.05,
        *,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
        vendor_latency: float | None = None,
        known: set[str] | None = None,
        stream_delay: float = 0.0,
    ):
        self.latency = latency
        self.stream_delay = stream_delay
        # The models this server has (None: any name asked for); another is a 404 on the
        # model lookup and on every completion, as the vendors answer an unknown model.
        self.known = known
        self.seed = seed
        self.requests: list[RequestStat] = []
        self._lock = threading.Lock()
        self.vendor_clock = StepClock(vendor_latency) if vendor_latency else None
        if self.vendor_clock is not None:
            self.openai_cache = OpenAIPromptCache(clock=self.vendor_clock, overflow_rate=OPENAI_OVERFLOW_RATE)
            self.anthropic_cache = AnthropicPromptCache(clock=self.vendor_clock)
        else:
            self.openai_cache = OpenAIPromptCache()
            self.anthropic_cache = AnthropicPromptCache()
        self.faults: deque[Fault] = deque()  # what the next answers suffer, in order
        # The next N public speeches are replies the checks refuse: private reasoning,
        # then words, then JSON that breaks (``BROKEN_SPEECH``); the re-ask is answered well.
        self.broken_speeches = 0
        self.faulted: list[Fault] = []  # the faults served so far
        self._httpd = _Server((host, port), self._handler())
        self._thread: threading.Thread | None = None

    @property
    def anthropic_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else host
        return f"http://{name}:{port}"

    @property
    def base_url(self) -> str:
        return f"{self.anthropic_url}/v1"

    def start(self) -> "StandInServer":
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="standin-api", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "StandInServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def push(self, *faults: Fault) -> None:
        """The next answers (one each, in order) suffer these faults."""
        with self._lock:
            self.faults.extend(faults)

    def _fault(self) -> Fault | None:
        with self._lock:
            fault = self.faults.popleft() if self.faults else None
            if fault is not None:
                self.faulted.append(fault)
            return fault

    def reset(self, seed: int | None = None) -> None:
        """Forget the requests and the vendors' caches (between games)."""
        with self._lock:
            if seed is not None:
                self.seed = seed
            self.requests.clear()
            self.openai_cache.reset()
            self.anthropic_cache.reset()
            if self.vendor_clock:
                self.vendor_clock.reset()

    def _rng(self, body: dict[str, Any]) -> random.Random:
        # The answer depends on what the seat was shown (its history's lines) and on
        # the legal answers, never on arrival order, the question's wording or the
        # layout of the request: a game is the same game at any latency and
        # concurrency, and under any prompt layout, so layouts compare on equal games.
        text = user_text(body.get("messages") or [])
        head = text[: text.rfind("\n## ")] if "\n## " in text else ""
        lines = [line for line in head.splitlines() if line.strip() and not line.startswith("## ")]
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
        return random.Random(f"{self.seed}:{digest}")

    # ------------------------------------------------------------------ OpenAI
    def openai_lookup(self, body: dict[str, Any]) -> Any:
        with self._lock:
            return self.openai_cache.lookup(body)

    def complete(self, body: dict[str, Any], started: float, cached: Any) -> dict[str, Any]:
        with self._lock:
            self.openai_cache.commit(cached)
        schema, tool = None, None
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_schema":
            schema = rf["json_schema"]["schema"]
        elif body.get("tools"):
            tool = body["tools"][0]["function"]
            schema = tool["parameters"]
        value = answer(schema, user_text(body.get("messages") or []), self._rng(body)) if schema else {"action": None}
        content = json.dumps(value)
        if isinstance(value, dict) and value.get("text") == SPEECH and self._break_speech():
            content = BROKEN_SPEECH
        stat = self._record("openai", body, started, cached.prompt_tokens, tokens(content), cached.cached_tokens, 0, cached.route, cached.machine, cached.text)
        message: dict[str, Any] = {"role": "assistant", "content": None if tool else content}
        if tool:
            message["tool_calls"] = [{"id": f"call_{len(self.requests)}", "type": "function", "function": {"name": tool["name"], "arguments": content}}]
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "standin"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool else "stop"}],
            "usage": {
                "prompt_tokens": stat.prompt_tokens,
                "completion_tokens": stat.completion_tokens,
                "total_tokens": stat.prompt_tokens + stat.completion_tokens,
                "prompt_tokens_details": {"cached_tokens": stat.cached_tokens},
                "completion_tokens_details": {"reasoning_tokens": 0},
            },
        }

    def _break_speech(self) -> bool:
        with self._lock:
            if self.broken_speeches <= 0:
                return False
            self.broken_speeches -= 1
            return True

    # ------------------------------------------------------------------ Gemini, Ollama
    def _speech(self, body: dict[str, Any], schema: dict[str, Any] | None, messages: list[dict[str, Any]]) -> str:
        """The reply's text for ``schema`` (``BROKEN_SPEECH`` for a speech the checks are
        to refuse); no schema: a plain word, as to the preflight's one-token call."""
        if schema is None:
            return "OK"
        value = answer(schema, user_text(messages), self._rng({"messages": messages}))
        if isinstance(value, dict) and value.get("text") == SPEECH and self._break_speech():
            return BROKEN_SPEECH
        return json.dumps(value)

    def generate(self, body: dict[str, Any], started: float) -> tuple[dict[str, Any], str, bool]:
        """Gemini's ``generateContent``: (the response, its text, whether it is a
        function call). The prompt is the ``contents`` (``systemInstruction`` apart)."""
        messages = [
            {"role": "user" if c.get("role", "user") == "user" else "assistant", "content": "".join(str(p.get("text", "")) for p in c.get("parts") or [])}
            for c in body.get("contents") or []
        ]
        # Proto3 JSON: the API takes each field in lowerCamelCase or as its proto name.
        config = _field(body, "generationConfig") or {}
        schema = _field(config, "responseJsonSchema") or _field(config, "responseSchema")
        declared = [f for t in body.get("tools") or [] for f in _field(t, "functionDeclarations") or []]
        call = declared[0] if declared and schema is None else None
        if call is not None:
            schema = _field(call, "parametersJsonSchema") or call.get("parameters")
        text = self._speech(body, schema, messages)
        prompt = tokens(json.dumps(body))
        self._record("gemini", body, started, prompt, tokens(text), 0, 0)
        part: dict[str, Any] = {"functionCall": {"name": call["name"], "args": json.loads(text)}} if call else {"text": text}
        return (
            {
                "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": tokens(text), "totalTokenCount": prompt + tokens(text)},
                "modelVersion": str(body.get("model", "standin")),
            },
            text,
            call is not None,
        )

    def ollama_chat(self, body: dict[str, Any], started: float) -> tuple[dict[str, Any], str]:
        """Ollama's ``/api/chat`` answer when done (``done: true``) and its content."""
        fmt = body.get("format")
        schema = fmt if isinstance(fmt, dict) else None
        tools = body.get("tools") or []
        if schema is None and tools:
            schema = tools[0]["function"]["parameters"]
        messages = list(body.get("messages") or [])
        text = self._speech(body, schema, messages)
        prompt = tokens(json.dumps(messages))
        self._record("ollama", body, started, prompt, tokens(text), 0, 0)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if schema is not None and fmt is None and tools:
            message = {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": tools[0]["function"]["name"], "arguments": json.loads(text)}}]}
        done = {"model": str(body.get("model", "standin")), "created_at": "2026-01-01T00:00:00Z", "message": message, "done": True, "done_reason": "stop"}
        return {**done, "total_duration": 0, "prompt_eval_count": prompt, "eval_count": tokens(text)}, text

    # ------------------------------------------------------------------ Anthropic
    def anthropic_lookup(self, body: dict[str, Any]) -> Any:
        with self._lock:
            return self.anthropic_cache.lookup(body)

    def message(self, body: dict[str, Any], started: float, cached: Any) -> dict[str, Any]:
        with self._lock:
            self.anthropic_cache.commit(cached)
        tool = (body.get("tools") or [None])[0]
        question = user_text(body.get("messages") or [])
        value = answer(tool["input_schema"], question, self._rng(body)) if tool else {"action": None}
        content_text = json.dumps(value)
        whole = cached.input_tokens + cached.cache_read_input_tokens + cached.cache_creation_input_tokens
        stat = self._record("anthropic", body, started, whole, tokens(content_text), cached.cache_read_input_tokens, cached.cache_creation_input_tokens)
        if tool:
            content = [{"type": "tool_use", "id": f"toolu_{len(self.requests)}", "name": tool["name"], "input": value}]
        else:
            content = [{"type": "text", "text": content_text}]
        return {
            "id": f"msg_{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "standin"),
            "content": content,
            "stop_reason": "tool_use" if tool else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": cached.input_tokens,
                "cache_read_input_tokens": cached.cache_read_input_tokens,
                "cache_creation_input_tokens": cached.cache_creation_input_tokens,
                "output_tokens": stat.completion_tokens,
            },
        }

    def _record(
        self,
        vendor: str,
        body: dict[str, Any],
        started: float,
        prompt: int,
        completion: int,
        read: int,
        written: int,
        route: str = "",
        machine: int = 0,
        text: str = "",
    ) -> RequestStat:
        stat = RequestStat(vendor, str(body.get("model", "")), started, time.monotonic(), prompt, completion, read, written, route, machine, text)
        with self._lock:
            self.requests.append(stat)
        return stat

    @staticmethod
    def unknown(model: str) -> dict[str, Any]:
        """OpenAI's answer to a model it does not have (``code: model_not_found``)."""
        message = f"The model `{model}` does not exist or you do not have access to it."
        return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": "model_not_found"}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's pool expects

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, code: int, payload: dict[str, Any], fault: Fault | None = None) -> None:
                data = json.dumps(payload).encode()
                sent = b"" if fault is Fault.EMPTY else data[: len(data) // 2] if fault in (Fault.CUT, Fault.SHORT) else data
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data) if fault is Fault.SHORT else len(sent)))
                self.end_headers()
                self.wfile.write(sent)
                if fault is Fault.SHORT:
                    self._drop()

            def _drop(self) -> None:
                """Close the connection at once, the way a dying server or a proxy does."""
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

            def _stream(self, events: list[str] | list[tuple[str, str]], fault: Fault | None, ndjson: bool = False) -> None:
                """Server-sent events (or, ``ndjson``, one JSON object a line: Ollama's
                framing) over chunked transfer encoding: ``events`` whole, or none
                (``EMPTY``), or the first half, ended cleanly (``CUT``) or never ended
                (``SHORT``: no last chunk, the connection closed)."""
                if fault is Fault.EMPTY:
                    events = []
                elif fault in (Fault.CUT, Fault.SHORT):
                    events = events[: max(1, len(events) // 2)]
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson" if ndjson else "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for event in events:
                    named = f"event: {event[0]}\ndata: {event[1]}\n\n" if isinstance(event, tuple) else f"{event}\n" if ndjson else f"data: {event}\n\n"
                    data = named.encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    if server.stream_delay:
                        self.wfile.flush()
                        time.sleep(server.stream_delay)
                if fault is Fault.SHORT:
                    self._drop()
                    return
                self.wfile.write(b"0\r\n\r\n")

            def do_GET(self) -> None:
                # The model routes, which the preflight asks (``agents.llm.probe``): the
                # stand-in serves any model name, so a lookup finds any. One object fits
                # both SDKs: OpenAI's model (id, object, created, owned_by) and
                # Anthropic's (id, type, display_name, created_at).
                path = self.path.split("?", 1)[0].rstrip("/")
                _, sep, model = path.rpartition("/models/")
                if path.endswith("/models"):
                    names = sorted(server.known) if server.known is not None else ["standin"]
                    self._send(200, {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "bench"} for m in names], "has_more": False})
                elif sep and model and server.known is not None and model not in server.known:
                    self._send(404, server.unknown(model))
                elif sep and model:
                    when = "2025-01-01T00:00:00Z"
                    self._send(200, {"id": model, "object": "model", "created": 0, "owned_by": "bench", "type": "model", "display_name": model, "created_at": when})
                else:
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:
                started = time.monotonic()
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                path = self.path.split("?", 1)[0].rstrip("/")
                vendor = "openai" if path.endswith("/chat/completions") else "anthropic" if path.endswith("/v1/messages") else None
                if path.endswith((":generateContent", ":streamGenerateContent")) or path.endswith("/api/chat"):
                    self._other_vendor(path, raw, started)
                    return
                if vendor is None:
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "invalid JSON body", "type": "invalid_request_error"}})
                    return
                if server.known is not None and body.get("model") not in server.known:
                    self._send(404, server.unknown(str(body.get("model"))))
                    return
                clock = server.vendor_clock
                if clock:
                    clock.arrive()
                try:
                    try:  # the cache as the request finds it on arrival
                        cached = server.openai_lookup(body) if vendor == "openai" else server.anthropic_lookup(body)
                    except CacheRequestError as e:
                        self._send(400, {"type": "error", "error": {"type": "invalid_request_error", "message": str(e)}})
                        return
                    if server.latency:
                        time.sleep(server.latency)
                    reply = server.complete(body, started, cached) if vendor == "openai" else server.message(body, started, cached)
                finally:
                    if clock:
                        clock.leave()
                fault = server._fault()
                if vendor == "openai" and body.get("stream"):
                    self._stream(sse_chunks(reply, include_usage=bool((body.get("stream_options") or {}).get("include_usage"))), fault)
                elif body.get("stream"):
                    self._stream(anthropic_events(reply), fault)
                else:
                    if server.stream_delay:  # the model writes as slowly unstreamed: the whole reply comes at the end
                        events = sse_chunks(reply) if vendor == "openai" else anthropic_events(reply)
                        time.sleep(server.stream_delay * len(events))
                    self._send(200, reply, fault)

            def _other_vendor(self, path: str, raw: bytes, started: float) -> None:
                """Gemini's and Ollama's routes (see the module's docstring)."""
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, {"error": {"code": 400, "message": "invalid JSON body", "status": "INVALID_ARGUMENT"}})
                    return
                if server.latency:
                    time.sleep(server.latency)
                if path.endswith("/api/chat"):
                    done, text = server.ollama_chat(body, started)
                    fault = server._fault()
                    lines = ollama_lines(done, text)
                    if body.get("stream", True):  # Ollama streams unless told not to
                        self._stream(lines, fault, ndjson=True)
                    else:
                        time.sleep(server.stream_delay * len(lines))  # written as slowly, sent whole
                        self._send(200, done, fault)
                    return
                body.setdefault("model", path.rsplit("/models/", 1)[-1].split(":", 1)[0])
                response, text, call = server.generate(body, started)
                fault = server._fault()
                events = gemini_events(response, text, call)
                if path.endswith(":streamGenerateContent"):
                    self._stream(events, fault)
                else:
                    time.sleep(server.stream_delay * len(events))  # written as slowly, sent whole
                    self._send(200, response, fault)

        return Handler


PIECE = 4  # characters of content per streamed chunk


def sse_chunks(completion: dict[str, Any], *, include_usage: bool = False) -> list[str]:
    """A chat completion as OpenAI streams it (``stream: true``): the data lines of its
    ``chat.completion.chunk`` events, ``[DONE]`` last
    (https://developers.openai.com/api/reference/resources/chat/subresources/completions/streaming-events).
    The content (or a tool call's arguments) comes in pieces of ``PIECE`` characters, so
    a stream cut half-way is cut inside the answer; the finish reason on the last
    chunk; usage on a chunk of its own with no choice, when asked."""
    choice = completion["choices"][0]
    message = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return json.dumps({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    out = [chunk({"role": "assistant", "content": ""})]
    calls = message.get("tool_calls") or []
    if calls:
        call = calls[0]
        args = call["function"]["arguments"]
        out.append(chunk({"tool_calls": [{"index": 0, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"], "arguments": ""}}]}))
        out += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": args[i : i + PIECE]}}]}) for i in range(0, len(args), PIECE)]
    else:
        text = message.get("content") or ""
        out += [chunk({"content": text[i : i + PIECE]}) for i in range(0, len(text), PIECE)]
    out.append(chunk({}, choice["finish_reason"]))
    if include_usage:
        out.append(json.dumps({**head, "choices": [], "usage": completion["usage"]}))
    return out + ["[DONE]"]


def anthropic_events(message: dict[str, Any]) -> list[tuple[str, str]]:
    """A message as Anthropic streams it (``stream: true``): (event name, data) pairs,
    ``message_start`` (the message with no content, its input usage), per content
    block ``content_block_start``, ``content_block_delta`` events (``text_delta``, or
    ``input_json_delta`` pieces of a tool's input as JSON text), ``content_block_stop``,
    then ``message_delta`` (``stop_reason``, output usage) and ``message_stop``
    (https://docs.anthropic.com/en/docs/build-with-claude/streaming). Pieces of
    ``PIECE`` characters, as ``sse_chunks``."""

    def event(kind: str, data: dict[str, Any]) -> tuple[str, str]:
        return kind, json.dumps({"type": kind, **data})

    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None, "usage": {**usage, "output_tokens": 1}}
    out = [event("message_start", {"message": start})]
    for i, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            out.append(event("content_block_start", {"index": i, "content_block": {**block, "input": {}}}))
            text = json.dumps(block["input"])
            out += [event("content_block_delta", {"index": i, "delta": {"type": "input_json_delta", "partial_json": text[j : j + PIECE]}}) for j in range(0, len(text), PIECE)]
        else:
            out.append(event("content_block_start", {"index": i, "content_block": {"type": "text", "text": ""}}))
            text = block["text"]
            out += [event("content_block_delta", {"index": i, "delta": {"type": "text_delta", "text": text[j : j + PIECE]}}) for j in range(0, len(text), PIECE)]
        out.append(event("content_block_stop", {"index": i}))
    out.append(event("message_delta", {"delta": {"stop_reason": message["stop_reason"], "stop_sequence": None}, "usage": {"output_tokens": usage["output_tokens"]}}))
    out.append(event("message_stop", {}))
    return out


def _field(obj: dict[str, Any], camel: str) -> Any:
    """``obj``'s field named in lowerCamelCase or in snake_case (proto3 JSON reads both:
    https://protobuf.dev/programming-guides/json/)."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in camel)
    return obj.get(camel, obj.get(snake))


def gemini_events(response: dict[str, Any], text: str, call: bool) -> list[str]:
    """A ``GenerateContentResponse`` as ``streamGenerateContent?alt=sse`` sends it: data
    lines each holding a whole response with the next ``PIECE`` characters of the
    candidate's text, the last one with the ``finishReason`` and ``usageMetadata``
    (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
    A function call is not split: the API sends a ``functionCall`` part whole."""
    candidate = response["candidates"][0]
    head = {"modelVersion": response["modelVersion"]}

    def event(parts: list[dict[str, Any]], last: bool) -> str:
        out: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if last:
            out["finishReason"] = candidate["finishReason"]
        return json.dumps({"candidates": [out], **head, **({"usageMetadata": response["usageMetadata"]} if last else {})})

    if call:
        return [event(candidate["content"]["parts"], True)]
    pieces = [text[i : i + PIECE] for i in range(0, len(text), PIECE)] or [""]
    return [event([{"text": p}], i == len(pieces) - 1) for i, p in enumerate(pieces)]


def ollama_lines(done: dict[str, Any], text: str) -> list[str]:
    """An ``/api/chat`` answer as Ollama streams it: one JSON object a line, each a
    ``message`` with the next ``PIECE`` characters of ``content`` and ``done: false``,
    then the ``done`` object with empty content, its reason and token counts
    (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion).
    Tool calls come whole, in one message, as Ollama sends them."""
    head = {"model": done["model"], "created_at": done["created_at"]}
    if done["message"].get("tool_calls"):
        pieces = [json.dumps({**head, "message": done["message"], "done": False})]
    else:
        pieces = [json.dumps({**head, "message": {"role": "assistant", "content": text[i : i + PIECE]}, "done": False}) for i in range(0, len(text), PIECE)]
    return pieces + [json.dumps({**done, "message": {"role": "assistant", "content": ""}})]


def sse_body(events: list[str] | list[tuple[str, str]]) -> bytes:
    """Server-sent events as one body (``data:`` lines, named with ``event:`` when given)."""
    return "".join(f"event: {e[0]}\ndata: {e[1]}\n\n" if isinstance(e, tuple) else f"data: {e}\n\n" for e in events).encode()

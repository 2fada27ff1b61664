"""A local stand-in of the OpenAI Chat Completions API with a fixed latency per call.

A real HTTP server (stdlib ``ThreadingHTTPServer``, 127.0.0.1 only, in a background
thread), so the ``openai`` SDK, its connection pool and the project's orchestrator do
exactly what they do against a real vendor: only the model is missing. Each request
sleeps ``latency`` seconds, then answers legally by reading the JSON schema sent with
it (``response_format``, or a forced tool's parameters): a choice from the enum,
``null`` claims, a fixed-length speech. No re-ask is ever needed, so what is measured
is the orchestration, not a model's mistakes.

``usage`` is filled in the way OpenAI reports it, tokens counted as 4 characters:
``prompt_tokens``, ``completion_tokens`` and ``prompt_tokens_details.cached_tokens``
= the prefix this request shares with the previous request of the same seat (the seat
is recognised by its system message). Each request's figures are also kept in
``requests`` for measurement, with the prefix shared with *any* earlier request (what
a cache shared by all seats could serve) and the share OpenAI's rule would bill as
cached (a hit needs 1,024 tokens, then grows in steps of 128).

    with StandInServer(latency=0.05) as api:
        seat = make_agent("openai:standin", "Alice", base_url=api.base_url, api_key="sk-bench")
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHARS_PER_TOKEN = 4
OPENAI_CACHE_MIN = 1024
OPENAI_CACHE_STEP = 128

SPEECH = (
    "I have been listening carefully to everyone this morning, and some of the quiet "
    "voices worry me more than the loud ones. I am a plain villager and I have nothing "
    "to hide; let us vote with our heads, not our fears."
)
REASONING = "Nothing certain yet; I follow the votes and the silences, and keep my role to myself."
PACK_TALK = "Let us pick someone who talks a lot and looks trusted; stay calm by day."


def tokens(text: str) -> int:
    return max(1, (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (binary search over C-speed slice compares)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def openai_cached(prefix_tokens: int) -> int:
    """What OpenAI's prompt cache would bill as cached for a prefix of this length."""
    if prefix_tokens < OPENAI_CACHE_MIN:
        return 0
    return prefix_tokens - (prefix_tokens - OPENAI_CACHE_MIN) % OPENAI_CACHE_STEP


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


@dataclass
class RequestStat:
    seat: str  # digest of the system message
    started: float
    ended: float
    prompt_tokens: int
    completion_tokens: int
    same_seat_prefix: int  # tokens shared with this seat's previous request
    any_prefix: int  # tokens shared with any earlier request
    openai_cached: int  # what OpenAI's rule would bill as cached (same seat)


class StandInServer:
    def __init__(self, latency: float = 0.05, *, seed: int = 0, host: str = "127.0.0.1", port: int = 0):
        self.latency = latency
        self.seed = seed
        self.requests: list[RequestStat] = []
        self._lock = threading.Lock()
        self._last: dict[str, str] = {}  # seat -> its previous prompt text
        self._all: list[str] = []
        self._httpd = ThreadingHTTPServer((host, port), self._handler())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "StandInServer":
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="standin-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "StandInServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset(self, seed: int | None = None) -> None:
        """Forget the requests and the seats' caches (between games)."""
        with self._lock:
            if seed is not None:
                self.seed = seed
            self.requests.clear()
            self._last.clear()
            self._all.clear()

    # ------------------------------------------------------------------ the API
    @staticmethod
    def prompt_text(body: dict[str, Any]) -> str:
        parts = []
        for m in body.get("messages", []):
            c = m.get("content")
            if isinstance(c, list):
                c = "".join(p.get("text", "") for p in c if isinstance(p, dict))
            calls = json.dumps(m["tool_calls"]) if m.get("tool_calls") else ""
            parts.append(f"<{m.get('role')}>{c or ''}{calls}")
        return "".join(parts)

    def complete(self, body: dict[str, Any], started: float) -> dict[str, Any]:
        text = self.prompt_text(body)
        messages = body.get("messages") or [{}]
        seat = hashlib.sha256(json.dumps(messages[0], sort_keys=True).encode()).hexdigest()[:16]
        schema, tool = None, None
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_schema":
            schema = rf["json_schema"]["schema"]
        elif body.get("tools"):
            tool = body["tools"][0]["function"]
            schema = tool["parameters"]
        # The answer depends on the request only, never on arrival order, so a game is
        # the same game at any latency and any concurrency.
        rng = random.Random(f"{self.seed}:{hashlib.sha256(text.encode()).hexdigest()}")
        value = legal_instance(schema, rng) if schema else {"action": None}
        with self._lock:
            previous = self._last.get(seat)
            same = common_prefix(previous, text) if previous else 0
            anyp = max((common_prefix(t, text) for t in self._all), default=0)
            self._last[seat] = text
            self._all.append(text)
        content = json.dumps(value)
        prompt_tokens = tokens(text)
        same_t = min(same // CHARS_PER_TOKEN, prompt_tokens)
        stat = RequestStat(
            seat=seat,
            started=started,
            ended=time.monotonic(),
            prompt_tokens=prompt_tokens,
            completion_tokens=tokens(content),
            same_seat_prefix=same_t,
            any_prefix=min(anyp // CHARS_PER_TOKEN, prompt_tokens),
            openai_cached=openai_cached(same_t),
        )
        with self._lock:
            self.requests.append(stat)
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
                "prompt_tokens_details": {"cached_tokens": stat.same_seat_prefix},
            },
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's pool expects

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, code: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "standin", "object": "model", "owned_by": "bench"}]})
                else:
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:
                started = time.monotonic()
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "invalid JSON body", "type": "invalid_request_error"}})
                    return
                if server.latency:
                    time.sleep(server.latency)
                self._send(200, server.complete(body, started))

        return Handler

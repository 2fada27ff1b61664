"""Local stand-ins of the OpenAI Chat Completions and Anthropic Messages HTTP APIs.

The real ``openai`` and ``anthropic`` clients talk to these through respx, so every
test exercises the real wire protocol: request bodies, status codes, headers, error
bodies, usage blocks. The stand-in "model" answers legally by reading the enum of the
schema sent with the request (``response_format``, or the tool's parameters), the
way a schema-constrained server would; misbehaviours are queued explicitly.

Both SDKs use ``httpx2`` (not ``httpx``), which respx does not patch; ``HTTPX2Mocker``
teaches respx to: it converts httpx2 requests to httpx for the router and the
router's httpx responses (or raised httpx errors) back to httpx2.

Usage blocks come from the vendors' documented prompt-cache rules
(``agents.llm.vendor_cache``): OpenAI's prefix (tools and schema, then messages),
its 1,024-token minimum, 128-token blocks and ``prompt_cache_key`` routing;
Anthropic's tools-system-messages order, breakpoints, per-model minimum, lookback
and TTL. ``cache_min`` lowers the minimum for short test prompts. Tokens are counted
as 4 characters each. When the request's schema is the game-wide one (the cache
layout), the stand-in answers the narrowed schema its question spells out.

Use::

    with standin_router() as router:
        api = OpenAIStandIn(router)            # or AnthropicStandIn(router)
        api.push(Reply("not json"))            # the next request gets this reply
        api.push(Status(429, {"retry-after": "2"}))
        ... play ...
        api.requests                           # every request body received

The model routes answer as the vendors document them: OpenAI's ``GET /models/{model}``
and ``GET /models`` (https://platform.openai.com/docs/api-reference/models), Anthropic's
``GET /v1/models/{model_id}`` and ``GET /v1/models`` (https://docs.anthropic.com/en/api/models),
an unknown model a 404 there and on every completion (``known``: the models the server
has; None, any model asked for). ``lookup_route = False`` is a server of one's own
without the single-model lookup (llama.cpp's, vLLM's: a plain 404), ``listed`` the ids
its list names; ``push_lookup`` queues misbehaviours for the model routes alone, and
``lookups`` logs every path they were asked.

A request with ``"stream": true`` is answered as each vendor streams (OpenAI's
``chat.completion.chunk`` events, Anthropic's named events: ``sse_chunks`` and
``anthropic_events`` of ``arena/standin_server.py``, which cite the vendors'
documentation), the same answer in pieces; ``refuse_stream`` makes a streamed request
a 400, as a grammar server that cannot stream a constrained reply answers.

Two more ways to misbehave, for the tests of what a reply may publish: ``say`` (the
public words the "model" speaks, in turn: injection payloads) and cutting replies the
way a server does at ``max_tokens`` (``honour_max_tokens``: a reply longer than the
request's budget, at 4 characters a token, is cut there; ``cut_at``: every reply is cut
after that many characters, whatever the budget). A cut reply says so as the vendor
does (``finish_reason: "length"``, ``stop_reason: "max_tokens"``); on Anthropic a cut
tool call carries the part of its input that was complete, as the API's partial JSON
does.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import httpx
import httpx2
import respx
from respx.mocks import AbstractRequestMocker
from gbnf_check import Grammar

from arena.standin_server import anthropic_events, sse_body, sse_chunks  # noqa: E402

from agents.llm.vendor_cache import (
    AnthropicPromptCache,
    CacheRequestError,
    OpenAIPromptCache,
    empty_value,
    narrowed_schema,
    user_text,
    openai_prompt_text,
    tokens,
)

OPENAI_URL = "https://api.openai.com/v1"
ANTHROPIC_URL = "https://api.anthropic.com"


# ---------------------------------------------------------------------- respx for httpx2
class HTTPX2Mocker(AbstractRequestMocker):
    """respx mocker patching httpx2's default transports."""

    name = "httpx2"
    targets = ["httpx2._transports.default.HTTPTransport", "httpx2._transports.default.AsyncHTTPTransport"]
    target_methods = ["handle_request", "handle_async_request"]

    @classmethod
    def to_httpx_request(cls, **kwargs: Any) -> httpx.Request:
        req: httpx2.Request = kwargs["request"]
        body = req.read() if not hasattr(req, "_content") else req.content
        return httpx.Request(req.method, str(req.url), headers=req.headers.raw, content=body)

    @classmethod
    def prepare_sync_request(cls, httpx_request, **kwargs):
        return httpx_request, kwargs

    @classmethod
    async def prepare_async_request(cls, httpx_request, **kwargs):
        return httpx_request, kwargs

    @classmethod
    def _convert(cls, httpx_response: httpx.Response) -> httpx2.Response:
        return httpx2.Response(status_code=httpx_response.status_code, headers=httpx_response.headers.raw, content=httpx_response.content)

    @classmethod
    def from_sync_httpx_response(cls, httpx_response, target, **kwargs):
        httpx_response.read()
        return cls._convert(httpx_response)

    @classmethod
    async def from_async_httpx_response(cls, httpx_response, target, **kwargs):
        await httpx_response.aread()
        return cls._convert(httpx_response)

    @classmethod
    def _translate(cls, e: httpx.HTTPError, kwargs: dict[str, Any]) -> Exception:
        kind = getattr(httpx2, type(e).__name__, httpx2.TransportError)
        try:
            return kind(str(e), request=kwargs.get("request"))
        except TypeError:
            return kind(str(e))

    @classmethod
    def _send_sync_request(cls, httpx_request, *, target_spec, instance, **kwargs):
        try:
            return super()._send_sync_request(httpx_request, target_spec=target_spec, instance=instance, **kwargs)
        except httpx.HTTPError as e:
            raise cls._translate(e, kwargs) from None

    @classmethod
    async def _send_async_request(cls, httpx_request, *, target_spec, instance, **kwargs):
        try:
            return await super()._send_async_request(httpx_request, target_spec=target_spec, instance=instance, **kwargs)
        except httpx.HTTPError as e:
            raise cls._translate(e, kwargs) from None


@contextmanager
def standin_router() -> Iterator[respx.MockRouter]:
    """A respx router that intercepts the SDKs' (httpx2) traffic; unmatched requests fail."""
    with respx.mock(using="httpx2", assert_all_called=False, assert_all_mocked=True) as router:
        yield router


def standin_fixture(standin: Callable[..., Any], **kwargs: Any) -> Any:
    """A test module's ``api`` fixture: ``standin(router, **kwargs)`` (a stand-in API)
    answering on a fresh router for the test's duration."""
    import pytest

    @pytest.fixture
    def api() -> Iterator[Any]:
        with standin_router() as router:
            yield standin(router, **kwargs)

    return api


# ---------------------------------------------------------------------- behaviours
@dataclass
class Reply:
    """Answer with this raw text (as the message content, or as the tool's arguments)."""

    content: str
    as_tool: bool | None = None  # None: the way the request asked for


@dataclass
class Status:
    """Answer with an HTTP error."""

    code: int
    headers: dict[str, str] = field(default_factory=dict)
    message: str = "stand-in error"


@dataclass
class Raise:
    """Fail at the transport: ``httpx.ReadTimeout``, ``httpx.ConnectError``..."""

    error: type[Exception] = httpx.ReadTimeout


@dataclass
class Sleep:
    """Take this long, then answer normally (to hit time limits)."""

    seconds: float


Behaviour = Reply | Status | Raise | Sleep
Predicate = Callable[[dict[str, Any]], bool]


# ---------------------------------------------------------------------- legal answers
def legal_instance(schema: dict[str, Any], rng: random.Random, *, path: str = "") -> Any:
    """A value valid under ``schema`` (the subset answer schemas use), chosen the way
    a constrained decoder might: any allowed value, passing rarely."""
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"] or schema["anyOf"]
        return legal_instance(options[0], rng, path=path)
    if "enum" in schema:
        values = list(schema["enum"])
        real = [v for v in values if v is not None]
        if real and (None not in values or rng.random() < 0.85):
            return rng.choice(real)
        return None
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        props = schema.get("properties", {})
        return {k: legal_instance(v, rng, path=f"{path}.{k}") for k, v in props.items()}
    if t == "array":
        items = schema.get("items", {})
        n = schema.get("minItems", 0 if "accuses" not in path else 1)
        if "enum" in items:
            pool = [v for v in items["enum"] if v is not None]
            return rng.sample(pool, min(n, len(pool)))
        return [legal_instance(items, rng, path=path) for _ in range(n)]
    if t == "boolean":
        return rng.random() < 0.5
    if t == "number" and "minimum" in schema and "maximum" in schema:
        return round(rng.uniform(schema["minimum"], schema["maximum"]), 3)  # a belief's probability
    if t in ("integer", "number"):
        return 0
    if t == "null":
        return None
    # Unique strings, so a test can trace any text to the one call that wrote it.
    if path.endswith("reasoning"):
        return f"stand-in reasoning {rng.getrandbits(48):012x}"
    return f"I am a simple villager, and I have been watching closely. (stand-in {rng.getrandbits(48):012x})"


def legal_answer(schema: dict[str, Any], question: str, rng: random.Random) -> Any:
    """A legal answer to the question asked: the request's schema narrowed by the
    question's own line (see ``narrowed_schema``), fields not asked for left empty."""
    narrowed = narrowed_schema(schema, question)
    props = narrowed.get("properties") if isinstance(narrowed, dict) else None
    if not props or not any(isinstance(v, dict) and v.get("empty") for v in props.values()):
        return legal_instance(narrowed, rng)
    return {k: empty_value(v) if v.get("empty") else legal_instance(v, rng, path=f".{k}") for k, v in props.items()}


def without_fields_line(user: str) -> str:
    """A user message without the cache layout's last line (the fields the question
    fills): what is left ends with the question as ``decision_prompt`` renders it."""
    head, sep, last = user.rpartition("\n")
    return head if sep and '{"properties":{' in last else user


def asks_a_move(body: dict[str, Any]) -> bool:
    """Whether the request asks for a move (a choice, not words), in either layout."""
    question = user_text(body.get("messages") or [])
    if '{"properties":{' in question:
        return '"action"' in question.rsplit('{"properties":{', 1)[1]
    rf = (body.get("response_format") or {}).get("json_schema") or {}
    tool = (body.get("tools") or [{}])[0]
    name = rf.get("name") or tool.get("name") or (tool.get("function") or {}).get("name")
    return name not in ("speak", "wolf_chat")


# ---------------------------------------------------------------------- the stand-ins
def _json_response(out: dict[str, Any]) -> httpx.Response:
    """A 200 with ``out`` as its JSON body, as a server writes it: UTF-8, and any text
    UTF-8 cannot carry (an unpaired surrogate a model wrote) as JSON's ``\\uXXXX``
    escape, which RFC 8259 (section 8.2) allows in a string and a client's parser
    reads back as that lone surrogate; Python's ``json.dumps`` writes it so by default."""
    try:
        return httpx.Response(200, json=out)
    except UnicodeEncodeError:
        return httpx.Response(200, content=json.dumps(out).encode("ascii"), headers={"content-type": "application/json"})


class _StandIn:
    """What both APIs share: the queue of misbehaviours, the request log, the rng."""

    def __init__(self, router: respx.MockRouter, base_url: str, *, seed: int = 0, latency: float = 0.0, cache_min: int | None = None):
        self.base_url = base_url.rstrip("/")
        self.rng = random.Random(seed)
        self.latency = latency
        self.cache_min = cache_min  # None: the vendor's documented minimum
        self.queue: list[tuple[Behaviour, Predicate | None]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.responses: list[dict[str, Any]] = []
        self.reject_json_schema = False  # a server without structured outputs (400)
        self.reject_tools = False  # a server without tool calling (400)
        self.reject_when: Predicate | None = None  # any other refusal (400) of a request body
        self.refuse_stream = False  # a streamed request is a 400 (a server that cannot stream a schema)
        self.in_flight = 0
        self.peak_in_flight = 0
        self.say: list[str] = []  # public words spoken in turn, in place of the made-up ones
        self._said = 0
        self.honour_max_tokens = False  # cut a reply at the request's budget, as a server does
        self.cut_at: int | None = None  # cut every reply after this many characters
        self.cuts = 0  # replies cut so far
        self.known: set[str] | None = None  # the models this server has (None: any model asked for)
        self.lookup_route = True  # GET .../models/{model} exists (False: llama.cpp, vLLM)
        self.listed: list[str] | None = None  # what GET .../models names (None: ``known``, sorted)
        self.lookup_queue: list[Behaviour] = []
        self.lookups: list[str] = []  # the paths of every model-route request
        self.lookups_in_flight = 0
        self.lookups_peak = 0  # most model-route requests held at once (by a ``Sleep``)

    def push_lookup(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next requests to the model routes, in order."""
        self.lookup_queue.extend(behaviours)

    def _model_routes(self, router: respx.MockRouter, models_url: str) -> None:
        router.get(url__regex=rf"^{re.escape(models_url)}/(?P<model>[^?]+)").mock(side_effect=self._lookup_model)
        router.get(url__regex=rf"^{re.escape(models_url)}/?(\?.*)?$").mock(side_effect=self._list_models)

    async def _lookup_behaviour(self, request: httpx.Request) -> httpx.Response | None:
        self.lookups.append(request.url.path)
        b = self.lookup_queue.pop(0) if self.lookup_queue else None
        self.lookups_in_flight += 1
        self.lookups_peak = max(self.lookups_peak, self.lookups_in_flight)
        try:
            while isinstance(b, Sleep):
                await asyncio.sleep(b.seconds)
                b = self.lookup_queue.pop(0) if self.lookup_queue else None
        finally:
            self.lookups_in_flight -= 1
        if isinstance(b, Status):
            return self._error(b)
        if isinstance(b, Raise):
            raise b.error("stand-in transport failure", request=request)
        return None

    async def _lookup_model(self, request: httpx.Request, model: str) -> httpx.Response:
        from urllib.parse import unquote

        failed = await self._lookup_behaviour(request)
        if failed is not None:
            return failed
        model = unquote(model)
        if not self.lookup_route:
            return httpx.Response(404, json={"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}})
        if self.known is not None and model not in self.known:
            return self._unknown(model)
        return httpx.Response(200, json=self._model_object(model))

    async def _list_models(self, request: httpx.Request) -> httpx.Response:
        failed = await self._lookup_behaviour(request)
        if failed is not None:
            return failed
        ids = self.listed if self.listed is not None else sorted(self.known or ())
        return httpx.Response(200, json=self._model_list([self._model_object(m) for m in ids]))

    def _model_object(self, model: str) -> dict[str, Any]:
        raise NotImplementedError

    def _model_list(self, objects: list[dict[str, Any]]) -> dict[str, Any]:
        raise NotImplementedError

    def _unknown(self, model: str) -> httpx.Response:
        raise NotImplementedError

    def push(self, *behaviours: Behaviour, when: Predicate | None = None) -> None:
        """Queue behaviours for the next requests (matching ``when``), in order."""
        for b in behaviours:
            self.queue.append((b, when))

    def _next(self, body: dict[str, Any]) -> Behaviour | None:
        for i, (b, when) in enumerate(self.queue):
            if when is None or when(body):
                del self.queue[i]
                return b
        return None

    async def _handle(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content or b"{}")
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            b = self._next(body)
            while isinstance(b, Sleep):
                await asyncio.sleep(b.seconds)
                b = self._next(body)
            if isinstance(b, Status):
                return self._error(b)
            if isinstance(b, Raise):
                raise b.error("stand-in transport failure", request=request)
            if self.known is not None and body.get("model") not in self.known:
                return self._unknown(str(body.get("model")))
            rejected = self._rejects(body)
            if self.refuse_stream and body.get("stream"):
                rejected = "streaming is not supported with a response format on this server"
            if rejected:
                return self._error(Status(400, message=rejected))
            try:
                cached = self._lookup(body)  # the cache as the request finds it on arrival
            except CacheRequestError as e:
                return self._error(Status(400, message=str(e)))
            if self.latency:
                await asyncio.sleep(self.latency)
            out = self._answer(body, b if isinstance(b, Reply) else None, cached)
            self._commit(cached)  # readable by the requests that arrive from now on
            self.responses.append(out)
            if body.get("stream"):
                return httpx.Response(200, content=sse_body(self._events(out, body)), headers={"content-type": "text/event-stream"})
            return _json_response(out)
        finally:
            self.in_flight -= 1

    def _rejects(self, body: dict[str, Any]) -> str | None:
        return None

    def _events(self, out: dict[str, Any], body: dict[str, Any]) -> list[str] | list[tuple[str, str]]:
        """``out`` as the vendor streams it."""
        raise NotImplementedError

    def _made_up(self, schema: dict[str, Any], question: str = "") -> str:
        """A legal answer under ``schema`` as the question narrows it, its words
        replaced by the next of ``say``."""
        value = legal_answer(schema, question, self.rng)
        if self.say and isinstance(value, dict) and isinstance(value.get("text"), str):
            value["text"] = self.say[self._said % len(self.say)]
            self._said += 1
        return json.dumps(value, ensure_ascii=False)

    def _cut(self, body: dict[str, Any], content: str) -> tuple[str, bool]:
        """``content`` as the server would return it: cut at the budget, or not."""
        limit = self.cut_at
        budget = body.get("max_tokens") or body.get("max_completion_tokens")
        if self.honour_max_tokens and isinstance(budget, int):
            limit = min(limit, 4 * budget) if limit is not None else 4 * budget
        if limit is None or len(content) <= limit:
            return content, False
        self.cuts += 1
        return content[:limit], True

    def _error(self, s: Status) -> httpx.Response:
        raise NotImplementedError

    def _lookup(self, body: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _commit(self, cached: Any) -> None:
        raise NotImplementedError

    def _answer(self, body: dict[str, Any], forced: Reply | None, cached: Any) -> dict[str, Any]:
        raise NotImplementedError


class OpenAIStandIn(_StandIn):
    """``POST /chat/completions``, with prefix caching as OpenAI documents it."""

    def __init__(self, router: respx.MockRouter, base_url: str = OPENAI_URL, **kw: Any):
        super().__init__(router, base_url, **kw)
        self.cache = OpenAIPromptCache(**({"minimum": self.cache_min} if self.cache_min is not None else {}))
        self.reasoning_tokens = 0  # hidden reasoning reported (and counted in completion_tokens)
        router.post(f"{self.base_url}/chat/completions").mock(side_effect=self._handle)
        self._model_routes(router, f"{self.base_url}/models")

    def _model_object(self, model: str) -> dict[str, Any]:
        return {"id": model, "object": "model", "created": 0, "owned_by": "stand-in"}

    def _model_list(self, objects: list[dict[str, Any]]) -> dict[str, Any]:
        return {"object": "list", "data": objects}

    def _unknown(self, model: str) -> httpx.Response:
        return httpx.Response(
            404,
            json={"error": {"message": f"The model `{model}` does not exist or you do not have access to it.", "type": "invalid_request_error", "param": None, "code": "model_not_found"}},
        )

    def _rejects(self, body: dict[str, Any]) -> str | None:
        if self.reject_when is not None and self.reject_when(body):
            return "this server refuses that request"
        if self.reject_json_schema and (body.get("response_format") or {}).get("type") == "json_schema":
            return "response_format json_schema is not supported by this server"
        if self.reject_tools and body.get("tools"):
            return "tools are not supported by this server"
        return None

    def _error(self, s: Status) -> httpx.Response:
        return httpx.Response(s.code, headers=s.headers, json={"error": {"message": s.message, "type": "stand_in", "code": s.code}})

    def _events(self, out: dict[str, Any], body: dict[str, Any]) -> list[str] | list[tuple[str, str]]:
        return sse_chunks(out, include_usage=bool((body.get("stream_options") or {}).get("include_usage")))

    prompt_text = staticmethod(openai_prompt_text)

    def _lookup(self, body: dict[str, Any]) -> Any:
        return self.cache.lookup(body)

    def _commit(self, cached: Any) -> None:
        self.cache.commit(cached)

    def _answer(self, body: dict[str, Any], forced: Reply | None, cached: Any) -> dict[str, Any]:
        text = cached.text
        prompt_tokens, cached_tokens = cached.prompt_tokens, cached.cached_tokens
        schema, via_tool, name = None, False, "answer"
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_schema":
            schema = rf["json_schema"]["schema"]
        elif body.get("tools"):
            fn = body["tools"][0]["function"]
            schema, via_tool, name = fn["parameters"], True, fn["name"]
        if forced is not None:
            content = forced.content
            via_tool = via_tool if forced.as_tool is None else forced.as_tool
        elif schema is not None:
            content = self._made_up(schema, user_text(body["messages"]))
        elif isinstance(body.get("grammar"), str):
            # llama.cpp's own field: the reply is confined to the grammar, as its sampler confines it.
            content = Grammar(body["grammar"]).sample(self.rng)
        else:
            content = text_mode_answer(text, self.rng)
        content, cut = self._cut(body, content)
        message: dict[str, Any] = {"role": "assistant", "content": None if via_tool else content}
        if via_tool:
            message["tool_calls"] = [
                {"id": f"call_{len(self.requests)}", "type": "function", "function": {"name": name, "arguments": content}}
            ]
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": "length" if cut else "tool_calls" if via_tool else "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": tokens(content) + self.reasoning_tokens,
                "total_tokens": prompt_tokens + tokens(content) + self.reasoning_tokens,
                "prompt_tokens_details": {"cached_tokens": cached_tokens},
                "completion_tokens_details": {"reasoning_tokens": self.reasoning_tokens},
            },
        }


class AnthropicStandIn(_StandIn):
    """``POST /v1/messages``, with ``cache_control`` breakpoints as Anthropic documents them."""

    def __init__(self, router: respx.MockRouter, base_url: str = ANTHROPIC_URL, **kw: Any):
        super().__init__(router, base_url, **kw)
        self.cache = AnthropicPromptCache(minimum=self.cache_min)
        router.post(f"{self.base_url}/v1/messages").mock(side_effect=self._handle)
        self._model_routes(router, f"{self.base_url}/v1/models")

    def _model_object(self, model: str) -> dict[str, Any]:
        return {"id": model, "type": "model", "display_name": model, "created_at": "2025-01-01T00:00:00Z"}

    def _model_list(self, objects: list[dict[str, Any]]) -> dict[str, Any]:
        ids = [o["id"] for o in objects]
        return {"data": objects, "has_more": False, "first_id": ids[0] if ids else None, "last_id": ids[-1] if ids else None}

    def _unknown(self, model: str) -> httpx.Response:
        return self._error(Status(404, message=f"model: {model}"))

    def _rejects(self, body: dict[str, Any]) -> str | None:
        if self.reject_tools and body.get("tools"):
            return "tools are not supported by this proxy"
        return None

    def _error(self, s: Status) -> httpx.Response:
        kind = {429: "rate_limit_error", 529: "overloaded_error", 400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error"}.get(
            s.code, "api_error"
        )
        return httpx.Response(s.code, headers=s.headers, json={"type": "error", "error": {"type": kind, "message": s.message}})

    def _events(self, out: dict[str, Any], body: dict[str, Any]) -> list[str] | list[tuple[str, str]]:
        return anthropic_events(out)

    @staticmethod
    def blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
        """The prompt as a flat list of blocks, system first."""
        out: list[dict[str, Any]] = []
        system = body.get("system")
        if isinstance(system, str):
            out.append({"type": "text", "text": system})
        else:
            out += list(system or [])
        for m in body["messages"]:
            c = m["content"]
            out += [{"type": "text", "text": c}] if isinstance(c, str) else list(c)
        return out

    @staticmethod
    def _block_text(b: dict[str, Any]) -> str:
        if b.get("type") == "text":
            return b["text"]
        return json.dumps({k: v for k, v in b.items() if k != "cache_control"}, sort_keys=True)

    def _lookup(self, body: dict[str, Any]) -> Any:
        return self.cache.lookup(body)

    def _commit(self, cached: Any) -> None:
        self.cache.commit(cached)

    def _answer(self, body: dict[str, Any], forced: Reply | None, cached: Any) -> dict[str, Any]:
        usage = {
            "input_tokens": cached.input_tokens,
            "cache_read_input_tokens": cached.cache_read_input_tokens,
            "cache_creation_input_tokens": cached.cache_creation_input_tokens,
        }
        tool = (body.get("tools") or [None])[0]
        via_tool = tool is not None
        if forced is not None:
            content_text = forced.content
            via_tool = via_tool if forced.as_tool is None else forced.as_tool
        elif tool is not None:
            content_text = self._made_up(tool["input_schema"], user_text(body["messages"]))
        else:
            content_text = text_mode_answer("".join(self._block_text(b) for b in self.blocks(body)), self.rng)
        content_text, cut = self._cut(body, content_text)
        if via_tool:
            try:
                args = json.loads(content_text)
            except json.JSONDecodeError:
                # A tool input is always an object on this API: a cut one keeps what was complete.
                args = partial_object(content_text) if cut else {"raw": content_text}
            content = [{"type": "tool_use", "id": f"toolu_{len(self.requests)}", "name": tool["name"] if tool else "answer", "input": args}]
        else:
            content = [{"type": "text", "text": content_text}]
        return {
            "id": f"msg_{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "stop_reason": "max_tokens" if cut else "tool_use" if via_tool else "end_turn",
            "stop_sequence": None,
            "usage": {**usage, "output_tokens": tokens(content_text)},
        }


def partial_object(text: str) -> dict[str, Any]:
    """The object a cut JSON text had begun (its last string value cut short), the way
    a streaming API's partial JSON reads it; ``{}`` when nothing was complete."""
    for end in range(len(text), 0, -1):
        for closer in ('"}', "}", '""}'):
            try:
                value = json.loads(text[:end] + closer)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    return {}


# ---------------------------------------------------------------------- text mode
_SCHEMA_IN_TEXT = re.compile(r"JSON schema[^\n]*\n(?=\{)")


def text_mode_answer(prompt: str, rng: random.Random) -> str:
    """A server without schema support still answers: when the prompt spells the
    schema out (the agent's text mode does), answer it legally, wrapped in prose and
    a code fence the way chatty models do."""
    found = None
    for m in _SCHEMA_IN_TEXT.finditer(prompt):
        found = m
    if found is not None:
        try:
            schema, _ = json.JSONDecoder().raw_decode(prompt, found.end())
            value = legal_instance(schema, rng)
            return f"Sure! Here is my answer:\n```json\n{json.dumps(value)}\n```"
        except (json.JSONDecodeError, ValueError):
            pass
    return "I am not sure."


# ---------------------------------------------------------------------- LangChain
def schema_chat_model(seed: int = 0, *, structured: bool = True, script: list[str] | None = None):
    """A LangChain chat model standing in for a provider integration: with
    ``structured`` it implements ``bind_tools`` (so ``with_structured_output`` works)
    and answers the bound tool legally, like a schema-constrained model; without, it
    answers text (legally when the prompt spells the schema out). ``script`` replies
    come first, verbatim. Reports ``usage_metadata`` with a cache-read share."""
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool

    class SchemaFakeChatModel(BaseChatModel):
        rng: Any = None
        script: list = []
        prompts: list = []
        seen: list = []

        @property
        def _llm_type(self) -> str:
            return "schema-fake"

        def bind_tools(self, tools, *, tool_choice=None, **kwargs):
            return self.bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice, **kwargs)

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            text = "".join(
                m.content if isinstance(m.content, str) else "".join(p.get("text", "") for p in m.content) for m in messages
            )
            self.prompts.append(text)
            cached = 0
            for old in self.seen[-8:]:
                n = 0
                while n < min(len(old), len(text)) and old[n] == text[n]:
                    n += 1
                cached = max(cached, n // 4)
            self.seen.append(text)
            prompt_tokens = tokens(text)
            tools = kwargs.get("tools")
            if self.script:
                content = self.script.pop(0)
                msg = AIMessage(content=content)
            elif tools:
                fn = tools[0]["function"]
                args = legal_answer(fn["parameters"], text, self.rng)  # narrowed by the question's fields line, if any
                content = json.dumps(args)
                msg = AIMessage(content="", tool_calls=[{"name": fn["name"], "args": args, "id": f"call_{len(self.prompts)}"}])
            else:
                content = text_mode_answer(text, self.rng)
                msg = AIMessage(content=content)
            msg.usage_metadata = {
                "input_tokens": prompt_tokens,
                "output_tokens": tokens(content),
                "total_tokens": prompt_tokens + tokens(content),
                "input_token_details": {"cache_read": min(cached, prompt_tokens)},
            }
            return ChatResult(generations=[ChatGeneration(message=msg)])

    model = SchemaFakeChatModel(rng=random.Random(seed), script=list(script or []))
    if not structured:
        # Same model without tool binding: with_structured_output is then unavailable.
        class TextOnly(type(model)):  # type: ignore[misc]
            bind_tools = BaseChatModel.bind_tools

        model = TextOnly(rng=random.Random(seed), script=list(script or []))
    return model


# ---------------------------------------------------------------------- test wiring
FAKE_OPENAI_KEY = "sk-test-OPENAI-3f9c2a7e5d1b4c8a"
# Built in two parts so that no committed line looks like a real key to secret scanners.
FAKE_ANTHROPIC_KEY = "sk-ant-" + "test-ANTHROPIC-8d2e4f6a1c3b5e7d"
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]

# Tiny waits and limits: the stand-ins answer at once, retries must not sleep long.
FAST: dict[str, Any] = {"retry_initial": 0.001, "retry_max_wait": 0.01, "retry_total": 5.0, "timeout": 5.0, "decision_timeout": 10.0}


class SleepRecorder:
    """A tenacity ``sleep`` that records the waits instead of waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def model_seat(spec: str, decision: Any, log: Any, sleep: Any = None, **options: Any):
    """A model seat (``openai:MODEL``, ``anthropic:MODEL``) for ``decision``'s seat, with
    the fast settings and a ``sleep`` that records its waits instead of waiting."""
    from agents.llm import make_llm_agent

    return make_llm_agent(spec, decision.seat, log=log, sleep=sleep or SleepRecorder(), **{**FAST, **options})


async def model_game(spec: str, seed: int, log: Any = None, *, seat_seeds: bool = False, **options: Any) -> Any:
    """A game of the eight ``NAMES``, every seat a ``spec`` model seat with the fast
    settings and ``options`` (seat i seeded i with ``seat_seeds``), played to its end
    and returned."""
    from agents.llm import make_llm_agent
    from arena.runner import run_async
    from engine import Game, GameSetup

    game = Game(GameSetup(names=list(NAMES), seed=seed))
    agents = {n: make_llm_agent(spec, n, seed=i if seat_seeds else 0, log=log, **(FAST | options)) for i, n in enumerate(NAMES)}
    await run_async(game, agents)
    return game


def assert_every_asked_seat_recorded(game: Any, log: Any) -> None:
    """The game is over and every seat it asked has call records, and no other seat."""
    assert game.over
    assert {r.seat for r in log.records} == {seat for _, seat, _, _ in game.answer_log}


async def ask(agent: Any, game: Any, decision: Any) -> Any:
    """``decision`` put to ``agent`` as its seat sees the game now."""
    from arena.runner import view_for

    return await agent.adecide(view_for(game, decision.seat), decision)


def reset_llm_state() -> None:
    """Process-wide state the tests must not leak into each other."""
    from agents.llm.backends import prefix, slots
    from agents.llm.backends.base import forget_learned_modes
    from agents.llm.limits import configure

    forget_learned_modes()
    slots.forget()
    prefix.forget()
    configure(global_limit=32, per_model={}, default_per_model=8)


def set_fake_keys(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_ANTHROPIC_KEY)
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)


def game_at(
    kind: str,
    *,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    after_death: bool = False,
    seat_role: str | None = None,
    roles: list[str] | None = None,
    when: Callable[[Any], bool] | None = None,
):
    """A game played by heuristic bots up to the first pending ``kind`` decision
    (after the first death, if asked; for a seat holding ``seat_role``; with ``roles``
    as the deck; when ``when(decision)`` holds).
    Returns ``(game, decision)`` with the decision still unanswered."""
    from agents.heuristic import HeuristicAgent
    from arena.runner import view_for
    from engine import Game, GameSetup, get_preset

    opts = get_preset("millers_hollow").options({"sheriff": False, **(options or {})})
    game = Game(GameSetup(names=list(NAMES), seed=seed, options=opts, roles=roles))
    bots = {n: HeuristicAgent(n, seed=i) for i, n in enumerate(NAMES)}
    while not game.over:
        for d in game.waiting:
            dead = any(not p.alive for p in game.players)
            right_seat = seat_role is None or game.by_name[d.seat].role == seat_role
            if d.kind == kind and right_seat and (dead or not after_death) and (when is None or when(d)):
                return game, d
            game.submit(d.id, bots[d.seat].decide(view_for(game, d.seat), d))
    raise AssertionError(f"no {kind} decision in game seed {seed}")

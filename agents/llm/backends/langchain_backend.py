"""Any LangChain chat model (``langchain_core`` ``BaseChatModel``), passed from Python.

This is the door to every provider LangChain integrates without this project knowing
them. The answer is requested with ``with_structured_output`` where the model
implements tool binding, else as text with the schema spelt out and read by the
tolerant parser. Each model instance learns its own format: two instances of one
class may be configured differently.

LangChain integrations run their own retry loops, which this layer cannot switch
off in general; set ``max_retries=0`` on the model to let this layer count retries.

Prompt layout (``agents.llm.vendor_cache``): a hosted provider renders the bound
tool before the messages and caches that prefix, so the cache layout (one schema for
the game) is the default; a model of one's own (Ollama, llama.cpp, a base URL on
this machine or a private network) keeps each decision's schema, which it enforces
as a grammar. ``ChatAnthropic`` gets the ``cache_control`` breakpoints in the content
blocks, which it passes on.

Connections: an integration built on the ``openai`` SDK (``ChatOpenAI`` and those
derived from it) is given, by default, an async HTTP client langchain-openai caches
per base URL and timeout for the whole process (``_get_default_async_httpx_client``,
an ``lru_cache``), and its pooled connections belong to the event loop of their first
request. A second loop in the same process (the next game of a tournament, the game
after the check made before it in its own loop) reused them and got "Event loop is
closed" on its calls. So such a model asks through a copy of itself holding an HTTP
client of its own for each event loop (``_model_here``), closed in that loop by
``aclose``; a client the user gave the model (``http_async_client``) is left as given.

Streaming (a speech's words shown as they are written, ``agents.llm.streaming``): the
request stays the one ``ainvoke`` sends, and is run with ``astream_events``, which
makes LangChain call the chat model's streaming API under it wherever the model
implements one (``_astream``/``_stream``) and hands out each ``AIMessageChunk`` as it
arrives (https://reference.langchain.com/python/langchain-core/language_models/chat_models/BaseChatModel/astream_events):
the message text, or the pieces of the tool call's arguments, so far, are read by the
same partial-JSON reader as every other back end's. Under ``with_structured_output``
the answer is the runnable's own output (its ``raw`` message and ``parsed`` object),
exactly as unstreamed. ``astream`` on the structured runnable would not do: its parser
waits for the whole message, so it yields one chunk. A model that implements no
streaming, or has it switched off (``disable_streaming=True``, ``streaming=False``),
is asked unstreamed and the viewers are told why.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from types import TracebackType
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from agents.llm.backends.base import (
    CUT_REASONS,
    DISABLING_STATUS,
    PING,
    Backend,
    CallFailed,
    CutAnswer,
    Listener,
    ModeRejected,
    Prompt,
    Reply,
    Transient,
    Turn,
    Usage,
    breakpoint_blocks,
    correction_text,
    local_url,
    question_text,
    retry_after,
    safe_url,
    transient_status,
)
from agents.llm.config import LLMOptions
from agents.llm.limits import Limits

_TRANSIENT_NAMES = ("RateLimit", "Timeout", "Connection", "Overloaded", "ServiceUnavailable", "InternalServer")
# How an answer that did not arrive whole surfaces through LangChain (``CutAnswer``):
# langchain-core's words for a stream that ended before its first chunk
# (``generate_from_stream``), and the modules whose stream accumulators assert that a
# chunk came before the final answer is asked for (the ``openai`` SDK's, under
# ``with_structured_output`` on a streaming ``ChatOpenAI``).
EMPTY_STREAM = "No generations found in stream."
STREAM_ACCUMULATORS = ("openai.lib.streaming",)
# The ``openai`` SDK's error for a structured reply stopped at the completion budget.
CUT_ERROR = "LengthFinishReasonError"
# Providers whose LangChain messages always say why the answer ended, streamed or not
# (``response_metadata``): a message without it is a stream cut before its last chunk
# (OpenAI sends ``finish_reason`` on a stream's last choice chunk,
# https://developers.openai.com/api/reference/resources/chat/subresources/completions/streaming-events).
FINISH_KEYS = {"openai": "finish_reason"}
# Models of one's own, which enforce a schema as a grammar: their integrations' modules
# and classes, and the fields where a model keeps its server's URL.
LOCAL_MODULES = ("langchain_ollama", "langchain_community.chat_models.llamacpp", "langchain_community.chat_models.ollama")
LOCAL_CLASSES = frozenset({"ChatOllama", "ChatLlamaCpp", "ChatMLX"})
_URL_FIELDS = ("base_url", "openai_api_base", "api_base", "anthropic_api_url", "endpoint_url")


def model_name(chat_model: Any) -> str:
    for attr in ("model_name", "model", "model_id", "deployment_name"):
        v = getattr(chat_model, attr, None)
        if isinstance(v, str) and v:
            return v
    return type(chat_model).__name__


class LangChainBackend(Backend):
    name = "langchain"
    modes = ("tool", "text")
    streams = True  # where the chat model implements streaming (``stream_refusal``)

    def __init__(self, chat_model: Any, options: LLMOptions | None = None, *, model: str | None = None, limits: Limits | None = None, sleep=None):
        if not isinstance(chat_model, BaseChatModel):
            raise TypeError(f"a LangChain back end needs a BaseChatModel, got {type(chat_model).__name__}")
        super().__init__(model or model_name(chat_model), options, limits=limits, sleep=sleep)
        self.chat_model = chat_model
        # The model as asked in each event loop, with the HTTP client it opened there.
        self._here: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Any, Any]] = weakref.WeakKeyDictionary()

    @property
    def endpoint(self) -> str:
        return f"{type(self.chat_model).__qualname__}@{id(self.chat_model):x}"

    @property
    def _module(self) -> str:
        return type(self.chat_model).__module__

    def default_layout(self) -> str:
        local = self._module.startswith(LOCAL_MODULES) or type(self.chat_model).__name__ in LOCAL_CLASSES
        url = next((getattr(self.chat_model, a, None) for a in _URL_FIELDS if isinstance(getattr(self.chat_model, a, None), str)), None)
        return "grammar" if local or local_url(url) else "cache"

    # ------------------------------------------------------------------ request
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        question = question_text(prompt, mode)
        if self._module.startswith("langchain_anthropic") and self.layout() == "cache":
            system, content = breakpoint_blocks(prompt, question)
            messages: list[Any] = [SystemMessage(content=system), HumanMessage(content=content)]
        else:
            content: list[Any] = []
            if prompt.history:
                content.append({"type": "text", "text": prompt.history})
            content.append({"type": "text", "text": question})
            messages = [SystemMessage(content=prompt.system), HumanMessage(content=content)]
        for turn in turns:
            # Replayed as plain text whatever the format: an AI message carrying tool
            # calls would need the matching tool message on every provider.
            messages.append(AIMessage(content=turn.said))
            messages.append(HumanMessage(content=correction_text(turn.reason, prompt.language)))
        return {"messages": messages, "schema": prompt.schema, "name": prompt.name, "description": prompt.description}

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"role": m.type, "content": m.content} for m in request["messages"]]

    # ------------------------------------------------------------------ connections
    def _model_here(self) -> Any:
        """The chat model to ask in the running event loop: a copy with an HTTP client of
        its own for a model whose async client is the ``openai`` SDK's on
        langchain-openai's process-wide HTTP client (see the module's docstring); the
        model itself otherwise."""
        sdk = getattr(self.chat_model, "root_async_client", None)
        if sdk is None or getattr(self.chat_model, "http_async_client", None) is not None or not type(sdk).__module__.startswith("openai"):
            return self.chat_model
        loop = asyncio.get_running_loop()
        here = self._here.get(loop)
        if here is None:
            import openai  # the SDK of the model's own client: installed with its integration

            http = openai.DefaultAsyncHttpxClient()
            client = sdk.copy(http_client=http)
            model = self.chat_model.model_copy(update={"root_async_client": client, "async_client": client.chat.completions})
            here = self._here[loop] = (model, http)
        return here[0]

    async def aclose(self) -> None:
        """Close the HTTP client opened in the running loop; forget those of loops that
        are closed (their connections went with them)."""
        loop = asyncio.get_running_loop()
        here = self._here.pop(loop, None)
        for gone in [lp for lp in self._here if lp.is_closed()]:
            del self._here[gone]
        if here is not None:
            try:
                await here[1].aclose()
            except Exception:  # closing must never be what fails a game
                pass

    @property
    def open(self) -> bool:
        return bool(self._here)

    # ------------------------------------------------------------------ the preflight
    @property
    def address(self) -> str:
        """The server the chat model is configured with, else its class."""
        url = next((getattr(self.chat_model, a) for a in _URL_FIELDS if isinstance(getattr(self.chat_model, a, None), str)), None)
        return safe_url(url) if url else type(self.chat_model).__qualname__

    async def ping(self) -> None:
        """One short plain-text call through the chat model (``ainvoke``): LangChain has
        no model lookup common to its integrations, nor one way to cap the reply at a
        token (the limit's name differs by integration), so the prompt asks for one
        word. Errors are sorted as a decision's call sorts them (``send``)."""
        request = {"messages": [HumanMessage(content=PING)], "schema": {}, "name": "ping", "description": ""}
        limit = self.options.call_timeout(self.layout())
        try:
            await asyncio.wait_for(self.send(request, "text"), timeout=limit)
        except TimeoutError:
            raise Transient(f"no answer within {limit:g} s") from None

    # ------------------------------------------------------------------ streaming
    def stream_refusal(self) -> str | None:
        """Why this chat model's replies cannot stream (``None``: they can)."""
        cls, m = type(self.chat_model), self.chat_model
        name = cls.__name__
        if cls._astream is BaseChatModel._astream and cls._stream is BaseChatModel._stream:
            return f"the LangChain model {name} implements no streaming"
        if m.disable_streaming is True or ("streaming" in m.model_fields_set and getattr(m, "streaming", None) is False):
            return f"streaming is switched off on the LangChain model {name}"
        return None

    async def send_stream(self, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        return await self.send(request, mode, listener)

    # ------------------------------------------------------------------ response
    async def send(self, request: dict[str, Any], mode: str, listener: Listener | None = None) -> Reply:
        schema = {"title": request["name"], "description": request["description"], **request["schema"]}
        model = self._model_here()
        try:
            if mode == "tool":
                try:
                    runnable = model.with_structured_output(schema, include_raw=True)
                except NotImplementedError as e:
                    raise ModeRejected(f"{type(self.chat_model).__name__} has no structured output: {e}") from None
                out = await (_streamed(runnable, request["messages"], listener) if listener else runnable.ainvoke(request["messages"]))
                raw, parsed = out.get("raw"), out.get("parsed")
                return _reply(raw, parsed if isinstance(parsed, dict) else None, mode)
            msg = await (_streamed(model, request["messages"], listener) if listener else model.ainvoke(request["messages"]))
            return _reply(msg, None, mode)
        except (ModeRejected, Transient, CallFailed):
            raise
        except NotImplementedError as e:
            raise ModeRejected(str(e) or "not implemented") from None
        except Exception as e:  # any provider's errors: classify by shape, not by class
            if type(e).__name__ == CUT_ERROR:
                return _cut_reply(e, mode)
            cut = cut_answer(e)
            if cut is not None:
                raise CutAnswer(cut) from None
            status = getattr(e, "status_code", None) or getattr(getattr(e, "response", None), "status_code", None)
            transient = isinstance(e, (TimeoutError, ConnectionError)) or any(n in type(e).__name__ for n in _TRANSIENT_NAMES)
            if transient or transient_status(status):
                headers = getattr(getattr(e, "response", None), "headers", None)
                raise Transient(f"{type(e).__name__}: {e}", retry_after(headers)) from None
            raise CallFailed(f"{type(e).__name__}: {e}", disable=status in DISABLING_STATUS) from None


async def _streamed(runnable: Any, messages: list[Any], listener: Listener) -> Any:
    """``runnable.ainvoke(messages)``, run with ``astream_events`` so that the chat model
    under it streams: each chunk's text (or tool-call arguments) is added to the reply
    so far, given to ``listener``; the runnable's own output is returned."""
    text: list[str] = []
    args: list[str] = []
    output: Any = None
    async for event in runnable.astream_events(messages, version="v2"):
        kind = event["event"]
        if kind == "on_chat_model_stream":
            chunk = event["data"].get("chunk")
            piece = _text(chunk)
            if piece:
                text.append(piece)
                listener.raw("".join(text))
            for call in getattr(chunk, "tool_call_chunks", None) or []:
                if call.get("index") in (None, 0) and call.get("args"):
                    args.append(call["args"])
                    listener.raw("".join(args))
        elif kind in ("on_chain_end", "on_chat_model_end") and not event.get("parent_ids"):
            output = event["data"].get("output")  # the runnable's own (the root's) output
    if output is None:
        raise CutAnswer("the stream ended before the answer was whole")
    return output


def _cut_reply(e: BaseException, mode: str) -> Reply:
    """The reply the ``openai`` SDK refused to parse because the model was stopped at
    its budget (``LengthFinishReasonError``, raised under ``with_structured_output``'s
    JSON schema): a cut reply, re-asked as any cut reply is, never a failed call."""
    completion = getattr(e, "completion", None)
    choices = getattr(completion, "choices", None) or []
    text = getattr(getattr(choices[0], "message", None), "content", None) if choices else None
    u = getattr(completion, "usage", None)
    usage = Usage(input_tokens=getattr(u, "prompt_tokens", None), output_tokens=getattr(u, "completion_tokens", None))
    return Reply(text=text or "", data=None, mode=mode, usage=usage, cut=True)


def cut_answer(e: BaseException) -> str | None:
    """What was lost, when ``e`` says the answer did not arrive whole (a body the
    provider's SDK could not decode, a stream with no chunk); ``None`` otherwise."""
    if isinstance(e, json.JSONDecodeError):  # requests' own JSONDecodeError is one too
        return f"the body is not whole JSON ({e})"
    if isinstance(e, ValueError) and str(e) == EMPTY_STREAM:
        return "the stream ended before its first chunk"
    if isinstance(e, AssertionError) and _raised_in(e.__traceback__, STREAM_ACCUMULATORS):
        return "the stream ended before its first chunk"
    return None


def _raised_in(tb: TracebackType | None, modules: tuple[str, ...]) -> bool:
    """Whether the innermost frame of ``tb`` is in one of ``modules`` (or below them)."""
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    name = str(tb.tb_frame.f_globals.get("__name__", ""))
    return any(name == m or name.startswith(m + ".") for m in modules)


def _reply(msg: Any, parsed: dict[str, Any] | None, mode: str) -> Reply:
    meta = getattr(msg, "response_metadata", None) or {}
    finish = FINISH_KEYS.get(meta.get("model_provider", ""))
    if finish is not None and meta.get(finish) is None:
        raise CutAnswer(f"the stream ended before its last chunk (no {finish})")
    usage = Usage()
    counted = getattr(msg, "usage_metadata", None)
    if counted:
        details = counted.get("input_token_details") or {}
        done = counted.get("output_token_details") or {}
        usage = Usage(
            input_tokens=counted.get("input_tokens"),
            output_tokens=counted.get("output_tokens"),  # reasoning included, as LangChain counts it
            cached_tokens=details.get("cache_read"),
            cache_write_tokens=details.get("cache_creation"),
            reasoning_tokens=done.get("reasoning"),
        )
    text = _text(msg)
    calls = getattr(msg, "tool_calls", None) or []
    if calls and isinstance(calls[0].get("args"), dict):
        # The tool call's arguments are the reply; any prose beside them is not.
        text = json.dumps(calls[0]["args"], ensure_ascii=False)
        if parsed is None:
            parsed = calls[0]["args"]
    elif parsed is not None and not text:
        text = json.dumps(parsed, ensure_ascii=False)
    cut = meta.get("finish_reason") in CUT_REASONS or meta.get("stop_reason") in CUT_REASONS
    return Reply(text=text, data=parsed, mode=mode, usage=usage, cut=cut)


def _text(msg: Any) -> str:
    if msg is None:
        return ""
    content = getattr(msg, "content", msg)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(c.get("text", "") if isinstance(c, dict) else str(c) for c in content)
    return str(content)

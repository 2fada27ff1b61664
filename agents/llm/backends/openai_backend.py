"""OpenAI Chat Completions through the ``openai`` SDK, and so every OpenAI-compatible
server (vLLM, Ollama, llama.cpp, routers) through a base URL.

Answer formats, best first: ``response_format`` JSON schema (strict), forced tool
calling, plain text with the schema spelt out. Compatible servers differ in which of
these they accept; a 400 on one moves to the next (see ``backends.base``).

The request is laid out for prefix caching: OpenAI renders the tools and the
response schema before the messages, so in the cache layout (the default on
api.openai.com) both are the game's, identical in every call; the system message
never changes during a game and the user message starts with the seat's append-only
history, so every call of a seat shares the longest possible prefix with its
previous call; ``prompt_cache_key`` (a digest of the seat's system text) routes the
seat's calls to the machine holding that prefix. See ``agents.llm.vendor_cache``.

Reasoning models: ``reasoning_effort`` is passed through, and the completion limit
(``max_completion_tokens`` on OpenAI, which counts the hidden reasoning) is the
answer's ``max_tokens`` plus the reasoning budget; reasoning tokens are read from
``completion_tokens_details``. ``extra_body`` reaches the server as raw fields.

On a llama.cpp server each seat's requests name the seat's own slot, so its prompt
cache holds the seat's history and not another seat's (``backends.slots``), and the
answer's schema goes as a grammar that allows no whitespace outside strings
(``backends.gbnf``): llama.cpp's own conversion lets a small model spend a quarter of
its tokens on indentation. The rules every seat reads are evaluated once and copied
into each seat's slot before its first request (``backends.prefix``).
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import openai

import agents.llm.backends.gbnf as gbnf
import agents.llm.backends.prefix as prefix
import agents.llm.backends.slots as slots
from agents.llm.backends.base import (
    CUT_REASONS,
    PING,
    CallResult,
    CutAnswer,
    Listener,
    Prompt,
    Reply,
    Turn,
    Usage,
    correction_text,
    user_content,
)
from agents.llm.backends.sdk import SDKBackend
import transcripts.bounded as bounded

OPENAI_HOSTS = ("api.openai.com",)

log = logging.getLogger(__name__)


class OpenAIBackend(SDKBackend):
    name = "openai"
    modes = ("json_schema", "tool", "text")
    streams = True
    sdk = openai
    sdk_error = openai.OpenAIError

    def make_client(self, api_key: str | None, base_url: str | None, key_env: str) -> openai.AsyncOpenAI:
        try:
            return openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=self.options.call_timeout())
        except openai.OpenAIError:
            hint = " (any value will do for a local server that does not check keys)" if base_url else ""
            raise self.missing_key(key_env, hint) from None

    async def create(self, client: openai.AsyncOpenAI, request: dict[str, Any]) -> Any:
        return await client.chat.completions.create(**request)

    def reply(self, response: Any, mode: str) -> Reply:
        return _reply(response, mode)

    async def stream(self, client: openai.AsyncOpenAI, request: dict[str, Any], mode: str, listener: Listener) -> Reply:
        """Chat Completions with ``stream: true``: server-sent ``chat.completion.chunk``
        objects, each choice's ``delta`` holding the next piece of ``content`` or of a
        tool call's ``arguments``, ``finish_reason`` on the choice's last chunk, and,
        with ``stream_options.include_usage``, a last chunk with no choice carrying the
        ``usage`` (https://platform.openai.com/docs/api-reference/chat-streaming,
        https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options).
        The pieces are joined into the completion ``_reply`` reads; a stream without a
        finish reason, or with nothing in it (no piece, no usage), was cut on the way."""
        content: list[str] = []
        refusal: list[str] = []
        args: list[str] = []
        call: dict[str, str] = {}
        finish: str | None = None
        usage: Any = None
        stream = await self.create(client, {**request, "stream": True, "stream_options": {"include_usage": True}})
        async for chunk in stream:
            usage = getattr(chunk, "usage", None) or usage
            for choice in getattr(chunk, "choices", None) or []:
                if choice.index != 0:
                    continue
                delta = choice.delta
                if delta is not None and delta.content:
                    content.append(delta.content)
                    listener.raw("".join(content))
                if delta is not None and getattr(delta, "refusal", None):
                    refusal.append(delta.refusal)
                for piece in (delta.tool_calls if delta is not None else None) or []:
                    if piece.index != 0:
                        continue
                    if piece.id:
                        call["id"] = piece.id
                    fn = piece.function
                    if fn is not None and fn.name:
                        call["name"] = fn.name
                    if fn is not None and fn.arguments:
                        args.append(fn.arguments)
                        listener.raw("".join(args))
                finish = choice.finish_reason or finish
        if finish is None:
            raise CutAnswer("the stream ended before its last chunk (no finish_reason)")
        if not (content or refusal or args or call or usage):
            # Nothing arrived, not even the usage asked for: LiteLLM ends a stream
            # that had no event with a made-up ``finish_reason: "stop"`` chunk.
            raise CutAnswer("the stream ended before its first chunk")
        calls = [SimpleNamespace(id=call.get("id", ""), function=SimpleNamespace(name=call.get("name", ""), arguments="".join(args)))] if call else []
        message = SimpleNamespace(content="".join(content) or None, refusal="".join(refusal) or None, tool_calls=calls)
        return _reply(SimpleNamespace(usage=usage, choices=[SimpleNamespace(message=message, finish_reason=finish)]), mode)

    @property
    def _is_openai(self) -> bool:
        return urlsplit(self.endpoint).hostname in OPENAI_HOSTS

    def default_layout(self) -> str:
        return "cache" if self._is_openai else "grammar"

    # ------------------------------------------------------------------ slots
    async def call(self, prompt: Prompt, turns: list[Turn], listener: Listener | None = None) -> CallResult:
        if self.layout() == "grammar" and not self._is_openai:
            if not slots.known(self.endpoint):
                await slots.learn(self.endpoint, self._slot_count)
            slot = slots.slot_for(self.endpoint, prompt.seat)
            if slot is not None and len(prompt.system_parts) > 1:
                shared = prompt.system_parts[0]
                name = prefix.filename(self.model, shared)
                await prefix.share(self.endpoint, slot, name, self._slot_action, lambda at: self._prime(at, shared))
        return await super().call(prompt, turns, listener)

    async def _slot_count(self) -> int | None:
        """The server's slots (llama.cpp's ``/props``), asked once per endpoint with the
        seat's own client and credentials; any failure means no slots."""
        client = self.client()
        try:
            props = await client.get(slots.props_url(str(client.base_url)), cast_to=object, options={"timeout": slots.PROBE_TIMEOUT})
            return slots.slot_count(props)
        except Exception:  # a server without /props, or one that is down: no pinning
            return None

    async def _slot_action(self, slot: int, action: str, name: str) -> int:
        """llama.cpp's ``/slots/{id}?action=save|restore``: the HTTP status (0: none)."""
        client = self.client()
        try:
            await client.post(prefix.slot_url(str(client.base_url), slot, action), body={"filename": name}, cast_to=object, options={"timeout": prefix.ACTION_TIMEOUT})
        except openai.APIStatusError as e:
            return e.status_code
        except Exception as e:  # down, timed out: the seats go on without the file
            log.info("%s: slot %d %s: %s", self.endpoint, slot, action, e)
            return 0
        return 200

    async def _prime(self, slot: int, shared: str) -> bool:
        """The server evaluates the shared text alone in ``slot``: a one-token completion
        of a conversation holding only it (the token is thrown away)."""
        try:
            await self.client().chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": shared}],
                max_tokens=1,
                extra_body={"id_slot": slot},
                timeout=self.options.call_timeout(self.layout()),
            )
        except Exception as e:  # the seats go on without the file
            log.info("%s: evaluating the shared rules failed: %s", self.endpoint, e)
            return False
        return True

    # ------------------------------------------------------------------ request
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        text = user_content(prompt, mode)
        messages: list[dict[str, Any]] = [{"role": "system", "content": prompt.system}, {"role": "user", "content": text}]
        for turn in turns:
            messages += self._replay(turn, mode, prompt.language)
        req: dict[str, Any] = {"model": self.model, "messages": messages}
        extra = dict(self.options.extra_body or {})
        if mode == "json_schema" and "grammar" not in extra:  # a caller's own grammar is the format
            compact = self._compact_grammar(prompt)
            if compact is not None:
                extra["grammar"] = compact
            else:
                req["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": prompt.name, "description": prompt.description, "schema": prompt.schema, "strict": True},
                }
        elif mode == "tool":
            req["tools"] = [
                {"type": "function", "function": {"name": prompt.name, "description": prompt.description, "parameters": prompt.schema}}
            ]
            req["tool_choice"] = {"type": "function", "function": {"name": prompt.name}}
        o = self.options
        if o.temperature is not None:
            req["temperature"] = o.temperature
        # OpenAI's newer models refuse ``max_tokens``; most compatible servers only
        # know ``max_tokens``.
        req["max_completion_tokens" if self._is_openai else "max_tokens"] = o.completion_budget(prompt.max_tokens)
        if o.reasoning_effort is not None:
            req["reasoning_effort"] = o.reasoning_effort
        if prompt.cache_key and self.layout() == "cache":
            req["prompt_cache_key"] = prompt.cache_key
        slot = slots.slot_for(self.endpoint, prompt.seat) if self.layout() == "grammar" else None
        if slot is not None and "id_slot" not in extra:
            extra["id_slot"] = slot
        if extra:
            req["extra_body"] = extra
        return req

    def _compact_grammar(self, prompt: Prompt) -> str | None:
        """The schema as a grammar without free whitespace, for a llama.cpp server in
        the grammar layout (``backends.gbnf``), which then takes it instead of the
        ``response_format`` it would turn into a looser grammar itself. None: send the
        schema (another server or layout, or a schema the converter does not write)."""
        if self.layout() != "grammar" or not slots.llama_cpp(self.endpoint):
            return None
        try:
            return gbnf.grammar(prompt.schema)
        except gbnf.Unsupported as e:
            log.info("%s: schema sent as is (%s)", prompt.name, e)
            return None

    def _replay(self, turn: Turn, mode: str, language: str) -> list[dict[str, Any]]:
        """A refused reply and its correction, in the form the protocol expects: a tool
        call is answered by a tool message, anything else by a user message."""
        fix = correction_text(turn.reason, language)
        call = turn.reply.native if mode == "tool" else None
        if call:
            return [
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": call["id"], "content": fix},
            ]
        return [{"role": "assistant", "content": turn.said}, {"role": "user", "content": fix}]

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return list(request["messages"])

    def ping_request(self) -> dict[str, Any]:
        """A one-token Chat Completions request (``POST /v1/chat/completions``): what
        every compatible server answers, where a model lookup proved nothing. The
        completion limit goes under the name the server knows (see ``build``)."""
        limit = "max_completion_tokens" if self._is_openai else "max_tokens"
        return {"model": self.model, "messages": [{"role": "user", "content": PING}], limit: 1}


def _reply(resp: Any, mode: str) -> Reply:
    usage = Usage()
    u = getattr(resp, "usage", None)
    if u is not None:
        details = getattr(u, "prompt_tokens_details", None)
        done = getattr(u, "completion_tokens_details", None)
        usage = Usage(
            input_tokens=getattr(u, "prompt_tokens", None),
            output_tokens=getattr(u, "completion_tokens", None),  # reasoning included, billed as output
            cached_tokens=getattr(details, "cached_tokens", None) if details is not None else None,
            reasoning_tokens=getattr(done, "reasoning_tokens", None) if done is not None else None,
        )
    choices = getattr(resp, "choices", None) or []
    if not choices:
        # A chat completion always holds its choice (``n`` is 1), even an empty or
        # refused answer: a body without one is not the model's answer but a proxy's
        # or a server's fault (a 200 carrying an error object, JSON that was not a
        # completion).
        raise CutAnswer("no choice in the completion")
    msg = choices[0].message
    cut = getattr(choices[0], "finish_reason", None) in CUT_REASONS
    calls = getattr(msg, "tool_calls", None) or []
    if calls:
        fn = calls[0].function
        args = fn.arguments or ""
        native = {"id": calls[0].id, "type": "function", "function": {"name": fn.name, "arguments": args}}
        return Reply(text=args, data=_object(args), mode=mode, usage=usage, native=native, cut=cut)
    text = msg.content or getattr(msg, "refusal", None) or ""
    data = _object(text) if mode == "json_schema" else None
    return Reply(text=text, data=data, mode=mode, usage=usage, cut=cut)


def _object(text: str) -> dict[str, Any] | None:
    """The reply's JSON object, read within the bounds of any input (``transcripts.bounded``);
    ``None`` otherwise (the tolerant reader then reads the text)."""
    try:
        value = bounded.loads_json(text)
    except (bounded.InputError, TypeError):
        return None
    return value if isinstance(value, dict) else None

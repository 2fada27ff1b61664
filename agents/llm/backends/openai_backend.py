"""OpenAI Chat Completions through the ``openai`` SDK, and so every OpenAI-compatible
server (vLLM, Ollama, llama.cpp, routers) through a base URL.

Answer formats, best first: ``response_format`` JSON schema (strict), forced tool
calling, plain text with the schema spelt out. Compatible servers differ in which of
these they accept; a 400 on one moves to the next (see ``backends.base``).

The request is laid out for prefix caching: the system message never changes during
a game and the user message starts with the seat's append-only history, so every
call of a seat shares the longest possible prefix with its previous call.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from agents.llm.backends.base import (
    Backend,
    CallFailed,
    MissingKey,
    ModeRejected,
    Prompt,
    Reply,
    Transient,
    Turn,
    Usage,
    correction_text,
    retry_after,
    schema_instructions,
    user_content,
)
from agents.llm.config import DEFAULT_BASE_URL_ENV, DEFAULT_KEY_ENV, LLMOptions
from arena.limits import Limits

TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
OPENAI_HOSTS = ("api.openai.com",)


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


class OpenAIBackend(Backend):
    name = "openai"
    modes = ("json_schema", "tool", "text")

    def __init__(
        self,
        model: str,
        options: LLMOptions | None = None,
        *,
        limits: Limits | None = None,
        sleep=None,
        api_key: str | None = None,
        client: openai.AsyncOpenAI | None = None,
    ):
        super().__init__(model, options, limits=limits, sleep=sleep)
        self._api_key = api_key
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, openai.AsyncOpenAI] = weakref.WeakKeyDictionary()
        # Built now, not at the first call: a missing key must stop the game before
        # it starts, with a message, not fail every decision of one seat.
        self._spare: openai.AsyncOpenAI | None = client or self._new_client()

    # ------------------------------------------------------------------ client
    def _new_client(self) -> openai.AsyncOpenAI:
        o = self.options
        key_env = o.api_key_env or DEFAULT_KEY_ENV["openai"]
        api_key = self._api_key
        if api_key is None and o.api_key_env:
            api_key = os.environ.get(o.api_key_env)
            if not api_key:
                raise MissingKey(f"openai:{self.model} needs an API key: set {o.api_key_env}")
        base_url = o.base_url or os.environ.get(DEFAULT_BASE_URL_ENV["openai"]) or None
        try:
            return openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=o.timeout)
        except openai.OpenAIError:
            hint = " (any value will do for a local server that does not check keys)" if base_url else ""
            raise MissingKey(f"openai:{self.model} needs an API key: set {key_env}{hint}") from None

    def client(self) -> openai.AsyncOpenAI:
        """The client for the running event loop: connections are bound to the loop
        that opened them, so each loop gets its own client."""
        loop = asyncio.get_running_loop()
        c = self._clients.get(loop)
        if c is None:
            c = self._spare if self._spare is not None else self._new_client()
            self._spare = None
            self._clients[loop] = c
        return c

    @property
    def endpoint(self) -> str:
        c = self._spare or next(iter(self._clients.values()), None)
        return safe_url(str(c.base_url)) if c is not None else ""

    @property
    def _is_openai(self) -> bool:
        return urlsplit(self.endpoint).hostname in OPENAI_HOSTS

    @property
    def open(self) -> bool:
        return bool(self._clients)

    async def aclose(self) -> None:
        for c in list(self._clients.values()):
            try:
                await c.close()
            except Exception:  # closing must never be what fails a game
                pass
        self._clients.clear()

    # ------------------------------------------------------------------ request
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        text = user_content(prompt)
        if mode == "text":
            text += schema_instructions(prompt)
        messages: list[dict[str, Any]] = [{"role": "system", "content": prompt.system}, {"role": "user", "content": text}]
        for turn in turns:
            messages += self._replay(turn, mode, prompt.language)
        req: dict[str, Any] = {"model": self.model, "messages": messages}
        if mode == "json_schema":
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
        req["max_completion_tokens" if self._is_openai else "max_tokens"] = o.max_tokens
        return req

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
        return [{"role": "assistant", "content": turn.reply.text or "(no answer)"}, {"role": "user", "content": fix}]

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return list(request["messages"])

    # ------------------------------------------------------------------ response
    async def send(self, request: dict[str, Any], mode: str) -> Reply:
        try:
            resp = await self.client().chat.completions.create(**request)
        except openai.APITimeoutError as e:
            raise Transient(f"timeout: {e}") from None
        except openai.APIConnectionError as e:
            raise Transient(f"connection error: {e}") from None
        except openai.APIStatusError as e:
            status = e.status_code
            if status in TRANSIENT_STATUS or status >= 500:
                raise Transient(f"HTTP {status}: {_message(e)}", retry_after(e.response.headers)) from None
            if status in (400, 422) and mode != "text":
                raise ModeRejected(f"HTTP {status}: {_message(e)}") from None
            raise CallFailed(f"HTTP {status}: {_message(e)}", disable=status in (401, 403, 404)) from None
        except openai.OpenAIError as e:
            raise CallFailed(f"{type(e).__name__}: {e}") from None
        return _reply(resp, mode)


def _message(e: openai.APIStatusError) -> str:
    body = e.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return e.message


def _reply(resp: Any, mode: str) -> Reply:
    usage = Usage()
    u = getattr(resp, "usage", None)
    if u is not None:
        details = getattr(u, "prompt_tokens_details", None)
        usage = Usage(
            input_tokens=getattr(u, "prompt_tokens", None),
            output_tokens=getattr(u, "completion_tokens", None),
            cached_tokens=getattr(details, "cached_tokens", None) if details is not None else None,
        )
    choices = getattr(resp, "choices", None) or []
    if not choices:
        return Reply(text="", data=None, mode=mode, usage=usage)
    msg = choices[0].message
    calls = getattr(msg, "tool_calls", None) or []
    if calls:
        fn = calls[0].function
        args = fn.arguments or ""
        native = {"id": calls[0].id, "type": "function", "function": {"name": fn.name, "arguments": args}}
        return Reply(text=args, data=_object(args), mode=mode, usage=usage, native=native)
    text = msg.content or getattr(msg, "refusal", None) or ""
    data = _object(text) if mode == "json_schema" else None
    return Reply(text=text, data=data, mode=mode, usage=usage)


def _object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None

"""Anthropic Messages through the ``anthropic`` SDK.

The answer is requested as forced tool use (``tool_choice`` naming the one tool whose
input schema is the decision's answer schema), with plain text plus the schema as the
fallback for proxies that refuse tools.

Prompt caching is explicit on this API: ``cache_control`` marks the end of the system
block (static for the game) and the end of the history (append-only). The history is
sent as one text block per earlier request of the seat (see ``Prompt``), so the
previous call's breakpoint falls on a block boundary of this call, where the API's
lookback finds it: each call reads the previous call's cache and writes only what is
new. The decision block after it is the only uncached text.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from typing import Any

import anthropic

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
)
from agents.llm.backends.openai_backend import TRANSIENT_STATUS, safe_url
from agents.llm.config import DEFAULT_BASE_URL_ENV, DEFAULT_KEY_ENV, LLMOptions
from arena.limits import Limits

EPHEMERAL = {"type": "ephemeral"}


class AnthropicBackend(Backend):
    name = "anthropic"
    modes = ("tool", "text")

    def __init__(
        self,
        model: str,
        options: LLMOptions | None = None,
        *,
        limits: Limits | None = None,
        sleep=None,
        api_key: str | None = None,
        client: anthropic.AsyncAnthropic | None = None,
    ):
        super().__init__(model, options, limits=limits, sleep=sleep)
        self._api_key = api_key
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anthropic.AsyncAnthropic] = weakref.WeakKeyDictionary()
        self._spare: anthropic.AsyncAnthropic | None = client or self._new_client()

    # ------------------------------------------------------------------ client
    def _new_client(self) -> anthropic.AsyncAnthropic:
        o = self.options
        key_env = o.api_key_env or DEFAULT_KEY_ENV["anthropic"]
        api_key = self._api_key
        if api_key is None and o.api_key_env:
            api_key = os.environ.get(o.api_key_env)
            if not api_key:
                raise MissingKey(f"anthropic:{self.model} needs an API key: set {o.api_key_env}")
        base_url = o.base_url or os.environ.get(DEFAULT_BASE_URL_ENV["anthropic"]) or None
        try:
            client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=0, timeout=o.timeout)
        except anthropic.AnthropicError:
            raise MissingKey(f"anthropic:{self.model} needs an API key: set {key_env}") from None
        # This SDK builds without credentials and only fails at the first request;
        # a seat without a key must be refused before the game starts.
        if not (client.api_key or getattr(client, "auth_token", None) or getattr(client, "_token_cache", None)):
            raise MissingKey(f"anthropic:{self.model} needs an API key: set {key_env}")
        return client

    def client(self) -> anthropic.AsyncAnthropic:
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
    def open(self) -> bool:
        return bool(self._clients)

    async def aclose(self) -> None:
        for c in list(self._clients.values()):
            try:
                await c.close()
            except Exception:
                pass
        self._clients.clear()

    # ------------------------------------------------------------------ request
    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        question = prompt.question + (schema_instructions(prompt) if mode == "text" else "")
        # A part's block must be byte-identical in every later request (that is what
        # the cache matches), so each ends the same way wherever it falls.
        content: list[dict[str, Any]] = [{"type": "text", "text": part + "\n"} for part in prompt.history_parts if part]
        if content:
            content[-1]["cache_control"] = EPHEMERAL
        content.append({"type": "text", "text": question})
        messages: list[dict[str, Any]] = [{"role": "user", "content": content}]
        for turn in turns:
            messages += self._replay(turn, mode, prompt.language)
        req: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.options.max_tokens,
            "system": [{"type": "text", "text": prompt.system, "cache_control": EPHEMERAL}],
            "messages": messages,
        }
        if mode == "tool":
            req["tools"] = [{"name": prompt.name, "description": prompt.description, "input_schema": prompt.schema}]
            req["tool_choice"] = {"type": "tool", "name": prompt.name}
        if self.options.temperature is not None:
            # Sent as a raw body field: recent SDKs dropped the keyword, while the API
            # still takes it for the models that support sampling settings (0..1).
            req["extra_body"] = {"temperature": min(1.0, self.options.temperature)}
        return req

    def _replay(self, turn: Turn, mode: str, language: str) -> list[dict[str, Any]]:
        """A refused tool call is answered by an error ``tool_result`` (the protocol
        requires one right after a ``tool_use``); a refused text by a user message."""
        fix = correction_text(turn.reason, language)
        blocks = turn.reply.native
        if mode == "tool" and blocks:
            use = next((b for b in blocks if b.get("type") == "tool_use"), None)
            if use is not None:
                return [
                    {"role": "assistant", "content": blocks},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": fix, "is_error": True}]},
                ]
        return [
            {"role": "assistant", "content": [{"type": "text", "text": turn.reply.text or "(no answer)"}]},
            {"role": "user", "content": [{"type": "text", "text": fix}]},
        ]

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"role": "system", "content": request["system"]}] + list(request["messages"])

    # ------------------------------------------------------------------ response
    async def send(self, request: dict[str, Any], mode: str) -> Reply:
        try:
            resp = await self.client().messages.create(**request)
        except anthropic.APITimeoutError as e:
            raise Transient(f"timeout: {e}") from None
        except anthropic.APIConnectionError as e:
            raise Transient(f"connection error: {e}") from None
        except anthropic.APIStatusError as e:
            status = e.status_code
            if status in TRANSIENT_STATUS or status >= 500:
                raise Transient(f"HTTP {status}: {_message(e)}", retry_after(e.response.headers)) from None
            if status in (400, 422) and mode != "text":
                raise ModeRejected(f"HTTP {status}: {_message(e)}") from None
            raise CallFailed(f"HTTP {status}: {_message(e)}", disable=status in (401, 403, 404)) from None
        except anthropic.AnthropicError as e:
            raise CallFailed(f"{type(e).__name__}: {e}") from None
        return _reply(resp, mode)


def _message(e: anthropic.APIStatusError) -> str:
    body = e.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return e.message


def _reply(resp: Any, mode: str) -> Reply:
    u = getattr(resp, "usage", None)
    usage = Usage()
    if u is not None:
        fresh = getattr(u, "input_tokens", None)
        read = getattr(u, "cache_read_input_tokens", None)
        write = getattr(u, "cache_creation_input_tokens", None)
        usage = Usage(
            # This API counts cached parts apart from ``input_tokens``; the record's
            # convention is the whole prompt.
            input_tokens=None if fresh is None else fresh + (read or 0) + (write or 0),
            output_tokens=getattr(u, "output_tokens", None),
            cached_tokens=read,
            cache_write_tokens=write,
        )
    blocks: list[dict[str, Any]] = []
    for b in getattr(resp, "content", None) or []:
        d = b.model_dump(exclude_none=True) if hasattr(b, "model_dump") else dict(b)
        # Keep only what the API accepts back in an assistant turn.
        if d.get("type") == "tool_use":
            blocks.append({"type": "tool_use", "id": d["id"], "name": d["name"], "input": d.get("input", {})})
        elif d.get("type") == "text" and d.get("text"):
            blocks.append({"type": "text", "text": d["text"]})
    use = next((b for b in blocks if b["type"] == "tool_use"), None)
    if use is not None:
        data = use["input"] if isinstance(use["input"], dict) else None
        return Reply(text=json.dumps(use["input"], ensure_ascii=False), data=data, mode=mode, usage=usage, native=blocks)
    text = "".join(b["text"] for b in blocks if b["type"] == "text")
    return Reply(text=text, data=None, mode=mode, usage=usage, native=blocks or None)

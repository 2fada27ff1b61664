"""Anthropic Messages through the ``anthropic`` SDK.

The answer is requested as forced tool use (``tool_choice`` naming the one tool whose
input schema is the decision's answer schema), with plain text plus the schema as the
fallback for proxies that refuse tools.

Prompt caching is explicit on this API, over tools, then system, then messages
(see ``agents.llm.vendor_cache`` for the rules followed). In the cache layout the one
tool and ``tool_choice`` are the game's, the same bytes in every request, so they
never break the prefix. ``cache_control`` marks the end of the system part every seat
shares (the rules: one seat's write serves the others' first calls) and the end of
the history (append-only). The history is sent as one text block per earlier request
of the seat (see ``Prompt``), so the previous call's breakpoint falls on a block
boundary of this call, where the API's lookback finds it: each call reads the
previous call's cache and writes only what is new. The question after it is the
only uncached text.

Extended thinking (``reasoning_budget``) sends ``thinking`` with its
``budget_tokens`` and a ``max_tokens`` that holds it; the API refuses a forced tool
with thinking, so the tool is then offered with ``tool_choice: auto`` and the
question asks for it; thinking blocks are kept for the replay of a re-ask.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from agents.llm.backends.base import CUT_REASONS, PING, CutAnswer, Prompt, Reply, Turn, Usage, breakpoint_blocks, correction_text, question_text
from agents.llm.backends.sdk import SDKBackend

class AnthropicBackend(SDKBackend):
    name = "anthropic"
    modes = ("tool", "text")
    sdk = anthropic
    sdk_error = anthropic.AnthropicError

    def make_client(self, api_key: str | None, base_url: str | None, key_env: str) -> anthropic.AsyncAnthropic:
        try:
            client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=0, timeout=self.options.call_timeout())
        except anthropic.AnthropicError:
            raise self.missing_key(key_env) from None
        # This SDK builds without credentials and only fails at the first request;
        # a seat without a key must be refused before the game starts.
        if not (client.api_key or getattr(client, "auth_token", None) or getattr(client, "_token_cache", None)):
            raise self.missing_key(key_env)
        return client

    async def create(self, client: anthropic.AsyncAnthropic, request: dict[str, Any]) -> Any:
        return await client.messages.create(**request)

    def reply(self, response: Any, mode: str) -> Reply:
        return _reply(response, mode)

    # ------------------------------------------------------------------ request
    def default_layout(self) -> str:
        return "cache"

    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        o = self.options
        system, content = breakpoint_blocks(prompt, question_text(prompt, mode))
        messages: list[dict[str, Any]] = [{"role": "user", "content": content}]
        for turn in turns:
            messages += self._replay(turn, mode, prompt.language)
        thinking = o.reasoning_tokens()
        req: dict[str, Any] = {
            "model": self.model,
            "max_tokens": o.completion_budget(prompt.max_tokens),
            "system": system,
            "messages": messages,
        }
        if mode == "tool":
            req["tools"] = [{"name": prompt.name, "description": prompt.description, "input_schema": prompt.schema}]
            # Thinking refuses a forced tool: offer it, the question asks for it.
            req["tool_choice"] = {"type": "auto"} if thinking else {"type": "tool", "name": prompt.name}
        if thinking:
            req["thinking"] = {"type": "enabled", "budget_tokens": thinking}
        extra: dict[str, Any] = {}
        if o.temperature is not None and not thinking:  # thinking takes no sampling settings
            # Sent as a raw body field: recent SDKs dropped the keyword, while the API
            # still takes it for the models that support sampling settings (0..1).
            extra["temperature"] = min(1.0, o.temperature)
        extra.update(o.extra_body or {})
        if extra:
            req["extra_body"] = extra
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
            {"role": "assistant", "content": [{"type": "text", "text": turn.said}]},
            {"role": "user", "content": [{"type": "text", "text": fix}]},
        ]

    def sent_messages(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"role": "system", "content": request["system"]}] + list(request["messages"])

    def ping_request(self) -> dict[str, Any]:
        """A one-token Messages request (``POST /v1/messages`` with ``max_tokens: 1``),
        for a proxy that lacks the model lookup."""
        return {"model": self.model, "max_tokens": 1, "messages": [{"role": "user", "content": PING}]}


def _reply(resp: Any, mode: str) -> Reply:
    if getattr(resp, "content", None) is None:
        # A message always holds its content list, empty when the model said nothing:
        # a body without one is not a message (a 200 carrying an error object).
        raise CutAnswer("no content in the message")
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
        # Keep only what the API accepts back in an assistant turn (thinking blocks
        # with their signatures must precede a replayed tool_use).
        if d.get("type") in ("thinking", "redacted_thinking"):
            blocks.append({k: v for k, v in d.items() if k in ("type", "thinking", "signature", "data")})
        elif d.get("type") == "tool_use":
            blocks.append({"type": "tool_use", "id": d["id"], "name": d["name"], "input": d.get("input", {})})
        elif d.get("type") == "text" and d.get("text"):
            blocks.append({"type": "text", "text": d["text"]})
    cut = getattr(resp, "stop_reason", None) in CUT_REASONS
    use = next((b for b in blocks if b["type"] == "tool_use"), None)
    if use is not None:
        data = use["input"] if isinstance(use["input"], dict) else None
        return Reply(text=json.dumps(use["input"], ensure_ascii=False), data=data, mode=mode, usage=usage, native=blocks, cut=cut)
    text = "".join(b["text"] for b in blocks if b["type"] == "text")
    return Reply(text=text, data=None, mode=mode, usage=usage, native=blocks or None, cut=cut)

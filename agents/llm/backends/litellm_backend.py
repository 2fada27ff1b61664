"""LiteLLM (``litellm:MODEL``): every provider LiteLLM routes, under its model names
(``groq/openai/gpt-oss-20b``, ``bedrock/...``, ``gemini/...``, ``ollama/...``).

LiteLLM takes and returns the OpenAI Chat Completions format and raises the
``openai`` SDK's error classes (its own subclass them), so this back end is the
OpenAI one with ``litellm.acompletion`` in place of the SDK client: the same answer
formats, fallbacks and error sorting. Keys are LiteLLM's business (each provider's
own variable, ``GROQ_API_KEY``...), unless the seat names one (``api_key_env``).
LiteLLM's own retries are off (``num_retries=0``): this project counts and paces them.

Importing LiteLLM normally fetches its price map from the network; this module makes
it use the copy shipped with the package (``LITELLM_LOCAL_MODEL_COST_MAP``), unless
the user chose otherwise. ``agents.llm.pricing`` reads that map for models the
built-in table lacks.

Prompt layout (``agents.llm.vendor_cache``): the hosted providers LiteLLM reaches
cache prompt prefixes, tools and schemas included, so the cache layout (one schema
for the game) is the default; the providers that are servers of one's own (Ollama,
vLLM, llamafile, LM Studio) and any base URL on this machine or a private network
keep each decision's schema, which they enforce as a grammar. OpenAI gets its
``prompt_cache_key``; Anthropic gets its ``cache_control`` breakpoints in the
content blocks, which LiteLLM passes on.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from agents.llm.backends.base import Prompt, Reply, Turn, breakpoint_blocks, local_url, question_text
from agents.llm.backends.openai_backend import OpenAIBackend, _reply
from agents.llm.backends.base import safe_url

# LiteLLM's providers that are servers of one's own: they enforce a schema as a grammar.
LOCAL_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "vllm", "llamafile", "lm_studio", "xinference", "triton"})
# Bare model names LiteLLM sends to OpenAI or to Anthropic.
_OPENAI_NAMES = ("gpt-", "o1", "o3", "o4", "chatgpt-")


def provider(model: str) -> str:
    """The LiteLLM provider of ``model``: its prefix (``groq/...``), or for a bare name
    the vendor LiteLLM sends it to (``gpt-5.4-mini``: openai, ``claude-...``: anthropic)."""
    if "/" in model:
        return model.split("/", 1)[0]
    if model.startswith(_OPENAI_NAMES):
        return "openai"
    if model.startswith("claude"):
        return "anthropic"
    return ""


def import_litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm  # here, not at the top: it reads the variable set above as it loads, and is seconds of start-up
    except ImportError:
        raise ImportError('litellm:MODEL needs the litellm package: pip install -e ".[litellm]" (or pip install litellm)') from None
    litellm.suppress_debug_info = True
    quiet = logging.getLogger("LiteLLM")
    if quiet.level < logging.ERROR:
        # Its worker warns on every new event loop (each synchronous decision opens one).
        quiet.setLevel(logging.ERROR)
    return litellm


@dataclass
class _Route:
    """What stands for a client: where LiteLLM sends this seat's requests."""

    api_key: str | None
    base_url: str | None

    async def close(self) -> None:
        """LiteLLM pools its own connections."""


class LiteLLMBackend(OpenAIBackend):
    name = "litellm"
    shared_clients = False  # LiteLLM pools its own connections: a route per seat costs nothing

    def _new_client(self) -> _Route:
        import_litellm()  # a missing package stops the game before it starts
        o = self.options
        api_key = self._api_key
        if api_key is None and o.api_key_env:
            api_key = os.environ.get(o.api_key_env)
            if not api_key:
                raise self.missing_key(o.api_key_env)
        return _Route(api_key, o.base_url)

    def make_client(self, api_key: str | None, base_url: str | None, key_env: str) -> _Route:
        return _Route(api_key, base_url)

    @property
    def endpoint(self) -> str:

        route = self._spare or next(iter(self._clients.values()), None)
        if route is not None and route.base_url:
            return safe_url(route.base_url)
        return f"litellm:{self.model.split('/', 1)[0]}"

    @property
    def _is_openai(self) -> bool:
        return False  # LiteLLM maps ``max_tokens`` to each provider's own name

    def default_layout(self) -> str:
        if provider(self.model) in LOCAL_PROVIDERS or local_url(self.options.base_url):
            return "grammar"
        return "cache"

    def build(self, prompt: Prompt, turns: list[Turn], mode: str) -> dict[str, Any]:
        req = super().build(prompt, turns, mode)
        vendor = provider(self.model)
        if vendor != "openai":
            req.pop("prompt_cache_key", None)  # OpenAI's alone: another provider may refuse it
        if vendor == "anthropic" and self.layout() == "cache":
            system, content = breakpoint_blocks(prompt, question_text(prompt, mode))
            req["messages"] = [{"role": "system", "content": system}, {"role": "user", "content": content}, *req["messages"][2:]]
        return req

    async def create(self, client: _Route, request: dict[str, Any]) -> Any:
        litellm = import_litellm()
        extra: dict[str, Any] = {"num_retries": 0}  # the call's timeout comes in ``request`` (``SDKBackend.send``)
        if client.api_key:
            extra["api_key"] = client.api_key
        if client.base_url:
            extra["api_base"] = client.base_url
        return await litellm.acompletion(**request, **extra)

    def reply(self, response: Any, mode: str) -> Reply:
        return _reply(response, mode)

    def lookups(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        """None: LiteLLM offers no model lookup that reaches every provider it routes
        to (``litellm.get_model_info`` reads its own price map, not the provider), so
        the preflight makes the one-token call (``ping_request``, through
        ``litellm.acompletion`` like every call: https://docs.litellm.ai/docs/completion/input)."""
        return []

    @property
    def address(self) -> str:
        if self.options.base_url:
            return super().address
        return f"{provider(self.model) or 'its provider'}, through LiteLLM"

    @property
    def probe_key(self) -> tuple[Any, ...]:
        # LiteLLM reads each provider's own key variable; a seat may name another.
        return (self.name, self.endpoint, self.model, self.options.api_key_env)

"""The vendor APIs a model seat can speak: OpenAI Chat Completions (and compatible
servers), Anthropic Messages, LiteLLM, and any LangChain chat model.

Each back end's module imports its vendor's SDK at its top, and the SDKs are heavy
(``openai``, ``anthropic``, ``litellm``, ``langchain_core``: a second or more of
start-up between them) and optional, so this package names each back end's module
instead of importing it (``MODULES``): the first seat that speaks a vendor imports
that vendor's module, and a bot-only game, a transcript reader or ``werewolf --help``
never pays for one."""

from __future__ import annotations

import importlib
from typing import Any

from agents.llm.backends.base import Backend, CallFailed, CallResult, MissingKey, Prompt, Reply, Turn, Usage

__all__ = ["MODULES", "Backend", "CallFailed", "CallResult", "MissingKey", "Prompt", "Reply", "Turn", "Usage", "backend_class", "make_backend"]

# vendor -> (module, class): the one place a back end's module is imported, on first use.
MODULES: dict[str, tuple[str, str]] = {
    "openai": ("agents.llm.backends.openai_backend", "OpenAIBackend"),
    "anthropic": ("agents.llm.backends.anthropic_backend", "AnthropicBackend"),
    "litellm": ("agents.llm.backends.litellm_backend", "LiteLLMBackend"),
    "langchain": ("agents.llm.backends.langchain_backend", "LangChainBackend"),
}


def backend_class(vendor: str) -> type[Backend]:
    """The back end class for ``vendor`` (a spec's prefix), its module imported now."""
    if vendor not in MODULES:
        raise ValueError(f"unknown model vendor '{vendor}' (known: {', '.join(MODULES)})")
    module, name = MODULES[vendor]
    cls: type[Backend] = getattr(importlib.import_module(module), name)
    return cls


def make_backend(vendor: str, model: str, options: Any = None, **kwargs: Any) -> Backend:
    """``vendor`` is the spec's prefix: ``openai``, ``anthropic`` or ``litellm``
    (``langchain:`` specs build their chat model first: ``agents.llm.factory``)."""
    if vendor == "langchain" or vendor not in MODULES:
        raise ValueError(f"unknown model vendor '{vendor}' (known: openai, anthropic, litellm)")
    return backend_class(vendor)(model, options, **kwargs)

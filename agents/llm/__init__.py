"""Model seats: one ``LLMAgent`` over four back ends (OpenAI Chat Completions and
compatible servers, Anthropic Messages, any LangChain chat model, LiteLLM).

Specs: ``openai:MODEL``, ``anthropic:MODEL``, ``litellm:MODEL`` (LiteLLM's own model
names, ``groq/openai/gpt-oss-20b``), ``langchain:PROVIDER:MODEL`` and
``langchain:MODULE:FACTORY`` (``agents.llm.specs``, ``agents.llm.langchain_spec``).

``make_llm_agent("openai:gpt-5.4-mini", "Alice")`` is what the registry calls for a
model spec; ``from_langchain(chat_model, "Alice")`` seats a LangChain model (both in
``agents.llm.factory``). This face reads specs without loading the model machinery
(a game file or a tournament checks its specs, a transcript reader never seats a
model): the names below that need it are looked up in ``LAZY`` and their module is
imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agents.llm.config import LLMOptions
from agents.llm.specs import VENDORS, is_model_spec, split_spec

if TYPE_CHECKING:
    from agents.llm.agent import LLMAgent
    from agents.llm.factory import from_langchain, make_llm_agent

# A name of this face -> the module that holds it, imported when the name is first read.
LAZY = {
    "LLMAgent": "agents.llm.agent",
    "make_llm_agent": "agents.llm.factory",
    "from_langchain": "agents.llm.factory",
}


def __getattr__(name: str) -> Any:
    if name in LAZY:
        return getattr(importlib.import_module(LAZY[name]), name)
    raise AttributeError(f"module 'agents.llm' has no attribute '{name}'")


__all__ = ["LLMAgent", "LLMOptions", "VENDORS", "from_langchain", "is_model_spec", "make_llm_agent", "split_spec"]

"""Model seats made from a spec or a LangChain model: ``make_llm_agent`` (what the
agent registry calls for ``openai:``, ``anthropic:``, ``litellm:`` and ``langchain:``
specs) and ``from_langchain`` (a ``BaseChatModel`` passed from Python).

The registry loads this module with the first model seat (``agents.kinds``); the
vendor's SDK loads with its back end (``agents.llm.backends.MODULES``)."""

from __future__ import annotations

import importlib
from typing import Any

from agents.llm.agent import LLMAgent
from agents.llm.backends import backend_class, make_backend
from agents.llm.config import LLMOptions
from agents.llm.specs import split_spec

# The module that builds a langchain: spec's chat model: it imports langchain_core, which
# only a langchain: seat needs, so it is imported by the first one.
LANGCHAIN_MODELS = "agents.llm.langchain_spec"
# What make_llm_agent accepts besides LLMOptions' own fields: wiring, not settings.
RUNTIME_KEYS = ("log", "limits", "prices", "preset", "rules", "language", "sleep", "api_key", "client")


def _split_kwargs(kwargs: dict[str, Any]) -> tuple[LLMOptions, dict[str, Any]]:
    options = kwargs.pop("options", None)
    runtime = {k: kwargs.pop(k) for k in list(kwargs) if k in RUNTIME_KEYS}
    if isinstance(options, LLMOptions):
        options = options.model_dump(exclude_unset=True)
    # Validated together, so a keyword is checked (and refused by name) like a file's key.
    opts = LLMOptions.model_validate({**(options or {}), **kwargs})
    return opts, runtime


def make_llm_agent(spec: str, name: str, *, seed: int = 0, **kwargs: Any) -> LLMAgent:
    """A model seat from any model spec (``agents.llm.specs``).

    ``kwargs`` are ``LLMOptions`` fields (or ``options=`` as a mapping or model) and
    the wiring: ``log`` (a shared ``CallLog``), ``limits``, ``prices``, ``preset``,
    ``rules``, ``language``, ``sleep`` (tests), ``api_key``/``client`` (Python use).
    Raises ``MissingKey`` when no key is configured.
    """
    vendor, model = split_spec(spec)
    opts, rt = _split_kwargs(dict(kwargs))
    if vendor == "langchain":
        chat_model = importlib.import_module(LANGCHAIN_MODELS).chat_model_from_spec(model, opts)
        backend: Any = backend_class("langchain")(chat_model, opts, limits=rt.get("limits"), sleep=rt.get("sleep"))
    else:
        backend_kw = {k: rt[k] for k in ("limits", "sleep", "api_key", "client") if k in rt}
        backend = make_backend(vendor, model, opts, **backend_kw)
    calls = rt.get("log")
    if calls is not None and rt.get("api_key"):
        calls.add_secret(rt["api_key"])
    return LLMAgent(
        name,
        backend,
        spec=spec,
        seed=seed,
        options=opts,
        preset=rt.get("preset"),
        rules=rt.get("rules"),
        language=rt.get("language", "en"),
        log=calls,
        prices=rt.get("prices"),
    )


def from_langchain(chat_model: Any, name: str, *, seed: int = 0, model: str | None = None, **kwargs: Any) -> LLMAgent:
    """A seat played by any LangChain ``BaseChatModel``."""
    opts, rt = _split_kwargs(dict(kwargs))
    backend: Any = backend_class("langchain")(chat_model, opts, model=model, limits=rt.get("limits"), sleep=rt.get("sleep"))
    return LLMAgent(
        name,
        backend,
        spec=f"langchain:{backend.model}",
        seed=seed,
        options=opts,
        preset=rt.get("preset"),
        rules=rt.get("rules"),
        language=rt.get("language", "en"),
        log=rt.get("log"),
        prices=rt.get("prices"),
    )

"""Model seats: one ``LLMAgent`` over four back ends (OpenAI Chat Completions and
compatible servers, Anthropic Messages, any LangChain chat model, LiteLLM).

Specs: ``openai:MODEL``, ``anthropic:MODEL``, ``litellm:MODEL`` (LiteLLM's own model
names, ``groq/openai/gpt-oss-20b``), ``langchain:PROVIDER:MODEL`` and
``langchain:MODULE:FACTORY`` (``agents.llm.langchain_spec``).

``make_llm_agent("openai:gpt-5.4-mini", "Alice")`` is what the registry calls for a
model spec; ``from_langchain(chat_model, "Alice")`` seats a LangChain model. Imports
are lazy so that reading a transcript or playing bots never loads a vendor SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.llm.config import LLMOptions

if TYPE_CHECKING:
    from agents.llm.agent import LLMAgent

VENDORS = ("openai", "anthropic", "langchain", "litellm")

# What make_llm_agent accepts besides LLMOptions' own fields: wiring, not settings.
RUNTIME_KEYS = ("log", "limits", "prices", "preset", "rules", "language", "sleep", "api_key", "client")


def is_model_spec(spec: str) -> bool:
    vendor, sep, model = spec.partition(":")
    return bool(sep) and vendor in VENDORS


def split_spec(spec: str) -> tuple[str, str]:
    """``(vendor, model)``; for ``langchain:`` the model is ``PROVIDER:MODEL`` or
    ``MODULE:FACTORY``, checked to have both parts."""
    vendor, sep, model = spec.partition(":")
    if not sep or vendor not in VENDORS:
        raise ValueError(f"'{spec}' is not a model spec (expected {', '.join(_EXAMPLE.values())})")
    if not model.strip():
        raise ValueError(f"'{spec}' names no model (expected {_EXAMPLE[vendor]})")
    if vendor == "langchain":
        from agents.llm.langchain_spec import split_langchain

        split_langchain(model)
    return vendor, model.strip()


_EXAMPLE = {
    "openai": "openai:gpt-5.4-mini",
    "anthropic": "anthropic:claude-haiku-4-5",
    "langchain": "langchain:PROVIDER:MODEL or langchain:MODULE:FACTORY",
    "litellm": "litellm:MODEL, e.g. litellm:groq/openai/gpt-oss-20b",
}


def _split_kwargs(kwargs: dict[str, Any]) -> tuple[LLMOptions, dict[str, Any]]:
    options = kwargs.pop("options", None)
    runtime = {k: kwargs.pop(k) for k in list(kwargs) if k in RUNTIME_KEYS}
    if isinstance(options, LLMOptions):
        options = options.model_dump(exclude_unset=True)
    # Validated together, so a keyword is checked (and refused by name) like a file's key.
    opts = LLMOptions.model_validate({**(options or {}), **kwargs})
    return opts, runtime


def make_llm_agent(spec: str, name: str, *, seed: int = 0, **kwargs: Any) -> "LLMAgent":
    """A model seat from any model spec (see the module docstring).

    ``kwargs`` are ``LLMOptions`` fields (or ``options=`` as a mapping or model) and
    the wiring: ``log`` (a shared ``CallLog``), ``limits``, ``prices``, ``preset``,
    ``rules``, ``language``, ``sleep`` (tests), ``api_key``/``client`` (Python use).
    Raises ``MissingKey`` when no key is configured.
    """
    from agents.llm.agent import LLMAgent
    from agents.llm.backends import make_backend

    vendor, model = split_spec(spec)
    opts, rt = _split_kwargs(dict(kwargs))
    if vendor == "langchain":
        from agents.llm.backends.langchain_backend import LangChainBackend
        from agents.llm.langchain_spec import chat_model_from_spec

        backend: Any = LangChainBackend(chat_model_from_spec(model, opts), opts, limits=rt.get("limits"), sleep=rt.get("sleep"))
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


def from_langchain(chat_model: Any, name: str, *, seed: int = 0, model: str | None = None, **kwargs: Any) -> "LLMAgent":
    """A seat played by any LangChain ``BaseChatModel``."""
    from agents.llm.agent import LLMAgent
    from agents.llm.backends.langchain_backend import LangChainBackend

    opts, rt = _split_kwargs(dict(kwargs))
    backend = LangChainBackend(chat_model, opts, model=model, limits=rt.get("limits"), sleep=rt.get("sleep"))
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


def __getattr__(name: str) -> Any:
    if name == "LLMAgent":
        from agents.llm.agent import LLMAgent

        return LLMAgent
    raise AttributeError(name)


__all__ = ["LLMAgent", "LLMOptions", "from_langchain", "is_model_spec", "make_llm_agent", "split_spec"]

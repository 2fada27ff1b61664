"""What a model spec says (``openai:MODEL``, ``anthropic:MODEL``, ``litellm:MODEL``,
``langchain:PROVIDER:MODEL``, ``langchain:MODULE:FACTORY``), read without loading
anything of the model machinery: a game file, a tournament or the web form checks
its seats' specs long before (and often without) seating a model."""

from __future__ import annotations

VENDORS = ("openai", "anthropic", "langchain", "litellm")

_EXAMPLE = {
    "openai": "openai:gpt-5.4-mini",
    "anthropic": "anthropic:claude-haiku-4-5",
    "langchain": "langchain:PROVIDER:MODEL or langchain:MODULE:FACTORY",
    "litellm": "litellm:MODEL, e.g. litellm:groq/openai/gpt-oss-20b",
}


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
        split_langchain(model)
    return vendor, model.strip()


def split_langchain(rest: str) -> tuple[str, str]:
    """``PROVIDER:MODEL`` or ``MODULE:FACTORY`` (what follows ``langchain:``)."""
    head, sep, tail = rest.partition(":")
    if not sep or not head.strip() or not tail.strip():
        raise ValueError(
            f"'langchain:{rest}' needs two parts: langchain:PROVIDER:MODEL (e.g. langchain:openai:gpt-5.4-mini) "
            "or langchain:MODULE:FACTORY (a function returning a BaseChatModel)"
        )
    return head.strip(), tail.strip()

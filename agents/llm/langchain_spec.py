"""``langchain:PROVIDER:MODEL`` and ``langchain:MODULE:FACTORY``: a LangChain chat model
named in a spec, so game files, tournaments, ``--seat`` and the web page can seat one.
Imported by the first ``langchain:`` seat (``agents.llm.factory``), never with the
other model seats: it loads ``langchain_core``.

``PROVIDER`` is one of ``PROVIDERS`` (LangChain's own provider ids, as
``init_chat_model`` spells them): the provider package's class is built with the
model and the seat's settings. The package is the user's to install; a missing one
is an ``ImportError`` naming it. Any other provider id is handed to LangChain's
``init_chat_model`` when the ``langchain`` package is installed.

Anything else before the second colon is a module: ``FACTORY`` (a dotted name in it)
is called without arguments and must return a ``BaseChatModel`` (a model object
itself is taken as it is). The factory configures its model; sampling settings in
the seat's options are refused for it rather than silently ignored.

The settings reach the class by whatever name it gives them (``max_tokens`` or
``max_output_tokens``, ``timeout`` or ``request_timeout``...), read from its pydantic
fields, and retries are switched off in the class (``max_retries=0``): this project
counts and paces retries itself (``agents.llm.backends.base``).
"""

from __future__ import annotations

import importlib
import inspect
import sys
import importlib.util
import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from agents.llm.backends.base import local_url
from agents.llm.config import LLMOptions
from agents.llm.specs import split_langchain
from transcripts.langchain_providers import PROVIDERS
from agents.llm.backends.base import MissingKey


# Each setting, under the names integrations give it (the first the class has wins).
_NAMES: dict[str, tuple[str, ...]] = {
    "model": ("model", "model_name", "model_id"),
    "temperature": ("temperature",),
    "max_tokens": ("max_tokens", "max_output_tokens", "max_new_tokens", "num_predict"),
    "timeout": ("timeout", "request_timeout", "default_request_timeout"),
    "max_retries": ("max_retries",),
    "base_url": ("base_url", "openai_api_base", "anthropic_api_url", "endpoint", "api_base"),
    "api_key": ("api_key", "openai_api_key", "anthropic_api_key", "google_api_key", "mistral_api_key", "groq_api_key"),
}
# Settings a factory's model cannot take from the seat's options.
_SAMPLING = ("temperature", "max_tokens", "base_url", "api_key_env")


def chat_model_from_spec(rest: str, options: LLMOptions) -> Any:
    """The ``BaseChatModel`` a ``langchain:`` spec names, built with the seat's settings."""
    head, tail = split_langchain(rest)
    if head in PROVIDERS:
        return _from_provider(head, tail, options)
    if _importable(head):
        return _from_factory(head, tail, options)
    init = _init_chat_model()
    if init is not None and head.isidentifier():
        return init(tail, model_provider=head, **_settings(None, options))
    known = ", ".join(sorted(PROVIDERS))
    raise ValueError(
        f"'langchain:{rest}': '{head}' is neither a provider ({known}; others through LangChain's init_chat_model "
        "with pip install langchain) nor an importable module with a factory"
    )


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _init_chat_model() -> Any:
    try:  # here, not at the top: the ``langchain`` package is optional even for langchain: seats
        from langchain.chat_models import init_chat_model
    except ImportError:
        return None
    return init_chat_model


def _from_provider(provider: str, model: str, options: LLMOptions) -> Any:
    p = PROVIDERS[provider]
    try:
        module = importlib.import_module(p.module)
    except ImportError as e:
        raise ImportError(f"langchain:{provider}:{model} needs the {p.package} package (pip install {p.package}): {e}") from None
    cls = getattr(module, p.cls)
    kwargs = _kwargs(cls, model, options)
    try:
        return cls(**kwargs)
    except Exception as e:  # the class's own check (a missing key, a bad setting), in a sentence
        raise ValueError(f"langchain:{provider}:{model}: {p.cls} refused its settings: {type(e).__name__}: {e}") from None


def _fields(cls: Any) -> set[str]:
    """The keyword names a pydantic model class accepts: field names and aliases."""
    names: set[str] = set()
    for name, f in getattr(cls, "model_fields", {}).items():
        names.add(name)
        if f.alias:
            names.add(f.alias)
    return names


def _settings(model: str | None, options: LLMOptions) -> dict[str, Any]:
    # The layout the back end will choose (``LangChainBackend.default_layout``), as far
    # as the settings tell before the model exists: a server of one's own gets the
    # decision's time limit per call (``LLMOptions.call_timeout``).
    own = options.prompt_layout == "grammar" or (options.prompt_layout == "auto" and local_url(options.base_url))
    timeout = options.call_timeout("grammar" if own else "cache")
    values: dict[str, Any] = {"max_retries": 0, "timeout": timeout, "max_tokens": options.max_tokens}
    if model is not None:
        values["model"] = model
    if options.temperature is not None:
        values["temperature"] = options.temperature
    if options.base_url:
        values["base_url"] = options.base_url
    if options.api_key_env:
        key = os.environ.get(options.api_key_env)
        if not key:

            raise MissingKey(f"api_key_env names {options.api_key_env}, which is not set")
        values["api_key"] = key
    return values


def _kwargs(cls: Any, model: str, options: LLMOptions) -> dict[str, Any]:
    accepted = _fields(cls)
    out: dict[str, Any] = {}
    for setting, value in _settings(model, options).items():
        name = next((n for n in _NAMES[setting] if n in accepted), None)
        if name is not None:
            out[name] = value
        elif setting in ("model", "base_url", "api_key"):
            raise ValueError(f"{cls.__name__} takes no {setting} setting; configure it with langchain:MODULE:FACTORY instead")
    return out


def _from_factory(module_name: str, attr: str, options: LLMOptions) -> Any:
    given = [k for k in _SAMPLING if k in options.model_fields_set]
    if given:
        raise ValueError(
            f"langchain:{module_name}:{attr} builds its own model: set {', '.join(given)} in the factory, not in the seat's options"
        )
    if module_name.partition(".")[0] in sys.stdlib_module_names:
        # A spec can come from a file someone sent: it must not make the arena call
        # whatever the standard library holds (``os:abort``...).
        raise ValueError(f"langchain:{module_name}:{attr}: a factory lives in your own module, not in the standard library")
    module = importlib.import_module(module_name)
    obj: Any = module
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ValueError(f"langchain:{module_name}:{attr}: {module_name} has no {attr}")
    if isinstance(obj, BaseChatModel):
        made = obj
    elif inspect.isfunction(obj) or (isinstance(obj, type) and issubclass(obj, BaseChatModel)):
        made = obj()  # a Python function of the user's, or a chat model class built with its defaults
    else:
        raise TypeError(f"langchain:{module_name}:{attr} is a {type(obj).__name__}: name a function returning a BaseChatModel")
    if not isinstance(made, BaseChatModel):
        raise TypeError(f"langchain:{module_name}:{attr} returned {type(made).__name__}, not a LangChain BaseChatModel")
    return made

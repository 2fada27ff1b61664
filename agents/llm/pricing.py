"""What a call costs: a price table per model, in US dollars per million tokens.

Prices change more often than code, so the built-in table is only a starting point
(list prices as published by the vendors in 2025) and a user file overrides or extends
it (``prices:`` in the game file, ``--prices`` on the command line). A model with no
price is not guessed at: its cost is ``None`` and the record says the price was
unknown, so a leaderboard never shows a made-up figure as a real one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError


class PriceError(ValueError):
    """A price file that cannot be used; the message says why."""


class ModelPrice(BaseModel):
    """USD per 1M tokens. ``cached_input`` is a prompt-cache read, ``cache_write`` a
    cache write (Anthropic bills it above the input price); each defaults to
    ``input`` when a vendor does not distinguish it."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)
    cache_write: float | None = Field(default=None, ge=0)

    def cost(self, *, input_tokens: int, output_tokens: int, cached_tokens: int = 0, cache_write_tokens: int = 0) -> float:
        """``input_tokens`` is the whole prompt (cached and written parts included)."""
        fresh = max(0, input_tokens - cached_tokens - cache_write_tokens)
        cached_price = self.input if self.cached_input is None else self.cached_input
        write_price = self.input if self.cache_write is None else self.cache_write
        total = fresh * self.input + cached_tokens * cached_price + cache_write_tokens * write_price + output_tokens * self.output
        return round(total / 1_000_000, 8)


def _p(i: float, o: float, c: float | None = None, w: float | None = None) -> ModelPrice:
    return ModelPrice(input=i, output=o, cached_input=c, cache_write=w)


# List prices, USD per 1M tokens. Keys match a model id exactly or as its prefix
# (dated snapshots such as ``gpt-4o-mini-2024-07-18`` find ``gpt-4o-mini``).
BUILTIN: dict[str, ModelPrice] = {
    # OpenAI: cached input is billed at the discounted rate, writes cost nothing extra.
    "gpt-4o": _p(2.50, 10.00, 1.25),
    "gpt-4o-mini": _p(0.15, 0.60, 0.075),
    "gpt-4.1": _p(2.00, 8.00, 0.50),
    "gpt-4.1-mini": _p(0.40, 1.60, 0.10),
    "gpt-4.1-nano": _p(0.10, 0.40, 0.025),
    "gpt-5": _p(1.25, 10.00, 0.125),
    "gpt-5-mini": _p(0.25, 2.00, 0.025),
    "gpt-5-nano": _p(0.05, 0.40, 0.005),
    "o3": _p(2.00, 8.00, 0.50),
    "o3-mini": _p(1.10, 4.40, 0.55),
    "o4-mini": _p(1.10, 4.40, 0.275),
    # Anthropic: reads at 0.1x input, 5-minute writes at 1.25x input.
    "claude-3-haiku": _p(0.25, 1.25, 0.03, 0.30),
    "claude-3-5-haiku": _p(0.80, 4.00, 0.08, 1.00),
    "claude-haiku-4-5": _p(1.00, 5.00, 0.10, 1.25),
    "claude-3-5-sonnet": _p(3.00, 15.00, 0.30, 3.75),
    "claude-3-7-sonnet": _p(3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4": _p(3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4-5": _p(3.00, 15.00, 0.30, 3.75),
    "claude-opus-4": _p(15.00, 75.00, 1.50, 18.75),
    "claude-opus-4-1": _p(15.00, 75.00, 1.50, 18.75),
    "claude-opus-4-5": _p(5.00, 25.00, 0.50, 6.25),
}


class PriceTable:
    """Built-in prices overlaid with the user's. Lookup tries ``backend:model``, then
    the model id, then the longest key the id starts with (a dated snapshot), so a
    user can price one server's ``llama3`` without pricing every ``llama3``."""

    def __init__(self, overrides: Mapping[str, ModelPrice] | None = None, *, builtin: bool = True):
        self.prices: dict[str, ModelPrice] = dict(BUILTIN) if builtin else {}
        self.prices.update(overrides or {})

    def lookup(self, model: str, backend: str | None = None) -> ModelPrice | None:
        """The price of ``model`` served by ``backend``. A ``litellm`` model the table
        lacks is priced from LiteLLM's own map (``agents.llm.litellm_prices``); a
        ``langchain`` spec's ``PROVIDER:MODEL`` is priced as ``MODEL``."""
        found = self._lookup(model, backend)
        if found is None and backend == "langchain" and ":" in model:
            found = self._lookup(model.split(":", 1)[1], backend)
        if found is None and backend == "litellm":
            from agents.llm.litellm_prices import litellm_price

            found = litellm_price(model)
        return found

    def _lookup(self, model: str, backend: str | None) -> ModelPrice | None:
        if backend and f"{backend}:{model}" in self.prices:
            return self.prices[f"{backend}:{model}"]
        if model in self.prices:
            return self.prices[model]
        base = model.rsplit("/", 1)[-1]  # routers name models "vendor/model"
        best = None
        for key in self.prices:
            if ":" in key:
                continue
            if (base == key or base.startswith(key + "-")) and (best is None or len(key) > len(best)):
                best = key
        return self.prices[best] if best is not None else None

    def cost(self, model: str, backend: str | None, **tokens: int) -> float | None:
        price = self.lookup(model, backend)
        if price is None:
            return None
        return price.cost(**tokens)

    @classmethod
    def from_file(cls, path: str | Path) -> "PriceTable":
        return cls(load_prices(path))


def load_prices(path: str | Path) -> dict[str, ModelPrice]:
    """A YAML or JSON mapping of model id -> ``{input, output, cached_input?, cache_write?}``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise PriceError(f"cannot read price file {p}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise PriceError(f"cannot read price file {p}: not UTF-8 text (byte {e.start})") from None
    try:
        raw: Any = json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as e:
        raise PriceError(f"price file {p} is not valid {'JSON' if p.suffix.lower() == '.json' else 'YAML'}: {e}") from None
    if isinstance(raw, dict) and set(raw) == {"models"} and isinstance(raw["models"], dict):
        raw = raw["models"]
    if not isinstance(raw, dict):
        raise PriceError(f"price file {p} must map model ids to prices, e.g. 'gpt-4o-mini: {{input: 0.15, output: 0.6}}'")
    out: dict[str, ModelPrice] = {}
    for model, entry in raw.items():
        try:
            out[str(model)] = ModelPrice.model_validate(entry)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            raise PriceError(f"price file {p}: model '{model}'{' field ' + where if where else ''}: {first['msg']}") from None
    return out


DEFAULT_TABLE = PriceTable()


def table_from(path: str | None) -> "PriceTable":
    """The built-in prices overlaid with a user's ``prices:`` file; ``PriceError`` if it
    cannot be read. Game files and tournament configs both name such a file."""
    if path is None:
        return DEFAULT_TABLE
    return PriceTable.from_file(path)

"""What a call costs: a price table per model, in US dollars per million tokens.

Prices change more often than code, so the built-in table is only a starting point
(list prices as published by the vendors, checked 2026-12-01) and a user file overrides or extends
it (``prices:`` in the game file, ``--prices`` on the command line). A model with no
price is not guessed at: its cost is ``None`` and the record says the price was
unknown, so a leaderboard never shows a made-up figure as a real one. One exception
is not a guess: a model the table does not price, served on this machine (a loopback
address: ``werewolf model serve``, llama.cpp, Ollama), is billed by nobody and costs $0.
A priced model keeps its price wherever it is reached (a local proxy to a paid API).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agents.llm.litellm_prices import litellm_price
from agents.llm.model_ids import entry_for
import transcripts.bounded as bounded


class PriceError(ValueError):
    """A price file that cannot be used; the message says why."""


class ModelPrice(BaseModel):
    """USD per 1M tokens. ``cached_input`` is a prompt-cache read, ``cache_write`` a
    cache write (Anthropic bills it above the input price); each defaults to
    ``input`` when a vendor does not distinguish it."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # ".inf" or "1e999": every cost would be one

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


ON_THIS_MACHINE = _p(0, 0)  # an unpriced model served on a loopback address: nobody bills it


def on_this_machine(url: str | None) -> bool:
    """Whether ``url`` names a server on this machine (``localhost`` or a loopback IP);
    a private network's server may be someone's paid gateway, so it is not one."""
    try:
        host = urlsplit(url or "").hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# List prices, USD per 1M tokens, as of 2026-12-01. Keys match a model id exactly or
# as a dated snapshot (``gpt-5.4-mini-2026-03-17`` finds ``gpt-5.4-mini``; a later
# version such as ``claude-opus-5-5`` never finds ``claude-opus-5``: see
# ``agents.llm.model_ids``). Models the vendors have shut down are left out, so a
# retired name reads "price unknown" rather than a stale figure; models announced for
# shutdown keep their price until then (dates in the comments, from the SDKs' own
# deprecation notes). ``tests/test_model_names.py`` checks that every model the project
# suggests is priced here and not deprecated.
BUILTIN: dict[str, ModelPrice] = {
    # OpenAI, Standard tier, prompts under 270K tokens: https://developers.openai.com/api/docs/pricing
    # (the gpt-5.x rows as read from that page by tokenmix.ai/blog/openai-api-cost-2026-gpt-5-5-5-4-nano-batch
    # and benchlm.ai/blog/posts/openai-api-pricing). Cached input is billed at the
    # discounted rate (0.1x on gpt-5.x), writes cost nothing extra.
    "gpt-5.5": _p(5.00, 30.00, 0.50),
    "gpt-5.4": _p(2.50, 15.00, 0.25),
    "gpt-5.4-mini": _p(0.75, 4.50, 0.075),
    "gpt-5.4-nano": _p(0.20, 1.25, 0.02),  # deprecated: shutdown 2027-04-01
    "gpt-5.2": _p(1.75, 14.00, 0.175),
    "gpt-5.1": _p(1.25, 10.00, 0.125),  # deprecated: shutdown 2027-04-01
    "gpt-5": _p(1.25, 10.00, 0.125),  # deprecated: shutdown 2026-12-11
    "gpt-5-mini": _p(0.25, 2.00, 0.025),  # deprecated: shutdown 2026-12-11
    "gpt-5-nano": _p(0.05, 0.40, 0.005),  # deprecated: shutdown 2026-12-11
    "o3": _p(2.00, 8.00, 0.50),  # deprecated: shutdown 2026-12-11
    "gpt-4.1": _p(2.00, 8.00, 0.50),  # deprecated: shutdown 2027-01-14
    "gpt-4.1-mini": _p(0.40, 1.60, 0.10),  # deprecated: shutdown 2027-01-14
    "gpt-4o": _p(2.50, 10.00, 1.25),  # deprecated: shutdown 2027-01-14
    "gpt-4o-mini": _p(0.15, 0.60, 0.075),  # deprecated: shutdown 2027-01-14
    # (shut down 2026-10-23 and so left out: gpt-4.1-nano, o3-mini, o4-mini, o1.)
    # Anthropic, base input / output, cache hits, 5-minute cache writes:
    # https://platform.claude.com/docs/en/about-claude/pricing
    "claude-haiku-4-5": _p(1.00, 5.00, 0.10, 1.25),
    "claude-sonnet-4-6": _p(3.00, 15.00, 0.30, 3.75),
    "claude-opus-4-5": _p(5.00, 25.00, 0.50, 6.25),  # deprecated: end of life 2027-01-22
    "claude-opus-4-6": _p(5.00, 25.00, 0.50, 6.25),
    "claude-opus-4-7": _p(5.00, 25.00, 0.50, 6.25),
    "claude-opus-4-8": _p(5.00, 25.00, 0.50, 6.25),
    "claude-opus-5": _p(5.00, 25.00, 0.50, 6.25),
    "claude-fable-5": _p(10.00, 50.00, 1.00, 12.50),
    "claude-mythos-5": _p(10.00, 50.00, 1.00, 12.50),  # limited availability
    "claude-fable-5-1": _p(10.00, 50.00, 0.25, 12.50),
    "claude-mythos-5-1": _p(10.00, 50.00, 0.25, 12.50),  # limited availability
    # Model pages https://platform.claude.com/docs/en/models/sonnet-5-5/overview and
    # .../about-claude/models/whats-new-opus-5 ($2/$10 Sonnet 5 and 5.5, $4/$20 Opus 5.5);
    # cache hits at 0.05x input on Opus 5.5 and, since Anthropic's cut of 2026-10-07,
    # on Sonnet 5.5 (github.com/kurofune/claudit/releases/tag/v1.9.2 and v1.8.2).
    "claude-sonnet-5": _p(2.00, 10.00, 0.20, 2.50),
    "claude-sonnet-5-5": _p(2.00, 10.00, 0.10, 2.50),
    "claude-opus-5-5": _p(4.00, 20.00, 0.20, 5.00),
    # Google Gemini (for langchain:google_genai:... seats), Standard tier:
    # https://ai.google.dev/gemini-api/docs/pricing as listed by modelpedia.dev/google/gemini-3.1-flash-lite-preview
    "gemini-3.1-flash-lite": _p(0.25, 1.50, 0.025),
    # Not priced: claude-haiku-5-5 (billed in two bands by prompt length, which one
    # rate per token cannot express: add it in a prices file), claude-fable-5-2 and
    # claude-mythos-5-2 (no published price found). Left out as retired on the Claude API:
    # claude-sonnet-4-5 (end of life 2026-11-30), claude-opus-4 and 4-1 (the pricing page:
    # "retired, except on Bedrock and Google Cloud"), and claude-sonnet-4 and every
    # claude-3-* model, which anthropic 2.14's model list no longer names.
}


class PriceTable:
    """Built-in prices overlaid with the user's. Lookup tries ``backend:model``, then
    the model id, then the key the id is a dated snapshot of, so a
    user can price one server's ``llama3`` without pricing every ``llama3``."""

    def __init__(self, overrides: Mapping[str, ModelPrice] | None = None, *, builtin: bool = True):
        self.prices: dict[str, ModelPrice] = dict(BUILTIN) if builtin else {}
        self.prices.update(overrides or {})

    def lookup(self, model: str, backend: str | None = None, endpoint: str | None = None) -> ModelPrice | None:
        """The price of ``model`` served by ``backend`` at ``endpoint``. A ``litellm``
        model the table lacks is priced from LiteLLM's own map
        (``agents.llm.litellm_prices``); a ``langchain`` spec's ``PROVIDER:MODEL`` is
        priced as ``MODEL``; any other unpriced model on this machine costs nothing."""
        found = self._lookup(model, backend)
        if found is None and backend == "langchain" and ":" in model:
            found = self._lookup(model.split(":", 1)[1], backend)
        if found is None and backend == "litellm":
            listed = litellm_price(model)
            found = None if listed is None else ModelPrice(**listed)
        if found is None and on_this_machine(endpoint):
            found = ON_THIS_MACHINE
        return found

    def _lookup(self, model: str, backend: str | None) -> ModelPrice | None:
        if backend and f"{backend}:{model}" in self.prices:
            return self.prices[f"{backend}:{model}"]
        if model in self.prices:
            return self.prices[model]
        best = entry_for(model, (k for k in self.prices if ":" not in k))
        return self.prices[best] if best is not None else None

    def cost(self, model: str, backend: str | None, endpoint: str | None = None, **tokens: int) -> float | None:
        price = self.lookup(model, backend, endpoint)
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
        text = bounded.read_text(p, bounded.PRICE_TABLE)
    except OSError as e:
        raise PriceError(f"cannot read price file {p}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise PriceError(f"cannot read price file {p}: not UTF-8 text (byte {e.start})") from None
    try:
        raw: Any = bounded.loads(text, bounded.format_of(p))
    except bounded.InputError as e:
        raise PriceError(f"price file {p}: {e}") from None
    if isinstance(raw, dict) and set(raw) == {"models"} and isinstance(raw["models"], dict):
        raw = raw["models"]
    if not isinstance(raw, dict):
        raise PriceError(f"price file {p} must map model ids to prices, e.g. 'gpt-5.4-mini: {{input: 0.75, output: 4.5}}'")
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

"""LiteLLM's price map, read as data: prices for the models the built-in table lacks.

LiteLLM ships a JSON map of thousands of models (``model_prices_and_context_window
_backup.json``, USD per token). It is read straight from the installed package,
without importing LiteLLM (slow, and it would fetch the map's newest copy from the
network), and only for ``litellm:`` seats, whose model names are LiteLLM's own. No
LiteLLM installed, or a model it does not price: no price, never a guess.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

MAP_FILE = "model_prices_and_context_window_backup.json"
PER_MILLION = 1_000_000


@lru_cache(maxsize=1)
def cost_map() -> dict[str, Any]:
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return {}
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(list(spec.submodule_search_locations)[0]) / MAP_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _number(v: Any) -> float | None:
    return float(v) * PER_MILLION if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 else None


def litellm_price(model: str) -> dict[str, float | None] | None:
    """The prices of ``model`` in LiteLLM's map (``groq/openai/gpt-oss-20b``, then
    without its provider prefix), in USD per million tokens as ``ModelPrice``'s
    fields name them (``agents.llm.pricing`` builds one: this module is the table's
    source, not its user), or ``None``."""
    table = cost_map()
    for key in (model, model.split("/", 1)[1] if "/" in model else None):
        entry = table.get(key) if key else None
        if not isinstance(entry, dict) or entry.get("mode") not in (None, "chat", "completion", "responses"):
            continue
        i, o = _number(entry.get("input_cost_per_token")), _number(entry.get("output_cost_per_token"))
        if i is None or o is None:
            continue
        return {
            "input": round(i, 6),
            "output": round(o, 6),
            "cached_input": _round(_number(entry.get("cache_read_input_token_cost"))),
            "cache_write": _round(_number(entry.get("cache_creation_input_token_cost"))),
        }
    return None


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 6)

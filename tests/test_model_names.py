"""Every model the project suggests is priced and not deprecated by its vendor.

"Suggests" means what a user copies: the specs' examples in error messages, the web
form's model list, the benchmarks' runs, and every ``vendor:model`` spec written in the
README, docs/, examples/ and the web pages. Deprecation is the installed SDKs' own word:
anthropic's ``DEPRECATED_MODELS`` (the list its client warns from) and the "Deprecated
values" of openai's ``ChatModel``. A new SDK that deprecates a suggested model fails
this test, which is the point: the suggestion, the price table and the docs move then.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from agents.llm.specs import _EXAMPLE
from agents.llm.pricing import DEFAULT_TABLE
from arena.web.table_form import MODEL_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
SPEC = re.compile(r"\b(openai|anthropic|langchain|litellm):([-A-Za-z0-9_./:@]+)")
# Where a user reads a spec to copy (MODEL_CACHE.md's tables are past measurements).
WRITTEN = ["README.md", "CONTRIBUTING.md", "docs/*.md", "examples/**/*.yaml", "arena/web/static/*", "arena/**/*.py", "agents/**/*.py", "benchmarks/*.py"]
LOCAL_LITELLM = re.compile(r"^(ollama|ollama_chat|hosted_vllm|lm_studio|llamafile)/")  # LiteLLM's local servers' prefixes
VENDOR_IDS = re.compile(r"^(gpt-|o\d|claude-|gemini-|(?:[a-z]{2,6}\.)?anthropic\.claude-)")


def openai_deprecated() -> set[str]:
    from openai.types.shared import chat_model

    source = inspect.getsource(chat_model)
    block = source.split("Deprecated values:", 1)[1]
    return set(re.findall(r'"([^"\s]+)"', block))


def anthropic_deprecated() -> set[str]:
    from anthropic._data import DEPRECATED_MODELS

    return set(DEPRECATED_MODELS)


def benchmark_models() -> list[str]:
    """The (asked, priced) models of ``benchmarks/llm_orchestration.py``'s RUNS, read
    without running the benchmark's imports."""
    tree = ast.parse((ROOT / "benchmarks" / "llm_orchestration.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "RUNS" for t in node.targets):
            runs = ast.literal_eval(node.value)
            return [f"{vendor}:{m}" for vendor, pairs in runs.items() for asked, priced in pairs for m in [asked, *priced]]
    raise AssertionError("benchmarks/llm_orchestration.py has no RUNS")


def written_specs() -> set[str]:
    found: set[str] = set()
    for pattern in WRITTEN:
        for path in ROOT.glob(pattern):
            if path.is_file() and path.suffix in (".md", ".yaml", ".py", ".js", ".html", ".json"):
                found.update(f"{v}:{m.rstrip('.:,')}" for v, m in SPEC.findall(path.read_text(encoding="utf-8")))
    return found


def suggested() -> list[str]:
    specs = {_EXAMPLE["openai"], _EXAMPLE["anthropic"], *MODEL_EXAMPLES, *benchmark_models(), *written_specs()}
    out = []
    for spec in specs:
        vendor, _, model = spec.partition(":")
        named = model.split(":", 1)[1] if vendor == "langchain" and ":" in model else model
        if not named:  # a back end named alone (`litellm:`), no model suggested
            continue
        # Placeholders (MODEL, PROVIDER:MODEL), local servers' models (openai:smollm2,
        # litellm:ollama_chat/qwen3) and the stand-ins (litellm:openai/standin) are not
        # a vendor's model ids.
        if vendor == "litellm" and (LOCAL_LITELLM.match(named) or "standin" in named):
            continue
        if (vendor == "litellm" and not re.fullmatch(r"[A-Z_.]+", named)) or VENDOR_IDS.match(named):
            out.append(spec)
    return sorted(out)


def test_the_scan_finds_the_suggestions():
    found = suggested()
    assert {"openai:gpt-5.4-mini", "anthropic:claude-haiku-4-5", "anthropic:claude-sonnet-4-6", "openai:gpt-5.5"} <= set(found)
    assert set(MODEL_EXAMPLES) - {s for s in MODEL_EXAMPLES if s.startswith("litellm:")} <= set(found)


@pytest.mark.parametrize("spec", suggested())
def test_a_suggested_model_is_priced_and_current(spec):
    vendor, _, model = spec.partition(":")
    if vendor == "litellm" and importlib.util.find_spec("litellm") is None:
        pytest.skip("litellm: models are priced from LiteLLM's own map, and LiteLLM is not installed")
    assert DEFAULT_TABLE.lookup(model, vendor) is not None, f"{spec} has no price in agents/llm/pricing.py"
    named = model.split(":", 1)[1] if vendor == "langchain" else model
    assert named not in openai_deprecated(), f"{spec}: the openai SDK lists {named} as deprecated"
    assert named not in anthropic_deprecated(), f"{spec}: the anthropic SDK lists {named} as deprecated"


def test_the_deprecation_lists_are_read():
    # Guards the two readers above: an SDK that moved its list would make every check pass.
    # Which models a list names changes with each release (anthropic 2.15 dropped
    # claude-sonnet-4-5 from it once the model was shut down), so the guard is its shape.
    assert "gpt-4o-mini" in openai_deprecated() and "gpt-5.4-mini" not in openai_deprecated()
    listed = anthropic_deprecated()
    assert listed and all(m.startswith("claude-") for m in listed) and "claude-haiku-4-5" not in listed


def test_no_priced_model_is_one_the_sdks_no_longer_name():
    """The price table keeps deprecated models until their shutdown (users may still
    call them), but none the SDKs' model lists have dropped (claude-3-*)."""
    from typing import get_args

    from anthropic.types.model_param import ModelParam
    from openai.types.shared.chat_model import ChatModel

    anthropic_ids = {a for arg in get_args(ModelParam) for a in get_args(arg)}
    openai_ids = set(get_args(ChatModel))
    for key in DEFAULT_TABLE.prices:
        if key.startswith("claude-"):
            assert key in anthropic_ids, key
        elif key.startswith(("gpt-", "o1", "o3", "o4")):
            assert key in openai_ids, key

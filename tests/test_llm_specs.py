"""Model specs beyond openai:/anthropic: ``langchain:PROVIDER:MODEL``,
``langchain:MODULE:FACTORY`` and ``litellm:MODEL``, from every entry point (game
file, ``--seat``, tournament, web form), and LiteLLM's prices for unknown models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from agents.llm import make_llm_agent, split_spec
from agents.llm.backends.base import PING
from agents.llm.langchain_spec import PROVIDERS, chat_model_from_spec
from agents.llm.config import LLMOptions
from agents.llm.pricing import DEFAULT_TABLE, PriceTable
from arena.cli import main
from arena.gamefile import GameFileError, spec_from_data
from arena.tournament.config import ConfigError, config_from_data
from arena.tournament.run import run_tournament
from llm_standins import OpenAIStandIn, reset_llm_state, set_fake_keys, standin_router

ROOT = Path(__file__).resolve().parents[1]
FAST = {"max_retries": 0, "retry_initial": 0, "timeout": 5}


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    set_fake_keys(monkeypatch)
    reset_llm_state()
    yield
    reset_llm_state()


def _table(agent: str, options: dict | None = None, n: int = 5) -> dict:
    seats = [{"name": f"P{i}", "agent": "heuristic"} for i in range(n)]
    seats[0] = {"name": "P0", "agent": agent, **({"options": options} if options else {})}
    return {"preset": "millers_hollow", "seed": 4, "options": {"sheriff": False}, "seats": seats}


def _calls(transcript: Path) -> list[dict]:
    return [r for r in map(json.loads, transcript.read_text().splitlines()) if r["type"] == "call"]


# ---------------------------------------------------------------------- langchain:MODULE:FACTORY
def test_a_factory_plays_from_a_game_file(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text(yaml.safe_dump(_table("langchain:lc_factories:schema_model", FAST)))
    out = tmp_path / "g.jsonl"
    assert main(["play", str(game), "--transcript", str(out), "--json"]) == 0
    calls = _calls(out)
    assert calls and {c["backend"] for c in calls} == {"langchain"} and all(c["accepted"] for c in calls)
    assert main(["verify", str(out)]) == 0


def test_fake_chat_models_of_langchain_itself(tmp_path):
    """LangChain's FakeListChatModel through the text path, and a model object named
    directly (no call): both seat and finish a game."""
    for spec in ("langchain:lc_factories:fake_list", "langchain:lc_factories:READY"):
        game = tmp_path / "g.yaml"
        game.write_text(yaml.safe_dump(_table(spec, FAST)))
        out = tmp_path / f"{spec.rsplit(':', 1)[1]}.jsonl"
        assert main(["play", str(game), "--transcript", str(out), "--json"]) == 0
        assert {c["backend"] for c in _calls(out)} == {"langchain"}


def test_seat_flag_and_web_form_take_langchain_specs(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    assert main(["play", "--players", "5", "--seed", "2", "--option", "sheriff=false",
                 "--seat", "Alice=langchain:lc_factories:schema_model", "--transcript", str(out), "--json"]) == 0  # fmt: skip
    header = json.loads(out.read_text().splitlines()[0])
    assert any(s["agent"] == "langchain:lc_factories:schema_model" for s in header["seats"])
    from arena.web.table_form import setup_choices, table_spec

    spec, _ = table_spec({"seats": [{"name": f"S{i}", "agent": "langchain:lc_factories:schema_model" if i == 0 else "heuristic"} for i in range(5)]})
    assert spec.seats[0].is_model
    assert any(m.startswith("langchain:") for m in setup_choices()["models"])


@pytest.mark.parametrize(
    "spec, options, words",
    [
        ("langchain:openai", None, "needs two parts"),
        ("langchain:lc_factories:not_a_model", None, "returned str, not a LangChain BaseChatModel"),
        ("langchain:lc_factories:missing", None, "lc_factories has no missing"),
        ("langchain:lc_factories:schema_model", {"temperature": 0.3}, "set temperature in the factory"),
        ("langchain:no_such_module_xyz:make", None, "neither a provider"),
        ("langchain:mistralai:mistral-small-latest", None, "pip install langchain-mistralai"),
    ],
)
def test_bad_langchain_specs_are_named(spec, options, words):
    if "mistralai" in spec and _installed("langchain_mistralai"):
        pytest.skip("langchain-mistralai is installed here")
    with pytest.raises(GameFileError, match=words):
        spec_from_data(_table(spec, options)).build()


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


# ---------------------------------------------------------------------- langchain:PROVIDER:MODEL
def test_a_provider_package_at_the_local_stand_in(tmp_path):
    """``langchain:openai:MODEL`` builds langchain-openai's ChatOpenAI, which talks to
    the OpenAI stand-in through the real SDK; its retries are left to this project."""
    pytest.importorskip("langchain_openai")
    data = {"name": "lc", "seed": 2, "games": 2, "seating": "teams", "concurrency": {"games": 1},
            "tables": [{"players": 5, "options": {"sheriff": False}}],
            "participants": [{"name": "LC", "agent": "langchain:openai:gpt-5.4-mini", "options": FAST},
                             {"name": "Bot", "agent": "heuristic"}]}  # fmt: skip
    db = tmp_path / "lc.sqlite"
    with standin_router() as router:
        api = OpenAIStandIn(router)
        report = run_tournament(config_from_data(data), db, progress=False)
    assert report.played == 2 and api.requests
    assert all(r["model"] == "gpt-5.4-mini" for r in api.requests)
    import sqlite3

    calls, cost = sqlite3.connect(db).execute("SELECT SUM(calls), SUM(cost_usd) FROM seats WHERE participant = 'LC'").fetchone()
    # Besides the games' calls, the check before the run: one short call (LangChain has no model lookup).
    checks = [r for r in api.requests if r["messages"] == [{"role": "user", "content": PING}]]
    assert len(checks) == 1 and api.requests[0] is checks[0]
    assert calls == len(api.requests) - 1 and cost > 0  # priced from the built-in table as gpt-5.4-mini
    model = chat_model_from_spec("openai:smollm2", LLMOptions(timeout=7, temperature=0.2, max_tokens=99))
    assert (model.max_retries, model.request_timeout, model.temperature, model.max_tokens) == (0, 7, 0.2, 99)
    # langchain-openai drops a temperature other than 1 for gpt-5 models, which accept
    # one only with reasoning effort "none"; the other options still arrive.
    model = chat_model_from_spec("openai:gpt-5.4-mini", LLMOptions(timeout=7, temperature=0.2, max_tokens=99))
    assert (model.max_retries, model.request_timeout, model.temperature, model.max_tokens) == (0, 7, None, 99)


def test_tournament_files_check_langchain_specs():
    with pytest.raises(ConfigError, match="needs two parts"):
        config_from_data({"name": "t", "games": 1, "tables": [{"players": 5}],
                          "participants": [{"name": "A", "agent": "langchain:openai"}, {"name": "B", "agent": "random"}]})  # fmt: skip
    cfg = config_from_data({"name": "t", "games": 1, "tables": [{"players": 5}], "budget_usd": 1.0,
                            "participants": [{"name": "A", "agent": "langchain:openai:gpt-5.4-mini"}, {"name": "B", "agent": "random"}]})  # fmt: skip
    cfg.check_budget()  # the provider's model has a price
    assert split_spec("langchain:lc_factories:schema_model") == ("langchain", "lc_factories:schema_model")
    assert {"openai", "anthropic", "google_genai", "bedrock_converse", "mistralai", "groq", "ollama"} <= set(PROVIDERS)


# ---------------------------------------------------------------------- litellm:MODEL
def test_litellm_prices_fill_the_table_and_never_override_it():
    from agents.llm.litellm_prices import cost_map, litellm_price

    if not cost_map():
        pytest.skip("litellm is not installed")
    unknown = "groq/openai/gpt-oss-20b"
    assert DEFAULT_TABLE.lookup(unknown, "openai") is None  # other back ends do not guess
    price = DEFAULT_TABLE.lookup(unknown, "litellm")
    entry = cost_map()[unknown]
    assert price.input == pytest.approx(entry["input_cost_per_token"] * 1e6)
    assert price.output == pytest.approx(entry["output_cost_per_token"] * 1e6)
    assert DEFAULT_TABLE.lookup("openai/gpt-5.4-mini", "litellm") == DEFAULT_TABLE.lookup("gpt-5.4-mini")  # built-in first
    from agents.llm.pricing import ModelPrice

    mine = PriceTable({unknown: ModelPrice(input=9, output=9)})
    assert mine.lookup(unknown, "litellm").input == 9  # a user's price wins
    assert litellm_price("groq/canopylabs/orpheus-v1-english") is None  # not a chat model: no price
    # Read as data: LiteLLM itself is not imported. Checked in a fresh interpreter, since
    # another test's LiteLLM seat may have imported it into this one.
    probe = "import sys; from agents.llm.litellm_prices import cost_map, litellm_price; cost_map(); litellm_price('groq/openai/gpt-oss-20b'); print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False", out.stdout + out.stderr


@pytest.mark.slow  # importing LiteLLM takes 10-25 s on a loaded 2-core machine
def test_litellm_plays_against_the_local_server_with_its_prices(tmp_path, monkeypatch):
    if not _installed("litellm"):  # not importorskip: importing it here would fetch its price map
        pytest.skip("litellm is not installed")
    from arena.standin_server import StandInServer

    monkeypatch.setenv("STANDIN_KEY", "sk-standin-secret")
    model = "deepseek/deepseek-chat"  # priced by LiteLLM's map only
    with StandInServer(latency=0) as api:
        table = _table(f"litellm:{model}", {**FAST, "base_url": api.base_url, "api_key_env": "STANDIN_KEY"})
        game = tmp_path / "g.yaml"
        game.write_text(yaml.safe_dump(table))
        out = tmp_path / "g.jsonl"
        assert main(["play", str(game), "--transcript", str(out), "--json", "--trust-endpoints"]) == 0  # the test's own file: trusted on purpose
    calls = _calls(out)
    # Besides the game's calls, the check before it: one one-token call (LiteLLM has no model lookup).
    assert PING in api.requests[0].text and not any(PING in r.text for r in api.requests[1:])
    assert calls and len(calls) == len(api.requests) - 1 and all(c["accepted"] for c in calls)
    price = DEFAULT_TABLE.lookup(model, "litellm")
    c = calls[0]
    assert c["backend"] == "litellm" and c["price_known"] and c["cost_usd"] == pytest.approx(
        price.cost(input_tokens=c["input_tokens"], output_tokens=c["output_tokens"], cached_tokens=c["cached_tokens"] or 0), abs=1e-8
    )
    assert "sk-standin-secret" not in out.read_text()
    assert main(["verify", str(out)]) == 0
    agent = make_llm_agent(f"litellm:{model}", "X", options=FAST)
    assert agent.backend.endpoint == "litellm:deepseek"


@pytest.mark.parametrize("spec", ["os:abort", "subprocess:getoutput", "builtins:input"])
def test_a_factory_spec_never_calls_the_standard_library(spec):
    """A spec may come from a file someone sent: ``langchain:os:abort`` must not run."""
    from agents.llm.config import LLMOptions
    from agents.llm.langchain_spec import _from_factory

    module, attr = spec.split(":")
    with pytest.raises(ValueError, match="not in the standard library"):
        _from_factory(module, attr, LLMOptions())

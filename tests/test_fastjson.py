"""``arena.fastjson.loads`` reads what ``json.dumps`` writes, as ``json.loads`` does:
the tournament store writes NaN (``json.dumps`` allows it), which orjson refuses."""

from __future__ import annotations

import json
import math

import pytest

from arena.fastjson import loads
from arena.ratings.from_db import load_behaviour


@pytest.mark.parametrize("value", [{"a": 1, "b": [1.5, None, "x"]}, {"big": 2**70}, {"n": float("nan")}, [], "s"])
def test_same_values_as_the_standard_parser(value):
    text = json.dumps(value)
    got, want = loads(text), json.loads(text)
    if isinstance(want, dict) and "n" in want:
        assert math.isnan(got["n"])
    else:
        assert got == want and type(got) is type(want)


def test_text_that_is_not_json_is_refused_in_jsons_words():
    with pytest.raises(json.JSONDecodeError, match="Expecting"):
        loads("{not json")


def test_a_seat_whose_stored_metrics_hold_nan_does_not_stop_the_leaderboard():
    class Store:
        def seat_metrics(self):
            yield "bot", "village", json.dumps({"rounds": float("nan")})
            yield "bot", "werewolves", None

    assert set(load_behaviour(Store())) == {"bot"}  # type: ignore[arg-type]

"""``transcripts.bounded``, the one reader of what comes from outside (issue 45): its
JSON reads what ``json.dumps`` writes as ``json.loads`` does (the tournament store
writes NaN, which orjson refuses), and every reading stops at its bounds with the
line and column: nesting, a number's digits, a file's bytes and a line's."""

from __future__ import annotations

import json
import math
import os

import pytest

from arena.ratings.from_db import load_behaviour
from arena.tournament.store import Store as RealStore
import transcripts.bounded as bounded
from transcripts.bounded import MAX_DEPTH, MAX_DIGITS, InputError, TooLarge, loads_json, loads_yaml


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "careful"])
@pytest.mark.parametrize("value", [{"a": 1, "b": [1.5, None, "x"]}, {"n": float("nan")}, [], "s", {"deep": [[[[{"x": -0.0}]]]]}])
def test_same_values_as_the_standard_parser(value, fast):
    text = json.dumps(value)
    got, want = loads_json(text, fast=fast), json.loads(text)
    if isinstance(want, dict) and "n" in want:
        assert math.isnan(got["n"])
    else:
        assert got == want and json.dumps(got) == json.dumps(want)


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "careful"])
def test_a_big_integer_is_exact_either_way(fast):
    """orjson reads an integer of 2**64 or more as a float: such text goes the careful way."""
    for n in (2**64, 2**70 + 1, -(10**99)):
        got = loads_json(json.dumps({"big": n}), fast=fast)["big"]
        assert got == n and type(got) is int


def test_text_that_is_not_json_is_refused_in_jsons_words():
    with pytest.raises(InputError, match="invalid JSON at line 1, column 2: Expecting"):
        loads_json("{not json")
    with pytest.raises(InputError, match="invalid JSON at line 3, column 1"):
        loads_json('{"a":\n1,\n}', fast=True)


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "careful"])
def test_nesting_is_bounded_where_it_goes_too_deep(fast):
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, fast=fast)
    for depth in (MAX_DEPTH + 1, 1_000, 1_025, 200_000):
        with pytest.raises(InputError, match=f"line 2, column {MAX_DEPTH}: nested deeper than {MAX_DEPTH} levels"):
            loads_json("{\n" + "[" * depth + "]" * depth + "}", fast=fast, first_line=1)
    # Brackets in a string are no levels.
    assert loads_json(json.dumps({"a": "[" * 5000}), fast=fast) == {"a": "[" * 5000}


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "careful"])
def test_a_number_of_too_many_digits_is_refused_where_it_is(fast):
    for digits in (MAX_DIGITS + 1, 4_301, 100_000):
        with pytest.raises(InputError, match=f"line 6, column 8: a number of more than {MAX_DIGITS} digits"):
            loads_json('{"a":\n  "' + "9" * 5000 + '",\n  "b": 1\n}\n  "c": ' + "1" * digits, fast=fast, first_line=2)
    assert loads_json("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)


def test_strict_json_has_no_nan_and_no_infinity():
    for text, word in (('{"a": NaN}', "NaN"), ("[-Infinity]", "-Infinity"), ("[1e999]", "1e999")):
        assert loads_json(text) is not None
        with pytest.raises(InputError, match=f"{word} is not JSON"):
            loads_json(text, strict=True)
    assert loads_json('["NaN", {"Infinity": -1.5e300}]', strict=True) == ["NaN", {"Infinity": -1.5e300}]


def test_yaml_is_bounded_as_it_is_composed():
    assert loads_yaml("- " * MAX_DEPTH + "x")
    with pytest.raises(InputError, match=f"nested deeper than {MAX_DEPTH} levels") as e:
        loads_yaml("a: 1\nb: " + "[" * 50_000 + "]" * 50_000)
    assert e.value.line == 2 and e.value.syntax is None
    for text in ("seed: 1" + "0" * MAX_DIGITS, "seed: 0x" + "f" * 5000, "seed: " + ":".join(["1"] * 300), "seed: 1." + "1" * 200):
        with pytest.raises(InputError, match=f"line 1, column 7: a number of more than {MAX_DIGITS} digits"):
            loads_yaml(text)
    with pytest.raises(InputError, match="a value that holds itself"):
        loads_yaml("a: &a [*a]")
    with pytest.raises(InputError, match="invalid YAML at line 2"):
        loads_yaml("a: [1, 2\nb: 3")


def test_an_alias_counts_as_deep_as_what_it_stands_for():
    """Levels built of aliases, each within the bound alone, are the value's levels."""
    chain = "a0: &a0 " + "[" * 30 + "1" + "]" * 30 + "\n"
    chain += "".join(f"a{i}: &a{i} " + "[" * 30 + f"*a{i - 1}" + "]" * 30 + "\n" for i in range(1, 5))
    with pytest.raises(InputError, match="line 3, column 39: nested deeper"):
        loads_yaml(chain)


def test_a_file_is_read_to_its_bound_whatever_it_is(tmp_path):
    small = bounded.Bound("a test file", 1000, line=100)
    path = tmp_path / "f"
    path.write_bytes(b"x" * 1000)
    assert len(bounded.read_bytes(path, small)) == 1000
    path.write_bytes(b"x" * 1001)
    with pytest.raises(TooLarge, match="larger than 1,000 bytes, the most a test file may be"):
        bounded.read_bytes(path, small)
    zero = tmp_path / "zero"
    zero.symlink_to("/dev/zero")
    with pytest.raises(TooLarge):
        bounded.read_bytes(zero, small)
    with pytest.raises(TooLarge, match="line 1 is longer than 100 bytes"):
        list(bounded.read_lines(zero, small))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a writer that never closes: the reader stops at the bound
    os.write(writer, b"y" * 2000)
    try:
        with pytest.raises(TooLarge):
            bounded.read_bytes(fifo, small)
    finally:
        os.close(writer)


def test_lines_say_where_they_end(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"b": 2')
    lines = list(bounded.read_lines(path))
    assert [(x.number, x.text, x.ended) for x in lines] == [(1, '{"a": 1}', True), (2, "", True), (3, '{"b": 2', False)]
    path.write_bytes(b"ok\n\xff\n")
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 3 of the file\)") as e:
        list(bounded.read_lines(path))
    assert e.value.line == 2


def test_values_in_hand_are_measured_and_tamed():
    deep: list = []
    inner = deep
    for _ in range(MAX_DEPTH):
        inner.append([])
        inner = inner[0]
    assert bounded.beyond(deep) and bounded.beyond({"n": 10**MAX_DIGITS}) and not bounded.beyond({"n": 10**MAX_DIGITS - 1})
    tamed = bounded.tame({"deep": deep, "n": -(10**200), "ok": [1, "x"]})
    assert bounded.beyond(tamed) is None and tamed["n"] is None and tamed["ok"] == [1, "x"]
    assert "not recorded: nested deeper" in json.dumps(tamed)


def test_a_seat_whose_stored_metrics_hold_nan_does_not_stop_the_leaderboard():
    class Store:
        path = "t.db"
        stored, mapping = RealStore.stored, RealStore.mapping  # how a store reads what it keeps

        def seat_metrics(self):
            yield "bot", "village", json.dumps({"rounds": float("nan")})
            yield "bot", "werewolves", None

    assert set(load_behaviour(Store())) == {"bot"}  # type: ignore[arg-type]

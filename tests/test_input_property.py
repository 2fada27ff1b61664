"""A property of every subcommand's file readers (issue 45): whatever a file holds,
random bytes or a valid file with one value made nested lists or mappings of any depth
past the bound, or a number of any length past it, the command exits 2 with one line
on stderr and no traceback. (A value within the bounds but of the wrong kind is
``tests/test_fuzz_inputs.py``'s: it may be played, or differ from the replay.)

The readers are ``tests/test_input_matrix.READERS`` (a game file, a tournament file,
a transcript, a key, a price table, the user's config), run in-process; a file that
never ends is the matrix's. ``WEREWOLF_FUZZ_SEED=random`` explores new cases."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main
from test_input_bounds import GAME, TOURNAMENT
from test_input_matrix import READERS, folder  # noqa: F401 (the fixture of good files)
from transcripts.bounded import MAX_DEPTH, MAX_DIGITS, RECORD_DEPTH, InputError, loads

SETTINGS = dict(deadline=None, derandomize=os.environ.get("WEREWOLF_FUZZ_SEED") != "random",
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
SLOT = "\u0000SLOT\u0000"  # where the hostile text goes in a file made by json.dumps or yaml.safe_dump


@st.composite
def deep(draw, fmt: str) -> str:
    """Lists and mappings nested past the bound, in JSON's or YAML's flow style, or
    YAML's block style. A transcript's line is held to ``RECORD_DEPTH`` (its record
    wraps what it keeps in levels of its own): a value nested less deep is read, and
    verify then says where the record differs (exit 1)."""
    bound = RECORD_DEPTH if fmt == "jsonl" else MAX_DEPTH
    depth = draw(st.one_of(st.integers(bound + 1, bound + 50), st.integers(bound + 1, 100_000)))
    style = draw(st.sampled_from(["list", "map", "mixed", "block"] if fmt == "yaml" else ["list", "map", "mixed"]))
    if style == "block":
        return "\n" + "".join("  " * i + "- " + ("\n" if i < depth - 1 else "x\n") for i in range(min(depth, 2_000)))
    pattern = draw(st.lists(st.booleans(), min_size=1, max_size=16)) if style == "mixed" else [style == "list"]
    opens = [pattern[i % len(pattern)] for i in range(depth)]  # lists and mappings in turn, as drawn
    head = "".join("[" if o else '{"k": ' for o in opens)
    tail = "".join("]" if o else "}" for o in reversed(opens))
    return head + draw(st.sampled_from(["1", '"x"', "null", ""])) + tail


@st.composite
def huge(draw, fmt: str) -> str:
    digits = draw(st.one_of(st.integers(MAX_DIGITS + 1, MAX_DIGITS + 20), st.integers(MAX_DIGITS + 1, 20_000)))
    sign = draw(st.sampled_from(["", "-"]))
    shape = draw(st.sampled_from(["int", "float", "exp"]))
    number = "1" + "0" * (digits - 1)
    exp = "1.5e+" if fmt == "yaml" else "1.5e"  # YAML 1.1 reads 1.5e10 as a string: its exponent needs a sign
    return sign + {"int": number, "float": number + ".5", "exp": exp + number}[shape]


def places(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += places(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += places(v, prefix + (i,))
    return out


def with_slot(data: Any, where: tuple) -> Any:
    data = json.loads(json.dumps(data))
    parent = data
    for k in where[:-1]:
        parent = parent[k]
    parent[where[-1]] = SLOT
    return data


@st.composite
def hostile(draw, fmt: str, base: Any, good: Path) -> bytes:
    """A file of format ``fmt``: noise, or ``base`` (a transcript: ``good``'s lines)
    with one value made deep or huge."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=500))
    bad = draw(deep(fmt) if draw(st.booleans()) else huge(fmt))
    if fmt == "key":
        return bad.encode()
    if fmt == "jsonl":
        lines = good.read_text().splitlines()
        i = draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[i])
        slot = json.dumps(with_slot(record, draw(st.sampled_from(places(record)))))
        lines[i] = slot.replace(json.dumps(SLOT), bad)
        return ("\n".join(lines) + "\n").encode()
    data = with_slot(base, draw(st.sampled_from(places(base))))
    if fmt == "json":
        return json.dumps(data).replace(json.dumps(SLOT), bad).encode()
    text = yaml.safe_dump(data, default_flow_style=draw(st.booleans()), width=10**9)
    quoted = next(q for q in ("'\\0SLOT\\0'", '"\\0SLOT\\0"', '"\\x00SLOT\\x00"') if q in text)
    return text.replace(quoted, bad.replace("\n", "\n" + " " * 40) if bad.startswith("\n") else bad).encode()


BASES = {"play GAME.yaml": GAME, "play GAME.json": GAME, "tournament CONFIG.yaml": TOURNAMENT, "tournament CONFIG.json": TOURNAMENT,
         "play --prices": {"gpt-5.4-mini": {"input": 0.75, "output": 4.5}}, "your config file": {"trusted_endpoints": [{"base_url": "http://x/v1"}]}}  # fmt: skip
PROPERTY_READERS = [name for name, r in READERS.items() if r.fmt != "key" or name in ("verify --key", "play --sign-key")]


@settings(max_examples=160, **SETTINGS)
@given(data=st.data(), name=st.sampled_from(PROPERTY_READERS))
def test_whatever_a_file_holds_it_is_one_sentence_and_exit_2(folder, tmp_path_factory, monkeypatch, capsys, data, name):  # noqa: F811
    reader = READERS[name]
    tmp = tmp_path_factory.mktemp("p")
    suffix = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl", "key": ".pem"}[reader.fmt]
    path = tmp / f"bad{suffix}"
    path.write_bytes(data.draw(hostile(reader.fmt, BASES.get(name), folder / "partial.jsonl")))
    for k, v in (reader.env(path) if reader.env else {}).items():
        monkeypatch.setenv(k, v)
    argv = [str(a) for a in reader.argv(path, folder)]
    code = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err[-3000:]
    assert code == 2, (argv, code, err[-1500:], path.read_bytes()[:300])
    assert err.count("\n") == 1 and err.startswith(("error: ", "UNREADABLE ")), err[-1500:]


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_the_property_sees_the_bound_itself(fmt):
    """The bounds the strategies step past are the ones the readers hold to."""
    with pytest.raises(InputError):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), fmt.upper())  # type: ignore[arg-type]
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH, fmt.upper())  # type: ignore[arg-type]

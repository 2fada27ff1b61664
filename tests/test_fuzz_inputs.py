"""Fuzzing the files people hand the CLI (issue 12): game files, tournament files and
transcripts, as valid files with one value replaced, deleted or spliced, and as
random bytes. Every command run in-process must end with an exit code the CLI
documents (0 played, 1 a game failed or a record disagrees, 2 bad input, 3 a person
left), never with a traceback on stderr, and never hang (each run is cut at
``LIMIT`` seconds by an alarm, which fails the example)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main

EXITS = {0, 1, 2, 3}
LIMIT = 20  # seconds for one command: far above any bounded game of bots
# Derandomized so CI sees the same cases every run; WEREWOLF_FUZZ_SEED=random explores.
SETTINGS = dict(deadline=None, derandomize=os.environ.get("WEREWOLF_FUZZ_SEED") != "random", suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

GAME = {
    "preset": "millers_hollow",
    "seed": 3,
    "options": {"sheriff": False, "discussion_rounds": 1},
    "seats": [{"name": n, "agent": "random"} for n in ("Alice", "Bob", "Chloe", "David", "Emma", "Farah")],
}
TOURNAMENT = {
    "name": "fuzz",
    "games": 2,
    "seed": 1,
    "tables": [{"preset": "millers_hollow", "players": 6, "options": {"sheriff": False}}],
    "participants": [{"name": "h", "agent": "heuristic"}, {"name": "r", "agent": "random"}],
    "concurrency": {"games": 1, "per_model": {"openai:gpt-5.4-mini": 2}},
}

# Values a careless or hostile author writes: huge, negative, wrong type, a path, a newline.
WORDS = ["", "human", "heuristic", "random", "scripted", "openai:gpt-5.4-mini", "openai:", "../../x", "zh", "village", "forum",
         "werewolf", "seer", "best_of", "a\nb", "x" * 200, "http://127.0.0.1:1/v1", "HOME"]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from([0, 1, 2, 3, 30, 31, 1000, 10**9, 10**11, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    st.text(max_size=20),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(WORDS[:12]), inner, max_size=3), max_leaves=8)


@contextlib.contextmanager
def time_limit(seconds: int):
    def stop(signum, frame):
        raise TimeoutError(f"a command ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def cli(*argv: Any) -> tuple[int, str]:
    """``main(argv)`` in-process, stdin closed (a person seat leaves), stderr kept."""
    err, out = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with time_limit(LIMIT), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main([str(a) for a in argv])
    finally:
        sys.stdin = stdin
    return code, err.getvalue()


def check(code: int, err: str, argv: Any) -> None:
    assert code in EXITS, (argv, code, err[-800:])
    assert "Traceback" not in err, (argv, err[-2000:])
    if code == 2:
        assert err.strip().startswith("error:") or err.startswith("UNREADABLE"), (argv, err[-800:])


# ---------------------------------------------------------------------- mutating a structure
def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in ``data`` a value can be replaced or deleted."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, prefix + (i,))
    return out


@st.composite
def mutated(draw, base: dict) -> dict:
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)))
        parent = data
        for k in where[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "delete" and isinstance(parent, dict):
            parent.pop(where[-1], None)
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["answers", "options", "base_url", "timeout", "roles", "center", "mirror", "games", "prices", "x"]))] = draw(VALUES)
        else:
            parent[where[-1]] = draw(VALUES)
        if not paths(data):
            break
    return data


def as_text(data: Any, suffix: str) -> str:
    if suffix == ".json":
        return json.dumps(data, allow_nan=True)
    return yaml.safe_dump(data, allow_unicode=True)


@st.composite
def spliced(draw, text: str) -> bytes:
    """The file's bytes with a slice cut, repeated or replaced by random bytes."""
    data = text.encode()
    i = draw(st.integers(0, len(data)))
    j = draw(st.integers(i, min(len(data), i + 200)))
    cut = draw(st.sampled_from(["drop", "junk", "repeat"]))
    if cut == "drop":
        return data[:i] + data[j:]
    if cut == "repeat":
        return data[:j] + data[i:j] * draw(st.integers(2, 5)) + data[j:]
    return data[:i] + draw(st.binary(max_size=60)) + data[j:]


def files(base: dict) -> st.SearchStrategy[tuple[str, bytes]]:
    suffix = st.sampled_from([".yaml", ".json"])
    structured = st.tuples(suffix, mutated(base)).map(lambda t: (t[0], as_text(t[1], t[0]).encode()))
    bytewise = suffix.flatmap(lambda s: st.tuples(st.just(s), spliced(as_text(base, s))))
    noise = st.tuples(suffix, st.binary(max_size=400))
    return st.one_of(structured, structured, bytewise, noise)


# ---------------------------------------------------------------------- the three kinds of file
@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    """A mutated seat may become a model: with no key and no server it must say so."""
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


@settings(max_examples=50, **SETTINGS)
@given(case=files(GAME))
def test_game_files(folder, case):
    suffix, data = case
    path = folder / f"game{suffix}"
    path.write_bytes(data)
    argv = ["play", path, "--json", "--quiet"]
    check(*cli(*argv), argv)


@settings(max_examples=40, **SETTINGS)
@given(case=files(TOURNAMENT))
def test_tournament_files(folder, case):
    suffix, data = case
    path = folder / f"tournament{suffix}"
    path.write_bytes(data)
    for db in folder.glob("t.db*"):
        db.unlink()
    for argv in (["tournament", path, "--db", folder / "t.db", "--plan", "--json"], ["tournament", path, "--db", folder / "t.db", "--quiet", "--max-games", "1"]):
        check(*cli(*argv), argv)


@pytest.fixture(scope="module")
def transcript(folder) -> Path:
    path = folder / "source.jsonl"
    code, err = cli("play", *_game_file(folder), "--transcript", path, "--json", "--quiet")
    assert code == 0, err
    return path


def _game_file(folder: Path) -> list[Path]:
    p = folder / "source.yaml"
    p.write_text(yaml.safe_dump({**GAME, "seats": [{**s, "agent": "heuristic"} for s in GAME["seats"]]}))
    return [p]


@st.composite
def transcripts(draw, text: str) -> bytes:
    rows = text.splitlines()
    kind = draw(st.sampled_from(["record", "record", "lines", "bytes", "noise"]))
    if kind == "record":  # one record with a value replaced, deleted or added
        i = draw(st.integers(0, len(rows) - 1))
        rows[i] = json.dumps(draw(mutated(json.loads(rows[i]))), allow_nan=True)
        return ("\n".join(rows) + "\n").encode()
    if kind == "lines":  # lines dropped, repeated or swapped
        i = draw(st.integers(0, len(rows) - 1))
        j = draw(st.integers(i, min(len(rows), i + 5)))
        op = draw(st.sampled_from(["drop", "repeat", "swap"]))
        if op == "drop":
            rows = rows[:i] + rows[j:]
        elif op == "repeat":
            rows = rows[:j] + rows[i:j] + rows[j:]
        elif j > i + 1:
            rows[i], rows[j - 1] = rows[j - 1], rows[i]
        return ("\n".join(rows) + "\n").encode()
    if kind == "bytes":
        return draw(spliced(text))
    return draw(st.binary(max_size=400))


@settings(max_examples=40, **SETTINGS)
@given(data=st.data())
def test_transcripts(folder, transcript, data):
    path = folder / "t.jsonl"
    blob = data.draw(transcripts(transcript.read_text()))
    for argv in (["verify", path], ["replay", path], ["metrics", path, "--json"], ["play", "--resume", path, "--json", "--quiet"]):
        path.write_bytes(blob)  # a resume appends: each command reads the same file
        check(*cli(*argv), argv)

"""No request body makes the web server fail (issue 45): a table or an answer nested
deeper than any input may, a number of thousands of digits, a value of the wrong type,
an unpaired surrogate, ``NaN``, bytes that are not JSON at all. Each is answered with
a 4xx and a sentence (``{"error": ...}``), never a 500.

The bodies are built as text, since most of them are not what ``json.dumps`` writes:
a valid start form or answer with one value replaced by a hostile one, or noise."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.web.app import create_app
from test_web_api import play_until, start, table
from web_tools import web_client

SETTINGS = dict(deadline=None, derandomize=os.environ.get("WEREWOLF_FUZZ_SEED") != "random",
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
MARK = "\u0000HOSTILE\u0000"  # where the hostile value's text goes, in a body made by json.dumps

# Values as JSON text: beyond the bounds, of the wrong type, or what JSON allows and Python's
# json reads but no transcript can hold.
HOSTILE_TEXT = st.one_of(
    st.integers(65, 200_000).map(lambda d: "[" * d + "]" * d),
    st.integers(65, 5_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    st.integers(101, 6_000).map(lambda n: "-" * (n % 2) + "9" * n),
    st.integers(101, 6_000).map(lambda n: "0." + "1" * n),
    st.sampled_from(['"\\ud800"', '"\\udfff x"', '{"\\ud800": 1}', "NaN", "Infinity", "-Infinity", "1e999", "-0", "1e-999", "null", "true",
                     "[]", "{}", '""', '"x"', "[null]", '{"": null}', str(2**63), str(2**64), "1.5", "-1", '"' + "x" * 100_000 + '"']),  # fmt: skip
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                 max_leaves=6).map(lambda v: json.dumps(v)),  # fmt: skip
)


def places(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in ``data`` a value can be put, a new key of each mapping included."""
    out = [prefix]
    if isinstance(data, dict):
        out.append(prefix + ("extra",))
        for k, v in data.items():
            out += places(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += places(v, prefix + (i,))
    return out


@st.composite
def bodies(draw, base: dict[str, Any]) -> bytes:
    kind = draw(st.sampled_from(["value", "value", "value", "noise", "text"]))
    if kind == "noise":
        return draw(st.binary(max_size=300))
    if kind == "text":
        return draw(st.text(max_size=300)).encode("utf-8", "surrogatepass")
    data = json.loads(json.dumps(base))
    where = draw(st.sampled_from(places(data)))
    if not where:
        return draw(HOSTILE_TEXT).encode()
    parent = data
    for k in where[:-1]:
        parent = parent[k]
    parent[where[-1]] = MARK
    return json.dumps(data).replace(json.dumps(MARK), draw(HOSTILE_TEXT)).encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with web_client(create_app(tmp_path_factory.mktemp("games"), restore=False, max_running=100), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


def answered(r) -> None:
    """A 2xx, or a 4xx saying why in JSON; never a server error."""
    assert r.status_code < 500, (r.status_code, r.text[:500])
    if r.status_code >= 400:
        assert isinstance(r.json().get("error"), str), r.text[:500]


POST = {"content-type": "application/json"}
BOTS_TABLE = {**table(humans=()), "seats": [{"name": n, "agent": "random"} for n in ("Ann", "Ben", "Cat", "Dan", "Eve")]}


@settings(max_examples=150, **SETTINGS)
@given(body=bodies(BOTS_TABLE))
def test_no_start_form_fails_the_server(client, body):
    answered(client.post("/api/games", content=body, headers=POST))


@pytest.fixture(scope="module")
def waiting(client) -> dict[str, Any]:
    """A game whose person (Alice) has a question open."""
    links = start(client)
    play_until(client, links, "speak")
    return links


@settings(max_examples=150, **SETTINGS)
@given(data=st.data())
def test_no_answer_fails_the_server(client, waiting, data):
    q = client.get("/api" + waiting["seats"]["Alice"] + "/state").json()["pending"]
    decision = q[0]["id"] if q else 1
    body = data.draw(bodies({"decision": decision, "answer": "I saw nothing."}))
    answered(client.post("/api" + waiting["seats"]["Alice"] + "/answer", content=body, headers=POST))


@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000, ('{"seed": 1' + "0" * 5000 + "}").encode(), b'{"seats": "\\ud800"}', b"\xff\xfe"],
                         ids=["deep", "huge", "surrogate", "binary"])  # fmt: skip
def test_the_worst_bodies_are_400_naming_where(client, body):
    r = client.post("/api/games", content=body, headers=POST)
    assert r.status_code == 400, r.text
    if body.startswith((b"[", b'{"seed')):
        assert "line 1, column" in r.json()["error"]

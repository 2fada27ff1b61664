"""The assessor's request bodies (issue 45): a body beyond its bound, nested deeper or
holding a longer number than any input may, in the JSON-RPC envelope or in the
request's own text part, is a JSON-RPC error naming the line and column, never an
internal error with a traceback in the log (the SDK parses with ``json``, and said
``RecursionError`` or "Exceeds the limit (4300 digits)" as an internal error).

The assessor's application is driven in-process (Starlette's TestClient): nothing
here reaches an agent, every request is refused before a task is made."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("a2a")

from starlette.testclient import TestClient  # noqa: E402

from arena.a2a.assessor import assessor_app  # noqa: E402
from transcripts.bounded import MAX_DEPTH, MAX_DIGITS  # noqa: E402

SETTINGS = dict(deadline=None, derandomize=os.environ.get("WEREWOLF_FUZZ_SEED") != "random",
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
HEADERS = {"content-type": "application/json", "A2A-Version": "1.0"}
HUGE = "1" + "0" * 5000


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = assessor_app("http://127.0.0.1:9200", Path(tmp_path_factory.mktemp("a2a")), local_agents=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def envelope(parts: list) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                       "params": {"message": {"messageId": "m1", "role": "ROLE_USER", "parts": parts}}})  # fmt: skip


def post(client, body: bytes | str, caplog) -> dict:
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        r = client.post("/", content=body, headers=HEADERS)
    assert r.status_code < 500, r.text[:500]
    # The SDK logs a request it refuses with its traceback (the command keeps the line
    # only: arena.a2a.command); what it never answered is a failure of its own.
    internal = [rec for rec in caplog.records if "Unhandled exception" in rec.getMessage()]
    assert not internal, [rec.getMessage() for rec in internal]
    reply = r.json()
    assert reply.get("error", {}).get("code") != -32603, reply  # JSON-RPC's internal error
    return reply


@pytest.mark.parametrize(
    "body, code, words",
    [
        ("[" * 100_000 + "]" * 100_000, -32700, f"line 1, column {MAX_DEPTH + 1}: nested deeper than {MAX_DEPTH} levels"),
        ('{"jsonrpc": "2.0", "id": ' + HUGE + ', "method": "SendMessage"}', -32700, f"line 1, column 26: a number of more than {MAX_DIGITS} digits"),
        ("x" * (2 << 20), -32600, "larger than 256 KiB"),
        (envelope([{"text": '{"participants": [], "seed": ' + HUGE + "}"}]), -32602, f"the request's text, line 1, column 30: a number of more than {MAX_DIGITS}"),
        (envelope([{"text": "[" * 5000 + "]" * 5000}]), -32602, f"nested deeper than {MAX_DEPTH} levels"),
        ('{"jsonrpc": "2.0", "id": "\\ud800", "method": "SendMessage"}', -32700, "the request's id holds an unpaired UTF-16 surrogate"),
    ],
    ids=["deep-body", "huge-id", "too-large", "huge-in-text", "deep-in-text", "surrogate-id"],
)
def test_a_body_beyond_the_bounds_is_a_json_rpc_error(client, caplog, body, code, words):
    reply = post(client, body, caplog)
    assert reply["error"]["code"] == code and words in reply["error"]["message"], reply


HOSTILE = st.one_of(
    st.integers(65, 60_000).map(lambda d: "[" * d + "]" * d),
    st.integers(101, 6_000).map(lambda n: "7" * n),
    st.sampled_from(['"\\ud800"', "NaN", "-Infinity", "1e999", "null", "[]", "{}", '"x"', str(2**64), '{"a": [1, {"b": null}]}']),
)


@st.composite
def bodies(draw) -> bytes:
    kind = draw(st.sampled_from(["envelope", "text", "data", "noise"]))
    value = draw(HOSTILE)
    if kind == "noise":
        return draw(st.binary(max_size=200))
    if kind == "envelope":
        key = draw(st.sampled_from(["id", "method", "params", "jsonrpc"]))
        base = json.loads(envelope([{"text": "{}"}]))
        base[key] = "\u0000V\u0000"
        return json.dumps(base).replace('"\\u0000V\\u0000"', value).encode()
    if kind == "text":
        return envelope([{"text": '{"participants": [{"name": "Bot", "agent": "heuristic"}], "seed": ' + value + "}"}]).encode()
    return envelope([{"data": "\u0000V\u0000"}]).replace('"\\u0000V\\u0000"', value).encode()


@settings(max_examples=120, **SETTINGS)
@given(body=bodies())
def test_no_body_is_an_internal_error(client, caplog, body):
    post(client, body, caplog)

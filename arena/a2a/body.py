"""A request's body, read within bounds before the A2A SDK sees it.

The SDK reads a JSON-RPC body whole (``request.json()``: any size) and parses it with
``json``, whose ``RecursionError`` on a deep body and ``ValueError`` on an integer of
thousands of digits it answers as an internal error, a traceback in the log. So the
assessor reads each body first: at most ``REQUEST_BODY`` bytes, and text that nests
no deeper and holds no longer number than any input may (``transcripts.bounded``);
anything else is answered as the SDK answers a body it cannot read, a JSON-RPC error
(HTTP 200, as JSON-RPC over HTTP answers), naming the line and column. So is a body
that is not UTF-8, and one escaping an unpaired UTF-16 surrogate (``"\\ud800"``): the SDK echoes a request's id
in its answer, and an answer holding one cannot be encoded (it was a 500). The body
read is then handed to the SDK as it came.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine import words
import transcripts.bounded as bounded

PARSE_ERROR = -32700  # JSON-RPC 2.0: the text is not JSON the server can read
INVALID_REQUEST = -32600  # JSON-RPC 2.0: not a request (the SDK's code for a body too large)


class BoundedBody:
    """ASGI middleware: a POST body beyond ``bound`` bytes, or JSON beyond the bounds,
    is answered with a JSON-RPC error and never reaches ``app``."""

    def __init__(self, app: ASGIApp, bound: bounded.Bound = bounded.REQUEST_BODY):
        self.app = app
        self.bound = bound

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET").upper() in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.bound.size:
                await _refuse(send, INVALID_REQUEST, f"the request body is {self.bound.refusal()}")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:  # the SDK's parser raises on it: an internal error
            await _refuse(send, PARSE_ERROR, f"the request body is not UTF-8 text (byte {e.start})")
            return
        problem = _problem(text) if text else None
        if problem is not None:
            await _refuse(send, PARSE_ERROR, problem)
            return
        await self.app(scope, _replay(body, receive), send)


def _problem(text: str) -> str | None:
    """Why the SDK must not parse ``text``, or ``None`` (text that is no JSON at all is
    the SDK's to answer: it says so in its own words)."""
    hazard = bounded.json_hazard(text, strict=True)  # the SDK's protobuf cannot hold NaN: an internal error
    if hazard is not None:
        return f"the request body, {hazard}"
    if "\\u" not in text:  # only an escape can write a surrogate into UTF-8 text
        return None
    try:
        data = bounded.loads_json(text, strict=True)
    except bounded.InputError:
        return None
    bad = words.unencodable(data)
    if bad is None:
        return None
    where, why = bad
    return f"the request's {'.'.join(map(str, where)) or 'body'} {why}"


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app: the body read, then whatever the connection says next."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(send: Send, code: int, message: str) -> None:
    payload: dict[str, Any] = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    data = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": data})

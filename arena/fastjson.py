"""JSON text decoded by orjson, with the standard parser's meaning.

orjson decodes about twice as fast as ``json``, and decoding is most of reading a
transcript or a tournament's stored metrics. It refuses two things ``json`` reads and
this project writes (``NaN`` from ``json.dumps``, integers beyond 64 bits), so those
fall back to ``json``, which also words the error of text that is not JSON at all
(``json.JSONDecodeError``)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``'s value."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)

"""JSON values as verification compares and quotes them.

Below both ``transcripts.verify`` and ``transcripts.coverage``: the verifier imports
the coverage check, and both compare answers the same way.
"""

from __future__ import annotations

import json
from typing import Any

SHOWN = 240  # characters of a value shown in a message


def jsonish(value: Any) -> Any:
    """The value as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def show(value: Any) -> str:
    """The value as one line of JSON, cut to ``SHOWN`` characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"

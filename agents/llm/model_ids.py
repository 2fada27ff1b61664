"""Which table entry a model id falls under: the id itself, or a dated snapshot of it.

Vendors number model versions with the same dashes they use for snapshots
(``claude-opus-4`` and ``claude-opus-4-8``, ``claude-opus-5`` and ``claude-opus-5-5``),
so "the longest key the id starts with" would price a new version as an old one.
An id belongs to a key only when it is the key, or the key followed by a snapshot
suffix: a date (``-20251001``, ``-2026-03-17``, Vertex's ``@20251001``) or ``-latest``,
optionally followed by a platform tag (``-v1:0``). Routers' ``vendor/model`` names are
read by their last part, and Bedrock's ``[us.]anthropic.claude-...`` ids as the Claude
id they carry.
"""

from __future__ import annotations

import re
from typing import Iterable

_SNAPSHOT = re.compile(r"[-@](?:latest|\d{8}|\d{4}-\d{2}-\d{2})(?:[-:@].*)?")
_BEDROCK = re.compile(r"^(?:[a-z]{2,6}\.)?anthropic\.")


def base_id(model: str) -> str:
    """``openai/gpt-5.4-mini`` -> ``gpt-5.4-mini``; ``us.anthropic.claude-haiku-4-5-20251001-v1:0``
    -> ``claude-haiku-4-5-20251001-v1:0``."""
    return _BEDROCK.sub("", model.rsplit("/", 1)[-1])


def is_snapshot_of(model: str, key: str) -> bool:
    """``model`` is ``key`` or one of its dated snapshots, not a later version."""
    base = base_id(model)
    return base == key or (base.startswith(key) and _SNAPSHOT.fullmatch(base[len(key) :]) is not None)


def entry_for(model: str, keys: Iterable[str]) -> str | None:
    """The key ``model`` belongs to, if any (the longest, should two match)."""
    best: str | None = None
    for key in keys:
        if is_snapshot_of(model, key) and (best is None or len(key) > len(best)):
            best = key
    return best

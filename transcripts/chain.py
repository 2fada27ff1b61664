"""The digest chain that ties each transcript line to the ones before it.

Re-playing a transcript checks everything the engine can reproduce; it cannot check
what only happened once: a model's reply and reasoning, its token counts and cost,
which agent gave an answer, the header's software line. Each line's ``digest`` covers
its own content and the previous line's digest, so editing, removing or swapping a
line breaks the chain at that line. Every record type is chained the same way, by the
one writer (``transcripts.writer``) that every game goes through. It is
tamper-evidence against hand edits and tools that ignore it, not a signature: anyone
may recompute a chain, which is why verify re-plays the game as well, checks that
every model answer is backed by its call, and checks a signature when there is one.

The line digests are short (64 bits) to keep lines readable. What a signature signs
is ``head``: the same chain at full SHA-256 strength, computed over the same
canonical forms, so finding another file with the same signed head is out of reach.

The digest is computed on the record's canonical form (sorted keys, fields left at
their defaults omitted, the digest itself left out), so a later version that adds a
field with a default still verifies the files written before it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

DIGEST_CHARS = 16  # 64 bits: plenty to catch an edit, short enough to keep lines readable


def canonical(record: Any) -> str:
    body = record.model_dump(mode="json", exclude_defaults=True, exclude={"digest"})
    return f"{record.type}:" + json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def forms(header: Any, records: Iterable[Any]) -> list[str]:
    """Every line's canonical form, header first: computed once for both chains."""
    return [canonical(header), *(canonical(r) for r in records)]


def link(previous: str | None, record: Any, form: str | None = None) -> str:
    """The digest of ``record`` (whose canonical form is ``form``, when known)
    following a line whose digest is ``previous``."""
    h = hashlib.sha256(((previous or "") + "\n" + (form if form is not None else canonical(record))).encode("utf-8"))
    return h.hexdigest()[:DIGEST_CHARS]


HEAD_START = "0" * 64


def head_link(previous: str, record: Any, form: str | None = None) -> str:
    """The full-strength chain's next value (64 hex digits)."""
    return hashlib.sha256((previous + "\n" + (form if form is not None else canonical(record))).encode("utf-8")).hexdigest()


def head(records: Iterable[Any], start: str = HEAD_START) -> str:
    """The full-strength chain's head after ``records`` (header first)."""
    h = start
    for r in records:
        h = head_link(h, r)
    return h


def first_break(header: Any, records: list[Any], canon: list[str] | None = None) -> tuple[int, str] | None:
    """The first line (1-based) whose digest does not follow, with why; ``None`` when
    the chain holds or the file has none (then the caller notes its absence).
    ``canon``: the lines' canonical forms (``forms``), when already computed."""
    canon = canon if canon is not None else forms(header, records)
    if header.digest is None:
        for line, r in enumerate(records, start=2):
            if getattr(r, "digest", None) is not None:
                return line, "this line carries a digest but the header has none"
        return None
    if header.digest != link(None, header, canon[0]):
        return 1, "the header was edited after it was written"
    previous = header.digest
    for line, r in enumerate(records, start=2):
        expected = link(previous, r, canon[line - 1])
        if r.digest is None:
            return line, "this line has no digest though the header has one"
        if r.digest != expected:
            return line, "the digest chain breaks here: this line was edited, or a line before it removed or moved"
        previous = r.digest
    return None

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
import types
import typing
from typing import Any, Callable, Iterable

import orjson
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

DIGEST_CHARS = 16  # 64 bits: plenty to catch an edit, short enough to keep lines readable


def canonical(record: Any) -> str:
    body = record.model_dump(mode="json", exclude_defaults=True, exclude={"digest"})
    return f"{record.type}:" + json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any, *, sort_keys: bool = False, floats: bool = True) -> str:
    """``json.dumps(value, sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))``,
    the same text, by orjson where its text is the same.

    orjson refuses what ``json`` writes otherwise (integers beyond 64 bits, keys that
    are not strings, very deep nesting: ``TypeError``), writes small floats in another
    form (``0.00001``, ``1e-7`` where ``json`` writes ``1e-05``, ``1e-07``: whenever its
    text holds ``0.0000`` or ``e-``, ``json`` writes it again), and writes ``NaN`` and
    infinities as ``null``. The last cannot be seen in its text, so ``floats=False``
    (the value holds no float ``NaN`` could hide in) is needed for orjson to be used: a
    model's ``mode="json"`` dump turns them to ``None`` in its ``Any`` fields, not in
    its ``float`` fields."""
    if not floats:
        try:
            out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0)
        except TypeError:
            pass
        else:
            if b"0.0000" not in out and b"e-" not in out:
                return out.decode("utf-8")
    return json.dumps(value, sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))


_Strip = Callable[[Any, Any], Any]  # (the field's value, its dump) -> the dump, defaults left out


def _holds_float(annotation: Any) -> bool:
    if annotation is float:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return any(_holds_float(f.annotation) for f in annotation.model_fields.values())
    return any(_holds_float(a) for a in typing.get_args(annotation))


def _stripper(annotation: Any) -> _Strip | None:
    """What leaves a nested model's defaults out of the dumped value of a field whose
    type is ``annotation`` (``None`` when it holds no model)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_stripper(annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    subs = [_stripper(a) for a in args]
    if not any(subs):
        return None
    if origin in (typing.Union, types.UnionType) and len([s for s in subs if s]) == 1:
        sub = next(s for s in subs if s)
        return lambda v, d: None if v is None else sub(v, d)
    if origin is list and len(args) == 1 and subs[0] is not None:
        each = subs[0]
        return lambda v, d: [each(x, y) for x, y in zip(v, d)]
    if origin is dict and len(args) == 2 and subs[0] is None and subs[1] is not None:
        value = subs[1]
        return lambda v, d: {k: value(v[k], y) for k, y in d.items()}
    raise TypeError(f"no canonical form for a field of type {annotation!r}")


_STRIPPERS: dict[type, _Strip] = {}


def _model_stripper(cls: type) -> _Strip:
    known = _STRIPPERS.get(cls)
    if known is None:
        known = _STRIPPERS[cls] = _new_stripper(cls)
    return known


def _new_stripper(cls: Any) -> _Strip:
    _NONE = object()
    plan: dict[str, tuple[Any, _Strip | None]] = {}
    for name, field in cls.model_fields.items():
        if field.alias is not None and field.alias != name:
            raise TypeError(f"{cls.__name__}.{name}: aliases have no canonical form here")
        if field.default_factory is not None:
            default = field.default_factory()
        elif field.default is PydanticUndefined:
            default = _NONE
        else:
            default = field.default
        plan[name] = (default, _stripper(field.annotation))

    def strip(model: Any, dumped: dict[str, Any]) -> dict[str, Any]:
        # pydantic's ``exclude_defaults``: the field's value compared with its default
        # (a dump cannot tell: an ``Any`` field's ``inf`` dumps as its default ``None``)
        values = model.__dict__
        out = {}
        for k, d in dumped.items():
            default, sub = plan[k]
            v = values[k]
            if default is not _NONE and v == default:
                continue
            out[k] = sub(v, d) if sub is not None else d
        return out

    return strip


_FLOATS: dict[type, bool] = {}


def floats_in(cls: type) -> bool:
    """Whether a model of ``cls`` may hold a float field (NaN: see ``dumps``)."""
    known = _FLOATS.get(cls)
    if known is None:
        known = _FLOATS[cls] = _holds_float(cls)
    return known


def canonical_of_dump(record: Any, dumped: dict[str, Any]) -> str:
    """``canonical(record)`` from ``dumped``, the record's
    ``model_dump(mode="json", exclude={"digest"})``: the writer dumps each record once
    for both its line and its canonical form. The fields left at their defaults are
    left out of the dump as pydantic's ``exclude_defaults`` does (at every nested
    model's level, comparing the field's value with its default), and the text
    is the same (``tests/test_chain_canonical.py`` compares the two)."""
    cls = type(record)
    body = _model_stripper(cls)(record, dumped)
    return f"{record.type}:" + dumps(body, sort_keys=True, floats=floats_in(cls))


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

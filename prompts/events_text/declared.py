"""The renderer of a declared kind that has none of its own, read from its payload.

An event kind is declared beside its rule (``@event("kind")`` in ``engine.events``)
with typed fields that say what each holds: a player (``Name``), players
(``Names``), a role (``RoleId``, ``RoleIds``), a player's own words (``Said``), a
building (``BuildingId``). That is enough to word most events: fill the kind's
sentence (``events.<kind>`` in each language) with each field written as what it
holds, and when the sentence has variants, choose ``self``/``other`` by whether the
reader is the first player field, or ``"true"``/``"false"`` by the first flag. So a new role's event needs its sentences, not
code in this package; a kind whose words need more (a count, a list of pairs) has its
own renderer (``@renders``), which comes first.
"""

from __future__ import annotations

import typing
from functools import lru_cache
from typing import Any, Callable

from engine.events import EVENT_KINDS, Event, Term
from prompts.events_text.reader import Reader

Renderer = Callable[[Reader, Event], str]


class NotItsPayload(TypeError):
    """The event's payload is not its kind's declared class (a ``RawEvent``: a kind this
    engine does not know, or a record whose fields differ): ``tell`` then words it
    plainly, ``tell_strictly`` raises this."""
_TERMS = {Term.PLAYER, Term.PLAYERS, Term.ROLE, Term.ROLES, Term.SAID, Term.BUILDING}


def _term(hint: Any) -> str | None:
    """What a field's annotation says it holds (looking inside ``Optional`` and nested
    ``Annotated``), or None for a plain value (a number, a flag, an engine word)."""
    if typing.get_origin(hint) is typing.Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, str) and meta in _TERMS:
                return meta
        return _term(typing.get_args(hint)[0])
    for arg in typing.get_args(hint):
        found = _term(arg)
        if found is not None:
            return found
    return None


def field_terms(cls: type) -> dict[str, str | None]:
    """Each recorded field of a payload class, in order, with what it holds."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return {name: _term(hints.get(name)) for name, _ in getattr(cls, "_wire", ())}


def _written(r: Reader, term: str | None, value: Any) -> Any:
    if term == Term.PLAYER:
        return r.who(value)
    if term == Term.PLAYERS:
        return r.names(value)
    if term == Term.ROLE:
        return r.role(value)
    if term == Term.ROLES:
        return r.join(r.role(x) for x in value or ())
    if term == Term.SAID:
        return r.said(value)
    if term == Term.BUILDING:
        return r.word("buildings", value)
    return "" if value is None else value  # a number or a flag, written as the catalog writes values


@lru_cache(maxsize=None)
def declared_renderer(kind: str) -> Renderer | None:
    """The renderer read from ``kind``'s payload declaration; None when undeclared."""
    cls = EVENT_KINDS.get(kind)
    if cls is None:
        return None
    terms = field_terms(cls)
    subject = next((name for name, term in terms.items() if term == Term.PLAYER), None)
    hints = typing.get_type_hints(cls)
    flag = next((name for name in terms if hints.get(name) is bool), None)

    def render(r: Reader, e: Event) -> str:
        d = e.data
        if not isinstance(d, cls):
            raise NotItsPayload(f"a {kind} event whose data is not a {cls.__name__}: {d!r}")
        values = {name: _written(r, term, getattr(d, name)) for name, term in terms.items()}
        node = r.cat.get(f"events.{kind}")
        if isinstance(node, dict) and subject is not None and {"self", "other"} <= set(node):
            return r.t(f"{kind}.{r.side(getattr(d, subject))}", **values)
        if isinstance(node, dict) and flag is not None and {"true", "false"} <= set(node):
            return r.t(f"{kind}.{'true' if getattr(d, flag) else 'false'}", **values)
        return r.t(kind, **values)  # a sentence with other variants needs its own renderer: a KeyError here

    render.__name__ = f"declared_{kind}"
    return render

"""One renderer per event kind, registered once, and the one way to call it.

A renderer turns one event into its sentence for one ``Reader`` (a seat or the
narrator, in a language and a style). Every reader of events calls ``tell``: a
model seat's history (``prompts.history``), a person's terminal
(``agents.human_view``), the narrator of ``werewolf play`` and ``replay``
(``prompts.narrate``), the HTML export (``transcripts.export_html``) and the web pages
(``arena.web.render``). Those only lay the words out (rules, tables, elements).

The registry is keyed by the engine's payload classes, the ``@renders(WitchVictim)``
line above each renderer: the renderer receives the event's payload typed as that
class (``d: WitchVictim``), so a field renamed in the engine is a type error here (and
a helper such as ``sentence(WitchPoisoned, "target")`` checks its field names when it
is registered). An event whose payload is not its declared class (a ``RawEvent``: a
kind this engine does not know, or a record from another version whose fields
differ) is still told, plainly, as its kind and its data.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from engine.events import EVENT_KINDS, Event, EventData
from prompts.catalog import Catalog
from prompts.events_text.declared import NotItsPayload, declared_renderer
from prompts.events_text.reader import Reader
from prompts.events_text.style import PERSON, Style

Renderer = Callable[[Reader, Event], str]  # the same as prompts.events_text.declared's
# A renderer as written: it also receives the event's payload, typed as its kind's class.
Typed = TypeVar("Typed", bound=Callable[..., str])

RENDERERS: dict[str, Renderer] = {}


def renders(*classes: type[EventData]) -> Callable[[Typed], Typed]:
    """Register the decorated ``fn(reader, event, payload)`` as the one renderer of the
    kinds of the payload ``classes``; it is called only with a payload of one of them."""

    def register(fn: Typed) -> Typed:
        def render(r: Reader, e: Event) -> str:
            d = e.data
            if not isinstance(d, classes):
                raise NotItsPayload(f"a {e.kind} event whose data is not a {' or '.join(c.__name__ for c in classes)}: {d!r}")
            return fn(r, e, d)

        render.__name__ = fn.__name__
        render.__doc__ = fn.__doc__
        for cls in classes:
            if cls.kind in RENDERERS:
                raise ValueError(f"event kind '{cls.kind}' has two renderers: {RENDERERS[cls.kind].__name__} and {fn.__name__}")
            RENDERERS[cls.kind] = render
        return fn

    return register


def fields_of(cls: type[EventData], *names: str) -> tuple[str, ...]:
    """``names``, checked to be fields of ``cls``: a helper that reads fields by name
    fails when it is registered, not with a "?" in a prompt, if the engine renames one."""
    wrong = [n for n in names if n not in cls._names]
    if wrong:
        raise ValueError(f"{cls.__name__} ({cls.kind}) has no field {', '.join(wrong)}; its fields: {', '.join(n for n, _ in cls._wire)}")
    return names


def sentence(cls: type[EventData], *players: str, lists: tuple[str, ...] = (), roles: tuple[str, ...] = (), numbers: tuple[str, ...] = ()) -> None:
    """Register the renderer of a kind told in one sentence, ``events.<kind>``, filled
    with the event's fields: ``players`` named (the reader as "you"), ``lists`` of
    players, ``roles`` by their names, ``numbers`` as they are."""
    kind = cls.kind
    fields_of(cls, *players, *lists, *roles, *numbers)

    def render(r: Reader, e: Event, d: EventData) -> str:
        values: dict[str, Any] = {k: r.who(getattr(d, k)) for k in players}
        values.update({k: r.names(getattr(d, k)) for k in lists})
        values.update({k: r.role(getattr(d, k)) for k in roles})
        values.update({k: getattr(d, k) for k in numbers})
        return r.t(kind, **values)

    render.__name__ = kind
    renders(cls)(render)


def sided(cls: type[EventData], subject: str, *players: str, roles: tuple[str, ...] = ()) -> None:
    """Register the renderer of a kind whose sentence depends on whether the reader is
    its ``subject`` (``events.<kind>.self`` / ``.other``), filled as ``sentence``."""
    kind = cls.kind
    fields_of(cls, subject, *players, *roles)

    def render(r: Reader, e: Event, d: EventData) -> str:
        values: dict[str, Any] = {k: r.who(getattr(d, k)) for k in (subject, *players)}
        values.update({k: r.role(getattr(d, k)) for k in roles})
        return r.t(f"{kind}.{r.side(getattr(d, subject))}", **values)

    render.__name__ = kind
    renders(cls)(render)


# ---------------------------------------------------------------------------- unknown kinds
def plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _generic_value(r: Reader, value: Any) -> str:
    """A future event's value: numbers and truth values as they are, any text quoted
    (it may be a player's words; the engine's own ids read fine in quotes too)."""
    if isinstance(value, (bool, int, float)) or value is None:
        return r.text(plain(value))
    return r.free(plain(value))


def generic(r: Reader, e: Event) -> str:
    """A kind this engine does not know: shown as its kind and data rather than
    hidden, since the engine already decided this reader may see it."""
    kind = e.kind.replace("_", " ")
    data: Mapping[str, Any] = e.data
    if not data:
        return r.t("generic_empty", kind=kind)
    items = [
        r.t("generic_item", key=str(k).replace("_", " "), value=r.who(v) if v == r.seat else _generic_value(r, v))
        for k, v in data.items()
    ]
    return r.t("generic", kind=kind, details=r.joined("generic_sep", items))


# ---------------------------------------------------------------------------- telling
def renderer_for(kind: str) -> Renderer | None:
    """The kind's own renderer, else the one read from its payload declaration
    (``prompts.events_text.declared``), else None (a kind this engine does not know)."""
    found = RENDERERS.get(kind)
    return found if found is not None else declared_renderer(kind)


def known_kinds() -> set[str]:
    """Every kind with words: registered here or declared by the engine."""
    return set(RENDERERS) | set(EVENT_KINDS)


def reader_for(cat: Catalog, e: Event, seat: str | None, style: Style) -> Reader:
    return Reader.narrating(cat, e, style) if seat is None else Reader(cat, seat, style)


def tell_strictly(cat: Catalog, e: Event, *, seat: str | None = None, style: Style = PERSON) -> str:
    """The event's sentence from its own renderer; raises where ``tell`` falls back
    (the tests' way of finding a kind or a case without words)."""
    renderer = renderer_for(e.kind)
    if renderer is None:
        raise KeyError(f"no renderer for event kind '{e.kind}'")
    return renderer(reader_for(cat, e, seat, style), e)


def tell(cat: Catalog, e: Event, *, seat: str | None = None, style: Style = PERSON) -> str:
    """The event told to ``seat`` ("you"), or by the narrator when ``seat`` is None.

    A renderer that trips over data it did not expect (an engine change, a hand-made
    record) falls back to the generic form: a history must never stop a game."""
    reader = reader_for(cat, e, seat, style)
    renderer = renderer_for(e.kind)
    if renderer is not None:
        try:
            return renderer(reader, e)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return generic(reader, e)

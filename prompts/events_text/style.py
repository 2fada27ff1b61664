"""How the words of an event are written for one kind of reader: the styles.

Why styles apart from viewpoints: the same sentence ("Bob dies, poisoned by the
Witch.") reaches a model's prompt, a person's terminal and a web page. Only its
writing differs: a model reads a player's words as one JSON string that no content
can end early (``prompts.quoting``); a person reads them inside the language's
quotation marks; the terminal wants rich markup (names in bold, everything else
escaped, since names and speeches are untrusted); a page wants HTML (escaped, names
in elements). A style says how to write the four things a sentence is made of: the
catalog's own text, a player's name, a role's name, and a player's words.

Text a style has already written is marked (``Written``) so that filling it into a
larger sentence never escapes it twice. The model and person styles escape nothing,
so they skip the marking: the model's text is the plain string it always was.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Callable

from rich.markup import escape as rich_escape

from prompts.quoting import quote


class Written(str):
    """Text in a style's final form (escaped, marked up): filled in as it is."""

    __slots__ = ()

    def __add__(self, other: str) -> "Written":
        return Written(str.__add__(self, other))


def _same(text: str) -> str:
    return text


def _plain_name(name: str) -> str:
    return name


@dataclass(frozen=True)
class Style:
    """One way of writing. ``escape`` turns the catalog's text (and any raw value)
    into the style's form; ``name``/``role`` write a player's or a role's name (already
    escaped); ``said`` writes a player's words given the language's quotation
    (``quoted``: the words inside the catalog's quotation marks, unescaped)."""

    key: str
    escape: Callable[[str], str]
    name: Callable[[str], str]
    role: Callable[[str], str]
    said: Callable[[str, str], str]  # (words, quoted) -> text
    free: Callable[[Any], str]  # other text a player chose (a claim's key), as written

    @property
    def escapes(self) -> bool:
        return self.escape is not _same


def _model_said(words: str, quoted: str) -> str:
    return quote(words)


def _person_said(words: str, quoted: str) -> str:
    return quoted


def _rich_bold(text: str) -> str:
    return f"[bold]{rich_escape(text)}[/bold]"


def _html_escape(text: str) -> str:
    return html.escape(text, quote=True)


MODEL = Style("model", _same, _plain_name, _plain_name, _model_said, quote)
"""A model's prompt: a player's words (and any other text a player chose) as one JSON string."""

PERSON = Style("person", _same, _plain_name, _plain_name, _person_said, str)
"""Plain text for people: a player's words inside the language's quotation marks."""

RICH = Style(
    "rich",
    rich_escape,
    _rich_bold,
    _rich_bold,
    lambda words, quoted: rich_escape(quoted),
    lambda value: rich_escape(str(value)),
)
"""A terminal (rich markup): names and roles in bold, everything else escaped."""

HTML = Style(
    "html",
    _html_escape,
    lambda name: f'<b class="name">{_html_escape(name)}</b>',
    lambda role: f'<b class="role">{_html_escape(role)}</b>',
    lambda words, quoted: f'<span class="said">{_html_escape(quoted)}</span>',
    lambda value: _html_escape(str(value)),
)
"""A web page (HTML): everything escaped, names, roles and players' words in elements."""

STYLES: dict[str, Style] = {s.key: s for s in (MODEL, PERSON, RICH, HTML)}

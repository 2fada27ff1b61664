"""The words of every event, for every reader: one renderer per event kind.

    tell(cat, event, seat="Bob", style=MODEL)   what Bob's model reads
    tell(cat, event, seat="Bob")                 what Bob (a person) reads
    tell(cat, event, style=RICH)                 what the narrator says on a terminal
    tell(cat, event, style=HTML)                 ... and on a page

The renderers (``base``, ``bestof``, ``forum``, ``village``) register themselves with
``@renders(PayloadClass)``; importing this package loads them all. A kind the engine
declares without a renderer here is worded from its payload's typed fields
(``declared``). See ``reader`` for the
viewpoints (a seat, the narrator) and ``style`` for the ways of writing.
"""

from __future__ import annotations

from prompts.events_text import base, bestof, forum, village  # noqa: F401  (they register their renderers)
from prompts.events_text.base import end_reason, winner_line
from prompts.events_text.reader import Reader, recipients
from prompts.events_text.registry import RENDERERS, Renderer, generic, known_kinds, renderer_for, renders, tell, tell_strictly
from prompts.events_text.style import HTML, MODEL, PERSON, RICH, STYLES, Style, Written

__all__ = [
    "HTML", "MODEL", "PERSON", "RICH", "RENDERERS", "STYLES", "Reader", "Renderer", "Style", "Written",
    "end_reason", "generic", "known_kinds", "recipients", "renderer_for", "renders", "tell", "tell_strictly", "winner_line",
]  # fmt: skip

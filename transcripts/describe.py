"""A transcript's records in words: its events, its seats' answers, its models' calls.

The events read through the one text pipeline (``prompts.events_text``): told to a
seat ("you") for that seat's view, or by the omniscient narrator (every player
named; a secret sent to one seat names that seat) for the public and full views, in
the game's language. The rest of a record (a seat's answer and what it was offered, a
model's call, the end of a stopped game) has its words in
``prompts/<lang>/narration.yaml``. ``Words`` holds a language and a style (plain,
rich markup, HTML) for the readers of transcripts: ``replay`` and the HTML export.
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.events import Event
from prompts.catalog import Catalog, catalog
from prompts.events_text import PERSON, STYLES, Reader, Style, Written, tell
from transcripts.schema import EventRecord


def _catalog(language: str) -> Catalog:
    try:
        return catalog(language)
    except ValueError:  # an unknown language in a hand-made header: read it in English
        return catalog("en")


def _event(record: Event | EventRecord) -> Event:
    """An ``EventRecord`` (or an engine ``Event``) as the engine's event."""
    if isinstance(record, Event):
        return record
    return record.to_event()


class Words:
    """The words of a transcript's records in one language and one style."""

    def __init__(self, language: str = "en", style: str | Style = PERSON):
        self.cat = _catalog(language)
        self.style = STYLES[style] if isinstance(style, str) else style
        self._r = Reader(self.cat, "", self.style, narrator=True)

    # ------------------------------------------------------------------ events
    def event(self, record: Event | EventRecord, *, seat: str | None = None) -> str:
        """A recorded event as one sentence: told to ``seat`` when given, else by the
        narrator."""
        return tell(self.cat, _event(record), seat=seat, style=self.style)

    # ------------------------------------------------------------------ pieces
    def say(self, path: str, **values: Any) -> str:
        """``narration.<path>`` filled (values already written stay as they are)."""
        return self._r.term(f"narration.{path}", **values)

    def text(self, value: Any) -> str:
        return self._r.text(value)

    def bold(self, text: str) -> str:
        """Emphasis in the style (rich: bold; HTML: <b>); plain text stays plain."""
        if self.style.key == "rich":
            return Written(f"[bold]{text}[/bold]")
        if self.style.key == "html":
            return Written(f"<b>{text}</b>")
        return text

    def names(self, names: Iterable[Any]) -> str:
        return self._r.join(self._r.text(n) for n in names)

    def table(self, items: Iterable[Any]) -> str:
        return self._r.table(items)

    def role(self, role: Any) -> str:
        return self._r.text(self.cat.role_name(role))

    def term(self, group: str, key: Any) -> str:
        """A term of ``terms.<group>``: a cause, a building's title or home, a camp."""
        return self._r.word(group, key)

    def cause(self, cause: Any) -> str:
        return self._r.word("causes", cause)

    def answer(self, value: Any) -> str:
        """A recorded answer (or one of the options offered) as words."""
        if value is None:
            return self.say("answers.pass")
        if isinstance(value, bool):
            return self.say("answers.yes" if value else "answers.no")
        if isinstance(value, list):
            return self._r.join(self.answer(v) for v in value)
        if isinstance(value, dict):
            return self.text(value.get("text", value))
        return self.text(value)

    def offered(self, answer: Any) -> str:
        """What an answer record's seat was offered: the options, and passing where legal."""
        options = self._r.table(self.answer(o) for o in answer.options)
        return self.say("answers.or_pass", options=options) if answer.allow_pass else options

    def caller(self, call: Any) -> str:
        """Who made a model call: the seat and its model (or back end)."""
        model = getattr(call, "model", "") or getattr(call, "backend", "")
        return self.say("answers.caller", seat=self.text(call.seat), model=self.text(model))


def describe(
    kind: str,
    data: dict[str, Any],
    *,
    day: int = 0,
    phase: str = "",
    reader: str | None = None,
    language: str = "en",
    audience: Any = "public",
) -> str:
    """One event as plain words: told to ``reader`` ("you"), or by the narrator when
    None. A kind this engine does not know reads in the generic "kind — key: value"
    form."""
    return Words(language).event(Event.recorded(0, kind, day, phase, audience, data or {}), seat=reader)


def describe_event(record: Event | EventRecord, *, seat: str | None = None, language: str = "en") -> str:
    """A recorded event (``EventRecord`` or engine ``Event``) as plain words: told to
    ``seat`` when given, else by the narrator (a secret sent to one seat names it)."""
    return Words(language).event(record, seat=seat)

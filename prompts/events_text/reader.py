"""Who reads an event, and how it is written for them: the viewpoint and the style.

Two viewpoints read the same events:

- **a seat** (``seat="Bob"``): the seat's own history. Bob is "you"; the variant of a
  sentence is chosen by whether Bob is the one acting or struck (``side``). What a
  model seat reads this way must never change once written (prompt caches, the
  injection audit), so this is the text the seats always read.
- **the narrator** (``narrator=True``): the omniscient teller of ``werewolf play``,
  ``replay``, the HTML export and the web's public and full views. Nobody is "you":
  every player is named. A private event sent to one seat is told from that seat's
  side (its ``self`` variant, as the seat reads it) but in the third person, from
  ``prompts/<lang>/narration.yaml`` (``events.<path>``), with the seat named as
  ``$seat``; a sentence that already names everyone (a public event) is the seats'
  own, from ``events.yaml``.

The style (``prompts.events_text.style``) says how names, roles and players' words
are written: a model's JSON-quoted words, a person's quotation marks, rich markup,
HTML.
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.events import Event
from engine.words import harmless
from prompts.catalog import Catalog, _key
from prompts.events_text.style import MODEL, Style, Written


def recipients(e: Event) -> list[str]:
    """The seats a private event was sent to (none for a public or narrator-only one)."""
    audience = e.audience
    return sorted(audience) if isinstance(audience, frozenset) else []


class Reader:
    """One reader of events: a language (``cat``), a viewpoint and a style. Built per
    event for the narrator (it knows that event's recipients), once per seat else."""

    __slots__ = ("cat", "seat", "style", "narrator", "_to", "_mark")

    def __init__(self, cat: Catalog, seat: str = "", style: Style = MODEL, *, narrator: bool = False, to: Iterable[str] = ()):
        self.cat = cat
        self.seat = seat
        self.style = style
        self.narrator = narrator
        self._to = tuple(to)
        self._mark = Written if style.escapes else str

    @classmethod
    def narrating(cls, cat: Catalog, e: Event, style: Style) -> "Reader":
        """The narrator reading ``e``: from the side of its one recipient, if it has one."""
        to = recipients(e)
        return cls(cat, to[0] if len(to) == 1 else "", style, narrator=True, to=to)

    # ------------------------------------------------------------------ templates
    def _raw(self, path: str) -> str:
        if self.narrator:
            raw = self.cat.first((f"narration.events.{path}", f"events.{path}"))
        else:
            raw = self.cat.get(f"events.{path}")
        if not isinstance(raw, str):
            raise KeyError(f"no event text '{path}' in language '{self.cat.lang}'")
        return raw

    def t(self, path: str, **values: Any) -> str:
        """The event sentence at ``events.<path>`` (the narrator's own first), filled."""
        raw = self._raw(path)
        if self.narrator and "seat" not in values:
            values["seat"] = self.names(self._to) if self._to else ""
        return self._fill(raw, values)

    def term(self, path: str, **values: Any) -> str:
        """Any other catalog text (``terms.winners.village``), written in the style."""
        raw = self.cat.get(path)
        if not isinstance(raw, str):
            raise KeyError(f"no prompt text '{path}' in language '{self.cat.lang}'")
        return self._fill(raw, values)

    def _fill(self, raw: str, values: dict[str, Any]) -> str:
        if not self.style.escapes:
            return self.cat.fill(raw, **values)
        esc = self.style.escape
        safe = {k: v if isinstance(v, Written) else esc(_key(v) if isinstance(v, bool) else str(v)) for k, v in values.items()}
        return Written(self.cat.fill(esc(raw), **safe))

    def text(self, value: Any) -> str:
        """A raw value (an engine reason, a number) written in the style."""
        return self._mark(self.style.escape(str(value)))

    # ------------------------------------------------------------------ names and words
    def who(self, name: Any) -> str:
        if name == self.seat and not self.narrator:
            return self._mark(self.style.escape(self.cat.text("terms.you")))
        return self._mark(self.style.name("?" if name is None else str(name)))

    def names(self, names: Any) -> str:
        return self.join(self.who(n) for n in (names or []))

    def role(self, role: Any) -> str:
        return self._mark(self.style.role(self.cat.role_name(role)))

    def word(self, group: str, key: Any) -> str:
        """A term from ``terms.<group>`` (causes, buildings, homes)."""
        return self._mark(self.style.escape(self.cat.word(group, key)))

    def said(self, text: Any) -> str:
        """A player's words (a speech, night talk, a note), quoted as the style quotes.
        People's screens get them ``harmless`` (``engine.words``): words taken since
        the engine's rule on words are so already, and a transcript written before it
        (or by hand) cannot send a terminal its escape sequences; a model's prompt
        escapes every such character (``prompts.quoting``)."""
        words = "" if text is None else str(text)
        if self.style is not MODEL:
            words = harmless(words)
        quoted = words if self.style is MODEL else self.cat.text("terms.display_quote", text=words)
        return self._mark(self.style.said(words, quoted))

    def free(self, value: Any) -> str:
        """Any other text a player or an agent chose (a claim's extra key): quoted for a
        model, as it is for a person."""
        return self._mark(self.style.free(value))

    def side(self, name: Any) -> str:
        """The variant key for a sentence whose subject may be the reader."""
        return "self" if name == self.seat else "other"

    # ------------------------------------------------------------------ lists
    def join(self, items: Iterable[Any], last: str = "last") -> str:
        """A list as a sentence says it ("A, B and C" / "A、B和C")."""
        parts = [str(i) for i in items]
        if not parts:
            return self.term("terms.list.empty")
        if len(parts) == 1:
            return self._mark(parts[0])
        esc = self.style.escape
        return self._mark(esc(self.cat.get("terms.list.sep")).join(parts[:-1]) + esc(self.cat.get(f"terms.list.{last}")) + parts[-1])

    def joined(self, sep_path: str, items: Iterable[Any]) -> str:
        """Items separated by the event text at ``sep_path`` (claims: "; ")."""
        return self._mark(self.t(sep_path).join(str(i) for i in items))

    def table(self, items: Iterable[Any]) -> str:
        """Entries of a table (votes, counts): separated, without a closing "and"."""
        parts = [str(i) for i in items]
        if not parts:
            return self.term("terms.list.empty")
        return self._mark(self.style.escape(self.cat.get("terms.list.sep")).join(parts))

    def votes(self, votes: Any) -> str:
        items = []
        for voter, target in (votes or {}).items():
            if target is None:
                items.append(self.t("vote_abstain", voter=self.who(voter)))
            else:
                items.append(self.t("vote_item", voter=self.who(voter), target=self.who(target)))
        return self.table(items)

    def added(self, counts: Any) -> str:
        """Votes the count adds by itself (phantom votes, a poster's extra votes)."""
        ordered = sorted((counts or {}).items(), key=lambda kv: (-kv[1], str(kv[0])))
        return self.table(self.t("added_item", name=self.who(n), count=c) for n, c in ordered)

    def tally(self, tally: Any) -> str:
        ordered = sorted((tally or {}).items(), key=lambda kv: (-kv[1], str(kv[0])))
        return self.table(self.t("tally_item", name=self.who(n), count=c) for n, c in ordered)

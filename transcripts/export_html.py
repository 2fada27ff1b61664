"""A recorded game as one self-contained web page.

The page must open anywhere, offline, years later, and be safe to share: so no
network (inline CSS, a few lines of inline JS, inline SVG charts), and every piece of
text from the record is escaped, because player names and speeches come from models
and people and may contain markup.

The views (public, one seat's, full) switch with CSS alone: every timeline item
carries a class per seat allowed to see it, taken from the recorded audience through
``transcripts.views``. The whole record is in the page; a view is a lens, not a lock.

The page speaks the game's language: the events are the narrator's sentences of the
one text pipeline (``prompts.events_text``, HTML style), every other word is in
``prompts/<lang>/narration.yaml`` (``export``). This module only builds the elements.
"""

from __future__ import annotations

import html
from importlib import resources
from string import Template
from typing import Any

from engine.events import EventData
from engine.flow.day import Dawn
from engine.flow.deaths import DeathEvent
from engine.flow.night import NightStart
from engine.flow.protocols import DiscussionRound
from engine.flow.victory import GameEnd
from engine.flow.voting import SheriffVotes, VoteResult
from engine.speech import Speech
from transcripts.buildings import public_tokens
from transcripts.describe import Words
from transcripts.schema import AnswerRecord, EventRecord, Transcript
from transcripts.views import NARRATOR, PUBLIC, reasoning_of

_PHASE_OPENERS: dict[type[EventData], str] = {NightStart: "night", Dawn: "day", GameEnd: "end"}


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _template() -> Template:
    text = resources.files("transcripts").joinpath("templates/report.html").read_text(encoding="utf-8")
    return Template(text)


class _Seats:
    """Seat names to CSS-safe ids (names are free text; class names must not be)."""

    def __init__(self, names: list[str]):
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}

    def classes(self, audience: Any) -> str:
        if audience == PUBLIC:
            return "v-pub"
        if audience == NARRATOR or not isinstance(audience, list):
            return ""
        return " ".join(f"v-s{self.index[n]}" for n in audience if n in self.index)

    def of(self, name: str) -> str:
        i = self.index.get(name)
        return f"v-s{i}" if i is not None else ""


# ---------------------------------------------------------------------- charts
def vote_chart(title: str, votes: dict[str, Any], tally: dict[str, int], words: Words | None = None) -> str:
    """A horizontal bar per candidate, its voters named; abstentions in grey."""
    words = words or Words("en", "html")
    rows: list[tuple[str, int, list[str], bool]] = []
    for target, count in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])):
        voters = [v for v, t in votes.items() if t == target]
        rows.append((target, count, voters, False))
    abstained = [v for v, t in votes.items() if t is None]
    if abstained:
        rows.append((html.unescape(words.say("export.abstain")), len(abstained), abstained, True))
    if not rows:
        return f'<figure class="votes"><figcaption>{words.say("export.no_votes", title=title)}</figcaption></figure>'
    top = max(c for _, c, _, _ in rows) or 1
    label_w, bar_w, row_h, line_h = 120, 260, 24, 15
    # Every voter is named: the list wraps onto as many lines as it needs beside the
    # longest bar, never cut at the figure's edge.
    wrapped = [_wrap(voters, VOTER_LINE) for _, _, voters, _ in rows]
    width = label_w + bar_w + 30 + VOTER_LINE * 7
    heights = [max(row_h, 9 + line_h * len(lines)) for lines in wrapped]
    height = sum(heights) + 4
    parts = [
        f'<figure class="votes"><figcaption>{esc(title)}</figcaption>',
        f'<svg role="img" aria-label="{esc(title)}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
    ]
    y = 2
    for (target, count, voters, grey), lines, h in zip(rows, wrapped, heights):
        w = max(2, round(bar_w * count / top))
        parts.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{esc(target)}</text>')
        parts.append(f'<rect class="{"abstain" if grey else "bar"}" x="{label_w}" y="{y + 3}" width="{w}" height="{row_h - 8}" rx="2"/>')
        parts.append(f'<text x="{label_w + w + 6}" y="{y + 15}">{count}</text>')
        x = label_w + bar_w + 30
        spans = "".join(f'<tspan x="{x}" dy="{0 if i == 0 else line_h}">{esc(text)}</tspan>' for i, text in enumerate(lines))
        parts.append(f'<text class="voters" x="{x}" y="{y + 15}">{spans}</text>')
        y += h
    parts.append("</svg></figure>")
    return "".join(parts)


VOTER_LINE = 34  # characters of voters' names on one line of a vote chart


def _wrap(names: list[str], limit: int) -> list[str]:
    """Names joined by commas into lines of at most ``limit`` characters (a longer
    name stands alone on its line); every comma is followed by a name."""
    lines: list[str] = []
    current = ""
    for n in names:
        piece = n if not current else f"{current}, {n}"
        if current and len(piece) > limit:
            lines.append(current + ",")
            current = n
        else:
            current = piece
    if current:
        lines.append(current)
    return lines


def _chart_for(e: EventRecord, d: VoteResult | SheriffVotes, words: Words) -> str:
    rnd = d.round
    key = "chart_vote" if isinstance(d, VoteResult) else "chart_sheriff"
    title = html.unescape(words.say(f"export.{key}" if rnd == 1 else f"export.{key}_round", n=e.day, round=rnd))
    votes = d.votes if isinstance(d.votes, dict) else {}
    tally = d.tally if isinstance(d.tally, dict) else {}
    return vote_chart(title, votes, {str(k): int(v) for k, v in tally.items() if isinstance(v, (int, float))}, words)


# ---------------------------------------------------------------------- timeline items
def _event_item(e: EventRecord, seats: _Seats, words: Words, in_round: bool = False) -> str:
    """``in_round``: a speech of a round whose speakers all spoke at once (``discussion:
    parallel``), shown inside the round it belongs to."""
    classes = seats.classes(e.audience)
    kind_class = f"k-{esc(e.kind)}" + (" in-round" if in_round else "")
    private = e.audience != PUBLIC
    extra = " hidden-all" if e.audience == NARRATOR else (" private" if private else "")
    body = words.event(e)
    if isinstance(e.payload, (VoteResult, SheriffVotes)):
        body += _chart_for(e, e.payload, words)
    if private:
        who = words.say("export.narrator_only") if e.audience == NARRATOR else words.names(e.audience)
        body = "🔒 " + body + f'<span class="who">{words.say("export.seen_by", who=who)}</span>'
    return f'<div class="v {classes} {kind_class}{extra}">{body}</div>'


def _answer_item(a: AnswerRecord, seats: _Seats, words: Words) -> str:
    if a.shape == "text":
        return ""  # the speech itself follows, heard by its audience
    line = words.say(
        "export.answer",
        seat=words.text(a.seat),
        agent=words.text(a.agent),
        kind=words.text(a.kind),
        offered=words.offered(a),
        answer=words.bold(words.answer(a.answer)),
    )
    return f'<div class="v {seats.of(a.seat)} act">{line}</div>'


def _call_item(c: Any, seats: _Seats, words: Words) -> str:
    who = words.caller(c)
    out = []
    thought = reasoning_of(c)
    if thought:
        out.append(f'<div class="v {seats.of(c.seat)} think">{words.say("replay.thought", who=who, kind=words.text(c.kind))} {esc(thought)}</div>')
    refused = "replay.repaired" if getattr(c, "accepted", False) else "replay.refused"  # an accepted reply's violation: a repair
    for field, key in (("violation", refused), ("error", "replay.failed")):
        value = getattr(c, field, None)
        if value:
            out.append(f'<div class="v {seats.of(c.seat)} warn">{words.say(key, who=who, why=words.text(value))}</div>')
    return "".join(out)


def _reveal_table(t: Transcript, words: Words) -> str:
    d = next((e.payload for e in t.events if isinstance(e.payload, GameEnd)), None)
    if d is None:
        return ""
    deaths = {e.payload.player: (e.day, e.payload) for e in t.events if isinstance(e.payload, DeathEvent)}
    winners = set(d.winners or [])
    lovers = set(d.lovers or [])
    rows = []
    for name, role in (d.roles or {}).items():
        death = deaths.get(name)
        fate = words.say("reveal.dead", n=death[0], cause=words.cause(death[1].cause)) if death else words.say("reveal.alive")
        initial = (d.initial_roles or {}).get(name, role)
        marks = words.say("reveal.lover") if name in lovers else ""
        rows.append(
            f"<tr><td>{esc(name)}</td><td>{words.role(initial)}</td><td>{words.role(role)}</td><td>{fate}</td>"
            f"<td>{marks}</td><td>{'✓' if name in winners else ''}</td></tr>"
        )
    head = "".join(f"<th>{words.say(f'reveal.{col}')}</th>" for col in ("player", "initial", "final", "fate")) + "<th></th>"
    head = f"<tr>{head}<th>{words.say('reveal.won')}</th></tr>"
    return f'<div class="v v-pub k-reveal"><table class="reveal">{head}{"".join(rows)}</table></div>'


def _merge_copies(records: list[Any]) -> list[Any]:
    """One item for the copies of a private event sent to each seat (every wolf gets
    its own ``wolf_pack``): the page says once who saw it, rather than repeating it."""
    out: list[Any] = []
    for r in records:
        prev = out[-1] if out else None
        if (
            isinstance(r, EventRecord)
            and isinstance(prev, EventRecord)
            and isinstance(r.audience, list)
            and isinstance(prev.audience, list)
            and (r.kind, r.day, r.phase, r.data) == (prev.kind, prev.day, prev.phase, prev.data)
        ):
            out[-1] = prev.model_copy(update={"audience": prev.audience + [n for n in r.audience if n not in prev.audience]})
            continue
        out.append(r)
    return out


def timeline_html(t: Transcript, seats: _Seats, words: Words | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The timeline, in phases; and the (anchor, label) of each phase for navigation."""
    words = words or Words(t.header.language, "html")
    sections: list[str] = []
    anchors: list[tuple[str, str]] = []
    items: list[str] = []
    current = ("setup", words.say("export.setup"), "phase-setup")

    def close() -> None:
        kind, title, anchor = current
        if items:
            sections.append(f'<section class="phase {kind}" id="{anchor}"><h2>{title}</h2>{"".join(items)}</section>')
            anchors.append((anchor, title))
        items.clear()

    parallel: tuple | None = None  # the round of speeches given at once being shown
    for r in _merge_copies(t.records):
        if isinstance(r, EventRecord):
            opener = _PHASE_OPENERS.get(type(r.payload))
            if opener is not None:
                close()
                heading = {"night": "headings.night", "day": "headings.day", "end": "export.end"}[opener]
                current = (opener, words.say(heading, n=r.day), f"{opener}-{r.day}")
            d = r.payload
            if isinstance(d, DiscussionRound):
                parallel = (r.day, r.phase, d.round)
            elif not isinstance(d, Speech):
                parallel = None
            in_round = isinstance(d, Speech) and parallel == (r.day, r.phase, d.round)
            items.append(_event_item(r, seats, words, in_round))
            if isinstance(r.payload, GameEnd):
                items.append(_reveal_table(t, words))
        elif isinstance(r, AnswerRecord):
            items.append(_answer_item(r, seats, words))
        elif getattr(r, "type", None) == "call":
            items.append(_call_item(r, seats, words))
        elif getattr(r, "type", None) == "error":
            items.append(f'<div class="v v-pub warn">{words.say("replay.stopped", message=words.text(r.message))}</div>')
    if not t.complete:
        items.append(f'<div class="v v-pub warn">{words.say("replay.unfinished")}</div>')
    close()
    return "".join(sections), anchors


# ---------------------------------------------------------------------- the page
def _views(names: list[str], words: Words) -> tuple[str, str, str]:
    """The radio inputs, their labels and the CSS that shows each view's items."""
    views = [("pub", "public", words.say("export.public")), ("full", "full", words.say("export.full"))] + [
        (f"s{i}", name, esc(name)) for i, name in enumerate(names)
    ]
    inputs = []
    labels = []
    css = [
        "#view-pub:checked ~ main .v-pub { display: block; }",
        "#view-full:checked ~ main .v { display: block; }",
    ]
    for key, data, label in views:
        checked = " checked" if key == "pub" else ""
        inputs.append(f'<input class="view" type="radio" name="view" id="view-{key}" data-view="{esc(data)}"{checked}>')
        labels.append(f'<label for="view-{key}">{label}</label>')
        css.append(f'#view-{key}:checked ~ nav.views label[for="view-{key}"] {{ background: var(--ink); color: #fff; }}')
        if key.startswith("s"):
            css.append(f"#view-{key}:checked ~ main .v-pub, #view-{key}:checked ~ main .v-{key} {{ display: block; }}")
    return "\n".join(inputs), "\n".join(labels), "\n".join(css)


def _building_cell(token: dict[str, Any] | None, words: Words) -> str:
    """A player's public building token and what became of it (The Village): the title
    in the game's language, then each change with its day; a spent unique power and a
    home a Vagabond took over are said too. Public facts only (``transcripts.buildings``)."""
    if not token:
        return ""
    parts = []
    for i, c in enumerate(token["changes"]):
        name = words.term("buildings", c["building"])
        if i == 0:
            parts.append(f'<span class="bld">{name}</span>')
            continue
        if c.get("former"):
            how = words.say("export.moved_into", former=words.text(c["former"]), home=words.term("homes", c["building"]))
        elif words.cat.has(f"narration.export.how.{c['how']}"):
            how = words.say(f"export.how.{c['how']}")
        else:
            how = words.text(c["how"])
        parts.append(f'→ <span class="bld">{name}</span> <small>{words.say("export.change", n=words.text(c["day"]), how=how)}</small>')
    if not token["token"]:
        parts.append(f"<small>{words.say('export.token_returned')}</small>")
    if token.get("taken_by"):
        parts.append(f"<small>{words.say('export.home_taken', name=words.text(token['taken_by']))}</small>")
    return " ".join(parts)


def _summary(t: Transcript, words: Words) -> str:
    h = t.header
    tokens = public_tokens(t.events)
    col = {k: words.say(f"export.columns.{k}") for k in ("seat", "agent", "building")}
    if tokens:
        rows = "".join(
            f"<tr><td>{esc(s.name)}</td><td>{esc(s.agent)}</td><td>{_building_cell(tokens.get(s.name), words)}</td></tr>" for s in h.seats
        )
        head = f"<tr><th>{col['seat']}</th><th>{col['agent']}</th><th>{col['building']}</th></tr>"
    else:
        rows = "".join(f"<tr><td>{esc(s.name)}</td><td>{esc(s.agent)}</td></tr>" for s in h.seats)
        head = f"<tr><th>{col['seat']}</th><th>{col['agent']}</th></tr>"
    facts = [words.say("export.preset", preset=words.term("presets", h.preset)), words.say("export.seed", seed=words.text(h.seed)), esc(h.software)]
    fork = getattr(h, "fork", None)
    if fork is not None:
        facts.append(words.say("export.forked", transcript=words.text(fork.transcript), n=words.text(fork.day)))
    result = t.result
    if result is not None:
        facts.append(words.say("export.result", winner=words.term("camps", result.winner), n=words.text(result.days)))
    return (
        f'<p class="verdict">{" · ".join(facts)}</p>'
        f'<table class="seats">{head}{rows}</table>'
    )


def render_html(transcript: Transcript, *, title: str | None = None, verdict: str = "", language: str | None = None) -> str:
    """The page, in ``language`` (default: the game's, from the transcript's header)."""
    words = Words(language or transcript.header.language, "html")
    names = transcript.header.names
    seats = _Seats(names)
    inputs, labels, css = _views(names, words)
    body, anchors = timeline_html(transcript, seats, words)
    links = " ".join(f'<a href="#{esc(a)}">{label}</a>' for a, label in anchors)
    title = title if title is not None else html.unescape(words.say("export.default_title"))
    return _template().substitute(
        lang=esc(words.cat.lang),
        title=words.say("export.title", title=words.text(title)),
        verdict=esc(verdict),
        verdict_class="" if verdict.startswith("OK") or not verdict else " bad",
        summary=_summary(transcript, words),
        inputs=inputs,
        labels=labels,
        view_css=css,
        day_links=links,
        timeline=body,
        whose_view=words.say("export.whose_view"),
        view_label=words.say("export.view"),
        days_label=words.say("export.days"),
        footer=words.say("export.footer"),
    )

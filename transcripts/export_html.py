"""A recorded game as one self-contained web page.

The page must open anywhere, offline, years later, and be safe to share: so no
network (inline CSS, a few lines of inline JS, inline SVG charts), and every piece of
text from the record is escaped, because player names and speeches come from models
and people and may contain markup.

The views (public, one seat's, full) switch with CSS alone: every timeline item
carries a class per seat allowed to see it, taken from the recorded audience through
``transcripts.views``. The whole record is in the page; a view is a lens, not a lock.
"""

from __future__ import annotations

import html
from importlib import resources
from string import Template
from typing import Any

from arena.narrate import CAUSES, role_name
from transcripts.buildings import home as building_home
from transcripts.buildings import public_tokens
from transcripts.buildings import title as building_title
from transcripts.describe import STOPPED, UNFINISHED, answer_text, caller, describe_event, offered_text
from transcripts.schema import AnswerRecord, EventRecord, Transcript
from transcripts.views import NARRATOR, PUBLIC, reasoning_of

_PHASE_OPENERS = {"night_start": "night", "dawn": "day", "game_end": "end"}


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
def vote_chart(title: str, votes: dict[str, Any], tally: dict[str, int]) -> str:
    """A horizontal bar per candidate, its voters named; abstentions in grey."""
    rows: list[tuple[str, int, list[str], bool]] = []
    for target, count in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])):
        voters = [v for v, t in votes.items() if t == target]
        rows.append((target, count, voters, False))
    abstained = [v for v, t in votes.items() if t is None]
    if abstained:
        rows.append(("(abstain)", len(abstained), abstained, True))
    if not rows:
        return f'<figure class="votes"><figcaption>{esc(title)}: no votes</figcaption></figure>'
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


def _chart_for(e: EventRecord) -> str:
    d = e.data
    rnd = d.get("round", 1)
    if e.kind == "vote_result":
        title = f"Day {e.day} vote" + (f", round {rnd}" if rnd != 1 else "")
    else:
        title = f"Day {e.day} Sheriff election" + (f", round {rnd}" if rnd != 1 else "")
    votes = d.get("votes") if isinstance(d.get("votes"), dict) else {}
    tally = d.get("tally") if isinstance(d.get("tally"), dict) else {}
    return vote_chart(title, votes, {str(k): int(v) for k, v in tally.items() if isinstance(v, (int, float))})


# ---------------------------------------------------------------------- timeline items
def _event_item(e: EventRecord, seats: _Seats, language: str = "en", in_round: bool = False) -> str:
    """``in_round``: a speech of a round whose speakers all spoke at once (``discussion:
    parallel``), shown inside the round it belongs to."""
    classes = seats.classes(e.audience)
    kind_class = f"k-{esc(e.kind)}" + (" in-round" if in_round else "")
    private = e.audience != PUBLIC
    extra = " hidden-all" if e.audience == NARRATOR else (" private" if private else "")
    if e.kind == "speech":
        text = str(e.data.get("text", "")).strip()
        body = f"<b>{esc(e.data.get('speaker'))}</b>: {esc(text) if text else '<i>(says nothing)</i>'}"
    elif e.kind in ("vote_result", "sheriff_votes"):
        body = esc(describe_event(e, language=language)) + _chart_for(e)
    else:
        body = esc(describe_event(e, language=language))
    if private:
        who = "nobody (the narrator's secret)" if e.audience == NARRATOR else ", ".join(e.audience)
        body = "🔒 " + body + f'<span class="who">seen by {esc(who)}</span>'
    return f'<div class="v {classes} {kind_class}{extra}">{body}</div>'


def _answer_item(a: AnswerRecord, seats: _Seats) -> str:
    if a.shape == "text":
        return ""  # the speech itself follows, heard by its audience
    return (
        f'<div class="v {seats.of(a.seat)} act">▸ {esc(a.seat)} ({esc(a.agent)}) decides {esc(a.kind)}'
        f" among {esc(offered_text(a))}: <b>{esc(answer_text(a.answer))}</b></div>"
    )


def _call_item(c: Any, seats: _Seats) -> str:
    who = esc(caller(c))
    out = []
    thought = reasoning_of(c)
    if thought:
        out.append(f'<div class="v {seats.of(c.seat)} think">💭 {who} on {esc(c.kind)}: {esc(thought)}</div>')
    for field, words in (("violation", "reply was refused"), ("error", "call failed")):
        value = getattr(c, field, None)
        if value:
            out.append(f'<div class="v {seats.of(c.seat)} warn">⚠ {who}: {words}: {esc(value)}</div>')
    return "".join(out)


def _reveal_table(t: Transcript) -> str:
    end = next((e for e in t.events if e.kind == "game_end"), None)
    if end is None:
        return ""
    d = end.data
    deaths = {e.data.get("player"): e for e in t.events if e.kind == "death"}
    winners = set(d.get("winners") or [])
    lovers = set(d.get("lovers") or [])
    rows = []
    for name, role in (d.get("roles") or {}).items():
        death = deaths.get(name)
        fate = f"day {death.day}: {CAUSES.get(death.data.get('cause'), death.data.get('cause'))}" if death else "alive"
        initial = (d.get("initial_roles") or {}).get(name, role)
        marks = "♥ lover" if name in lovers else ""
        rows.append(
            f"<tr><td>{esc(name)}</td><td>{esc(role_name(initial))}</td><td>{esc(role_name(role))}</td><td>{esc(fate)}</td>"
            f"<td>{esc(marks)}</td><td>{'✓' if name in winners else ''}</td></tr>"
        )
    head = "<tr><th>player</th><th>initial role</th><th>final role</th><th>fate</th><th></th><th>won</th></tr>"
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


def timeline_html(t: Transcript, seats: _Seats) -> tuple[str, list[tuple[str, str]]]:
    """The timeline, in phases; and the (anchor, label) of each phase for navigation."""
    sections: list[str] = []
    anchors: list[tuple[str, str]] = []
    items: list[str] = []
    current = ("setup", "Setup", "phase-setup")

    def close() -> None:
        kind, title, anchor = current
        if items:
            sections.append(f'<section class="phase {kind}" id="{anchor}"><h2>{esc(title)}</h2>{"".join(items)}</section>')
            anchors.append((anchor, title))
        items.clear()

    parallel: tuple | None = None  # the round of speeches given at once being shown
    for r in _merge_copies(t.records):
        if isinstance(r, EventRecord):
            opener = _PHASE_OPENERS.get(r.kind)
            if opener is not None:
                close()
                title = {"night": f"Night {r.day}", "day": f"Day {r.day}", "end": "The end"}[opener]
                current = (opener, title, f"{opener}-{r.day}")
            if r.kind == "discussion_round":
                parallel = (r.day, r.phase, r.data.get("round"))
            elif r.kind != "speech":
                parallel = None
            in_round = r.kind == "speech" and parallel == (r.day, r.phase, r.data.get("round"))
            items.append(_event_item(r, seats, t.header.language, in_round))
            if r.kind == "game_end":
                items.append(_reveal_table(t))
        elif isinstance(r, AnswerRecord):
            items.append(_answer_item(r, seats))
        elif getattr(r, "type", None) == "call":
            items.append(_call_item(r, seats))
        elif getattr(r, "type", None) == "error":
            items.append(f'<div class="v v-pub warn">{esc(STOPPED.format(message=r.message))}</div>')
    if not t.complete:
        items.append(f'<div class="v v-pub warn">{esc(UNFINISHED)}</div>')
    close()
    return "".join(sections), anchors


# ---------------------------------------------------------------------- the page
def _views(names: list[str]) -> tuple[str, str, str]:
    """The radio inputs, their labels and the CSS that shows each view's items."""
    views = [("pub", "public", "Public"), ("full", "full", "Full (god)")] + [
        (f"s{i}", name, name) for i, name in enumerate(names)
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
        labels.append(f'<label for="view-{key}">{esc(label)}</label>')
        css.append(f'#view-{key}:checked ~ nav.views label[for="view-{key}"] {{ background: var(--ink); color: #fff; }}')
        if key.startswith("s"):
            css.append(f"#view-{key}:checked ~ main .v-pub, #view-{key}:checked ~ main .v-{key} {{ display: block; }}")
    return "\n".join(inputs), "\n".join(labels), "\n".join(css)


_HOW = {"fire": "home burned down", "moved_in": "moved in"}


def _building_cell(token: dict[str, Any] | None, language: str) -> str:
    """A player's public building token and what became of it (The Village): the title
    in the game's language, then each change with its day; a spent unique power and a
    home a Vagabond took over are said too. Public facts only (``transcripts.buildings``)."""
    if not token:
        return ""
    parts = []
    for i, c in enumerate(token["changes"]):
        name = esc(building_title(c["building"], language))
        if i == 0:
            parts.append(f'<span class="bld">{name}</span>')
            continue
        how = _HOW.get(c["how"], c["how"])
        if c.get("former"):
            how = f"moved into {c['former']}'s {building_home(c['building'], language)}"
        parts.append(f'→ <span class="bld">{name}</span> <small>(day {esc(c["day"])}, {esc(how)})</small>')
    if not token["token"]:
        parts.append("<small>(token returned)</small>")
    if token.get("taken_by"):
        parts.append(f"<small>(home taken by {esc(token['taken_by'])})</small>")
    return " ".join(parts)


def _summary(t: Transcript) -> str:
    h = t.header
    tokens = public_tokens(t.events)
    if tokens:
        rows = "".join(
            f"<tr><td>{esc(s.name)}</td><td>{esc(s.agent)}</td><td>{_building_cell(tokens.get(s.name), h.language)}</td></tr>"
            for s in h.seats
        )
        head = "<tr><th>seat</th><th>agent</th><th>building</th></tr>"
    else:
        rows = "".join(f"<tr><td>{esc(s.name)}</td><td>{esc(s.agent)}</td></tr>" for s in h.seats)
        head = "<tr><th>seat</th><th>agent</th></tr>"
    facts = [f"preset {esc(h.preset)}", f"seed {esc(h.seed)}", esc(h.software)]
    fork = getattr(h, "fork", None)
    if fork is not None:
        facts.append(f"forked from {esc(fork.transcript)} at day {esc(fork.day)}")
    result = t.result
    if result is not None:
        facts.append(f"{esc(result.winner)} won after day {esc(result.days)}")
    return (
        f'<p class="verdict">{" · ".join(facts)}</p>'
        f'<table class="seats">{head}{rows}</table>'
    )


def render_html(transcript: Transcript, *, title: str = "A game of Werewolf", verdict: str = "") -> str:
    names = transcript.header.names
    seats = _Seats(names)
    inputs, labels, css = _views(names)
    body, anchors = timeline_html(transcript, seats)
    links = " ".join(f'<a href="#{esc(a)}">{esc(label)}</a>' for a, label in anchors)
    return _template().substitute(
        title=esc(f"Werewolf: {title}"),
        verdict=esc(verdict),
        verdict_class="" if verdict.startswith("OK") or not verdict else " bad",
        summary=_summary(transcript),
        inputs=inputs,
        labels=labels,
        view_css=css,
        day_links=links,
        timeline=body,
    )

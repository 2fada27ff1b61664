"""``werewolf export --html``: one page, valid, offline, escaped, with every view.

The page is parsed with the standard library's ``html.parser``: tags must balance,
nothing may load from the network, player text must come out as text (a name or a
speech holding markup is escaped), each seat's view must hold exactly the events that
seat was shown, and each day with a vote has its chart.
"""

from __future__ import annotations

import json
import re

from html.parser import HTMLParser
from pathlib import Path

import pytest
from transcript_tools import lines, play_to_file, varied_spec, write_lines

from arena.cli import main
from transcripts.export_html import render_html
from transcripts.schema import read_transcript
from transcripts.views import visible

VOID = {"meta", "input", "br", "hr", "img", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
HOSTILE = ['<script>alert("x")</script>', "Bob</div><b>", 'Eve" onmouseover="x', "Zoë & <i>Ana</i>"]


class Page(HTMLParser):
    """Balanced tags, every URL-bearing attribute, the text, and the timeline items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.scripts_with_src = 0
        self.text: list[str] = []
        self.items: list[tuple[str, list[str]]] = []  # (kind, view classes)
        self.svgs = 0
        self.checked_inputs = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href", "action", "data", "xlink:href", "poster"):
            if a.get(key):
                self.urls.append(a[key])
        if tag == "script" and "src" in a:
            self.scripts_with_src += 1
        if tag == "svg":
            self.svgs += 1
        if tag == "input" and "checked" in a:
            self.checked_inputs += 1
        classes = (a.get("class") or "").split()
        if tag == "div" and "v" in classes:
            kinds = [c[2:] for c in classes if c.startswith("k-")]
            self.items.append((kinds[0] if kinds else "", [c for c in classes if c.startswith("v-")]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(page: str) -> Page:
    p = Page()
    p.feed(page)
    p.close()
    assert not p.errors, p.errors[:3]
    assert not p.stack, p.stack
    return p


@pytest.fixture(scope="module")
def hostile_game(tmp_path_factory) -> Path:
    """A transcript whose player names are markup, so every escape is exercised. The
    engine refuses such names (``engine.names``), so the game is played with plain
    names and its file then edited, as a hand-made or tampered transcript would be:
    the page must escape whatever a file holds."""
    spec = varied_spec(2, "heuristic", players=8)
    path = tmp_path_factory.mktemp("export") / "game.jsonl"
    play_to_file(spec, path)
    text = path.read_text(encoding="utf-8")
    for seat, hostile in zip(spec.seats, HOSTILE):
        text = text.replace(json.dumps(seat.name), json.dumps(hostile))
    path.write_text(text, encoding="utf-8")
    return path


def test_page_is_valid_offline_and_escaped(hostile_game):
    t = read_transcript(hostile_game)
    page = render_html(t, title="<title>game</title>")
    p = parse(page)
    assert page.startswith("<!DOCTYPE html>")
    assert p.scripts_with_src == 0 and "<script src" not in page.lower()
    assert all(u.startswith("#") for u in p.urls), p.urls
    assert "http://" not in page and "https://" not in page and "@import" not in page and "url(" not in page
    text = "".join(p.text)
    for name in HOSTILE:
        assert name in text  # shown as text...
    assert '<script>alert("x")</script>' not in page  # ...never as markup
    assert 'onmouseover="x' not in page
    assert p.checked_inputs == 1  # one view on at a time: the public one


def test_every_seats_view_is_its_observation(hostile_game):
    t = read_transcript(hostile_game)
    p = parse(render_html(t))
    names = t.header.names
    events = [r for r in t.records if getattr(r, "type", "") == "event"]
    # Copies of one private event sent to several seats are shown as one item.
    merged, prev = [], None
    for e in events:
        key = (e.kind, e.day, e.phase, repr(e.data))
        if prev is not None and isinstance(e.audience, list) and isinstance(prev[1], list) and key == prev[0]:
            prev[1].extend(n for n in e.audience if n not in prev[1])
            continue
        prev = (key, list(e.audience) if isinstance(e.audience, list) else e.audience)
        merged.append(prev)
    items = [i for i in p.items if i[0] and i[0] != "reveal"]
    assert len(items) == len(merged)
    for (kind, classes), (key, audience) in zip(items, merged):
        assert kind == key[0]
        for i, name in enumerate(names):
            shown = "v-pub" in classes or f"v-s{i}" in classes
            assert shown == visible(audience, name), (kind, name)


def test_a_vote_chart_for_each_day_with_a_vote(hostile_game):
    t = read_transcript(hostile_game)
    p = parse(render_html(t))
    votes = [e for e in t.events if e.kind in ("vote_result", "sheriff_votes")]
    assert votes and p.svgs == len(votes)
    days = {e.day for e in votes}
    page = render_html(t)
    for d in days:
        assert f"Day {d} vote" in page or f"Day {d} Sheriff election" in page


def test_incomplete_and_model_calls(tmp_path, hostile_game):
    rows = lines(hostile_game)
    i = next(i for i, r in enumerate(rows) if r["type"] == "answer" and r["kind"] == "vote")
    call = {"type": "call", "seat": rows[i]["seat"], "decision": rows[i]["decision"], "kind": "vote", "backend": "openai",
            "model": "gpt-x", "parsed": {"reasoning": "<b>because</b>", "action": rows[i]["answer"]}, "violation": "said <nothing>"}  # fmt: skip
    rows.insert(i, call)
    path = write_lines(tmp_path / "cut.jsonl", rows[: i + 20], rechain=True)
    page = render_html(read_transcript(path))
    p = parse(page)
    assert "&lt;b&gt;because&lt;/b&gt;" in page and "did not reach its end" in "".join(p.text)
    seat = read_transcript(path).header.names.index(rows[i]["seat"])
    thought = [c for k, c in p.items if k == "" and f"v-s{seat}" in c]
    assert thought  # the reasoning and the refusal belong to the seat's view


def test_export_command(tmp_path, capsys, hostile_game):
    plain = tmp_path / "plain.jsonl"
    play_to_file(varied_spec(2, "heuristic", players=8), plain)
    out = tmp_path / "page.html"
    assert main(["export", str(plain), "--html", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    parse(out.read_text(encoding="utf-8"))
    assert main(["export", str(plain), "--html", str(tmp_path / "no" / "dir.html")]) == 2
    assert "cannot write" in capsys.readouterr().err
    # A file whose names no game can have is refused in one line, naming the name.
    assert main(["export", str(hostile_game), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert "is not allowed" in err and "<script>" in err and len(err.strip().splitlines()) == 1


def test_the_template_ships_with_the_package():
    from importlib import resources

    assert resources.files("transcripts").joinpath("templates/report.html").is_file()
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert 'transcripts = ["templates/*"]' in pyproject


def test_a_vote_chart_names_every_voter_and_the_reveal_reads_as_cards():
    from transcripts.export_html import _wrap, vote_chart

    voters = ["Bob", "Chloe", "David", "Emma", "Farah", "Gaspard-Ulysse", "Hugo", "Iris", "Jules"]
    svg = vote_chart("Day 1 vote", {v: "Alice" for v in voters} | {"Kenji": None}, {"Alice": 9})
    text = " ".join(__import__("re").findall(r">([^<>]+)</tspan>", svg))
    for v in voters + ["Kenji"]:
        assert v in text
    lines = _wrap(voters, 34)
    assert len(lines) > 1 and all(len(line) <= 35 for line in lines)
    assert ", ".join(line.rstrip(",") for line in lines) == ", ".join(voters)
    assert all(line.endswith(",") for line in lines[:-1]) and not lines[-1].endswith(",")
    assert _wrap(["A" * 50, "B"], 34) == ["A" * 50 + ",", "B"]


def test_the_export_counts_the_deck_and_names_cards(tmp_path):
    path = tmp_path / "game.jsonl"
    play_to_file(varied_spec(seed=3), path)
    page = render_html(read_transcript(path))
    text = re.sub(r"<[^>]+>", "", page)  # the words, without the elements names and roles are set in
    assert "Villager ×" in text or "Werewolf ×" in text  # cards counted, not listed one by one
    assert "Villager, Villager" not in text and "Werewolf, Werewolf" not in text
    reveal = page[page.index('class="reveal"'):]
    reveal = reveal[: reveal.index("</table>")]
    assert "<td>werewolf</td>" not in reveal and "<td>Werewolf</td>" in reveal

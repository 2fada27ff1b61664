"""The message-board (004) and Village (000) events read well in every viewer, and the
players' public building tokens are shown.

Viewers: ``werewolf replay`` (``--god`` and ``--as`` a seat), the HTML export
(``transcripts.describe``) and the web pages (``arena.web.render``), all reading the
one text pipeline (``prompts.events_text``). None may
fall back to the generic "kind — key: value" form for an event the engine emits. The
web players panel and the export's player list show each player's building token, in
the game's language, from public events only. Every phase the engine sets has its
time label in the history (``terms.when``: the forum's ``dusk`` reads "sundown").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from test_transcript_export import parse
from transcript_tools import play_to_file

import prompts.events_text.registry
from arena.gamefile import GameSpec, SeatSpec, default_names
from arena.web.app import create_app
from arena.web.lens import FULL_LENS, PUBLIC_LENS, Lens
from arena.web.render import entries, players
from engine.presets import get_preset
from prompts.catalog import catalog
from prompts.render import LANGUAGES
from transcripts.buildings import public_tokens
from transcripts.describe import describe, describe_event
from transcripts.export_html import render_html
from transcripts.replay import ReplayOptions, replay
from transcripts.schema import read_transcript
from transcripts.views import Lens as ReplayLens
from transcripts.views import visible
from web_tools import web_client

ROOT = Path(__file__).resolve().parents[1]
KEY_VALUE = re.compile(r"\b[a-z]+(?:_[a-z]+)*=")  # describe's old fallback: "moved in: player=Bob, ..."
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")
HAN = re.compile(r"[\u4e00-\u9fff]")


def _spec(preset: str, seed: int, n: int, agent: str, language: str = "en", **options) -> GameSpec:
    p = get_preset(preset)
    return GameSpec(
        preset=preset,
        seed=seed,
        options=options,
        roles=p.deck(n),
        language=language,
        seats=[SeatSpec(name=x, agent=agent) for x in default_names(n)],
    )


VILLAGE = {"buildings": "box", "building_handout": "choice"}
TABLES = [
    ("village", 1, 14, "heuristic", "en", VILLAGE),
    ("village", 2, 12, "random", "en", VILLAGE),
    ("village", 3, 16, "random", "zh", VILLAGE),
    ("village", 4, 13, "heuristic", "zh", {"buildings": "thirds"}),
    ("forum", 1, 12, "heuristic", "en", {}),
    ("forum", 29, 10, "random", "zh", {"ghost_notes": True}),  # a game with phantom votes (seats drawing from one stream, issue 42)
]


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory) -> list:
    out = []
    folder = tmp_path_factory.mktemp("viewers")
    for i, (preset, seed, n, agent, language, options) in enumerate(TABLES):
        path = folder / f"{preset}-{i}.jsonl"
        game = play_to_file(_spec(preset, seed, n, agent, language, **options), path)
        out.append((game, read_transcript(path)))
    return out


@pytest.fixture
def no_generic(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The kinds that fell back to the generic rendering (every viewer reads through
    the one text pipeline, so one fallback serves them all)."""
    plain: set[str] = set()

    def generic(r, e):
        plain.add(e.kind)
        return f"{e.kind} (generic)"

    monkeypatch.setattr(prompts.events_text.registry, "generic", generic)
    return plain


def _check(text: str, where: str) -> None:
    assert text.strip(), where
    assert not KEY_VALUE.search(text), f"{where}: key=value text: {text}"
    assert not PLACEHOLDER.search(text), f"{where}: unfilled placeholder: {text}"


# ------------------------------------------------------------------ describe (the export's words)
def test_every_event_reads_as_a_sentence_for_every_reader(transcripts, no_generic):
    kinds: set[str] = set()
    for _, t in transcripts:
        names = t.header.names
        for e in t.events:
            kinds.add(e.kind)
            for language in {"en", t.header.language}:
                _check(describe_event(e, language=language), f"{e.kind} ({language})")
                for seat in (n for n in names if visible(e.audience, n)):
                    _check(describe_event(e, seat=seat, language=language), f"{e.kind} to {seat} ({language})")
    assert not no_generic, f"read only as key=value: {sorted(no_generic)}"
    wanted = {"buildings", "building_chosen", "buildings_on_offer", "moved_in", "fire", "fire_set", "confessed_role", "token_returned"}
    wanted |= {"votes_cast", "vote_change", "sundown", "phantom_votes"}
    assert wanted <= kinds, sorted(wanted - kinds)


def test_describe_reads_the_narrators_words_or_a_seats():
    assert describe("eliminated", {"player": "Bob"}) == "Bob is eliminated by the village."
    fire = {"player": "Bob", "building": "farmer", "wolf_burned": False}
    assert describe("fire", fire) == "At dawn Bob's farm burns down: Bob is now a Vagabond."
    assert describe("fire", fire, reader="Bob") == "At dawn your farm burns down: you are now a Vagabond."
    assert "农场" in describe("fire", fire, language="zh")
    assert "黄昏" not in describe("sundown", {"day": 1}, language="zh") and HAN.search(describe("sundown", {"day": 1}, language="zh"))
    # a kind added later still reads, in the generic form
    assert "future thing" in describe("future_thing", {"x": 1})
    tally = {"round": 1, "votes": {"Alice": "Bob"}, "tally": {"Bob": 2}, "leaders": ["Bob"], "sheriff": None, "phantoms": {"Bob": 1}}
    assert "phantom votes: Bob +1" in describe("vote_result", tally)


# ------------------------------------------------------------------ the HTML export
def test_the_export_reads_and_lists_each_players_building(transcripts):
    for game, t in transcripts:
        page = render_html(t)
        parse(page)  # balanced, escaped
        assert "homes=" not in page and "player=" not in page and "wolf_burned=" not in page
        seats = re.search(r'<table class="seats">(.*?)</table>', page, re.S).group(1)
        cat = catalog(t.header.language)  # the page speaks the game's language
        building = f"<th>{cat.text('narration.export.columns.building')}</th>"
        if t.header.options.get("buildings", "none") == "none":
            assert building not in seats
            continue
        assert building in seats
        for p in game.players:
            row = re.search(rf"<tr><td>{re.escape(p.name)}</td>.*?</tr>", seats).group(0)
            assert cat.word("buildings", p.building) in row, (p.name, p.building, row)
        if t.header.language == "zh":
            assert "农夫" in seats
        fires = [e for e in t.events if e.kind == "fire"]
        for e in fires:
            row = re.search(rf"<tr><td>{re.escape(e.data['player'])}</td>.*?</tr>", seats).group(0)
            assert cat.word("buildings", "vagabond") in row and cat.text("narration.export.change", n=e.day, how=cat.text("narration.export.how.fire")) in row


def test_a_zh_export_tells_the_village_in_chinese(transcripts):
    _, t = next((g, t) for g, t in transcripts if t.header.language == "zh" and t.header.preset == "village")
    page = render_html(t)
    buildings = re.search(r'class="v [^"]*k-buildings[^"]*">(.*?)</div>', page).group(1)
    assert HAN.search(buildings)


# ------------------------------------------------------------------ werewolf replay
def test_the_replay_tells_every_event_in_words(transcripts, no_generic):
    for _, t in transcripts:
        for lens in [ReplayLens.full(), ReplayLens.public()] + [ReplayLens.of(n) for n in t.header.names]:
            buf = io.StringIO()
            replay(t, Console(file=buf, width=140, color_system=None), ReplayOptions(lens=lens))
            text = buf.getvalue()
            assert not KEY_VALUE.search(text), (lens.label, KEY_VALUE.search(text))
    assert not no_generic, f"told only as key=value: {sorted(no_generic)}"


# ------------------------------------------------------------------ time labels
def _engine_phases() -> set[str]:
    phases: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        phases |= set(re.findall(r"""\bgame\.phase\s*=\s*["']([a-z_]+)["']""", text))
        phases |= set(re.findall(r"""\bself\.phase\s*=\s*["']([a-z_]+)["']""", text))
        phases |= set(re.findall(r"""\bdiscussion\(\s*game\s*,\s*["']([a-z_]+)["']""", text))
    return phases


def test_every_phase_the_engine_sets_has_a_time_label():
    phases = _engine_phases()
    assert {"setup", "night", "dawn", "vote", "dusk", "end", "discussion", "campaign"} <= phases
    for language in LANGUAGES:
        cat = catalog(language)
        missing = [p for p in sorted(phases) if not cat.has(f"terms.when.{p}")]
        assert not missing, f"prompts/{language}/terms.yaml when: lacks {missing}"
    assert catalog("en").text("terms.when.dusk", n=2) == "Day 2, sundown"
    assert catalog("zh").text("terms.when.dusk", n=2) == "第2天·日落"


def test_the_forums_sundown_is_labelled_in_the_history(transcripts):
    from prompts.render import history_entries

    game, t = next((g, t) for g, t in transcripts if t.header.preset == "forum")
    seat = game.players[0].name
    lines = history_entries(game.observation(seat), seat, language="en")
    assert any(line.startswith("Day ") and ", sundown — Sundown" in line for line in lines)


# ------------------------------------------------------------------ the web pages
def test_the_players_panel_shows_every_public_building_token(transcripts):
    for game, t in transcripts:
        language = t.header.language
        events = game.events
        lenses = [PUBLIC_LENS, FULL_LENS] + [Lens(seat=p.name) for p in game.players]
        tables = [players(t.header.names, lens.filter(events), lens, language) for lens in lenses]
        for table in tables:
            got = {p["name"]: p.get("building") for p in table}
            assert got == {p["name"]: p.get("building") for p in tables[0]}  # public: the same for every lens
        if t.header.options.get("buildings", "none") == "none":
            assert all("building" not in p for p in tables[0])
            continue
        cat = catalog(language)
        for p in tables[0]:
            engine = game.by_name[p["name"]]
            b = p["building"]
            assert b["id"] == engine.building and b["title"] == cat.word("buildings", engine.building)
            assert b["home"] == cat.word("homes", engine.building)
            assert b["token"] == engine.token, (p["name"], b, engine.token)
        # the sentences the pages show read in the game's language, never as key=value
        for lens in lenses[:2]:
            for entry in entries(events, lens, language):
                _check(entry["text"], entry["kind"])


def test_public_tokens_read_public_events_only(transcripts):
    game, _ = transcripts[0]
    public = [e for e in game.events if e.is_public]
    assert public_tokens(game.events) == public_tokens(public)


def test_a_web_village_table_shows_the_tokens(tmp_path):
    names = default_names(12)
    seats = [{"name": n, "agent": "heuristic"} for n in names]
    seats[0] = {"name": names[0], "agent": "human"}
    body = {"preset": "village", "seed": 5, "seats": seats, "pace": 0, "options": {"buildings": "box", "building_handout": "random"}}
    with web_client(create_app(tmp_path / "games")) as client:
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        links = r.json()
        deadline = __import__("time").time() + 10
        while True:
            state = client.get("/api" + links["seats"][names[0]] + "/state").json()
            if all(p.get("building") for p in state["players"]):
                break
            assert __import__("time").time() < deadline, state["players"]
        watch = client.get("/api" + links["watch"] + "/state").json()
    assert [p["building"] for p in watch["players"]] == [p["building"] for p in state["players"]]
    assert all(p["building"]["title"] for p in state["players"])
    table_js = (ROOT / "arena" / "web" / "static" / "table.js").read_text(encoding="utf-8")
    assert "p.building" in table_js and "buildingBadge" in table_js

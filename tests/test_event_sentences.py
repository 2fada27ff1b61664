"""Every event the engine can emit reads as a sentence, for every reader: in a seat's
history and as the narrator tells it (``werewolf play``, ``replay``, the export, the
web), in English and in Chinese, all from the one text pipeline
(``prompts.events_text``, ``prompts/{en,zh}/events.yaml`` and ``narration.yaml``).

The engine's kinds come from its registry of event payloads
(``engine.events.EVENT_KINDS``), and from its source for a kind still emitted by
name (``emit("kind", ...)``), so a new event cannot be added without its words. Then real
games of the message-board (004) and Village (000) presets are played and every event
is rendered for each seat that sees it and for the narrator, through its own renderer
(which raises, instead of falling back to the generic "kind — key: value" form that
models and people read badly). ``tests/test_text_pipeline.py`` checks every
registered kind in every language and viewpoint.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import prompts.events_text.registry
from prompts.narrate import Narrator
from engine import Game, GameSetup, get_preset
from engine.events import EVENT_KINDS, NARRATOR, PUBLIC, Event
from event_samples import play_random
from helpers import random_forum_game
from prompts.catalog import Catalog
from prompts.events_text import MODEL, PERSON, RENDERERS, tell_strictly
from prompts.render import LANGUAGES, history_entries

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
# ``emit("kind", ...)`` and its positional form ``emit_data("kind", ...)``
EMIT = re.compile(r"""\bemit(?:_data)?\(\s*(["'])([A-Za-z0-9_]+)\1""")
ANY_EMIT = re.compile(r"\.emit(?:_data)?\(")
DECLARED = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\(")  # ``emit(SeerResult(...))``, ``emit(speech_data(...))``: a payload built there
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")

FORUM_KINDS = {
    "votes_cast", "vote_change", "sundown", "phantom_votes", "lynch_cancelled", "celebrity_news", "vigilante_shot",
    "revived", "priest_revive", "ghost_note", "coroner_report", "pack_leader_sniff", "forum_seer_sense",
    "psychic_result", "insomniac_saw", "insomniac_seen", "ninja_saw", "guardian_angel_saved", "mad_scientist_dose",
    "mutated", "seer_spotted",
}  # fmt: skip
VILLAGE_KINDS = {"raven_poster", "extra_votes", "white_werewolf_kill"}


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def emitted_kinds() -> dict[str, list[str]]:
    """Every event kind the engine declares (``engine.events.EVENT_KINDS``, with the
    module that declares it), and those still emitted by name (``file:line``)."""
    kinds: dict[str, list[str]] = {kind: [cls.__module__] for kind, cls in EVENT_KINDS.items()}
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in EMIT.finditer(text):
            kinds.setdefault(m.group(2), []).append(f"{path.relative_to(ROOT)}:{_line(text, m.start())}")
    return kinds


def _what_is_missing(kind: str) -> list[str]:
    missing = []
    if kind not in RENDERERS:
        missing.append("a renderer in prompts/events_text (@renders)")
    for lang in LANGUAGES:
        if not Catalog(lang, fallback=False).has(f"events.{kind}"):
            missing.append(f"a sentence in prompts/{lang}/events.yaml")
    return missing


# ------------------------------------------------------------------------------ the engine's kinds
def test_the_scan_finds_the_engines_events() -> None:
    kinds = emitted_kinds()
    assert {"game_start", "game_end", "vote_result", "death", "speech"} <= set(kinds)  # multi-line calls too
    assert FORUM_KINDS | VILLAGE_KINDS <= set(kinds)


def test_every_emit_names_its_kind_literally() -> None:
    """The scan reads ``emit("kind", ...)``; a kind held in a variable would escape it."""
    hidden = []
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        literal = {m.start() for m in EMIT.finditer(text)}
        for m in ANY_EMIT.finditer(text):
            if m.start() + 1 not in literal and not DECLARED.match(text, m.end()):
                hidden.append(f"{path.relative_to(ROOT)}:{_line(text, m.start())}")
    assert not hidden, "emit() without a literal event kind (write the kind as a string there): " + ", ".join(hidden)


def test_every_engine_kind_has_its_sentences() -> None:
    """A kind without a renderer or without words in either language is listed with
    what it lacks and where it is declared."""
    problems = []
    for kind, where in sorted(emitted_kinds().items()):
        missing = _what_is_missing(kind)
        if missing:
            problems.append(f"  {kind} ({', '.join(where)}): missing {'; '.join(missing)}")
    assert not problems, f"{len(problems)} event kind(s) without sentences:\n" + "\n".join(problems)


# ------------------------------------------------------------------------------ real games
def _forum(seed: int) -> Game:
    return random_forum_game("sentences-forum", seed)


def _village(seed: int) -> Game:
    n = 12 + seed % 7
    preset = get_preset("village")
    return Game(GameSetup(names=[f"V{i:02d}" for i in range(n)], preset="village", seed=seed, options=preset.options({}), roles=preset.deck(n)))


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [play_random(_forum(s), s) for s in range(24)] + [play_random(_village(s), s) for s in range(10)]


def _readers(game: Game, e: Event) -> list[str | None]:
    """The narrator (None) and every seat that sees the event."""
    if e.audience == PUBLIC:
        return [None] + [p.name for p in game.players]
    if e.audience == NARRATOR:
        return [None]
    return [None] + sorted(e.audience)


def test_every_event_of_real_games_reads_as_a_sentence(games: list[Game]) -> None:
    seen: set[str] = set()
    unknown: set[str] = set()
    for game in games:
        for e in game.events:
            seen.add(e.kind)
            if e.kind not in RENDERERS:
                unknown.add(e.kind)
                continue
            for lang in LANGUAGES:
                cat = Catalog(lang, fallback=False)
                for seat in _readers(game, e):
                    body = tell_strictly(cat, e, seat=seat, style=MODEL if seat else PERSON)  # raises instead of falling back
                    assert body.strip() and not PLACEHOLDER.search(body), (lang, e.kind, e.data, body)
    assert not unknown, f"events of real games without a renderer in prompts/events_text: {sorted(unknown)}"
    assert FORUM_KINDS | VILLAGE_KINDS <= seen, sorted((FORUM_KINDS | VILLAGE_KINDS) - seen)


def test_a_private_event_speaks_to_its_seat(games: list[Game]) -> None:
    """The forum's private events are phrased for the seat that receives them ("You
    learn..."), never about it in the third person; the narrator names it instead."""
    you = {"en": re.compile(r"\byou(r)?\b", re.IGNORECASE), "zh": re.compile("你")}
    for game in games:
        for e in game.events:
            if e.kind not in FORUM_KINDS | VILLAGE_KINDS or e.audience in (PUBLIC, NARRATOR):
                continue
            for lang in LANGUAGES:
                cat = Catalog(lang, fallback=False)
                for seat in sorted(e.audience):
                    body = tell_strictly(cat, e, seat=seat, style=MODEL)
                    assert you[lang].search(body), (lang, e.kind, seat, body)
                told = tell_strictly(cat, e, style=PERSON)
                assert not you[lang].search(told), (lang, e.kind, "narrator", told)


def test_the_narrator_tells_every_event_in_its_own_words(games: list[Game], monkeypatch: pytest.MonkeyPatch) -> None:
    plain: set[str] = set()

    def generic(r: Any, e: Event) -> str:
        plain.add(e.kind)
        return e.kind

    monkeypatch.setattr(prompts.events_text.registry, "generic", generic)
    for i, game in enumerate(games):
        for language in LANGUAGES if i % 4 == 0 else ("en",):  # Chinese on every fourth game: the pipeline's own tests read every kind in it
            buf = io.StringIO()
            Narrator(Console(file=buf, width=160, color_system=None), god=True, language=language).feed(game.events)
            text = buf.getvalue()
            reveal, posted = {"en": ("The cards are revealed", "The lynch votes are posted"), "zh": ("亮牌", "处决投票已公开贴出")}[language]
            assert reveal in text
            if game.preset == "forum":
                assert posted in text, text[:2000]
    assert not plain, f"events the narrator tells only as key=value: {sorted(plain)}"


# ------------------------------------------------------------------------------ visibility
def ev(kind: str, data: dict[str, Any], *, day: int = 2, phase: str = "day", audience: Any = PUBLIC) -> Event:
    return Event.recorded(0, kind, day, phase, audience, data)


def body(e: Event, seat: str, lang: str = "en") -> str:
    [line] = history_entries([e], seat, language=lang)
    return line


def test_the_words_follow_the_reader() -> None:
    change = ev("vote_change", {"voter": "Bob", "previous": "Alice", "target": "Bob", "round": 1}, phase="vote")
    assert "You change your vote from Alice to yourself (change 1)." in body(change, "Bob")
    assert "Bob changes their vote from you to themself (change 1)." in body(change, "Alice")
    assert "Bob把票从你改投给自己" in body(change, "Alice", "zh")
    fresh = ev("vote_change", {"voter": "Bob", "previous": None, "target": "Chloe", "round": 2}, phase="vote")
    assert "Bob, who had not voted, now votes for Chloe (change 2)." in body(fresh, "Alice")

    phantom = ev("phantom_votes", {"players": ["Alice", "Bob"], "day": 2}, phase="dusk")
    assert "You did not vote by sundown: one phantom vote will count against you" in body(phantom, "Bob")
    assert "The same goes for Alice." in body(phantom, "Bob")
    assert "Alice and Bob did not vote by sundown" in body(phantom, "Chloe")

    tally = ev("vote_result", {"round": 1, "votes": {"Alice": "Bob"}, "tally": {"Bob": 2}, "leaders": ["Bob"], "sheriff": None, "phantoms": {"Bob": 1}})
    assert "The count includes phantom votes: you +1." in body(tally, "Bob")
    assert "计票中包含幽灵票：Bob +1。" in body(tally, "Alice", "zh")

    cancelled = ev("lynch_cancelled", {"day": 3, "carried": {"Bob": 1}}, day=3)
    assert "The lynching of day 3 is cancelled" in body(cancelled, "Alice") and "Bob +1" in body(cancelled, "Alice")

    by_day = ev("revived", {"player": "Alice", "priest": "Bob"})
    assert "the table now knows you are the Priest" in body(by_day, "Bob")
    assert "The Priest Bob brings you back to life" in body(by_day, "Alice")
    assert "The Priest Bob brings Alice back to life." in body(by_day, "Chloe")
    by_night = ev("revived", {"player": "Alice"}, phase="night")
    assert "Alice has come back to life in the night." in body(by_night, "Bob")
    assert "Bob" not in body(by_night, "Chloe")

    note = ev("ghost_note", {"author": "Alice", "text": "Watch Bob.", "reader": "Chloe"}, audience=frozenset({"Alice", "Chloe"}))
    assert 'Your ghost note is passed privately to Chloe: "Watch Bob."' in body(note, "Alice")
    assert 'You alone find a ghost note from the late Alice: "Watch Bob."' in body(note, "Chloe")
    assert "只有你发现了已故的Alice留下的幽灵字条" in body(note, "Chloe", "zh")
    public_note = ev("ghost_note", {"author": "Alice", "text": "Watch Bob."})
    assert 'A ghost note from the late Alice is found by everyone: "Watch Bob."' in body(public_note, "Bob")

    poster = ev("raven_poster", {"target": "Bob"}, phase="night")
    assert "on your home: 2 extra votes will count against you" in body(poster, "Bob")
    assert "on Bob's home" in body(poster, "Alice")
    extra = ev("extra_votes", {"votes": {"Bob": 2}}, phase="vote")
    assert "The anonymous poster adds votes to this count: you +2." in body(extra, "Bob")

    seer = ev("forum_seer_sense", {"wolves": 1}, phase="night", audience=frozenset({"Bob"}))
    assert "You use your gift: 1 werewolf is still alive." in body(seer, "Bob")
    seen = ev("insomniac_seen", {"insomniac": "Alice"}, phase="night", audience=frozenset({"Bob"}))
    assert "The Insomniac Alice was awake tonight and saw you" in body(seen, "Bob")
    coroner = ev("coroner_report", {"target": "Alice", "role": "ninja", "cause": "vote"}, audience=frozenset({"Bob"}))
    assert "As the Coroner you examine Alice, eliminated by the village vote: their card was Ninja." in body(coroner, "Bob")


def test_the_rarer_host_procedures_read_from_their_seat() -> None:
    """Events of options the random tables seldom reach (a Vigilante dying with his bullet)."""
    found = ev("gun_found", {"player": "Bob", "previous": "Vic"}, phase="night", audience=frozenset({"Bob"}))
    assert "Vic" in body(found, "Bob") and "You find" in body(found, "Bob")
    assert "义警Vic" in body(found, "Bob", "zh") and "你" in body(found, "Bob", "zh")
    torn = ev("sheriff_gone", {"previous": "Ann", "torn": True})
    assert "tears the badge up" in body(torn, "Bob") and "撕掉了警徽" in body(torn, "Bob", "zh")
    assert "you tear" in body(torn, "Ann")

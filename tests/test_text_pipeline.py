"""The one text pipeline (``prompts.events_text``): every registered event kind has
words in every language, for every viewpoint, in every style.

The kinds are the registry's (``RENDERERS``) and the catalogs' (``events.yaml``,
``narration.yaml``); the events are ``tests/event_samples.py``'s (played games of
every preset plus a few written by hand), with their real audiences. A language is
read alone (``Catalog(lang, fallback=False)``): a missing translation fails here
instead of reading in English. The narrator never says "you"; a Chinese narration
holds no English sentence; a kind this engine does not know is still shown.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from string import Template
from typing import Any, Iterable

import pytest
from event_samples import HAND_MADE, distinct_events, missing_kinds, sample_events, sample_games
from rich.console import Console
from transcript_tools import play_to_file

from arena.gamefile import GameSpec, SeatSpec, default_names
from prompts.narrate import Narrator
from engine.events import EVENT_KINDS, NARRATOR, PUBLIC, Event, RawEvent
from engine.flow.leaving import DeathEvent
from engine.roles.witch import WitchPoisoned
from engine.presets import PRESETS, get_preset
from prompts.catalog import LANGUAGES, Catalog, _tree, catalog
from prompts.events_text import HTML, MODEL, PERSON, RENDERERS, RICH, STYLES, Reader, known_kinds, renderer_for, renders, tell, tell_strictly
from prompts.events_text.declared import NotItsPayload, declared_renderer
from prompts.events_text.registry import sentence
from prompts.history import event_body, history_entries
from transcripts.export_html import render_html
from transcripts.replay import ReplayOptions, replay
from transcripts.schema import read_transcript
from transcripts.views import Lens

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")
SECOND_PERSON = {"en": re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE), "zh": re.compile("你")}
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def strict(lang: str) -> Catalog:
    return Catalog(lang, fallback=False)


def _leaves(node: Any, path: str) -> Iterable[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, f"{path}.{k}")
    elif isinstance(node, str):
        yield path, node


def _placeholders(text: str) -> set[str]:
    return {m.group("named") or m.group("braced") for m in Template.pattern.finditer(text) if m.group("named") or m.group("braced")}


def _seats_of(e: Event) -> list[str]:
    """The seats a sentence may be told to: its audience for a secret; for a public
    event, each seat it names and one it does not ("")."""
    if isinstance(e.audience, frozenset):
        return sorted(e.audience)
    if e.audience == NARRATOR:
        return []
    named = {v for v in e.data.values() if isinstance(v, str)}
    named |= {x for v in e.data.values() if isinstance(v, (list, tuple)) for x in v if isinstance(x, str)}
    return sorted(n for n in named if re.fullmatch(r"[A-Z][A-Za-z]*\d*", n)) + [""]


# ------------------------------------------------------------------ the registry and the catalogs
def test_every_registered_kind_has_sample_events() -> None:
    """A new kind cannot arrive without an event to read: tests/event_samples.py
    lists the few that played games do not reach."""
    missing = missing_kinds(known_kinds())
    assert not missing, f"kinds without a sample in tests/event_samples.py: {sorted(missing)}"


def test_the_hand_made_samples_are_the_engines_payloads() -> None:
    """Written with the fields the engine declares for their kind (a field renamed in
    the engine makes the record a ``RawEvent``, and this test says which). Kinds the
    engine does not declare yet are read as recorded, as any reader reads them."""
    raw = [(e.kind, dict(e.data)) for e in HAND_MADE if e.kind in EVENT_KINDS and isinstance(e.data, RawEvent)]
    assert not raw, f"hand-made samples whose fields are not their kind's: {raw}"


def test_every_declared_kind_has_a_renderer() -> None:
    """Every kind the engine declares (``engine.events.EVENT_KINDS``) is worded: by its
    own renderer or from its declaration; kinds still emitted by name are checked by
    tests/test_event_sentences.py."""
    assert all(renderer_for(k) is not None for k in EVENT_KINDS)
    assert set(EVENT_KINDS) <= known_kinds()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_kind_has_its_sentences_in_each_language(lang: str) -> None:
    cat = strict(lang)
    assert not [k for k in RENDERERS if not cat.has(f"events.{k}")], f"prompts/{lang}/events.yaml lacks kinds"


def test_every_event_sentence_is_a_renderers() -> None:
    """No orphan words: each top-level entry of events.yaml is a registered kind or a
    piece the renderers fill into one (listed here, so a typo'd kind stands out)."""
    pieces = {
        "added_item", "bid_item", "card_many", "card_one", "claims", "day_start_sheriff", "fire_wolf", "first_vote_none",
        "forbidden_none", "game_end_card", "game_end_card_changed", "game_end_lovers", "game_start_set_aside", "generic",
        "generic_empty", "generic_item", "generic_sep", "last_words", "lynch_cancelled_carried", "pardoned_self",
        "tally_item", "token_item", "village_powers_lost_listed", "vote_abstain", "vote_double", "vote_item", "vote_phantoms",
    }  # fmt: skip
    for lang in LANGUAGES:
        orphans = set(_tree(lang)["events"]) - set(RENDERERS) - pieces
        assert not orphans, f"prompts/{lang}/events.yaml: entries no renderer reads: {sorted(orphans)}"


@pytest.mark.parametrize("stem", ["events", "narration"])
def test_both_languages_fill_the_same_placeholders(stem: str) -> None:
    """A translation names the same values as the English (a dropped $target would
    silently lose the target; an extra one would fail at the table)."""
    en = dict(_leaves(_tree("en")[stem], stem))
    zh = dict(_leaves(_tree("zh")[stem], stem))
    wrong = [f"{p}: en {sorted(_placeholders(t))} zh {sorted(_placeholders(zh[p]))}" for p, t in en.items() if p in zh and _placeholders(t) != _placeholders(zh[p])]
    assert not wrong, "\n".join(wrong)


def test_every_narrators_sentence_overrides_an_event_sentence() -> None:
    for lang in LANGUAGES:
        events = dict(_leaves(_tree(lang)["events"], "events"))
        orphans = [p for p, _ in _leaves(_tree(lang)["narration"]["events"], "events") if p not in events]
        assert not orphans, f"prompts/{lang}/narration.yaml events with no events.yaml sentence to override: {orphans}"


def test_what_a_seat_reads_as_you_has_a_narrators_sentence() -> None:
    """The narrator reads a private event from its seat's side: every sentence of such
    a kind that speaks to "you" needs the narrator's third-person one."""
    private = {e.kind for e in sample_events() if isinstance(e.audience, frozenset)}
    problems = []
    for lang in LANGUAGES:
        cat = strict(lang)
        for kind in sorted(private):
            for path, text in _leaves(_tree(lang)["events"].get(kind), f"events.{kind}"):
                if SECOND_PERSON[lang].search(text) and not cat.has(f"narration.{path}"):
                    problems.append(f"  prompts/{lang}/narration.yaml lacks {path} (the seat reads: {text})")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ every kind, every reader
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sample_reads_for_every_viewpoint_and_style(lang: str) -> None:
    """Each event through its own renderer (no generic fallback), told to each seat
    that may read it (model and person styles) and by the narrator (every style):
    never empty, never a placeholder left, the narrator never speaking to "you"."""
    cat = strict(lang)
    kinds: set[str] = set()
    for e in distinct_events():
        kinds.add(e.kind)
        for seat in _seats_of(e):
            for style in (MODEL, PERSON):
                text = tell_strictly(cat, e, seat=seat, style=style)
                assert text.strip() and not PLACEHOLDER.search(text), (lang, e.kind, seat, style.key, text)
        told = tell_strictly(cat, e, style=PERSON)
        assert told.strip() and not PLACEHOLDER.search(told), (lang, e.kind, "narrator", told)
        assert not SECOND_PERSON[lang].search(told), f"the narrator speaks to 'you' ({lang}, {e.kind}, {e.audience}): {told}"
        for style in (RICH, HTML):
            assert tell_strictly(cat, e, style=style).strip()
    assert kinds >= known_kinds()


def _declared_says_the_same(e: Event) -> bool:
    """Whether the renderer read from ``e``'s declaration words it as its own renderer
    does, for every reader; False when its sentence needs more than its fields."""
    own, declared = RENDERERS[e.kind], declared_renderer(e.kind)
    assert declared is not None
    for lang in LANGUAGES:
        for seat in _seats_of(e) + [None]:
            reader = Reader.narrating(strict(lang), e, PERSON) if seat is None else Reader(strict(lang), seat, MODEL)
            try:
                derived = declared(reader, e)
            except KeyError:  # witch_victim's three cases, a death's card
                return False
            if derived != own(reader, e):  # a field the declaration cannot word (a map of votes)
                return False
    return True


def test_a_declared_kinds_fields_word_it_as_its_own_renderer_does() -> None:
    """Where a declared kind's sentence is its fields filled in (no count, no special
    case), the renderer read from its declaration says exactly what its own renderer
    says, for every reader: the declarations carry what the words need."""
    simple: dict[str, bool] = {}
    for e in sample_events():
        if e.kind in RENDERERS and e.kind in EVENT_KINDS:
            simple[e.kind] = simple.get(e.kind, True) and _declared_says_the_same(e)
    assert {k for k, ok in simple.items() if ok} >= {"seer_result", "witch_healed", "witch_poisoned"}, simple


def test_every_end_reason_reads_in_each_language() -> None:
    """The engine says why a game ended in English; each reason of the sample games
    has its words in both catalogs (the day limit's number read as ``N``)."""
    reasons = {str(e.data.get("reason")) for e in sample_events() if e.kind == "game_end"}
    assert len(reasons) >= 5
    for lang in LANGUAGES:
        known = strict(lang).get("terms.end_reasons")
        missing = sorted(r for r in reasons if re.sub(r"\d+", "N", r) not in known)
        assert not missing, f"prompts/{lang}/terms.yaml end_reasons lacks {missing}"


def test_the_narrator_names_the_seat_a_secret_was_sent_to() -> None:
    poison = Event.recorded(0, "witch_poisoned", 2, "night", frozenset({"Wanda"}), {"target": "Bob"})
    assert tell(catalog("en"), poison) == "The Witch Wanda poisons Bob."
    assert tell(catalog("zh"), poison) == "女巫Wanda对Bob使用了毒药。"
    assert tell(catalog("en"), poison, seat="Wanda") == "You pour your poison for Bob."
    card = Event.recorded(0, "role", 0, "setup", frozenset({"Bob"}), {"player": "Bob", "role": "seer"})
    assert tell(catalog("en"), card) == "Bob is the Seer." and tell(catalog("en"), card, seat="Bob") == "Your card is Seer."


def test_the_model_reads_the_history_it_always_read() -> None:
    """The model style is the seats' history: one JSON string per player's words."""
    speech = Event.recorded(0, "speech", 1, "discussion", PUBLIC, {"speaker": "Alice", "text": 'I am "sure"\nnow', "round": 1})
    cat = catalog("en")
    assert tell(cat, speech, seat="Bob", style=MODEL) == 'Alice said: "I am \\"sure\\"\\nnow"'
    assert event_body(cat, speech, "Bob") == tell(cat, speech, seat="Bob", style=MODEL)
    assert history_entries([speech], "Bob") == ['Day 1 — Alice said: "I am \\"sure\\"\\nnow"']
    assert tell(cat, speech, seat="Bob", style=PERSON) == 'Alice said: "I am "sure"\nnow"'


# ------------------------------------------------------------------ styles
def test_rich_and_html_escape_what_players_chose() -> None:
    """Names and speeches are untrusted: markup in them is shown, never obeyed."""
    e = Event.recorded(0, "speech", 1, "discussion", PUBLIC, {"speaker": "[red]Eve", "text": "<script>x</script> [bold]hi", "round": 1})
    rich = tell(catalog("en"), e, style=RICH)
    assert rich.startswith("[bold]\\[red]Eve[/bold]") and "\\[bold]hi" in rich
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(rich)
    assert console.file.getvalue().strip() == 'Eve said: "<script>x</script> [bold]hi"'.replace("Eve", "[red]Eve", 1)
    page = tell(catalog("en"), e, style=HTML)
    assert "<script>" not in page and "&lt;script&gt;" in page and '<b class="name">[red]Eve</b>' in page
    parser = HTMLParser()
    parser.feed(page)
    vote = Event.recorded(0, "vote_result", 1, "vote", PUBLIC, {"round": 1, "votes": {"A&B": "C"}, "tally": {"C": 1}, "leaders": ["C"], "sheriff": None})
    assert "A&amp;B" not in tell(catalog("en"), vote, style=HTML)  # the narrator's count names the counted only
    assert "C" in tell(catalog("en"), vote, style=HTML)


def test_every_style_is_registered() -> None:
    assert set(STYLES) == {"model", "person", "rich", "html"}


# ------------------------------------------------------------------ unknown kinds, broken data
@pytest.mark.parametrize("style", list(STYLES.values()), ids=list(STYLES))
def test_an_unknown_kind_is_still_shown(style: Any) -> None:
    future = Event.recorded(0, "comet_sighting", 3, "night", frozenset({"Bob"}), {"watcher": "Bob", "bright": True})
    for lang in LANGUAGES:
        for seat in ("Bob", None):
            text = tell(catalog(lang), future, seat=seat, style=style)
            assert "comet sighting" in text and "true" in text
    broken = Event.recorded(0, "death", 3, "dawn", PUBLIC, {"cause": "vote"})  # a known kind whose data changed shape
    assert tell(catalog("en"), broken, style=style).strip()


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="two renderers"):
        renders(DeathEvent)(lambda r, e, d: "")
    assert RENDERERS["death"].__name__ == "death"


def test_a_renderer_reads_its_kinds_payload_and_names_real_fields() -> None:
    """A helper naming a field the payload class lacks fails when it is registered (a
    renamed field is an import error, not a "?" in a prompt); a record whose data is
    not its kind's class reaches no renderer: ``tell`` words it plainly and
    ``tell_strictly`` says why."""
    with pytest.raises(ValueError, match="WitchPoisoned .* has no field victim"):
        sentence(WitchPoisoned, "victim")
    assert RENDERERS["witch_poisoned"].__name__ == "witch_poisoned"  # the real one is still registered
    odd = Event.recorded(0, "witch_poisoned", 2, "night", PUBLIC, {"victim": "Bob"})
    assert isinstance(odd.data, RawEvent)
    with pytest.raises(NotItsPayload, match="not a WitchPoisoned"):
        tell_strictly(catalog("en"), odd)
    assert tell(catalog("en"), odd) == tell(catalog("en"), odd, style=PERSON) and "victim" in tell(catalog("en"), odd)


# ------------------------------------------------------------------ a new role's event: its words only
NEW_KIND = """
from engine.events import Event, EventData, Name, event
from prompts.catalog import Catalog, _tree

@event("lamp_result")
class LampResult(EventData):  # as CONTRIBUTING.md's Lamplighter declares it
    target: Name
    out: bool

WORDS = {
    "en": ({"true": "You light $target's lamp: they were out tonight.", "false": "You light $target's lamp: they stayed home."},
           {"true": "The Lamplighter $seat lights $target's lamp: they were out tonight.", "false": "The Lamplighter $seat lights $target's lamp: they stayed home."}),
    "zh": ({"true": "你点亮了$target的灯：他今晚出门了。", "false": "你点亮了$target的灯：他今晚待在家里。"},
           {"true": "点灯人$seat点亮了$target的灯：他今晚出门了。", "false": "点灯人$seat点亮了$target的灯：他今晚待在家里。"}),
}
for lang, (seat_words, narrator_words) in WORDS.items():  # its text entries, as a role adds them to the yaml files
    _tree(lang)["events"]["lamp_result"] = seat_words
    _tree(lang)["narration"]["events"]["lamp_result"] = narrator_words
from prompts.events_text import MODEL, PERSON, RENDERERS, tell_strictly
assert "lamp_result" not in RENDERERS  # no renderer written for it
for out in (True, False):
    e = Event(0, 2, "night", frozenset({"Lena"}), LampResult("Bob", out))
    for lang in WORDS:
        cat = Catalog(lang, fallback=False)
        print(tell_strictly(cat, e, seat="Lena", style=MODEL))
        print(tell_strictly(cat, e, style=PERSON))
"""


def test_a_new_kind_needs_only_its_words() -> None:
    """A kind declared with typed fields (a player, a flag, as CONTRIBUTING.md's
    Lamplighter declares ``lamp_result``) and no renderer: its sentences alone word
    it, for its seat and the narrator, in both languages, the variant chosen by the
    flag. Run apart, so this run's registries stay as they are."""
    done = subprocess.run([sys.executable, "-c", NEW_KIND], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == [
        "You light Bob's lamp: they were out tonight.",
        "The Lamplighter Lena lights Bob's lamp: they were out tonight.",
        "你点亮了Bob的灯：他今晚出门了。",
        "点灯人Lena点亮了Bob的灯：他今晚出门了。",
        "You light Bob's lamp: they stayed home.",
        "The Lamplighter Lena lights Bob's lamp: they stayed home.",
        "你点亮了Bob的灯：他今晚待在家里。",
        "点灯人Lena点亮了Bob的灯：他今晚待在家里。",
    ]


# ------------------------------------------------------------------ the narrator's language
def _without(text: str, names: Iterable[str]) -> str:
    for n in sorted(set(names), key=len, reverse=True):
        text = text.replace(n, " ")
    return text


def _english_left(text: str, names: Iterable[str]) -> list[str]:
    """English words left once the players' names and their own words (quoted “…”,
    the bots speak English) are taken out."""
    return sorted(set(ENGLISH_WORD.findall(_without(re.sub(r"“[^”]*”", " ", text, flags=re.S), names))))


def test_a_chinese_narration_has_no_english_sentence() -> None:
    """Every sample game told by the god narrator in Chinese: once the players' names
    are taken out, not one English word is left (headings, tables, the reveal too)."""
    for game in sample_games()[: len(PRESETS)]:  # one game of each preset
        buf = io.StringIO()
        Narrator(Console(file=buf, width=200, color_system=None), god=True, language="zh").feed(game.events)
        # the players' names, and the preset's title as the zh catalog gives it (a box's name: 《狼人精选》（Best of Werewolves…）)
        left = _english_left(buf.getvalue(), [p.name for p in game.players] + [catalog("zh").word("presets", game.preset)])
        assert not left, f"{game.preset}: English in a Chinese narration: {left}"
    buf = io.StringIO()
    Narrator(Console(file=buf, width=200, color_system=None), god=True, language="zh").feed(HAND_MADE)
    assert not _english_left(buf.getvalue(), {n for e in HAND_MADE for n in _seats_of(e) + sorted(e.audience) if isinstance(e.audience, frozenset)} | {"Alice", "Bob", "Chloe", "Eve", "Kay", "Vic", "Sue", "Sam", "Gina", "Cora"})


class _Text(HTMLParser):
    """The words a page shows (no style sheet, no script)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._skip += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


@pytest.fixture(scope="module")
def zh_transcript(tmp_path_factory: pytest.TempPathFactory) -> Any:
    p = get_preset("best_of")
    n = 12
    spec = GameSpec(
        preset="best_of", seed=4, roles=p.deck(n) , language="zh", options={"sheriff": True},
        seats=[SeatSpec(name=x, agent="heuristic") for x in default_names(n)],
    )  # fmt: skip
    path = tmp_path_factory.mktemp("zh") / "zh.jsonl"
    play_to_file(spec, path)
    return read_transcript(path)


def test_a_chinese_replay_and_export_speak_chinese(zh_transcript: Any) -> None:
    t = zh_transcript
    names = t.header.names + ["heuristic", catalog("zh").word("presets", t.header.preset)]  # the seats, their agent, the box's name
    for lens in (Lens.public(), Lens.full(), Lens.of(names[0])):
        buf = io.StringIO()
        replay(t, Console(file=buf, width=200, color_system=None), ReplayOptions(lens=lens))
        text = buf.getvalue()
        # a seat's own decisions name the decision by its id (``vote``): the engine's word, not a sentence
        kinds = {a.kind for a in t.answers} if lens.seat else set()
        left = [w for w in _english_left(text, names) if w not in {k for kind in kinds for k in kind.split("_")}]
        assert not left, (lens.label, left)
        assert "亮牌" in text
    page = _Text()
    page.feed(render_html(t))
    left = [w for w in _english_left(" ".join(page.parts), names + [t.header.software, t.header.preset, "werewolf export"]) if w not in {k for a in t.answers for k in a.kind.split("_")}]
    assert not left, left
    english = io.StringIO()
    replay(t, Console(file=english, width=200, color_system=None), ReplayOptions(lens=Lens.public(), language="en"))
    assert "The cards are revealed" in english.getvalue()  # replay --language en

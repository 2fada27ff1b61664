"""Every declared decision kind has its words wherever a table of words is keyed by kind.

The tables iterate the engine's registry (``engine.decisions.DECISION_KINDS``), not the
source: a role added with a new decision fails here until the web page has its
heading in every language, and a table keyed by a name the engine does not declare
(a typo, a renamed kind) fails too.
"""

from __future__ import annotations

import json
import re

import pytest

import engine.presets  # noqa: F401  (loads every role, building and flow: their kinds register)
from agents.human_input import ROLE_OPTIONS, SCALE_OPTIONS, SPEECH_KINDS, TARGETED_KINDS
from arena.web.app import STATIC
from arena.web.questions import title
from engine.decisions import CHOICE, DECISION_KINDS, Decision
from prompts.catalog import LANGUAGES, Catalog
from prompts.decisions_text import ASKERS, BUILDING_ANSWERS, CAMP_ANSWERS, REMINDERS, ROLE_ANSWERS, SCALE_ANSWERS

HAN = re.compile(r"[\u4e00-\u9fff]")
PAGE_LANGUAGES = ("en", "zh")


def _page_words() -> dict[str, dict[str, str]]:
    return json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))


def test_the_registry_is_loaded() -> None:
    assert len(DECISION_KINDS) >= 51 and {"vote", "witch_heal", "arsonist_burn", "vote_change"} <= set(DECISION_KINDS)


@pytest.mark.parametrize("language", PAGE_LANGUAGES)
def test_every_decision_kind_has_its_name(language: str) -> None:
    """``terms.kinds``: the question's heading on the web page and a replayed decision's
    name (a replay once printed the engine's id, ``sheriff_vote``)."""
    cat = Catalog(language)
    missing = sorted(k for k in DECISION_KINDS if not cat.has(f"terms.kinds.{k}"))
    assert not missing, f"prompts/{language}/terms.yaml lacks kinds.<kind> for {missing}"
    if language == "zh":
        untranslated = sorted(k for k in DECISION_KINDS if not HAN.search(cat.word("kinds", k)))
        assert not untranslated, f"names copied, not translated: {untranslated}"


def test_no_name_is_for_a_kind_the_engine_does_not_declare() -> None:
    for language in PAGE_LANGUAGES:
        orphans = sorted(k for k in Catalog(language).get("terms.kinds") if k not in DECISION_KINDS)
        assert not orphans, f"{language}: names of undeclared kinds {orphans}"
    assert not any(k.startswith("q.") for table in _page_words().values() for k in table)  # one place for them


@pytest.mark.parametrize("language", PAGE_LANGUAGES)
def test_the_page_titles_every_question_with_its_name(language: str) -> None:
    cat = Catalog(language)
    for kind in DECISION_KINDS.values():
        d = Decision(0, "Alice", kind, kind.shape, options=("Bob",) if kind.shape == CHOICE else ())
        assert title(d, language) == cat.word("kinds", kind)


def test_a_replay_names_each_decision_in_words(tmp_path, capsys) -> None:
    """``werewolf replay --as`` and the HTML export say what a seat was asked, in the
    game's words, not the engine's id (``▸ Alice decides sheriff_vote``)."""
    from arena.cli import main

    game = tmp_path / "g.jsonl"
    assert main(["play", "--seed", "5", "--option", "sheriff=true", "--transcript", str(game), "--quiet"]) == 0
    capsys.readouterr()
    # A seat that voted in the election, whoever the table's bots chose to run.
    voter = next(r["seat"] for r in map(json.loads, game.read_text(encoding="utf-8").splitlines()) if r["type"] == "answer" and r["kind"] == "sheriff_vote")
    assert main(["replay", str(game), "--as", voter]) == 0
    told = capsys.readouterr().out
    assert f"▸ {voter} — Elect the Sheriff (among " in told and "sheriff_vote" not in told
    assert main(["export", str(game), "--html", str(tmp_path / "g.html")]) == 0
    page = (tmp_path / "g.html").read_text(encoding="utf-8")
    assert "Elect the Sheriff" in page and "decides sheriff_vote" not in page


def test_the_text_tables_are_keyed_by_declared_kinds() -> None:
    """Keys are the declared constants themselves (``DECISION_KINDS[k] is k``), not
    strings that happen to match today."""
    tables = {
        "prompts.decisions_text.ASKERS": set(ASKERS),
        "prompts.decisions_text.REMINDERS": set(REMINDERS),
        "prompts.decisions_text.ROLE_ANSWERS": ROLE_ANSWERS,
        "prompts.decisions_text.CAMP_ANSWERS": CAMP_ANSWERS,
        "prompts.decisions_text.BUILDING_ANSWERS": BUILDING_ANSWERS,
        "prompts.decisions_text.SCALE_ANSWERS": SCALE_ANSWERS,
        "agents.human_input.SPEECH_KINDS": SPEECH_KINDS,
        "agents.human_input.TARGETED_KINDS": TARGETED_KINDS,
        "agents.human_input.ROLE_OPTIONS": ROLE_OPTIONS,
        "agents.human_input.SCALE_OPTIONS": SCALE_OPTIONS,
    }
    for name, keys in tables.items():
        wrong = sorted(str(k) for k in keys if DECISION_KINDS.get(k) is not k)
        assert not wrong, f"{name}: keys that are not declared decision kinds: {wrong}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_decision_kind_has_its_question(language: str) -> None:
    """An asker of its own, or its ``ask`` line in the catalog (read without the English
    fallback), for every declared kind."""
    cat = Catalog(language, fallback=False)
    missing = sorted(k for k in DECISION_KINDS if k not in ASKERS and not cat.has(f"decisions.kinds.{k}.ask"))
    assert not missing, f"prompts/{language}/decisions.yaml lacks a question for {missing}"

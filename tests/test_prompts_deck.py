"""Prompts mention only what this game holds (issue 19, item 5).

A rule that names a role is true of every game, but told at a table where that role
cannot be dealt it warns of a card nobody holds (the wolves were told of a spying
Little Girl in games without one). Here heuristic games of every preset, at several
sizes and with hand-made decks, are played to the end; every prompt a seat was given
(its system prompt, every question it was asked) and what a person's seat shows with
each question, in both languages, must name no role outside the game's public deck
and no building the game cannot hand out.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterator

import pytest

from agents.heuristic import HeuristicAgent
from agents.human_input import input_hint
from arena.runner import run_sync
from engine import Game, GameSetup, get_preset
from engine.buildings.base import BUILDINGS
from engine.decisions import Decision
from engine.roles import ROLES
from prompts.catalog import LANGUAGES, Catalog, catalog
from prompts.decisions_text import situation
from prompts.render import decision_prompt, system_prompt
from prompts.rules_text import buildings_possible

# (preset, players, deck or None for the preset's own, option overrides)
TABLES: list[tuple[str, int, list[str] | None, dict[str, Any]]] = [
    ("millers_hollow", 6, None, {}),
    ("millers_hollow", 8, None, {"wolf_pack": "majority", "wolf_kill_rounds": 2}),
    ("millers_hollow", 12, None, {"wolf_pack": "plurality"}),
    ("millers_hollow", 8, ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"], {}),
    ("millers_hollow", 7, ["werewolf", "werewolf", "witch", "hunter", "villager", "villager", "villager"], {"wolf_chat_rounds": 0}),
    ("millers_hollow", 7, ["werewolf", "werewolf", "little_girl", "villager", "villager", "villager", "villager"], {"little_girl_caught": "dies"}),
    ("millers_hollow_es", 9, None, {}),
    ("best_of", 8, None, {}),
    ("best_of", 14, None, {}),
    ("best_of", 20, None, {}),
    ("best_of", 9, ["werewolf", "werewolf", "elder", "idiot", "fox", "villager", "villager", "villager", "villager"], {}),
    ("best_of", 8, ["werewolf", "infect_father", "hunter", "villager", "villager", "villager", "villager", "villager"], {}),
    ("langrensha", 9, None, {"elder_loss_roles": "listed"}),
    ("langrensha", 12, None, {}),
    ("langrensha", 7, ["werewolf", "werewolf", "elder", "villager", "villager", "villager", "villager"], {"elder_loss_roles": "listed"}),
    ("langrensha", 7, ["werewolf", "werewolf", "elder", "witch", "seer", "villager", "villager"], {"elder_loss_roles": "listed"}),
    ("village", 10, None, {}),
    ("village", 14, None, {"buildings": "first_game"}),
    ("forum", 9, None, {}),
    ("forum", 15, None, {"wolves_told_seers": "who"}),
    ("forum", 7, ["werewolf", "werewolf", "psychic", "villager", "villager", "villager", "villager"], {}),
]


def _names(cat: Catalog, ids: list[str], word: str | None = None) -> dict[str, list[str]]:
    """Each id's names in this language: the full one, and the short one without a
    parenthesis ("Seer (forum)" is also "Seer")."""
    out: dict[str, list[str]] = {}
    for i in ids:
        name = cat.word(word, i) if word else cat.role_name(i)
        short = re.sub(r"\s*[(（][^)）]*[)）]\s*$", "", name)
        out[i] = sorted({name, short}, key=len, reverse=True)
    return out


def _named(text: str, held: dict[str, list[str]], others: dict[str, list[str]], lang: str) -> set[str]:
    """The ids of ``others`` whose name is in ``text`` once every held name is taken
    out (the Guardian Angel held, "Angel" alone is not named by it)."""
    text = _held_pattern(tuple((n, ()) for ns in held.values() for n in ns)).sub("\0", text)
    by_name = {name: i for i, names in others.items() for name in names}
    if not by_name:
        return set()
    found = _name_pattern(tuple(sorted(by_name, key=len, reverse=True)), lang).findall(text)
    return {by_name[name] for name in found}


@functools.lru_cache(maxsize=None)
def _held_pattern(names: tuple) -> re.Pattern[str]:
    ordered = sorted((n for n, _ in names), key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in ordered) or "(?!)")


@functools.lru_cache(maxsize=None)
def _name_pattern(names: tuple[str, ...], lang: str) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(f"({alternatives})" if lang == "zh" else rf"(?<![\w-])({alternatives})(?![\w-])")


def _play(preset: str, n: int, deck: list[str] | None, extra: dict[str, Any], seed: int) -> tuple[Game, list[Decision]]:
    """A heuristic game to its end, and every decision asked in it (played once for
    both languages: the prompts are rendered from it, never changed by it)."""
    return _played(preset, n, tuple(deck) if deck is not None else None, tuple(sorted(extra.items())), seed)


@functools.lru_cache(maxsize=None)
def _played(preset: str, n: int, deck: tuple[str, ...] | None, extra: tuple, seed: int) -> tuple[Game, list[Decision]]:
    options = get_preset(preset).options(dict(extra))
    setup = GameSetup(names=[f"P{i}" for i in range(n)], preset=preset, seed=seed, options=options, roles=list(deck) if deck else None)
    game = Game(setup)
    asked: list[Decision] = []
    agents = {p.name: HeuristicAgent(p.name, seed=seed) for p in game.players}
    run_sync(game, agents, on_answer=lambda g, d, a, agent: asked.append(d))
    assert game.over
    return game, asked


def _texts(game: Game, asked: list[Decision], lang: str) -> Iterator[tuple[str, str]]:
    start = game.events[0].data
    deck = start["roles_in_play"]
    for p in game.players:
        text = system_prompt(preset=game.preset, options=game.options, seat=p.name, role=p.initial_role, players=start["players"], language=lang, deck=deck)
        yield f"system prompt of {p.name} ({p.initial_role})", text
    for d in asked:
        yield f"question {d.kind} to {d.seat}", decision_prompt(d, language=lang)
        yield f"seat screen {d.kind} to {d.seat}", "\n".join(situation(d, lang))
        if lang == "en":  # the terminal seat's help, in English only
            yield f"input hint {d.kind} to {d.seat}", input_hint(d, start["players"])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("table", range(len(TABLES)))
def test_prompts_name_only_the_deck(table: int, lang: str) -> None:
    preset, n, deck, extra = TABLES[table]
    cat = catalog(lang)
    for seed in (1, 2):
        game, asked = _play(preset, n, deck, extra, seed)
        in_deck = set(game.events[0].data["roles_in_play"])
        buildings = set(buildings_possible(game.options)) if game.options.buildings != "none" else set()
        held = _names(cat, sorted(in_deck)) | _names(cat, sorted(buildings), "buildings")
        others = _names(cat, [r for r in ROLES if r not in in_deck])
        absent = _names(cat, [b for b in BUILDINGS if b not in buildings], "buildings")
        for where, text in _texts(game, asked, lang):
            named = _named(text, held, others, lang) | _named(text, held, absent, lang)
            assert not named, f"{preset} {n} players, deck {sorted(in_deck)}: the {where} ({lang}) names {sorted(named)}:\n{text}"


def _wolf_questions(extra: dict[str, Any], deck: list[str], lang: str) -> tuple[list[str], list[str]]:
    """The pack's talk and kill questions of a game, as a model seat reads them."""
    game, asked = _play("millers_hollow", len(deck), deck, extra, 3)
    chat = [decision_prompt(d, language=lang) for d in asked if d.kind == "wolf_chat"]
    kill = [decision_prompt(d, language=lang) for d in asked if d.kind == "wolf_kill"]
    return chat, kill


BASE = ["werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_spying_little_girl_only_with_her_card(lang: str) -> None:
    cat = catalog(lang)
    warning = cat.text("decisions.kinds.wolf_chat.spied")
    without, _ = _wolf_questions({}, BASE, lang)
    with_her, _ = _wolf_questions({}, BASE[:-1] + ["little_girl"], lang)
    assert without and with_her
    assert not any(warning in q for q in without)
    assert all(warning in q for q in with_her)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("extra", "key", "split"),
    [
        ({"wolf_pack": "unanimous"}, "rule.unanimous", None),
        ({"wolf_pack": "majority"}, "rule.majority", None),
        ({"wolf_pack": "plurality"}, "rule.plurality", None),
        ({"wolf_pack": "unanimous", "wolf_kill_rounds": 3}, "rule.unanimous", "again"),
    ],
)
def test_the_kill_question_says_what_a_split_pack_does(lang: str, extra: dict[str, Any], key: str, split: str | None) -> None:
    """The question states this game's rule (from the options the engine runs): a
    unanimous or majority pack that splits kills nobody, a plurality draws lots."""
    cat = catalog(lang)
    _, kill = _wolf_questions(extra, BASE, lang)
    assert kill
    rule_line = cat.text(f"decisions.kinds.wolf_kill.{key}")
    assert all(rule_line in q for q in kill)
    others = [cat.text(f"decisions.kinds.wolf_kill.rule.{r}") for r in ("unanimous", "majority", "plurality") if f"rule.{r}" != key]
    assert not any(o in q for q in kill for o in others)
    if split:
        first = [q for q in kill if cat.text("decisions.kinds.wolf_kill.again", attempt=1, attempts=3) in q]
        assert first, "the first attempt says the pack will try again"
    else:
        assert not any(cat.text("decisions.kinds.wolf_kill.final", attempts=3) in q for q in kill)


def test_the_last_attempt_says_nobody_dies() -> None:
    """A unanimous pack that disagrees on its last attempt: the question says so."""
    from engine.decisions import Decision as D
    from engine.roles.werewolf import WOLF_KILL

    d = D(1, "Ann", WOLF_KILL, WOLF_KILL.shape, ("Bob", "Cid"), False, 1, {"attempt": 2, "attempts": 2, "rule": "majority"})
    for lang in LANGUAGES:
        cat = catalog(lang)
        text = decision_prompt(d, language=lang)
        assert cat.text("decisions.kinds.wolf_kill.rule.majority") in text
        assert cat.text("decisions.kinds.wolf_kill.final", attempts=2) in text


def test_the_tables_reach_the_roles_they_check() -> None:
    """The tables above deal the roles whose clauses they check, so a change to a
    preset's deck cannot quietly empty this test."""
    seen: set[str] = set()
    for preset, n, deck, extra in TABLES:
        game = Game(GameSetup(names=[f"P{i}" for i in range(n)], preset=preset, seed=1, options=get_preset(preset).options(extra), roles=deck))
        seen |= {p.initial_role for p in game.players} | set(game.center)
    assert {"little_girl", "elder", "idiot", "infect_father", "psychic", "forum_seer", "witch", "hunter"} <= seen


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("extra", "silent"), [({"wolves_silent": "starve"}, "starve"), ({"wolves_silent": "one_dies"}, "one_dies"), ({"wolves_may_pass": True}, "no_kill")])
def test_the_kill_question_says_what_naming_nobody_costs(lang: str, extra: dict[str, Any], silent: str) -> None:
    """Where a wolf may pass, the question says what a pack naming nobody pays, as this
    game's ``wolves_silent`` has it; where passing is not allowed, it says nothing of it."""
    cat = catalog(lang)
    line = cat.text(f"decisions.kinds.wolf_kill.silent.{silent}")
    game, asked = _play("millers_hollow", len(BASE), BASE, extra, 4)
    kills = [d for d in asked if d.kind == "wolf_kill" and d.options]
    assert kills and all(d.allow_pass for d in kills)
    assert all(line in decision_prompt(d, language=lang) for d in kills)
    _, plain = _wolf_questions({}, BASE, lang)
    assert not any(cat.text(f"decisions.kinds.wolf_kill.silent.{s}") in q for q in plain for s in ("no_kill", "starve", "one_dies"))


def test_the_last_pm_says_what_silence_costs() -> None:
    """``first_named``: the last wolf asked, who may send no name, is told the price."""
    from engine.decisions import Decision as D
    from engine.roles.werewolf import WOLF_KILL

    context = {"attempt": 1, "turn": 2, "order": ["Ann", "Eve"], "rule": "first_named", "attempts": 1, "silent": "one_dies"}
    last = D(1, "Eve", WOLF_KILL, WOLF_KILL.shape, ("Bob", "Cid"), True, 1, context)
    first = D(2, "Ann", WOLF_KILL, WOLF_KILL.shape, ("Bob", "Cid"), True, 1, {**context, "turn": 1})
    for lang in LANGUAGES:
        line = catalog(lang).text("decisions.kinds.wolf_kill.silent.one_dies")
        assert line in decision_prompt(last, language=lang)
        assert line not in decision_prompt(first, language=lang)
        forced = D(3, "Eve", WOLF_KILL, WOLF_KILL.shape, ("Bob", "Cid"), False, 1, {**context, "silent": "no_kill"})
        text = decision_prompt(forced, language=lang)
        assert catalog(lang).text("decisions.kinds.wolf_kill.last_forced") in text
        assert catalog(lang).text("decisions.kinds.wolf_kill.last") not in text  # no talk of passing where it is refused


def test_a_persons_seat_asks_every_kind_in_the_prompts_words() -> None:
    """A kind without an asker of its own (a forum vote change, a Village power) was
    shown to a person as "Decision: vote change (current: Bob)." in every language;
    the terminal and the web page now show the prompts' question, as models read it."""
    import io

    from rich.console import Console

    from agents.human_view import SeatScreen
    from engine.decisions import Decision as D
    from engine.flow.forum import VOTE_CHANGE
    from prompts.decisions_text import ASKERS

    d = D(1, "Ann", VOTE_CHANGE, VOTE_CHANGE.shape, ("Bob", "Cid"), True, 1, {"current": "Bob"})
    assert "vote_change" not in ASKERS
    for lang in LANGUAGES:
        words = catalog(lang).text("decisions.kinds.vote_change.ask", current="Bob")
        assert situation(d, lang) == [words]
        out = io.StringIO()
        SeatScreen(Console(file=out, width=200, color_system=None), "Ann", lang).question(d, None, None)
        assert words in out.getvalue() and "Decision:" not in out.getvalue()


def _system_text(preset: str, deck: list[str], lang: str, role: str = "werewolf", **extra: Any) -> str:
    players = [f"P{i}" for i in range(len(deck))]
    options = get_preset(preset).options(extra)
    return system_prompt(preset=preset, options=options, seat="P0", role=role, players=players, language=lang, deck=sorted(deck))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_clauses_about_a_role_come_with_it(lang: str) -> None:
    """The other half: a clause held back without its role is told with it, so the
    check above cannot pass by telling nothing."""
    cat = catalog(lang)
    also = cat.get("rules.also")
    full = ["werewolf", "werewolf", "elder", "idiot", "witch", "hunter", "infect_father", "little_girl", "villager"]
    bare = ["werewolf", "werewolf", "elder", "idiot", "infect_father", "villager", "villager", "villager", "villager"]
    with_them = _system_text("best_of", full, lang)
    without = _system_text("best_of", bare, lang)
    for rule, role in (("roles.idiot", "elder"), ("roles.elder", "witch"), ("roles.elder", "hunter"), ("roles.infect_father", "witch")):
        assert also[rule][role] in with_them, (rule, role)
    assert also["roles.idiot"]["elder"] in without and also["roles.elder"]["witch"] not in without
    poison = cat.word("causes", "poison")
    assert poison in with_them and poison not in without
    spied = cat.get("roles.roles.werewolf.also.little_girl")
    assert spied in with_them and spied not in without


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_wolves_cards_tell_the_talk_only_when_there_is_one(lang: str) -> None:
    talk = catalog(lang).get("roles.roles.werewolf.also.wolf_chat")
    assert talk in _system_text("millers_hollow", BASE, lang)
    assert talk not in _system_text("millers_hollow", BASE, lang, wolf_chat_rounds=0)
    forum = ["pack_leader", "werewolf", "civilian", "civilian", "civilian", "civilian", "civilian"]
    leader = catalog(lang).get("roles.roles.pack_leader.also.wolf_chat")
    assert leader in _system_text("forum", forum, lang, role="pack_leader")
    assert leader not in _system_text("forum", forum, lang, role="pack_leader", wolf_chat_rounds=0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hunters_causes_follow_the_deck(lang: str) -> None:
    """Only the deaths this deck can bring are told as the Hunter's causes; a game
    where none can happen says he never shoots, naming nobody's power."""
    cat = catalog(lang)
    deck = ["werewolf", "werewolf", "hunter", "villager", "villager", "villager", "villager"]
    told = _system_text("millers_hollow", deck, lang, hunter_shot_causes=["werewolves", "poison"])
    assert cat.word("causes", "werewolves") in told and cat.word("causes", "poison") not in told
    never = _system_text("millers_hollow", deck, lang, hunter_shot_causes=["poison"])
    assert cat.text("rules.options.hunter_shot_causes.none") in never and cat.role_name("witch") not in never

"""What a model reads in a Best of Werewolves (003) or 狼人杀 (001) game: every new role
has its card and its goal, every new decision its question, every new event its own
words, in both languages; and no prompt a seat is given holds another seat's secret.
"""

from __future__ import annotations

import random
import re

import pytest

from agents.heuristic import HeuristicAgent
from arena.runner import run_sync
from engine import Game, GameSetup, get_preset
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision
from engine.events import NARRATOR
from engine.roles import ROLES
from prompts.catalog import catalog
from prompts.events_text import MODEL, RENDERERS, tell_strictly
from prompts.history import event_body
from prompts.render import LANGUAGES, decision_prompt, history_entries, system_prompt

PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")
NEW_ROLES = [r for r, spec in ROLES.items() if set(spec.presets) & {"best_of", "langrensha"} and "millers_hollow" not in spec.presets]
PLAYERS = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]


def clean(text: str) -> None:
    assert text.strip()
    assert not PLACEHOLDER.search(text), f"leftover placeholder in: {text!r}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", NEW_ROLES)
def test_every_new_role_has_its_card_and_goal(language, role):
    cat = catalog(language)
    preset = "langrensha" if role in ("idiot", "protector") else "best_of"
    deck = get_preset(preset).deck(20) + [role]
    text = system_prompt(preset=preset, options=get_preset(preset).options(), seat="Chloe", role=role, players=PLAYERS, language=language, deck=deck)
    clean(text)
    assert cat.get(f"roles.roles.{role}.card") in text and cat.get(f"roles.roles.{role}.summary") in text
    camp = ROLES[role].camp
    if camp in ("white_werewolf", "pied_piper", "angel"):
        assert cat.text(f"roles.win.{camp}") in text


def test_the_rules_tell_the_solitary_goals_and_the_angels_day():
    text = system_prompt(
        preset="best_of", options=get_preset("best_of").options(), seat="Bob", role="villager", players=PLAYERS, deck=get_preset("best_of").deck(28)
    )
    for fragment in ("opens with a day", "last player alive", "every other living player is charmed", "Rusty Knight", "bear growls", "Fox:"):
        assert fragment in text, fragment
    plain = system_prompt(
        preset="best_of", options=get_preset("best_of").options(), seat="Bob", role="villager", players=PLAYERS, deck=get_preset("best_of").deck(8)
    )
    assert "opens with a day" not in plain and "Rusty Knight" not in plain


def test_langrensha_rules_follow_its_defaults_and_variants():
    o = get_preset("langrensha").options()
    deck = get_preset("langrensha").deck(12)
    text = system_prompt(preset="langrensha", options=o, seat="Bob", role="idiot", players=PLAYERS, language="zh", deck=deck)
    assert "遗言" in text and "不翻牌" in text and "废票" in text
    # 001: she heals herself on any night, may poison herself, and a silent pack starves
    assert "可以自救" in text and "只有在第一夜才能自救" not in text and "女巫也可以对自己使用毒药" in text
    assert "饿死" in text and "空刀" not in text
    variant = get_preset("langrensha").options({"wolves_hypnotise": True, "cupid_second_pair": True})
    text = system_prompt(preset="langrensha", options=variant, seat="Bob", role="villager", players=PLAYERS, deck=deck + ["cupid"])
    assert "Lycanthropic Fascination" in text and "deceiver" in text


def _d(kind, shape=CHOICE, options=("Alice", "Chloe"), allow_pass=False, count=1, **context):
    return Decision(id=1, seat="Bob", kind=kind, shape=shape, options=options, allow_pass=allow_pass, count=count, context=context)


DECISIONS = {
    "protector_guard": _d("protector_guard", last="Alice"),
    "sister_chat": _d("sister_chat", TEXT, (), sisters=["Bob", "Emma"]),
    "fox_sniff": _d("fox_sniff", allow_pass=True),
    "wild_child_model": _d("wild_child_model"),
    "wolf_hound_side": _d("wolf_hound_side", options=("village", "werewolves")),
    "white_werewolf_kill": _d("white_werewolf_kill", allow_pass=True),
    "infect_father_infect": _d("infect_father_infect", BOOL, (True, False), victim="Alice"),
    "big_bad_wolf_kill": _d("big_bad_wolf_kill", pack_victim="Emma"),
    "pied_piper_charm": _d("pied_piper_charm", MULTI, ("Alice", "Chloe", "Emma"), count=2),
    "cupid_deceiver": _d("cupid_deceiver", lovers=["Alice", "Chloe"]),
    "cupid_paramour": _d("cupid_paramour", deceiver="Alice"),
    "last_words": _d("speak", TEXT, (), round=1, phase="last_words"),
    "witch_single": _d("witch_poison", options=(), allow_pass=True, unavailable="the Witch has already used her one potion"),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(DECISIONS))
def test_every_new_decision_has_its_own_question(language, name):
    d = DECISIONS[name]
    text = decision_prompt(d, language=language)
    clean(text)
    assert catalog(language).text("decisions.generic.ask", kind=d.kind.replace("_", " ")) not in text
    for o in d.options:
        assert catalog(language).literal(o) in text
    en = decision_prompt(d)
    if name == "wolf_hound_side":
        assert '"werewolves" (the werewolves)' in en
    if name == "infect_father_infect":
        assert "Alice" in en
    if name == "witch_single":
        assert "only one potion in the whole game" in en


def _game(seed: int) -> Game:
    rng = random.Random(f"prompts-new:{seed}")
    preset = "best_of" if seed % 2 == 0 else "langrensha"
    if preset == "best_of":
        deck = ["werewolf", "werewolf", "villager", "villager"] + [r for r in NEW_ROLES if r not in ("idiot", "protector")]
        deck += ["seer", "witch", "hunter", "little_girl", "cupid", "sister"]
        opts = {"sisters_chat_every": 2, "reveal_role_on_death": rng.random() < 0.5}
    else:
        deck = ["werewolf"] * 3 + ["seer", "witch", "hunter", "idiot", "protector", "elder", "cupid", "pied_piper"] + ["villager"] * 3
        opts = {"cupid_second_pair": True, "wolves_hypnotise": seed % 4 == 1}
    names = [f"{PLAYERS[i % 8]}{'' if i < 8 else i}" for i in range(len(deck))]
    return Game(GameSetup(names=names, preset=preset, seed=seed, roles=deck, options=get_preset(preset).options(opts)))


def _play(seed: int):
    game = _game(seed)
    captured = []
    agents = {p.name: HeuristicAgent(p.name, seed=seed) for p in game.players}
    run_sync(game, agents, on_answer=lambda g, d, a, agent: captured.append((d, g.observation(d.seat))))
    return game, captured


def test_real_events_of_the_new_presets_use_their_own_words():
    seen = set()
    for seed in range(10):
        game, _ = _play(seed)
        for e in game.events:
            seen.add(e.kind)
            assert e.kind in RENDERERS, e.kind
            viewer = "" if e.audience in ("public", NARRATOR) else sorted(e.audience)[0]
            for lang in LANGUAGES:
                clean(tell_strictly(catalog(lang), e, seat=viewer, style=MODEL))
    assert {"sisters", "charmed_players", "bear_growl", "wild_child_model", "paramours", "protector_guard"} <= seen


@pytest.mark.parametrize("seed", range(4))
def test_no_prompt_holds_another_seats_secret(seed):
    """Built from the narrator's log: the words of every private event a seat was not
    shown (as any of its audience, or the narrator, would read it) never appear in the
    prompts that seat was given."""
    game, captured = _play(seed)
    lang = "en" if seed % 3 else "zh"
    cat = catalog(lang)
    systems, secrets = {}, {}
    for p in game.players:
        events = game.observation(p.name)
        role = next(e.data["role"] for e in events if e.kind == "role" and e.phase == "setup")
        systems[p.name] = system_prompt(
            preset=game.preset, options=game.options, seat=p.name, role=role, players=[x.name for x in game.players], language=lang, deck=events[0].data["roles_in_play"]
        )
        own = {event_body(cat, e, p.name) for e in events}
        secrets[p.name] = {
            event_body(cat, e, viewer)
            for e in game.events
            if not e.visible_to(p.name)
            for viewer in ([] if e.audience == NARRATOR else sorted(e.audience)) + [""]
        } - own - {""}
    for d, events in captured:
        text = "\n\n".join([systems[d.seat], "\n".join(x for x in history_entries(events, d.seat, language=lang) if x), decision_prompt(d, language=lang)])
        clean(text)
        for secret in secrets[d.seat]:
            assert secret not in text, f"{d.seat} ({d.kind}) reads {secret!r}"

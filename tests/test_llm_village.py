"""Model seats play The Village: whole games of ``village`` (every building in the box,
the tokens chosen face up, 12 to 15 players, the Arsonist dealt) where every seat is an
``openai:`` model seat answering through the local stand-in of the Chat Completions API
(``llm_standins``), in both prompt languages.

Across a few seeds every decision of the buildings and of the Arsonist reaches a model
seat; each of those questions names its legal answers (and the request's schema allows
exactly them); every game ends without a refused answer or a fallback; and no seat's
prompt holds another seat's private event: the Confessor's ``confessed_role``, the
Baker's ``baker_glimpse``, the Arsonist's ``fire_set`` (checked as text, and by the
isolation test's rule: a prompt's history is a prefix of the seat's own observation).
"""

from __future__ import annotations

import json
import re

import pytest
from llm_standins import FAST, OpenAIStandIn, reset_llm_state, standin_router, without_fields_line

from agents.llm import make_llm_agent
from agents.llm.accounting import CallLog
from arena.gamefile import default_names
from arena.runner import run_async
from engine import Game, GameSetup, get_preset
from engine.decisions import BOOL
from prompts.catalog import catalog
from prompts.decisions_text import ASKERS
from prompts.history import event_body
from prompts.render import decision_prompt, history_entries

pytestmark = pytest.mark.usefixtures("llm_env")

MODEL = "openai:gpt-5.4-mini"
OPTIONS = {"buildings": "box", "building_handout": "choice"}
SEEDS = {"en": range(0, 6), "zh": range(4, 10)}  # a few games each, two of them shared
BUILDING_KINDS = {
    "building_choice",
    "confessor_hear",
    "bonesetter_restore",
    "barber_shave",
    "schoolmistress_forbid",
    "bailiff_assign",
    "vagabond_accept",
    "castellan_plea",
    "castellan_pardon",
}
KINDS = BUILDING_KINDS | {"arsonist_burn"}
PRIVATE = ("confessed_role", "baker_glimpse", "fire_set")
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")


async def play(seed: int, language: str):
    n = 12 + seed % 4
    names = default_names(n)
    preset = get_preset("village")
    game = Game(GameSetup(names=names, preset="village", seed=seed, options=preset.options(OPTIONS), roles=preset.deck(n)))
    assert "arsonist" in {p.role for p in game.players}
    log = CallLog()
    decisions = {}

    def remember(g, d, answer, agent):
        decisions[d.id] = (d, answer)

    with standin_router() as router:
        api = OpenAIStandIn(router, seed=seed)
        agents = {
            name: make_llm_agent(MODEL, name, seed=i, log=log, language=language, preset=game.preset, rules=game.options, **FAST)
            for i, name in enumerate(names)
        }
        await run_async(game, agents, on_answer=remember)
    return game, log, decisions, api


def _schema_enum(body: dict) -> list | None:
    user = body["messages"][1]["content"]
    if user != without_fields_line(user):  # the cache layout: the legal answers are in the question
        action = json.loads(user[user.rindex('{"properties":') :])["properties"].get("action", {})
        return action.get("enum")
    rf = body.get("response_format") or {}
    schema = rf.get("json_schema", {}).get("schema") if rf.get("type") == "json_schema" else None
    if schema is None and body.get("tools"):
        schema = body["tools"][0]["function"]["parameters"]
    action = (schema or {}).get("properties", {}).get("action", {})
    if "enum" in action:
        return action["enum"]
    for branch in action.get("anyOf", []):
        if "enum" in branch:
            return branch["enum"]
    return None


def check_questions(game, log, decisions, api, language: str, asked: dict[str, int]) -> None:
    """Every building and Arsonist question a model seat got names its legal answers."""
    cat = catalog(language)
    bodies = {json.dumps(b["messages"], ensure_ascii=False, sort_keys=True): b for b in api.requests}
    for r in log.records:
        d, answer = decisions[r.decision]
        if d.kind not in KINDS:
            continue
        asked[d.kind] = asked.get(d.kind, 0) + 1
        question = decision_prompt(d, language=language, reminder=False, listed=False)  # the cache layout
        user = without_fields_line(r.messages[1]["content"])
        assert user.endswith(question), (d.kind, question)
        assert d.kind in ASKERS or cat.has(f"decisions.kinds.{d.kind}.ask"), f"{d.kind} asked with the generic question"
        assert not PLACEHOLDER.search(question), question
        # The legal answers: in the words, or (bare names, true/false) in the fields
        # line's enum that ends the question.
        fields = r.messages[1]["content"].rsplit("\n", 1)[1]
        for option in d.options:
            assert cat.literal(option) in question + fields, (d.kind, option, question, fields)
        if d.shape == BOOL:
            assert "boolean" in fields or ("true" in question and "false" in question)
        body = bodies[json.dumps(r.messages, ensure_ascii=False, sort_keys=True)]
        if d.shape == BOOL:
            assert "boolean" in json.dumps(body.get("response_format") or body.get("tools")), d.kind
        else:
            enum = _schema_enum(body)
            legal = list(d.options) + ([None] if d.allow_pass else [])
            assert enum is not None and sorted(map(str, enum)) == sorted(map(str, legal)), (d.kind, enum, legal)
        d.validate(answer)  # the answer played was legal
        assert r.accepted and not r.violation and not r.fallback, (d.kind, r.violation)


def check_isolation(game, log, decisions, language: str, leaks_checked: dict[str, int], shown: dict[str, int]) -> None:
    """No seat's prompt holds another seat's private event; each prompt's history is a
    prefix of the seat's own observation (which lacks the others' secrets)."""
    cat = catalog(language)
    names = [p.name for p in game.players]
    secrets = []
    for e in game.events:
        if e.kind in PRIVATE:
            assert not e.is_public and len(e.audience) == 1, e
            (owner,) = e.audience
            secrets.append((e, owner, json.dumps(event_body(cat, e, owner), ensure_ascii=False)[1:-1]))
    for seat in names:
        observation = game.observation(seat)
        full = "\n".join(x for x in history_entries(observation, seat, language=language) if x)
        seen_kinds = {e.kind for e in observation}
        for e, owner, _ in secrets:
            if owner != seat:
                assert e not in observation, (seat, e.kind)
        for r in (r for r in log.records if r.seat == seat and r.messages):
            user = without_fields_line(r.messages[1]["content"])
            question = decision_prompt(decisions[r.decision][0], language=language, reminder=False, listed=False)
            assert user.endswith(question)
            history = user[: -len(question)].rstrip("\n")
            assert full.startswith(history), f"{seat}'s prompt is not its own history"
            everything = json.dumps(r.messages, ensure_ascii=False)
            for e, owner, text in secrets:
                if owner == seat:
                    if text in everything:
                        shown[e.kind] = shown.get(e.kind, 0) + 1
                    continue
                leaks_checked[e.kind] = leaks_checked.get(e.kind, 0) + 1
                assert text not in everything, f"{seat}'s prompt holds {owner}'s {e.kind}"
        assert not (seen_kinds & set(PRIVATE)) or any(e.kind in PRIVATE and owner == seat for e, owner, _ in secrets)


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_model_seats_play_the_village(language):
    asked: dict[str, int] = {}
    leaks_checked: dict[str, int] = {}
    shown: dict[str, int] = {}
    for seed in SEEDS[language]:
        reset_llm_state()
        game, log, decisions, api = await play(seed, language)
        assert game.over and game.winner is not None
        assert {p.building for p in game.players} - {None}  # the buildings were handed out
        assert {r.seat for r in log.records} == {seat for _, seat, _, _ in game.answer_log}  # every seat is a model seat
        assert not any(r.fallback for r in log.records)
        check_questions(game, log, decisions, api, language, asked)
        check_isolation(game, log, decisions, language, leaks_checked, shown)
    missing = KINDS - set(asked)
    assert not missing, f"never asked of a model seat over seeds {list(SEEDS[language])}: {sorted(missing)}"
    assert set(PRIVATE) <= set(leaks_checked), f"private events never checked: {sorted(set(PRIVATE) - set(leaks_checked))}"
    assert set(PRIVATE) <= set(shown), f"a private event never reached its own seat's prompt: {sorted(set(PRIVATE) - set(shown))}"

"""Answer schemas enumerate exactly the legal options; replies are read into answers the
engine accepts, or refused with a reason a model can act on."""

from __future__ import annotations

import json
import random

import pytest
from llm_standins import game_at, legal_instance

from agents.llm.interpret import read_reply
from agents.llm.schema import answer_schema
from arena.runner import view_for
from engine.decisions import Decision

ROLES = ["seer", "villager", "werewolf"]
PLAYERS = ["Alice", "Bob", "Chloe"]

WITCH_DECK = ["werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager", "hunter"]


def schema(d: Decision) -> dict:
    return answer_schema(d, players=PLAYERS, roles=ROLES)


def closed(s: dict) -> None:
    """OpenAI strict mode: every object closed, every property required."""
    if s.get("type") == "object":
        assert s["additionalProperties"] is False
        assert set(s["required"]) == set(s["properties"])
        for sub in s["properties"].values():
            closed(sub)
    for key in ("items",):
        if key in s:
            closed(s[key])
    for sub in s.get("anyOf", []):
        closed(sub)


def test_choice_enumerates_options_and_null_only_when_passing_is_legal():
    s = schema(Decision(1, "Alice", "vote", "choice", ("Bob", "Chloe"), allow_pass=True))
    assert s["properties"]["action"]["enum"] == ["Bob", "Chloe", None]
    assert list(s["properties"]) == ["reasoning", "action"]  # reasoning first: think, then choose
    s = schema(Decision(1, "Alice", "seer_check", "choice", ("Bob", "Chloe")))
    assert s["properties"]["action"] == {"type": "string", "enum": ["Bob", "Chloe"]}
    closed(s)


def test_multi_bool_and_text_shapes():
    m = schema(Decision(2, "Alice", "cupid_lovers", "multi", ("Alice", "Bob", "Chloe"), count=2))["properties"]["action"]
    assert m["minItems"] == m["maxItems"] == 2 and m["items"]["enum"] == ["Alice", "Bob", "Chloe"]
    b = schema(Decision(3, "Alice", "witch_heal", "bool", (False,)))["properties"]["action"]
    assert b == {"type": "boolean", "enum": [False]}  # a spent potion: only "no" is legal
    t = schema(Decision(4, "Alice", "speak", "text"))
    closed(t)
    claims = t["properties"]["claims"]["properties"]
    assert claims["role"]["enum"] == ROLES + [None]
    assert claims["checks"]["items"]["properties"]["target"]["enum"] == PLAYERS
    assert claims["accuses"]["items"]["enum"] == PLAYERS
    w = schema(Decision(5, "Alice", "wolf_chat", "text"))
    assert set(w["properties"]) == {"reasoning", "text", "target"}


def test_schemas_are_json_and_their_instances_are_legal():
    """What a constrained decoder produces from the schema, the engine accepts."""
    game, d = game_at("vote", after_death=True)
    view = view_for(game, d.seat)
    s = answer_schema(d, players=view.players, roles=ROLES)
    json.dumps(s)
    rng = random.Random(0)
    for _ in range(20):
        r = read_reply(legal_instance(s, rng), "", d, view)
        assert r.ok, r.reason
        d.validate(r.answer)


def test_dead_target_is_refused_naming_the_death():
    game, d = game_at("vote", after_death=True)
    view = view_for(game, d.seat)
    dead = next(iter(view.dead))
    r = read_reply({"action": dead}, "", d, view)
    assert not r.ok and f"{dead} is dead" in r.reason and "legal:" in r.reason


def test_unknown_name_and_malformed_replies_are_refused_with_what_is_expected():
    game, d = game_at("vote", after_death=True)
    view = view_for(game, d.seat)
    r = read_reply(None, "Zed", d, view)
    assert not r.ok and '"Zed" is not a player' in r.reason
    r = read_reply(None, "", d, view)
    assert not r.ok and "could not read an answer" in r.reason and '"action"' in r.reason
    r = read_reply({"target": "x", "foo": 1}, "", d, view)
    assert not r.ok


def test_names_are_matched_loosely_but_answered_exactly():
    game, d = game_at("vote", after_death=True)
    view = view_for(game, d.seat)
    target = d.options[-1]
    r = read_reply(None, f"  {target.upper()}.", d, view)
    assert r.ok and r.answer == target


def test_second_heal_is_refused_with_the_engine_reason():
    game, d = game_at(
        "witch_heal", roles=WITCH_DECK, when=lambda d: d.context.get("unavailable") == "the healing potion is already used"
    )
    view = view_for(game, d.seat)
    r = read_reply({"action": True}, "", d, view)
    assert not r.ok and "already used" in r.reason
    assert read_reply(None, "no", d, view).answer is False


def test_empty_speech_is_refused_and_claims_are_tidied():
    game, d = game_at("speak")
    view = view_for(game, d.seat)
    r = read_reply({"text": "  ", "claims": {}}, "", d, view)
    assert not r.ok and "empty" in r.reason
    other = next(p for p in view.players if p != d.seat)
    r = read_reply(
        {"text": "I saw things.", "claims": {"role": "SEER", "checks": [{"target": other.lower(), "role": "werewolf"}, {"target": "Zed", "role": "seer"}], "accuses": [other, "nobody"]}, "reasoning": "secret"},
        "",
        d,
        view,
    )
    assert r.ok
    assert r.answer == {"text": "I saw things.", "claims": {"role": "seer", "checks": [{"target": other, "role": "werewolf"}], "accuses": [other]}}
    assert "reasoning" not in r.answer and r.parsed["reasoning"] == "secret"  # private reasoning never reaches the table
    game.submit(d.id, r.answer)  # the engine accepts it as is


def test_wolf_chat_keeps_a_living_target_only():
    game, d = game_at("wolf_chat")
    view = view_for(game, d.seat)
    victim = next(p for p in view.alive if p not in view.pack)
    assert read_reply({"text": "go", "target": victim}, "", d, view).answer == {"text": "go", "target": victim}
    assert read_reply({"text": "go", "target": "Zed"}, "", d, view).answer == {"text": "go"}
    game.submit(d.id, {"text": "go", "target": victim})


@pytest.mark.parametrize("kind", ["vote", "speak", "wolf_kill", "seer_check"])
def test_every_kind_in_a_game_has_a_schema_instance_the_engine_accepts(kind):
    game, d = game_at(kind)
    view = view_for(game, d.seat)
    s = answer_schema(d, players=view.players, roles=ROLES)
    r = read_reply(legal_instance(s, random.Random(1)), "", d, view)
    assert r.ok, r.reason
    game.submit(d.id, r.answer)


# ---------------------------------------------------------------------- what a reply may spend
def test_limits_bound_the_free_parts_of_an_answer():
    """With limits, the schema a local server enforces as a grammar bounds the
    reasoning, the words and the claims' lists: a small model cannot write on until
    the token budget cuts its reply."""
    from agents.llm.schema import ReplyLimits

    limits = ReplyLimits(reasoning=300, text=500)
    speech = answer_schema(Decision(id=1, seat="Alice", kind="speak", shape="text"), players=PLAYERS, roles=ROLES, limits=limits)
    props = speech["properties"]
    assert props["reasoning"]["maxLength"] == 300 and props["text"]["maxLength"] == 500
    claims = props["claims"]["properties"]
    assert claims["accuses"]["maxItems"] == claims["checks"]["maxItems"] == min(3, len(PLAYERS))
    vote = answer_schema(Decision(id=2, seat="Alice", kind="vote", shape="choice", options=("Bob",)), players=PLAYERS, roles=ROLES, limits=limits)
    assert vote["properties"]["reasoning"]["maxLength"] == 300
    closed(speech)
    closed(vote)
    plain = answer_schema(Decision(id=1, seat="Alice", kind="speak", shape="text"), players=PLAYERS, roles=ROLES)
    assert "maxLength" not in json.dumps(plain) and "maxItems" not in json.dumps(plain)  # none by default


def test_budgets_per_kind_of_question_hold_the_longest_reply_and_never_pass_max_tokens():
    from agents.llm.config import LLMOptions

    o = LLMOptions()
    assert o.budget("choice") < o.budget("beliefs", players=8) < o.budget("words") <= o.max_tokens
    assert o.budget("beliefs", players=12) > o.budget("beliefs", players=8)  # a number per player
    assert o.budget("words", language="zh") > o.budget("words")  # a Chinese character is about a token
    assert LLMOptions(max_tokens=100).budget("words") == 100
    assert LLMOptions(budgets={"choice": 64}).budget("choice") == 64
    assert LLMOptions(budgets={"choice": 64}).budget("words") == o.budget("words")
    assert LLMOptions(reasoning_chars=0).budget("choice") == o.max_tokens  # unbounded reasoning: no room to compute
    assert o.chars("grammar") < o.chars("cache")  # a server of one's own: fewer characters...
    reasoning, text = o.chars("grammar")
    # ... and a budget over their worst case, a token a character: no reply the grammar allows is cut
    assert o.budget("choice", layout="grammar") >= reasoning + 32 and o.budget("words", layout="grammar") >= reasoning + text + 64
    with pytest.raises(ValueError):
        LLMOptions(budgets={"choice": 3})
    with pytest.raises(ValueError):
        LLMOptions(budgets={"speech": 300})


@pytest.mark.usefixtures("llm_env")
async def test_a_local_seat_gets_bounded_schemas_the_stated_limits_and_each_kinds_budget():
    from llm_standins import OpenAIStandIn, ask, model_seat, standin_router

    from agents.llm.accounting import CallLog
    from agents.llm.config import LLMOptions

    url = "http://127.0.0.1:8080/v1"
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=url)
        for kind in ("vote", "speak"):
            game, d = game_at(kind, after_death=True)
            await ask(model_seat("openai:smollm2", d, CallLog(), base_url=url, reasoning_chars=250, text_chars=450), game, d)
    vote, speech = api.requests
    o = LLMOptions(reasoning_chars=250, text_chars=450)
    assert vote["max_tokens"] == o.budget("choice", layout="grammar") and speech["max_tokens"] == o.budget("words", layout="grammar")
    for body in (vote, speech):
        schema = body["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["reasoning"]["maxLength"] == 250
        system = body["messages"][0]["content"]
        assert "at most 250 characters" in system and "at most 450 characters" in system
        assert f"after {o.budget('choice', layout='grammar')} tokens for a choice, {o.budget('words', layout='grammar')} for words" in system
    assert speech["response_format"]["json_schema"]["schema"]["properties"]["text"]["maxLength"] == 450


STATED = {
    "en": ("at most {r} characters", "at most {t} characters", "after {c} tokens for a choice, {w} for words"),
    "zh": ("不超过 {r} 个字符", "不超过 {t} 个字符", "超过 {c} 个 token（选择）或 {w} 个 token（发言、私聊）"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.usefixtures("llm_env")
async def test_a_local_seats_default_limits_are_stated_in_its_language_and_enforced_by_its_grammar(language):
    """With no limits set, a seat on a server of one's own (the grammar layout, as
    ``werewolf model serve``) gets the CPU defaults: stated in the system text of the
    game's language, a ``maxLength`` in every schema, a completion budget per kind."""
    from llm_standins import OpenAIStandIn, ask, model_seat, standin_router

    from agents.llm.accounting import CallLog
    from agents.llm.config import DEFAULT_CHARS, LLMOptions

    url = "http://127.0.0.1:8080/v1"
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=url)
        for kind in ("vote", "speak", "wolf_chat"):
            game, d = game_at(kind, after_death=kind != "wolf_chat")
            await ask(model_seat("openai:smollm2", d, CallLog(), base_url=url, language=language), game, d)
    reasoning, text = DEFAULT_CHARS["grammar"]
    o = LLMOptions()
    choice, words = o.budget("choice", language=language, layout="grammar"), o.budget("words", language=language, layout="grammar")
    assert [b["max_tokens"] for b in api.requests] == [choice, words, words]
    r_line, t_line, tokens_line = STATED[language]
    for body in api.requests:
        system = body["messages"][0]["content"]
        assert r_line.format(r=reasoning) in system and t_line.format(t=text) in system, system[-600:]
        assert tokens_line.format(c=choice, w=words) in system, system[-600:]
        props = body["response_format"]["json_schema"]["schema"]["properties"]
        assert props["reasoning"]["maxLength"] == reasoning
        if "text" in props:
            assert props["text"]["maxLength"] == text
    assert all("text" in b["response_format"]["json_schema"]["schema"]["properties"] for b in api.requests[1:])



def test_claims_name_only_the_roles_this_game_holds():
    """Issue 19 item 5, prompts mention only what this game holds: a claim's roles are
    the public deck (set-aside cards included), not every role the arena knows; with no
    deck told, every role."""
    from agents.base import SeatView
    from agents.llm.agent import _claimable_roles
    from engine.roles import ROLES

    game, d = game_at("speak")
    view = view_for(game, d.seat)
    roles = _claimable_roles(view)
    assert roles == sorted({p.initial_role for p in game.players}) == ["seer", "villager", "werewolf"]
    claims = answer_schema(d, players=list(view.players), roles=roles)["properties"]["claims"]["properties"]
    assert claims["role"]["enum"] == [*roles, None]
    assert claims["checks"]["items"]["properties"]["role"]["enum"] == roles
    assert _claimable_roles(SeatView(d.seat, [])) == sorted(ROLES)

"""A decision's schema as a compact llama.cpp grammar (``agents.llm.backends.gbnf``):
the grammar allows exactly the schema's answers written without whitespace outside
strings, and a llama.cpp server (one that answers ``/props``) is sent it in place of
the schema; other servers keep the schema."""

from __future__ import annotations

import json
import random

import httpx
import jsonschema
import pytest
from gbnf_check import Grammar
from llm_standins import NAMES, OpenAIStandIn, legal_instance, model_game, standin_router

from agents.llm.accounting import CallLog
from agents.llm.backends import gbnf
from agents.llm.schema import ReplyLimits, answer_schema
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision

ROLES = ["villager", "werewolf", "seer", "witch"]
LIMITS = ReplyLimits(reasoning=100, text=240)


def decisions() -> dict[str, Decision]:
    alive = tuple(NAMES[1:])
    return {
        "vote": Decision(id=1, seat="Alice", kind="vote", shape=CHOICE, options=alive, allow_pass=True),
        "wolf_kill": Decision(id=2, seat="Alice", kind="wolf_kill", shape=CHOICE, options=alive),
        "bid": Decision(id=3, seat="Alice", kind="vote", shape=CHOICE, options=(0, 1, 2, 3)),
        "witch_save": Decision(id=4, seat="Alice", kind="witch_save", shape=BOOL, options=(True, False)),
        "only_no": Decision(id=5, seat="Alice", kind="witch_save", shape=BOOL, options=(False,)),
        "cupid_link": Decision(id=6, seat="Alice", kind="cupid_link", shape=MULTI, options=tuple(NAMES), count=2, allow_pass=True),
        "speak": Decision(id=7, seat="Alice", kind="speak", shape=TEXT),
        "wolf_chat": Decision(id=8, seat="Alice", kind="wolf_chat", shape=TEXT),
    }


def schema_of(name: str) -> dict:
    return answer_schema(decisions()[name], players=list(NAMES), roles=ROLES, limits=LIMITS)


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def drawn(name: str) -> tuple[dict, Grammar, random.Random]:
    """A decision's schema, its grammar, and a generator seeded by its name."""
    schema = schema_of(name)
    return schema, Grammar(gbnf.grammar(schema)), random.Random(name)


@pytest.mark.parametrize("name", list(decisions()))
def test_the_grammar_allows_every_legal_answer_written_compactly(name):
    schema, grammar, rng = drawn(name)
    for _ in range(40):
        value = legal_instance(schema, rng)
        assert grammar.accepts(compact(value)), compact(value)
        spaced = json.dumps(value, ensure_ascii=False, indent=2)
        assert not grammar.accepts(spaced)  # the whitespace llama.cpp's own conversion lets through
        assert not grammar.accepts(json.dumps(value, ensure_ascii=False))  # ", " and ": "


@pytest.mark.parametrize("name", list(decisions()))
def test_what_the_grammar_allows_the_schema_allows(name):
    schema, grammar, rng = drawn(name)
    for _ in range(60):
        text = grammar.sample(rng)
        jsonschema.validate(json.loads(text), schema)


def test_illegal_answers_are_outside_the_grammar():
    vote = Grammar(gbnf.grammar(schema_of("vote")))
    assert vote.accepts('{"reasoning":"","action":"Bob"}')
    assert vote.accepts('{"reasoning":"","action":null}')
    assert not vote.accepts('{"reasoning":"","action":"Alice"}')  # the voter, not an option
    assert not vote.accepts('{"action":"Bob","reasoning":""}')  # the schema's order: reasoning first
    assert not vote.accepts('{"reasoning":"","action":"Bob","extra":1}')
    assert not vote.accepts('{"reasoning":"' + "x" * 101 + '","action":"Bob"}')  # maxLength
    assert vote.accepts('{"reasoning":"' + "x" * 100 + '","action":"Bob"}')
    assert vote.accepts('{"reasoning":"a \\"quote\\", a \\\\ backslash, é and 狼","action":"Bob"}')
    assert not vote.accepts('{"reasoning":"a raw\nline break","action":"Bob"}')  # JSON escapes it
    # ... and the grammar leaves the escapes out: a string is one line, each character itself.
    for escape in ("\\n", "\\t", "\\r", "\\u00e9", "\\/"):
        assert not vote.accepts('{"reasoning":"one' + escape + 'two","action":"Bob"}'), escape
    bid = Grammar(gbnf.grammar(schema_of("bid")))
    assert bid.accepts('{"reasoning":"","action":3}') and not bid.accepts('{"reasoning":"","action":"3"}')
    no = Grammar(gbnf.grammar(schema_of("only_no")))
    assert no.accepts('{"reasoning":"","action":false}') and not no.accepts('{"reasoning":"","action":true}')
    link = Grammar(gbnf.grammar(schema_of("cupid_link")))
    assert link.accepts('{"reasoning":"","action":["Bob","Chloe"]}') and link.accepts('{"reasoning":"","action":null}')
    assert not link.accepts('{"reasoning":"","action":["Bob"]}')  # exactly two
    speak = Grammar(gbnf.grammar(schema_of("speak")))
    silent = '{"reasoning":"","text":"%s","claims":{"role":null,"checks":[],"accuses":[]}}'
    assert not speak.accepts(silent % "")  # an empty speech is refused by the reader: the grammar has none
    assert speak.accepts(silent % "I") and not speak.accepts(silent % " ")
    four = ",".join(['"Bob"'] * 4)
    assert not speak.accepts('{"reasoning":"","text":"","claims":{"role":null,"checks":[],"accuses":[' + four + "]}}")  # maxItems


def test_only_a_speech_must_say_something():
    """The reader refuses an empty speech and asks again; the schema says so, and so the
    grammar has no empty speech. The pack's talk may be empty (the wolf says nothing)."""
    assert schema_of("speak")["properties"]["text"]["minLength"] == 1
    assert "minLength" not in schema_of("wolf_chat")["properties"]["text"]
    assert "minLength" not in schema_of("speak")["properties"]["reasoning"]
    wolf = Grammar(gbnf.grammar(schema_of("wolf_chat")))
    assert wolf.accepts('{"reasoning":"","text":"","target":null}')


def test_string_lengths():
    def one(string: dict) -> Grammar:
        return Grammar(gbnf.grammar({"type": "object", "properties": {"t": string}, "required": ["t"], "additionalProperties": False}))

    assert one({"type": "string"}).accepts('{"t":""}')
    at_least = one({"type": "string", "minLength": 2})
    assert not at_least.accepts('{"t":"a"}') and at_least.accepts('{"t":"ab"}') and at_least.accepts('{"t":"' + "a" * 500 + '"}')
    between = one({"type": "string", "minLength": 1, "maxLength": 3})
    assert [between.accepts('{"t":"%s"}' % ("a" * n)) for n in range(5)] == [False, True, True, True, False]
    with pytest.raises(gbnf.Unsupported):
        one({"type": "string", "minLength": 4, "maxLength": 3})
    # No string opens with a space (the reader strips it): a speech cannot be " ".
    for string in ({"type": "string"}, {"type": "string", "minLength": 1, "maxLength": 3}):
        g = one(string)
        assert not g.accepts('{"t":" "}') and not g.accepts('{"t":" a"}') and g.accepts('{"t":"a "}') and g.accepts('{"t":"a b"}')
    assert one({"type": "string", "maxLength": 0}).accepts('{"t":""}') and not one({"type": "string", "maxLength": 0}).accepts('{"t":"a"}')


def test_a_schema_the_converter_does_not_write_is_refused():
    with pytest.raises(gbnf.Unsupported):
        gbnf.grammar({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": False})
    with pytest.raises(gbnf.Unsupported):
        gbnf.grammar({"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"], "additionalProperties": False})


def test_literals_escape_what_gbnf_reads():
    assert gbnf.literal('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    odd = {"type": "object", "properties": {"action": {"enum": ['say "hi"', "back\\slash", "狼人"]}}, "required": ["action"], "additionalProperties": False}
    g = Grammar(gbnf.grammar(odd))
    for v in odd["properties"]["action"]["enum"]:
        assert g.accepts(compact({"action": v}))


# ---------------------------------------------------------------------- what is sent
LOCAL = "http://127.0.0.1:8093/v1"


async def play(monkeypatch, props: httpx.Response | None, **options) -> OpenAIStandIn:
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        probe = router.get("http://127.0.0.1:8093/props")
        if props is None:
            probe.mock(side_effect=httpx.ConnectError("refused"))
        else:
            probe.mock(return_value=props)
        log = CallLog()
        game = await model_game("openai:smollm2", 3, log, **options)
    assert game.over
    assert not [r for r in log.records if r.fallback], "every decision was answered by the model seat"
    return api


@pytest.mark.usefixtures("llm_env")
async def test_a_llama_cpp_server_is_sent_the_compact_grammar_instead_of_the_schema(monkeypatch):
    api = await play(monkeypatch, httpx.Response(200, json={"total_slots": 4}))
    assert api.requests
    for body in api.requests:
        assert "response_format" not in body and isinstance(body.get("grammar"), str)
        Grammar(body["grammar"])  # well formed
        assert 'root ::= "{" "\\"reasoning\\""' in body["grammar"]


@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize("props", [httpx.Response(404, json={"error": "not found"}), None], ids=["vllm-like 404", "refused"])
async def test_another_server_keeps_the_schema(monkeypatch, props):
    api = await play(monkeypatch, props)
    assert api.requests and all("grammar" not in body and body["response_format"]["type"] == "json_schema" for body in api.requests)


@pytest.mark.usefixtures("llm_env")
async def test_a_callers_own_grammar_field_wins(monkeypatch):
    mine = 'root ::= "{\\"reasoning\\":\\"\\",\\"action\\":null}"'
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        router.get("http://127.0.0.1:8093/props").mock(return_value=httpx.Response(200, json={"total_slots": 4}))
        await model_game("openai:smollm2", 1, CallLog(), extra_body={"grammar": mine}, max_reasks=0)
    assert api.requests and all(body["grammar"] == mine and "response_format" not in body for body in api.requests)

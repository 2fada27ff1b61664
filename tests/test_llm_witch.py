"""The Witch's heal and poison in one round trip (``agents.llm.witch``), the engine
unchanged: it still asks the poison after the heal, and the seat answers it from the
kept reply without a call when that reply is legal for the decision really asked."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from llm_standins import OpenAIStandIn, Reply, ask, game_at, model_seat, standin_router

from agents.llm.accounting import CallLog

pytestmark = pytest.mark.usefixtures("llm_env")
MODEL = "openai:gpt-5.4-mini"


def heal_game(**options):
    deck = ["werewolf", "werewolf", "seer", "witch"] + ["villager"] * 4
    return game_at("witch_heal", seat_role="witch", options=options, roles=deck, when=lambda d: set(d.options) == {True, False})


def next_poison(game, heal, answer):
    game.submit(heal.id, answer)
    return next(d for d in game.waiting if d.kind == "witch_poison")


def reply(heal: bool, target, kind="choice") -> Reply:
    return Reply(json.dumps({"reasoning": "r", "action": heal, "text": "", "target": target, "claims": {"role": None, "checks": [], "accuses": []}}))


async def test_heal_and_poison_take_one_call():
    game, heal = heal_game()
    victim_side = [n for n in game.by_name if n != heal.seat and game.by_name[n].alive]
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push(reply(False, victim_side[0]))
        log = CallLog()
        seat = model_seat(MODEL, heal, log)
        answer = await ask(seat, game, heal)
        assert answer is False and len(api.requests) == 1
        question = api.requests[0]["messages"][1]["content"]
        assert "`target`" in question and '"target":{"enum":' in question  # the poison's legal answers are in the question
        poison = next_poison(game, heal, answer)
        assert await ask(seat, game, poison) == victim_side[0]
        assert len(api.requests) == 1  # no second round trip
    first, second = log.records
    assert first.accepted and first.parsed["target"] == victim_side[0]
    assert second.kind == "witch_poison" and second.accepted and not second.messages and second.parsed["answered_with"] == heal.id
    game.submit(poison.id, victim_side[0])  # the engine takes it as any answer


async def test_one_potion_a_night_a_heal_comes_first():
    game, heal = heal_game(witch_both_potions_same_night=False)
    other = next(n for n in game.by_name if n != heal.seat and game.by_name[n].alive)
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push(reply(True, other))
        log = CallLog()
        seat = model_seat(MODEL, heal, log, rules=game.options)
        assert await ask(seat, game, heal) is True
        assert "at most one potion" in api.requests[0]["messages"][1]["content"]
        poison = next_poison(game, heal, True)
        assert poison.options == () and await ask(seat, game, poison) is None  # only null is legal: no call
        assert len(api.requests) == 1
    assert not any(r.violation for r in log.records)


async def test_a_kept_poison_the_engine_does_not_offer_is_asked_again():
    game, heal = heal_game()
    alive = [n for n in game.by_name if n != heal.seat and game.by_name[n].alive]
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push(reply(False, alive[0]))
        seat = model_seat(MODEL, heal, CallLog())
        await ask(seat, game, heal)
        poison = next_poison(game, heal, False)
        narrowed = replace(poison, options=tuple(n for n in poison.options if n != alive[0]))
        answer = await ask(seat, game, narrowed)
        assert len(api.requests) == 2  # asked on its own, as before
    narrowed.validate(answer)

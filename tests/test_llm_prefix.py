"""The rules every seat reads are evaluated once per llama.cpp server and restored into
each seat's slot (``agents.llm.backends.prefix``): the real ``openai`` client against
a stand-in of llama.cpp's slots and slot files (``llama_standin``)."""

from __future__ import annotations

import logging

import pytest
from llama_standin import LlamaCppStandIn
from llm_standins import NAMES, OpenAIStandIn, model_game, standin_router

from agents.llm.accounting import CallLog
from agents.llm.backends import prefix
from arena.local_model import prune_slot_files

pytestmark = pytest.mark.usefixtures("llm_env")

LOCAL = "http://127.0.0.1:8093/v1"
MODEL = "openai:smollm2"


def primers(api: OpenAIStandIn) -> list[dict]:
    """The requests that held nothing but a system message: the shared text's evaluation."""
    return [b for b in api.requests if [m["role"] for m in b["messages"]] == ["system"]]


def seat_of(body: dict) -> str:
    return next(n for n in NAMES if f"You are {n} (seat" in body["messages"][0]["content"])


async def play(monkeypatch, *, seed: int = 3, server: LlamaCppStandIn | None = None, **kw) -> LlamaCppStandIn:
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    with standin_router() as router:
        api = LlamaCppStandIn(router, LOCAL, **kw)
        if server is not None:  # the same server, its slots and files, a second time
            api.slots, api.files = server.slots, server.files
        game = await model_game(MODEL, seed, CallLog())
    assert game.over
    return api


async def test_the_shared_rules_are_evaluated_once_and_restored_into_every_seat_slot(monkeypatch):
    api = await play(monkeypatch)
    primed = primers(api)
    assert len(primed) == 1 and primed[0]["max_tokens"] == 1
    shared = primed[0]["messages"][0]["content"]
    # Only what every seat reads went into the file: no seat's name, card or history.
    [(name, text)] = api.files.items()
    assert name.startswith("werewolf-") and name.endswith(".bin")
    assert shared in text and not any(f"You are {n} (seat" in text for n in NAMES)
    seats = {seat_of(b) for b in api.requests if b not in primed}
    assert len(seats) >= 5
    first_chat: dict[int, int] = {}
    for i, (kind, slot) in enumerate(api.actions):
        if kind == "chat":
            first_chat.setdefault(slot, i)
    primer_slot = primed[0]["id_slot"]
    for seat in seats:
        slot = NAMES.index(seat) % api.total_slots
        if slot == primer_slot:
            continue
        restores = [i for i, a in enumerate(api.actions) if a == ("restore", slot)]
        # The file was restored into the seat's slot once, before the slot's first request.
        assert len(restores) == 1 and restores[0] < first_chat[slot], seat
    # Every seat's first request found the shared text in its slot.
    firsts = {}
    for body, out in zip(api.requests, api.responses):
        if body not in primed:
            firsts.setdefault(seat_of(body), out["usage"]["prompt_tokens_details"]["cached_tokens"])
    assert firsts and all(cached >= len(shared) // 4 - 8 for cached in firsts.values()), firsts


async def test_without_the_shared_rules_every_first_request_reads_them_itself(monkeypatch):
    """The same game on a server without the feature: the first requests reuse nothing
    but the primer's own slot, which is what the file saves."""
    api = await play(monkeypatch, save_path=False)
    assert not primers(api) and not api.files
    assert api.actions.count(("restore", api.actions[0][1])) == 1  # asked once for the endpoint
    assert [a for a in api.actions if a[0] != "chat"] == [api.actions[0]]
    firsts = {}
    for body, out in zip(api.requests, api.responses):
        firsts.setdefault(seat_of(body), out["usage"]["prompt_tokens_details"]["cached_tokens"])
    assert set(firsts.values()) == {0}


async def test_a_server_that_kept_the_file_is_not_asked_to_evaluate_it_again(monkeypatch):
    first = await play(monkeypatch)
    assert len(primers(first)) == 1
    prefix.forget()  # a new process, the same server
    again = await play(monkeypatch, server=first)
    assert not primers(again)
    assert not [a for a in again.actions if a[0] == "save"]


async def test_a_failed_evaluation_is_logged_and_the_game_goes_on(monkeypatch, caplog):
    from llm_standins import Status

    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    caplog.set_level(logging.INFO, logger="agents.llm.backends")
    with standin_router() as router:
        api = LlamaCppStandIn(router, LOCAL)
        api.push(Status(500, message="boom"), when=lambda b: [m["role"] for m in b["messages"]] == ["system"])
        game = await model_game(MODEL, 3, CallLog())
    assert game.over and not api.files
    assert len(primers(api)) == 1  # not asked again by every seat
    assert not [a for a in api.actions if a[0] == "save"]
    assert "evaluating the shared rules failed" in caplog.text


async def test_more_seats_than_slots_share_the_file_without_restoring_over_a_seat(monkeypatch):
    """Two seats in one slot: the slot is given the rules once, never again over the
    history of the seat that used it first."""
    api = await play(monkeypatch, total_slots=3)
    restores = [a for a in api.actions if a[0] == "restore"]
    assert len(restores) == len(set(restores)) <= 3


async def test_a_vendor_api_is_never_sent_slot_actions():
    import asyncio

    with standin_router() as router:
        api = OpenAIStandIn(router)
        game = await asyncio.wait_for(model_game("openai:gpt-4o-mini", 3, CallLog()), 60)
    assert game.over and not primers(api)


def test_names_and_urls():
    a = prefix.filename("smollm2", "rules")
    assert a == prefix.filename("smollm2", "rules") and a != prefix.filename("smollm2", "rules!") != prefix.filename("other", "rules")
    assert "/" not in a and a.startswith("werewolf-")
    assert prefix.slot_url("http://127.0.0.1:8093/v1", 3, "restore") == "http://127.0.0.1:8093/slots/3?action=restore"
    assert prefix.slot_url("http://h:1/llm/v1/", 0, "save") == "http://h:1/llm/slots/0?action=save"


def test_old_slot_files_are_pruned(tmp_path):
    import os

    for i in range(12):
        f = tmp_path / f"werewolf-{i:02d}.bin"
        f.write_bytes(b"x" * (100 if i != 5 else 1000))
        os.utime(f, (1000 + i, 1000 + i))
    (tmp_path / "other.bin").write_bytes(b"y")  # not ours: never touched
    gone = prune_slot_files(tmp_path, keep=8, budget=10_000)
    assert sorted(f.name for f in gone) == [f"werewolf-{i:02d}.bin" for i in range(4)]
    gone = prune_slot_files(tmp_path, keep=8, budget=450)  # the newest four fit (100 bytes each): 11, 10, 9, 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.bin"] + [f"werewolf-{i:02d}.bin" for i in (8, 9, 10, 11)]
    gone = prune_slot_files(tmp_path, keep=8, budget=1)  # the newest is always kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.bin", "werewolf-11.bin"]

"""The writer's one-dump canonical form and JSON text against their definitions.

``TranscriptWriter._write`` dumps a record once and derives its canonical form from
that dump (``chain.canonical_of_dump``), writing both texts by orjson where its text
is ``json.dumps``'s (``chain.dumps``). Every chain ever written must still verify, so
both must give exactly the bytes of ``chain.canonical`` and of ``json.dumps``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transcript_tools import varied_spec

from arena.gamefile import header_for
from arena.runner import run_sync
from engine.presets import PRESETS
from transcripts.chain import canonical, canonical_of_dump, dumps, floats_in, head_link, link
from transcripts.signing import Signer
from transcripts.verify import Status, verify_file
from transcripts.writer import TranscriptWriter
from transcripts.schema import (
    AnswerRecord,
    BeliefRecord,
    CallRecord,
    ErrorRecord,
    EventRecord,
    ForkRecord,
    HeaderRecord,
    ResultRecord,
    SeatRecord,
    SignatureRecord,
    SignerRecord,
    TimeLimitRecord,
)


def old_line(record: Any) -> str:
    data = record.model_dump(mode="json", exclude={"digest"})
    if data.get("signer", True) is None:
        del data["signer"]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def check(record: Any) -> None:
    data = record.model_dump(mode="json", exclude={"digest"})
    assert canonical_of_dump(record, data) == canonical(record)
    if data.get("signer", True) is None:
        del data["signer"]
    assert dumps(data, floats=floats_in(type(record))) == old_line(record)


TEXT = ["", "plain", "é ü ß", "狼人 村民", "😀 emoji", "\x00\x1f\x7f ctl", '"quote" \\ back /slash', "\u2028\u2029", "e-5 0.00001"]
FLOATS = [0.0, -0.0, 0.1, 1e-5, 2.5e-05, 1e-7, 1e-10, 1e16, 1e22, 123456.789, 5e-324, 1.7976931348623157e308, 0.30000000000000004]
INTS = [0, -1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**30]
NESTED = [{"a": {"b": [1, {"c": None, "d": [True, False]}]}, "z": "é", "A": 1.5e-6}, [[[]]], {"": {}}, {"k": INTS}]


def values() -> list[Any]:
    return [None, True, *TEXT, *FLOATS, *INTS, *NESTED, {t: t for t in TEXT}, list(FLOATS)]


def test_fixed_records() -> None:
    for v in values():
        t = v if isinstance(v, str) else "x"
        check(AnswerRecord(decision=3, seat=t, kind="vote", shape="one", options=[v, t], allow_pass=True, answer=v, agent=t))
        check(AnswerRecord(decision=3, seat="A", kind="vote", shape="one", options=[], allow_pass=False, count=1, answer=None, agent="bot"))
        check(CallRecord(seat="A", decision=1, kind=t, backend="b", model=t, messages=[{"role": "user", "content": t}], parsed=v, answer=v, reply=t, latency_s=FLOATS[len(t) % len(FLOATS)]))
        check(ErrorRecord(message=t))
    for x in [*FLOATS, float("nan"), float("inf"), -math.inf, 1, 0]:
        check(TimeLimitRecord(seat="é", seconds=x))
        check(BeliefRecord(day=1, seat="A", decision=2, probabilities={"B": x, "狼": 0.5}))
        check(CallRecord(seat="A", decision=1, kind="vote", backend="b", model="m", latency_s=x, cost_usd=x, parsed={"p": x}, answer=[x]))
    check(BeliefRecord(day=1, seat="A", decision=2, error="no"))
    check(SignatureRecord(lines=10**20, head="0" * 64, fingerprint="ed25519:ab", signature="x=="))
    check(
        ResultRecord(
            winner="village",
            winners=["A", "狼"],
            deaths=[{"name": "A", "day": 1, "cause": "wolves"}],
            players=[{"name": "A", "initial_role": "seer", "role": "seer", "alive": False}],
            days=3,
        )
    )
    seats = [SeatRecord(name="A", agent="bot"), SeatRecord(name="é", agent="model:x", options={"t": 0.00001, "n": 2**70}, timeout=30.0, answers={"vote": [1, "B"]})]
    for fork in [None, ForkRecord(transcript="f.jsonl", day=2, answers=4), ForkRecord(transcript="狼.jsonl", day=2, answers=4, earlier_agents={"A": ["bot"]}, agent_seed=2**64, model_options={"x": [1e-7]})]:
        for signer in [None, SignerRecord(public_key="k", fingerprint="ed25519:ab")]:
            for extra in [{}, {"roles": ["seer", "wolf"], "center": [], "language": "fr", "beliefs": True}]:
                h = HeaderRecord(preset="classic", options={"a": 1, "b": {"c": 1e-9}}, seed=2**80, seats=seats, software="werewolf-arena 1", fork=fork, **extra)
                check(h.model_copy(update={"signer": signer}))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=JSON, text=st.text(), number=st.floats(allow_nan=True, allow_infinity=True), count=st.integers())
def test_generated_records(value: Any, text: str, number: float, count: int) -> None:
    check(AnswerRecord(decision=count, seat=text, kind="vote", shape="one", options=[value], allow_pass=True, count=count, answer=value, agent=text))
    check(ErrorRecord(message=text))
    check(TimeLimitRecord(seat=text, seconds=number))
    check(BeliefRecord(day=count, seat=text, decision=1, probabilities={text: number}))
    check(SignatureRecord(lines=count, head=text, fingerprint=text, signature=text))
    check(CallRecord(seat=text, decision=1, kind="vote", backend="b", model=text, parsed=value, answer=value, messages=[{"content": value}], latency_s=number))


def test_dumps_is_json_dumps() -> None:
    for v in values():
        for sort in (False, True):
            assert dumps(v, sort_keys=sort, floats=False) == json.dumps(v, sort_keys=sort, ensure_ascii=False, separators=(",", ":"))
    assert dumps({1: 2, "a": [3]}, floats=False) == '{"1":2,"a":[3]}'


@pytest.mark.parametrize("preset", ["millers_hollow", "langrensha", "village", "best_of", "forum"])
def test_played_games_records(preset: str) -> None:
    """Every record a real game writes: header, events of five presets, answers."""
    for seed in range(4):
        spec = varied_spec(seed, agent="heuristic" if seed % 2 else "random", preset=preset)
        game, agents = spec.build()
        run_sync(game, agents)
        check(header_for(spec, game))
        for e in game.events:
            check(EventRecord(**e.to_json()))
        for did, seat, _, value in game.answer_log[:50]:
            check(AnswerRecord(decision=did, seat=seat, kind="k", shape="s", options=[], allow_pass=False, answer=value, agent="x"))


class OldWriter(TranscriptWriter):
    """The writer as it was before issue 18: every event and answer built as its
    pydantic record, each record dumped twice, both texts by ``json.dumps``."""

    def sync_events(self, game: Any) -> None:
        while self._written < len(game.events):
            self._write(EventRecord(**game.events[self._written].to_json()))
            self._written += 1

    def answer(self, game: Any, decision: Any, agent_spec: str) -> None:
        value = next((v for did, _, _, v in reversed(game.answer_log) if did == decision.id), None)
        self._write(
            AnswerRecord(
                decision=decision.id, seat=decision.seat, kind=decision.kind, shape=decision.shape,
                options=list(decision.options), allow_pass=decision.allow_pass, count=decision.count,
                answer=value, agent=agent_spec,
            )
        )  # fmt: skip
        self.sync_events(game)

    def _write(self, record: Any) -> None:
        data = record.model_dump(mode="json", exclude={"digest"})
        if data.get("signer", True) is None:
            del data["signer"]
        if self._chained:
            form = canonical(record)
            self._digest = data["digest"] = link(self._digest, record, form)
            self._head = head_link(self._head, record, form)
        self._file.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()
        self._lines += 1


def _play(writer_class: type[TranscriptWriter], spec: Any, path: Path, signer: Signer) -> bytes:
    game, agents = spec.build()
    with writer_class(path, header_for(spec, game), signer=signer) as w:
        w.sync_events(game)
        run_sync(game, agents, on_answer=w.on_answer)
        w.result(game)
    return path.read_bytes()


def test_signed_files_are_the_old_writers_bytes_and_verify(tmp_path: Path) -> None:
    """Whole signed files, old writer against new (Ed25519 signs deterministically)."""
    signer = Signer(Ed25519PrivateKey.generate())
    presets = list(PRESETS)
    for seed in range(2 * len(presets)):  # every preset, with random and heuristic seats
        spec = varied_spec(seed, agent="heuristic" if seed % 2 else "random", preset=presets[seed // 2])
        new = _play(TranscriptWriter, spec, tmp_path / f"new{seed}.jsonl", signer)
        assert new == _play(OldWriter, spec, tmp_path / f"old{seed}.jsonl", signer)
        assert verify_file(str(tmp_path / f"new{seed}.jsonl")).status is Status.OK

"""Seat views of a recorded game show exactly what the seat was shown while it played.

Checked on every event of many games: the events a lens lets through for a seat are
the engine's own observation of that seat (``Game.observation``), no more, no less;
the replay narrator ``--as`` a seat is fed nothing else; a seat sees its own answers
and model calls and nobody else's.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from transcript_tools import lines, play_to_file, varied_spec, write_lines

from transcripts import replay as replay_mod
from transcripts.replay import ReplayOptions, replay
from transcripts.schema import EventRecord, read_transcript
from transcripts.views import Lens, check_seat, knowledge_at, reasoning_of, seat_events, timeline, visible

GAMES = 24


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """(engine game, transcript) pairs over varied tables, random and heuristic bots."""
    root = tmp_path_factory.mktemp("views")
    out = []
    for seed in range(GAMES):
        path = root / f"g{seed}.jsonl"
        game = play_to_file(varied_spec(100 + seed, "random" if seed % 2 else "heuristic"), path)
        out.append((game, read_transcript(path)))
    return out


def test_seat_views_are_the_engines_observations(games):
    checked = 0
    for game, t in games:
        for seat in t.header.names:
            mine = [e.model_dump(exclude={"type", "digest"}) for e in seat_events(t.records, seat)]
            assert mine == [e.to_json() for e in game.observation(seat)], seat
            checked += len(mine)
            lens = Lens.of(seat)
            for e in t.events:  # every event, one by one, against the engine's own test
                assert lens.sees_event(e) == game.events[e.seq].visible_to(seat)
    assert checked > 5000


def test_public_and_full_views(games):
    for game, t in games:
        public = [r for r in timeline(t, Lens.public()) if isinstance(r, EventRecord)]
        assert [e.seq for e in public] == [e.seq for e in game.public_events()]
        assert len([r for r in timeline(t, Lens.full()) if isinstance(r, EventRecord)]) == len(game.events)


def test_a_seat_sees_its_own_answers_only(games):
    _, t = games[0]
    for seat in t.header.names:
        acts = [r for r in timeline(t, Lens.of(seat)) if getattr(r, "type", "") == "answer"]
        assert acts and all(a.seat == seat for a in acts)
    assert not [r for r in timeline(t, Lens.public()) if getattr(r, "type", "") == "answer"]


def test_knowledge_at_a_moment(games):
    game, t = games[1]
    seat = t.header.names[0]
    mid = len(game.events) // 2
    assert [e.seq for e in knowledge_at(t, seat, mid)] == [e.seq for e in game.observation(seat) if e.seq <= mid]


def test_the_replay_narrator_is_fed_only_the_seats_events(games, monkeypatch):
    fed: list = []
    original = replay_mod.LensNarrator.event

    def spy(self, e):
        fed.append(e)
        return original(self, e)

    monkeypatch.setattr(replay_mod.LensNarrator, "event", spy)
    for game, t in games[:4]:
        for seat in t.header.names:
            fed.clear()
            replay(t, Console(file=io.StringIO(), width=100), ReplayOptions(lens=Lens.of(seat)))
            assert [e.seq for e in fed] == [e.seq for e in game.observation(seat)]
            assert all(e.visible_to(seat) for e in fed)


def _text(t, lens, **kw) -> str:
    buf = io.StringIO()
    replay(t, Console(file=buf, width=200, color_system=None), ReplayOptions(lens=lens, **kw))
    return buf.getvalue()


def test_replay_text_keeps_the_secrets(games):
    """A plain villager's replay holds no night secret: no pack talk, no vision, no
    potion, no card of a living player."""
    for game, t in games:
        for p in game.players:
            if p.initial_role != "villager":
                continue
            text = _text(t, Lens.of(p.name))
            assert "🐺" not in text and "sees that" not in text and "The Witch" not in text
            assert "Set aside for the Thief" not in text
            assert f"{p.name} is the Villager" in text  # its own card, told privately
            others = [q for q in game.players if q.name != p.name]
            for q in others:
                role_line = f"[private] {q.name} is the "
                assert role_line not in text
            break


def test_seat_view_tells_what_only_that_seat_hears(tmp_path):
    """The Little Girl hears the pack without its names; the Witch is shown the victim."""
    for seed in range(60):
        spec = varied_spec(seed, "random")
        spec = spec.model_copy(update={"options": {**spec.options, "little_girl_catch_chance": 0.0}})
        path = tmp_path / f"g{seed}.jsonl"
        game = play_to_file(spec, path)
        t = read_transcript(path)
        spies = [p.name for p in game.players if p.initial_role == "little_girl"]
        heard = [e for e in t.events if e.kind == "wolf_chat_overheard"]
        if spies and heard:
            text = _text(t, Lens.of(spies[0]))
            # the narrator tells the echo the seat heard: it had no other copy of the pack's talk
            assert f"Spying, the Little Girl {spies[0]} overhears a werewolf whisper" in text
            assert "[private]" in text
            return
    pytest.skip("no game with an eavesdropping Little Girl among the seeds")


def test_day_option_starts_later_with_a_recap(games):
    _, t = games[2]
    last = max(e.day for e in t.events)
    if last < 2:
        pytest.skip("a one-day game")
    text = _text(t, Lens.public(), day=2)
    assert "Starting at day 2" in text and "Night 1" not in text and "Night 2" in text


def test_step_pauses_between_events_and_q_stops(games):
    _, t = games[0]
    answers = iter(["\n", "\n", "q\n"])
    calls = []

    class Tty(io.StringIO):
        def isatty(self):
            return True

        def readline(self):
            calls.append(1)
            return next(answers)

    pause = replay_mod.terminal_pause(Tty(), io.StringIO())
    shown = replay(t, Console(file=io.StringIO()), ReplayOptions(lens=Lens.public(), pause=pause))
    assert len(calls) == 3 and shown == 3
    assert replay_mod.terminal_pause(io.StringIO(), io.StringIO()) is None  # no terminal: no pause


def test_reasoning_is_the_seats_own(tmp_path, games):
    """Model reasoning shows in the full view and to its own seat, to nobody else."""
    _, t = games[0]
    src = tmp_path / "src.jsonl"
    rows = [r.model_dump(mode="json") for r in [t.header, *t.records]]
    i = next(i for i, r in enumerate(rows) if r["type"] == "answer" and r["kind"] == "vote")
    seat = rows[i]["seat"]
    call = {"type": "call", "seat": seat, "decision": rows[i]["decision"], "kind": "vote", "backend": "openai",
            "model": "gpt-x", "parsed": {"reasoning": "SECRET-THOUGHT", "action": rows[i]["answer"]}}  # fmt: skip
    rows.insert(i, call)
    write_lines(src, rows, rechain=True)
    t2 = read_transcript(src)
    assert reasoning_of(t2.calls[0]) == "SECRET-THOUGHT"
    assert "SECRET-THOUGHT" in _text(t2, Lens.full())
    assert "SECRET-THOUGHT" in _text(t2, Lens.of(seat))
    other = next(n for n in t2.header.names if n != seat)
    assert "SECRET-THOUGHT" not in _text(t2, Lens.of(other))
    assert "SECRET-THOUGHT" not in _text(t2, Lens.public())
    assert f"▸ {seat} — Vote (among " in _text(t2, Lens.of(seat))  # its own decisions, with the options


def test_visible_and_check_seat():
    assert visible("public", "A") and not visible("narrator", "A")
    assert visible(["A", "B"], "A") and not visible(["B"], "A") and not visible("A", "A")


def test_unknown_seat_lists_the_names(games):
    _, t = games[0]
    with pytest.raises(ValueError, match="seats: " + t.header.names[0]):
        check_seat(t, "Nobody")


def test_incomplete_transcript_says_so(tmp_path, games):
    _, t = games[0]
    path = tmp_path / "cut.jsonl"
    rows = [r.model_dump(mode="json") for r in [t.header, *t.records]]
    write_lines(path, rows[: len(rows) // 2])
    assert "did not reach its end" in _text(read_transcript(path), Lens.public())
    assert lines(path)

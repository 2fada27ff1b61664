"""A human at the table: input parsing, the seat's screen, the time limit, and whole
games played through a real pseudo-terminal (``pexpect``), as a person plays them."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from rich.console import Console

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from agents.human import HumanAgent, HumanLeft
from agents.human_input import BadInput, input_hint, numbered, parse_answer
from agents.human_io import LINE_CHARS, LINES_AHEAD, EndOfInput, LineReader
from agents.human_view import SeatScreen
from arena.cli import main
from arena.gamefile import GameFileError, spec_from_data
from arena.runner import run_sync
from engine import Game, GameSetup, get_preset
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision

ROOT = Path(__file__).parent.parent
NAMES = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def decision(kind: str = "vote", shape: str = CHOICE, options=("Bob", "Chloe", "David"), allow_pass: bool = False, count: int = 1):
    return Decision(1, "Alice", kind, shape, tuple(options), allow_pass, count, {})


# ---------------------------------------------------------------------- parsing
class TestParse:
    def test_numbers_and_names_choose_options(self):
        d = decision()
        assert parse_answer(d, "2") == "Chloe"
        assert parse_answer(d, "  3 ") == "David"
        assert parse_answer(d, "bob") == "Bob"

    def test_zero_passes_only_where_passing_is_legal(self):
        assert parse_answer(decision(allow_pass=True), "0") is None
        with pytest.raises(BadInput, match="passing is not allowed"):
            parse_answer(decision(kind="seer_check"), "0")

    @pytest.mark.parametrize("line, why", [("4", "not on the list"), ("-1", "not on the list"), ("banana", "not a number"), ("", "type a number")])
    def test_wrong_choices_are_explained(self, line, why):
        with pytest.raises(BadInput, match=why):
            parse_answer(decision(), line)

    def test_the_hint_names_the_pass(self):
        with pytest.raises(BadInput, match="0 = abstain"):
            parse_answer(decision(allow_pass=True), "x")

    def test_multi_takes_spaces_or_commas(self):
        d = decision(kind="cupid_lovers", shape=MULTI, options=NAMES, count=2)
        assert parse_answer(d, "1 3") == ["Alice", "Chloe"]
        assert parse_answer(d, "2,5") == ["Bob", "Emma"]
        assert parse_answer(d, " 6 ,  1 ") == ["Farah", "Alice"]

    @pytest.mark.parametrize(
        "line, why", [("1", "exactly 2"), ("1 2 3", "exactly 2"), ("2 2", "twice"), ("1 x", "not a number"), ("1 9", "not on the list"), ("0", "0 cannot")]
    )
    def test_multi_mistakes_are_explained(self, line, why):
        d = decision(kind="cupid_lovers", shape=MULTI, options=NAMES, count=2)
        with pytest.raises(BadInput, match=why):
            parse_answer(d, line)

    def test_multi_pass(self):
        d = decision(kind="pied_piper_charm", shape=MULTI, options=NAMES, count=2, allow_pass=True)
        assert parse_answer(d, "0") is None

    def test_yes_no(self):
        d = decision(kind="witch_heal", shape=BOOL, options=(True, False))
        assert parse_answer(d, "y") is True
        assert parse_answer(d, "No") is False
        with pytest.raises(BadInput, match="neither yes nor no"):
            parse_answer(d, "maybe")
        with pytest.raises(BadInput, match="type y"):
            parse_answer(d, "")

    def test_yes_no_with_one_legal_answer(self):
        d = decision(kind="witch_heal", shape=BOOL, options=(False,))
        assert parse_answer(d, "") is False
        with pytest.raises(BadInput, match="not possible here"):
            parse_answer(d, "y")

    def test_text_is_free_and_may_be_empty(self):
        d = decision(kind="speak", shape=TEXT, options=())
        assert parse_answer(d, "  I am the Seer.  ") == "I am the Seer."
        assert parse_answer(d, "") == ""

    def test_a_speech_states_claims_after_its_words(self):
        d = decision(kind="speak", shape=TEXT, options=())
        players = NAMES + ["Mary Ann"]
        assert parse_answer(d, "I am the Seer. /role seer /check Bob werewolf /accuse bob, mary ann", players) == {
            "text": "I am the Seer.",
            "claims": {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}], "accuses": ["Bob", "Mary Ann"]},
        }
        both = parse_answer(d, "/check Chloe=Little Girl /check David: wolf", players)
        assert both["text"] == "" and both["claims"]["checks"] == [{"target": "Chloe", "role": "little_girl"}, {"target": "David", "role": "werewolf"}]
        assert parse_answer(d, "and/or: see //etc", players) == "and/or: see /etc"  # no command: plain words, as before

    @pytest.mark.parametrize(
        "line, why",
        [
            ("x /rol seer", "/rol is not a command"),
            ("x /target Bob", "/target is for the pack's night talk"),
            ("x /role banker", "'banker' is not a role"),
            ("x /role seer /role witch", "one /role per speech"),
            ("x /check Bob", "type /check NAME ROLE"),
            ("x /check Zed werewolf", "'Zed' is not a player at this table"),
            ("x /accuse", "type /accuse NAME"),
        ],
    )
    def test_claim_mistakes_are_explained(self, line, why):
        with pytest.raises(BadInput, match=re.escape(why)):
            parse_answer(decision(kind="speak", shape=TEXT, options=()), line, NAMES)

    def test_the_packs_talk_proposes_a_living_victim(self):
        d = decision(kind="wolf_chat", shape=TEXT, options=())
        assert parse_answer(d, "Let's take Bob. /target bob", NAMES, ["Bob", "Chloe"]) == {"text": "Let's take Bob.", "target": "Bob"}
        assert parse_answer(d, "no idea yet", NAMES, ["Bob"]) == "no idea yet"
        with pytest.raises(BadInput, match="'David' is not a victim the pack may take tonight: Bob, Chloe"):
            parse_answer(d, "/target David", NAMES, ["Bob", "Chloe"])
        with pytest.raises(BadInput, match="/role is for a speech"):
            parse_answer(d, "/role seer", NAMES, ["Bob"])

    def test_the_packs_talk_proposes_only_the_engines_legal_victims(self):
        """Alice once proposed herself (``[proposes you]``): a wolf may propose exactly
        the victims his ``wolf_kill`` will offer, as the engine lists them."""
        from helpers import pending, start

        roles = {"Alice": "werewolf", "Bob": "werewolf", "Chloe": "seer", "David": "villager", "Emma": "villager"}
        game, _, d = start(roles, {"Chloe": {"seer_check": ["David"]}}, until=pending("wolf_chat", "Alice"))
        alive = [p.name for p in game.players if p.alive]
        for mine in ("Alice", "bob"):
            with pytest.raises(BadInput, match=f"'{mine}' is not a victim the pack may take tonight: Chloe, David, Emma"):
                parse_answer(d, f"Let's go. /target {mine}", list(roles), alive)
        assert parse_answer(d, "/target chloe", list(roles), alive) == {"text": "", "target": "Chloe"}
        assert "/target Chloe" in input_hint(d, alive)

    def test_the_packs_example_victim_is_never_a_packmate(self):
        d = Decision(id=1, seat="Alice", kind="wolf_chat", shape=TEXT, context={"round": 1, "wolves": ["Alice", "Bob"]})
        hint = input_hint(d, ["Alice", "Bob", "Chloe", "David"])
        assert "/target Chloe" in hint and "Bob" not in hint
        assert "e.g." not in input_hint(d, ["Alice", "Bob"])  # nobody outside the pack: no example

    def test_role_options_read_as_role_names(self):
        d = decision(kind="thief_swap", options=("werewolf", "seer"), allow_pass=True)
        assert [label for _, label in numbered(d)] == ["Werewolf", "Seer"]
        assert parse_answer(d, "seer") == "seer"
        assert parse_answer(d, "1") == "werewolf"


# ---------------------------------------------------------------------- the agent, through a pipe
def piped_agent(**kw) -> tuple[HumanAgent, int, io.StringIO]:
    """A human seat reading a pipe: the test writes what the person types."""
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    agent = HumanAgent("Alice", console=Console(file=out, width=120, color_system=None), reader=LineReader(read_fd), **kw)
    return agent, write_fd, out


def a_game() -> tuple[Game, SeatView]:
    setup = GameSetup(
        names=NAMES,
        seed=3,
        forced={"Alice": "seer"},
        options=get_preset("millers_hollow").options({"sheriff": False}),
        roles=["werewolf", "werewolf", "seer", "witch", "villager", "villager"],
    )
    game = Game(setup)
    return game, SeatView("Alice", game.observation("Alice"))


async def test_wrong_input_is_explained_and_asked_again():
    agent, w, out = piped_agent()
    game, view = a_game()
    d = game.waiting[0]
    assert d.seat == "Alice" and d.kind == "seer_check"
    os.write(w, b"banana\n9\n2\n")
    answer = await agent.adecide(view, d)
    assert answer == d.options[1]
    text = out.getvalue()
    assert "'banana' is not a number on the list" in text and "9 is not on the list" in text
    assert text.count("Your choice ›") == 3
    assert "Your card, Alice" in text and "Seer" in text  # the role card came first


@pytest.mark.parametrize(
    "typed, said",
    [(b"2\ny\n", "2"), (b"2\n2\n", "2"), (b"2\nI suspect Bob.\n", "I suspect Bob."), (b"I suspect Bob.\n", "I suspect Bob.")],
)
async def test_a_speech_that_looks_like_a_menu_number_is_confirmed_first(typed, said):
    """A number typed ahead for a menu once became a public speech: a one-character
    speech (or a bare number) is said only once confirmed, and other words replace it."""
    agent, w, out = piped_agent()
    d = Decision(1, "Alice", "speak", TEXT)
    os.write(w, typed)
    view = SeatView("Alice", a_game()[0].observation("Alice"))
    answer = await agent.adecide(view, d)
    assert (answer["text"] if isinstance(answer, dict) else answer) == said
    asked = 'Say only "2" aloud to everyone?' in out.getvalue()
    assert asked == typed.startswith(b"2")


async def test_the_loop_keeps_running_while_the_person_thinks():
    agent, w, _ = piped_agent()
    game, view = a_game()
    order: list[str] = []

    async def model_seat():
        await asyncio.sleep(0.05)
        order.append("model answered")
        os.write(w, b"1\n")  # the person answers only after the other seat

    answer, _ = await asyncio.gather(agent.adecide(view, game.waiting[0]), model_seat())
    order.append("person answered")
    assert order == ["model answered", "person answered"]
    assert answer == game.waiting[0].options[0]


async def test_time_limit_plays_a_safe_default_and_says_so():
    agent, _, out = piped_agent(timeout=0.05)
    game, view = a_game()
    seer = game.waiting[0]
    expected = HeuristicAgent("Alice", seed=0).decide(view, seer)
    assert await agent.adecide(view, seer) == expected  # no pass here: the bot's legal answer
    assert await agent.adecide(view, decision(allow_pass=True)) is None
    assert await agent.adecide(view, decision(kind="speak", shape=TEXT, options=())) == ""
    assert await agent.adecide(view, decision(kind="witch_heal", shape=BOOL, options=(True, False))) is False
    text = out.getvalue()
    assert f"Time is up: playing {expected} for you" in text
    assert "Time is up: you abstain" in text and "Time is up: you say nothing" in text and "Time is up: you answer no" in text


async def test_end_of_input_stops_the_game():
    agent, w, _ = piped_agent()
    game, view = a_game()
    os.close(w)
    with pytest.raises(HumanLeft, match="left the game"):
        await agent.adecide(view, game.waiting[0])


def test_the_sync_runner_can_seat_a_person_too():
    agent, w, _ = piped_agent()
    os.write(w, b"1\n")
    game, view = a_game()
    assert agent.decide(view, game.waiting[0]) == game.waiting[0].options[0]


def test_an_input_that_never_ends_a_line_keeps_a_bounded_part_of_it():
    """``< /dev/zero``: the reader keeps ``LINE_CHARS`` of a line, not the whole of it
    (issue 45); the words rule then says what is too long."""
    read_fd, w = os.pipe()
    reader = LineReader(read_fd)
    writer = threading.Thread(target=lambda: (os.write(w, b"x" * (LINE_CHARS * 16) + b"\n2\n"), os.close(w)))
    writer.start()
    assert reader.readline_blocking(30) == "x" * LINE_CHARS
    assert reader.readline_blocking(30) == "2"
    writer.join(30)
    assert not writer.is_alive()


def test_the_reader_reads_a_bounded_number_of_lines_ahead_and_loses_none():
    """``yes 1 | werewolf play``: lines not yet asked for wait in the pipe, not in memory."""
    read_fd, w = os.pipe()
    reader = LineReader(read_fd)
    count = LINES_AHEAD * 20
    writer = threading.Thread(target=lambda: (os.write(w, b"".join(b"%d\n" % i for i in range(count))), os.close(w)))
    writer.start()
    reader.start()
    deadline = time.monotonic() + 30
    while len(reader._lines) < LINES_AHEAD and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # time to read on, if it would
    assert LINES_AHEAD <= len(reader._lines) < LINES_AHEAD + 4096  # one read of 4 KiB past the bound, at most
    assert writer.is_alive()  # the writer waits for room, as a pipe's writer does
    assert [reader.readline_blocking(30) for _ in range(count)] == [str(i) for i in range(count)]
    with pytest.raises(EndOfInput):
        reader.readline_blocking(30)
    writer.join(30)


def test_a_non_positive_time_limit_is_refused():
    with pytest.raises(ValueError, match="positive"):
        HumanAgent("Alice", timeout=0)


# ---------------------------------------------------------------------- what the screen shows
def screen_text(events, seat: str) -> str:
    out = io.StringIO()
    screen = SeatScreen(Console(file=out, width=200, color_system=None), seat)
    screen.follow(events)
    return out.getvalue()


@pytest.mark.parametrize("seed", range(6))
def test_the_screen_shows_only_the_seats_events(seed):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    game = Game(GameSetup(names=names, seed=seed, roles=["werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "little_girl", "villager"]))
    run_sync(game, {n: HeuristicAgent(n, seed=seed) for n in names})
    for seat in names:
        # Fed every event of the game, the screen still prints only the seat's own.
        assert screen_text(game.events, seat) == screen_text(game.observation(seat), seat)
    roles = {p.name: p.initial_role for p in game.players}
    villager = next(n for n, r in roles.items() if r == "villager")
    text = screen_text(game.observation(villager), villager)
    for secret in ("(pack talk)", "The pack's picks", "looks at", "healing potion", "your poison", "set-aside cards"):
        assert secret not in text
    assert "The cards are revealed" in text


# ---------------------------------------------------------------------- game files and flags
def test_game_file_seats_a_human_with_its_timeout():
    spec = spec_from_data({"seats": [{"name": n, "agent": "human" if n == "Alice" else "heuristic", **({"timeout": 20} if n == "Alice" else {})} for n in NAMES]})
    _, agents = spec.build()
    assert isinstance(agents["Alice"], HumanAgent) and agents["Alice"].timeout == 20


def test_the_time_limit_is_recorded_and_kept_on_resume(tmp_path):
    """The header records a human seat's time limit, so ``play --resume`` seats the
    person again with it (a game killed before anyone answered)."""
    from arena.gamefile import header_for
    from arena.resume import prepare_resume
    from transcripts import TranscriptWriter, read_transcript

    spec = spec_from_data({"seats": [{"name": "Alice", "agent": "human", "timeout": 0.5}] + [{"name": n} for n in NAMES[1:]]})
    game, _ = spec.build()
    path = tmp_path / "t.jsonl"
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        writer.sync_events(game)
    seats = read_transcript(path).header.seats
    assert seats[0].timeout == 0.5 and all(s.timeout is None for s in seats[1:])
    cont = prepare_resume(str(path))
    cont.writer.close()
    assert isinstance(cont.agents["Alice"], HumanAgent) and cont.agents["Alice"].timeout == 0.5


def test_a_timeout_on_a_bot_seat_is_refused():
    with pytest.raises(GameFileError, match="only 'human' seats take a timeout"):
        spec_from_data({"seats": [{"name": n, "timeout": 5} for n in NAMES]})


@pytest.mark.parametrize(
    "args, message",
    [
        (["--human", "Alice", "--god"], "--god narrates every secret"),
        (["--human", "Alice", "--human", "Bob"], "one terminal can seat one person"),
        (["--human", "Zed"], "no seat named 'Zed'"),
        (["--human-timeout", "5"], "--human-timeout needs a human seat"),
        (["--human", "Alice", "--human-timeout", "0"], "positive number"),
    ],
)
def test_refused_flags(capsys, args, message):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Seed" not in err  # a refused table is refused first: no seed line for a game never played


# ---------------------------------------------------------------------- a real terminal
pexpect = pytest.importorskip("pexpect") if sys.platform != "win32" else None
PROMPT = [r"Your choice\S* › ", r"Your picks\S* › ", r"Yes or no\S* › ", r"You say\S* › "]


def table(tmp_path: Path, role: str, **alice) -> Path:
    data = {
        "preset": "millers_hollow",
        "seed": 3,
        "options": {"sheriff": False},
        "roles": ["werewolf", "werewolf", "seer", "witch", "cupid", "villager"],
        "seats": [{"name": "Alice", "role": role, **alice}] + [{"name": n} for n in NAMES[1:]],
    }
    p = tmp_path / "table.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def spawn(*args: str, cwd: Path | None = None):
    """``werewolf play ARGS`` in a pseudo-terminal, run from ``cwd`` (the repository by default)."""
    env = {**os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    child = pexpect.spawn(
        sys.executable, ["-m", "arena.cli", "play", *args], cwd=str(cwd or ROOT), env=env, encoding="utf-8", timeout=20, dimensions=(60, 200)
    )
    child.logfile_read = io.StringIO()
    return child


def seen(child) -> str:
    return ANSI.sub("", child.logfile_read.getvalue())


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("role", ["seer", "witch", "cupid"])
def test_a_person_plays_a_whole_game(tmp_path, role):
    child = spawn(str(table(tmp_path, role)), "--human", "Alice", "--transcript", str(tmp_path / "t.jsonl"))
    child.expect("Your card, Alice")
    garbage_sent = False
    while True:
        i = child.expect([*PROMPT, pexpect.EOF])
        if i == 4:
            break
        if i == 0 and not garbage_sent:
            child.sendline("banana")
            child.expect("is not a number on the list")
            child.expect(PROMPT[0])  # asked again
            garbage_sent = True
        child.sendline({0: "1", 1: "1 2", 2: "n", 3: "I have nothing to hide."}[i])
    child.close()
    text = seen(child)
    assert child.exitstatus == 0, text[-2000:]
    assert garbage_sent or role == "cupid"
    assert "The cards are revealed" in text and ("Winners:" in text or "Nobody wins" in text)  # a game may end with nobody alive
    assert "(pack talk)" not in text  # Alice is never a wolf here: the pack's talk is not hers to read
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert lines[-1]["type"] == "result"
    assert any(r["type"] == "answer" and r["seat"] == "Alice" and r["agent"] == "human" for r in lines)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_time_limit_plays_on_for_a_silent_person(tmp_path):
    child = spawn(str(table(tmp_path, "seer", agent="human", timeout=0.2)), cwd=tmp_path)  # the game file seats the person
    child.expect(pexpect.EOF)
    child.close()
    text = seen(child)
    assert child.exitstatus == 0, text[-2000:]
    assert "You have 0.2 s to answer" in text
    assert "Time is up: playing" in text and "Time is up: you say nothing" in text
    assert "The cards are revealed" in text
    saved = list((tmp_path / "out" / "play").glob("*.jsonl"))  # no --transcript: recorded all the same
    assert len(saved) == 1 and f"This game is recorded in {Path('out') / 'play' / saved[0].name}" in text
    from transcripts.verify import verify_file

    assert verify_file(saved[0]).ok


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("how", ["eof", "ctrl-c"])
def test_leaving_stops_cleanly_and_keeps_the_transcript(tmp_path, how):
    path = tmp_path / "t.jsonl"
    child = spawn(str(table(tmp_path, "seer")), "--human", "Alice", "--transcript", str(path), "--human-timeout", "30")
    child.expect(PROMPT[0])
    child.sendline("2")
    child.expect(PROMPT[3])
    if how == "eof":
        child.sendeof()
    else:
        child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = seen(child)
    assert "Traceback" not in text
    if how == "eof":  # leaving is not a failure: its own status, and where the game is kept
        assert child.exitstatus == 3 and "Alice left the game (end of input, Ctrl-D)" in text
        assert "error:" not in text
        assert f"saved in {path}: werewolf play --resume {path} goes on" in re.sub(r"\s*\n\s*", " ", text)
    else:
        assert child.exitstatus == 130 and "error: interrupted" in text
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["type"] == "header" and records[-1]["type"] == "error"
    assert any(r["type"] == "answer" and r["kind"] == "seer_check" and r["seat"] == "Alice" for r in records)
    from transcripts import read_transcript

    read_transcript(path)  # still a valid (partial) transcript


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_resumed_game_keeps_the_persons_time_limit(tmp_path):
    """Killed half-way, a game with a silent person resumes with the same time limit:
    every question the person leaves unanswered still plays its safe default."""
    path = tmp_path / "t.jsonl"
    child = spawn(str(table(tmp_path, "seer")), "--human", "Alice", "--human-timeout", "0.2", "--transcript", str(path))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, seen(child)[-2000:]
    rows = path.read_text().splitlines(keepends=True)
    alice = [i for i, line in enumerate(rows) if json.loads(line).get("seat") == "Alice" and '"type":"answer"' in line]
    assert len(alice) >= 2
    path.write_text("".join(rows[: alice[0] + 1]))  # killed after the person's first answer
    child = spawn("--resume", str(path))
    child.expect(pexpect.EOF)
    child.close()
    text = seen(child)
    assert child.exitstatus == 0, text[-2000:]
    assert "You have 0.2 s to answer" in text and "Time is up" in text
    from transcripts.verify import verify_file

    assert verify_file(path).ok


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_d_without_a_transcript_saves_the_game_and_resume_goes_on_with_a_new_time_limit(tmp_path):
    """Ctrl-D at a prompt loses nothing: the game (recorded in out/play/ when no
    --transcript was given) is saved, the exit status is 3, and ``play --resume
    --human-timeout S`` goes on from there under the new limit, recorded as such."""
    from transcripts import read_transcript
    from transcripts.verify import Status, verify_file

    child = spawn(str(table(tmp_path, "seer")), "--human", "Alice", cwd=tmp_path)
    child.expect(PROMPT[0])
    child.sendline("2")
    child.expect(PROMPT[3])
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    text = re.sub(r"\s*\n\s*", " ", seen(child))
    assert child.exitstatus == 3 and "Traceback" not in text, text[-2000:]
    saved = list((tmp_path / "out" / "play").glob("*.jsonl"))
    assert len(saved) == 1
    rel = Path("out") / "play" / saved[0].name
    assert f"Alice left the game (end of input, Ctrl-D); everything played so far is saved in {rel}" in text
    assert verify_file(saved[0]).status is Status.INCOMPLETE
    t = read_transcript(saved[0])
    assert t.error.message.startswith("Alice left the game") and t.time_limits()["Alice"] is None
    assert any(a.seat == "Alice" and a.kind == "seer_check" for a in t.answers)

    child = spawn("--resume", str(rel), "--human-timeout", "0.2", cwd=tmp_path)  # the person stays silent now
    child.expect(pexpect.EOF)
    child.close()
    text = seen(child)
    assert child.exitstatus == 0, text[-2000:]
    assert "Alice's time limit is 0.2 s" in text and "You have 0.2 s to answer" in text and "Time is up" in text
    assert verify_file(saved[0]).ok
    t = read_transcript(saved[0])
    limits = [r for r in t.records if r.type == "time_limit"]
    assert [(r.seat, r.seconds) for r in limits] == [("Alice", 0.2)] and t.time_limits()["Alice"] == 0.2


def test_a_new_time_limit_on_resume_is_recorded_and_kept(tmp_path, capsys):
    """``play --resume --human-timeout S`` overrides the recorded limit: written as a
    ``time_limit`` record that verifies, kept by a later resume (into the same file or
    a new one); refused with the reason where it cannot apply."""
    from arena.gamefile import header_for
    from arena.catchup import set_time_limit
    from arena.resume import prepare_resume
    from transcripts import TranscriptWriter, read_transcript
    from transcripts.verify import Status, verify_file

    spec = spec_from_data({"seats": [{"name": "Alice", "agent": "human", "timeout": 0.5}] + [{"name": n} for n in NAMES[1:]]})
    game, _ = spec.build()
    path = tmp_path / "t.jsonl"
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        writer.sync_events(game)
    cont = prepare_resume(str(path))
    assert set_time_limit(cont, 2.0) == "Alice's time limit is 2 s (was 0.5 s)"
    cont.writer.close()
    t = read_transcript(path)
    assert t.header.seats[0].timeout == 0.5 and t.time_limits()["Alice"] == 2.0
    assert verify_file(path).status is Status.INCOMPLETE
    for out in (None, str(tmp_path / "new.jsonl")):
        cont = prepare_resume(str(path), out)
        cont.writer.close()
        assert cont.agents["Alice"].timeout == 2.0
    assert read_transcript(tmp_path / "new.jsonl").time_limits()["Alice"] == 2.0 and verify_file(tmp_path / "new.jsonl").status is Status.INCOMPLETE
    forged = tmp_path / "forged.jsonl"
    forged.write_text(path.read_text())
    with TranscriptWriter.appending(forged, events_written=0, last_digest=read_transcript(forged).records[-1].digest) as writer:
        writer.time_limit("Bob", 3.0)  # Bob is a bot
    assert verify_file(forged).status is Status.MISMATCH

    assert main(["play", "--resume", str(path), "--human-timeout", "0"]) == 2
    assert "positive number of seconds" in capsys.readouterr().err
    bots = tmp_path / "bots.jsonl"
    spec = spec_from_data({"seats": [{"name": n} for n in NAMES]})
    game, _ = spec.build()
    with TranscriptWriter(bots, header_for(spec, game)) as writer:
        writer.sync_events(game)
    before = bots.read_text()
    assert main(["play", "--resume", str(bots), "--human-timeout", "5"]) == 2
    assert "--human-timeout needs a human seat" in capsys.readouterr().err and bots.read_text() == before


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_person_states_claims_and_proposes_the_packs_victim(tmp_path):
    """From the terminal, as a model seat does with {"text", "claims"} and {"text",
    "target"}: a mistyped command is explained and asked again; the engine takes the
    claims and the proposed victim, and the transcript keeps them."""
    path = tmp_path / "t.jsonl"
    child = spawn(str(table(tmp_path, "werewolf")), "--human", "Alice", "--transcript", str(path))
    child.expect("Your card, Alice")
    chat = speech = False
    while True:
        i = child.expect([*PROMPT, pexpect.EOF])
        if i == 4:
            break
        if i == 3 and "wolf chat" in child.before and not chat:
            assert "/target NAME to propose the victim" in re.sub(r"\s*\n\s*", " ", ANSI.sub("", child.before))
            child.sendline("Let's take Bob. /role seer")  # a speech's command, in the pack's talk
            child.expect("/role is for a speech")
            child.expect(PROMPT[3])
            child.sendline("Let's take Bob. /target Bob")
            chat = True
            continue
        if i == 3 and "speak" in child.before and not speech:
            child.sendline("I checked Bob last night. /role seer /check Bob werewolf /accuse Bob")
            speech = True
            continue
        child.sendline({0: "1", 1: "1 2", 2: "n", 3: ""}[i])
    child.close()
    assert child.exitstatus == 0, seen(child)[-2000:]
    assert chat and speech
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    mine = {r["kind"]: r["answer"] for r in rows if r["type"] == "answer" and r["seat"] == "Alice" and isinstance(r["answer"], dict)}
    assert mine["wolf_chat"] == {"text": "Let's take Bob.", "target": "Bob"}
    assert mine["speak"] == {
        "text": "I checked Bob last night.",
        "claims": {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}], "accuses": ["Bob"]},
    }
    chats = [r for r in rows if r["type"] == "event" and r["kind"] == "wolf_chat" and r["data"]["speaker"] == "Alice"]
    assert chats[0]["data"]["target"] == "Bob"
    from transcripts.verify import verify_file

    assert verify_file(path).ok

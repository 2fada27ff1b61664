"""Telling a recorded game again, through a chosen pair of eyes.

The narration is the live game's (``arena.narrate``): the same words whether a game
is played or re-read, in the game's language (or ``--language``). What changes is the lens (``transcripts.views``): the records
are filtered by their recorded audience before the narrator sees them, so a replay
``--as`` a seat is built from that seat's observation alone and cannot leak what it
was never shown. A seat also sees its own decisions and, for a model seat, its own
reasoning: that is the view for studying why a model played as it did. The full
(god) view adds every secret and every model's reasoning.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape

from arena.narrate import Narrator
from engine.flow.main import Role
from transcripts.describe import Words
from transcripts.schema import AnswerRecord, EventRecord, Transcript
from transcripts.views import Lens, reasoning_of, timeline, visible

Pause = Callable[[], bool]  # returns False to stop the replay


class LensNarrator(Narrator):
    """The live narrator, fed only what the lens lets through. Through one seat's eyes
    a secret is that seat's own (marked private); what the narrator would skip as a
    repeat (the Little Girl's echo of the pack's talk) is told when the seat had no
    other copy of it, since the narrator only skips what it already told."""

    def __init__(self, console: Console, lens: Lens, language: str = "en"):
        # Everything fed is visible through the lens, so private events are told too.
        super().__init__(console, god=lens.god or lens.seat is not None, language=language)
        self.lens = lens

    def say(self, text: str, *, secret: bool = False) -> None:
        if secret and self.lens.seat is not None:
            self.console.print(f"[dim]{self.term('marks.private')}[/dim] [italic]{text}[/italic]")
        else:
            super().say(text, secret=secret)


class _Counter(io.TextIOBase):
    """A console target that tells whether anything was printed (to pause only then)."""

    def __init__(self, target: Any):
        self.target = target
        self.written = 0

    def write(self, s: str) -> int:
        self.written += len(s)
        return self.target.write(s)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.target, "isatty", lambda: False)())


@dataclass
class ReplayOptions:
    lens: Lens
    day: int | None = None  # start at the first event of this day (night N opens day N)
    pause: Pause | None = None  # called between shown events (``--step``)
    language: str | None = None  # the narrator's; None: the game's (the transcript's header)


def last_day(transcript: Transcript) -> int:
    return max((e.day for e in transcript.events), default=0)


def replay(transcript: Transcript, console: Console, options: ReplayOptions) -> int:
    """Narrate ``transcript`` on ``console``; return how many records were shown."""
    lens = options.lens
    language = options.language or transcript.header.language
    words = Words(language, style="rich")
    counter = _Counter(console.file)
    console.file = counter  # type: ignore[assignment]  # a TextIOBase, not typing.IO: rich only writes, flushes and asks isatty
    quiet = Console(file=io.StringIO(), width=console.width)
    narrator = LensNarrator(quiet if options.day else console, lens, language)
    started = not options.day
    shown = 0
    for record in timeline(transcript, lens):
        if not started and isinstance(record, EventRecord) and record.day >= (options.day or 0):
            started = True
            narrator.console = console
            recap(console, narrator, transcript, lens, options.day or 0, words)
        before = counter.written
        out = console if started else quiet
        if isinstance(record, EventRecord):
            narrator.event(record.to_event())
        elif isinstance(record, AnswerRecord):
            if started and lens.seat is not None:
                tell_answer(out, record, words)
        elif getattr(record, "type", None) == "call":
            if started:
                tell_call(out, record, words)
        elif getattr(record, "type", None) == "belief":
            if started:
                tell_belief(out, record, words)
        elif getattr(record, "type", None) == "error" and started:
            out.print(f"[red]{words.say('replay.stopped', message=record.message)}[/red]")
        if started and counter.written > before:
            shown += 1
            if options.pause is not None and not options.pause():
                break
    if not transcript.complete:
        console.print(f"[yellow]{words.say('replay.unfinished')}[/yellow]")
    return shown


def recap(console: Console, narrator: Narrator, transcript: Transcript, lens: Lens, day: int, words: Words) -> None:
    """Where things stand at the day the replay jumps to, as far as the lens knows."""
    names = transcript.header.names
    alive = [n for n in names if n not in narrator.dead]
    console.print(f"[dim]{words.say('replay.start', n=day)}[/dim]")
    console.print(f"[dim]{words.say('replay.alive', count=len(alive), names=words.names(alive))}[/dim]")
    if narrator.dead:
        dead = [words.say("replay.dead_item", name=words.text(n), n=d.day, cause=words.cause(d.cause)) for n, d in narrator.dead.items()]
        console.print(f"[dim]{words.say('replay.dead', list=words.table(dead))}[/dim]")
    if narrator.sheriff:
        console.print(f"[dim]{words.say('replay.sheriff', name=words.text(narrator.sheriff))}[/dim]")
    if lens.seat is not None:
        role = None
        for e in transcript.events:
            if e.day >= day:
                break
            d = e.payload
            if isinstance(d, Role) and d.player == lens.seat and visible(e.audience, lens.seat):
                role = d.role
        if role:
            console.print(f"[dim]{words.say('replay.role', name=words.text(lens.seat), role=words.role(role))}[/dim]")


def tell_answer(console: Console, a: AnswerRecord, words: Words) -> None:
    """A seat's own decision: what it was offered and what it chose."""
    if a.shape == "text":
        return  # the speech itself is told as it is heard
    answer = words.bold(words.answer(a.answer))
    line = words.say("replay.answer", seat=words.text(a.seat), kind=words.text(a.kind), offered=words.offered(a), answer=answer)
    console.print(f"[dim]{line}[/dim]")


def tell_call(console: Console, c: Any, words: Words) -> None:
    """A model's call: its private reasoning, and whether its reply was refused (or
    taken once its words were repaired)."""
    thought = reasoning_of(c)
    who = words.caller(c)
    if thought:
        console.print(f"[magenta]{words.say('replay.thought', who=who, kind=words.text(c.kind))}[/magenta] [italic]{escape(thought)}[/italic]")
    if getattr(c, "violation", None):
        key = "replay.repaired" if getattr(c, "accepted", False) else "replay.refused"
        console.print(f"[yellow]{words.say(key, who=who, why=words.text(c.violation))}[/yellow]")
    if getattr(c, "error", None):
        console.print(f"[yellow]{words.say('replay.failed', who=who, why=words.text(c.error))}[/yellow]")
    if getattr(c, "fallback", False):
        console.print(f"[yellow]{words.say('replay.fallback', seat=words.text(c.seat))}[/yellow]")


def tell_belief(console: Console, b: Any, words: Words) -> None:
    """A seat's private beliefs (shown only to that seat's view and the full view)."""
    if b.probabilities is None:
        why = words.text(b.error) if b.error else words.say("replay.missing")
        console.print(f"[yellow]{words.say('replay.no_beliefs', seat=words.text(b.seat), n=b.day, why=why)}[/yellow]")
        return
    rated = ", ".join(f"{escape(n)} {p:.0%}" for n, p in sorted(b.probabilities.items(), key=lambda kv: -kv[1]))
    console.print(f"[magenta]{words.say('replay.beliefs', seat=words.text(b.seat))}[/magenta] {rated or words.say('replay.nobody_to_rate')}")


def terminal_pause(stdin: Any, prompt_to: Any) -> Pause | None:
    """``--step``: wait for Enter between events; ``q`` stops. Without a terminal to
    read from there is nobody to press Enter, so the replay just runs through."""
    if not getattr(stdin, "isatty", lambda: False)():
        return None

    def pause() -> bool:
        prompt_to.write("  [Enter: next, q: quit] ")
        prompt_to.flush()
        line = stdin.readline()
        return bool(line) and line.strip().lower() not in ("q", "quit")

    return pause

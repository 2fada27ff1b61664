"""Telling a recorded game again, through a chosen pair of eyes.

The narration is the live game's (``arena.narrate``): the same words whether a game
is played or re-read. What changes is the lens (``transcripts.views``): the records
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

from arena.narrate import Narrator, role_name
from transcripts.describe import STOPPED, UNFINISHED, answer_text, caller, describe_event, offered_text
from transcripts.schema import AnswerRecord, EventRecord, Transcript
from transcripts.views import Lens, reasoning_of, timeline, visible

# Events the live narrator skips because another copy already told them; through one
# seat's eyes that copy may be the only one (the Little Girl hears the pack but never
# sees its own lines, the Witch is shown the victim without the pack's choice). They
# are told to the seat in the words of its own history (``prompts.history``).
_SEAT_ONLY = {"lovers", "wolf_chat_overheard", "wolf_votes_overheard", "wolf_victim_overheard", "witch_victim", "thief_cards"}

Pause = Callable[[], bool]  # returns False to stop the replay


class LensNarrator(Narrator):
    """The live narrator, fed only what the lens lets through."""

    def __init__(self, console: Console, lens: Lens):
        # Everything fed is visible through the lens, so private events are told too.
        super().__init__(console, god=lens.god or lens.seat is not None)
        self.lens = lens

    def event(self, e: Any) -> None:
        if self.lens.seat is not None and e.kind in _SEAT_ONLY:
            self.say(escape(describe_event(e, seat=self.lens.seat)), secret=True)
            return
        super().event(e)

    def say(self, text: str, *, secret: bool = False) -> None:
        if secret and self.lens.seat is not None:
            self.console.print(f"[dim]\\[private][/dim] [italic]{text}[/italic]")
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


def last_day(transcript: Transcript) -> int:
    return max((e.day for e in transcript.events), default=0)


def replay(transcript: Transcript, console: Console, options: ReplayOptions) -> int:
    """Narrate ``transcript`` on ``console``; return how many records were shown."""
    lens = options.lens
    counter = _Counter(console.file)
    console.file = counter  # type: ignore[assignment]  # a TextIOBase, not typing.IO: rich only writes, flushes and asks isatty
    quiet = Console(file=io.StringIO(), width=console.width)
    narrator = LensNarrator(quiet if options.day else console, lens)
    started = not options.day
    shown = 0
    for record in timeline(transcript, lens):
        if not started and isinstance(record, EventRecord) and record.day >= (options.day or 0):
            started = True
            narrator.console = console
            recap(console, narrator, transcript, lens, options.day or 0)
        before = counter.written
        out = console if started else quiet
        if isinstance(record, EventRecord):
            narrator.event(record.to_event())
        elif isinstance(record, AnswerRecord):
            if started and lens.seat is not None:
                tell_answer(out, record)
        elif getattr(record, "type", None) == "call":
            if started:
                tell_call(out, record)
        elif getattr(record, "type", None) == "belief":
            if started:
                tell_belief(out, record)
        elif getattr(record, "type", None) == "error" and started:
            out.print(f"[red]{escape(STOPPED.format(message=record.message))}[/red]")
        if started and counter.written > before:
            shown += 1
            if options.pause is not None and not options.pause():
                break
    if not transcript.complete:
        console.print(f"[yellow]{UNFINISHED}[/yellow]")
    return shown


def recap(console: Console, narrator: Narrator, transcript: Transcript, lens: Lens, day: int) -> None:
    """Where things stand at the day the replay jumps to, as far as the lens knows."""
    names = transcript.header.names
    alive = [n for n in names if n not in narrator.dead]
    console.print(f"[dim]Starting at day {day} (night {day} opens it).[/dim]")
    console.print(f"[dim]{len(alive)} alive: {escape(', '.join(alive))}[/dim]")
    if narrator.dead:
        dead = "; ".join(f"{n} (day {d['day']}, {d.get('cause')})" for n, d in narrator.dead.items())
        console.print(f"[dim]Dead: {escape(dead)}[/dim]")
    if narrator.sheriff:
        console.print(f"[dim]Sheriff: {escape(str(narrator.sheriff))}[/dim]")
    if lens.seat is not None:
        role = None
        for e in transcript.events:
            if e.day >= day:
                break
            if e.kind == "role" and e.data.get("player") == lens.seat and visible(e.audience, lens.seat):
                role = e.data.get("role")
        if role:
            console.print(f"[dim]{escape(lens.seat)} is the {escape(role_name(role))}.[/dim]")


def tell_answer(console: Console, a: AnswerRecord) -> None:
    """A seat's own decision: what it was offered and what it chose."""
    if a.shape == "text":
        return  # the speech itself is told as it is heard
    console.print(
        f"[dim]▸ {escape(a.seat)} decides {escape(a.kind)} (among {escape(offered_text(a))}): "
        f"[/dim][bold]{escape(answer_text(a.answer))}[/bold]"
    )


def tell_call(console: Console, c: Any) -> None:
    """A model's call: its private reasoning, and whether its reply was refused."""
    thought = reasoning_of(c)
    who = escape(caller(c))
    if thought:
        console.print(f"[magenta]💭 {who} on {escape(c.kind)}:[/magenta] [italic]{escape(thought)}[/italic]")
    if getattr(c, "violation", None):
        console.print(f"[yellow]⚠ {who}'s reply was refused: {escape(str(c.violation))}[/yellow]")
    if getattr(c, "error", None):
        console.print(f"[yellow]⚠ {who}'s call failed: {escape(str(c.error))}[/yellow]")
    if getattr(c, "fallback", False):
        console.print(f"[yellow]⚠ the fallback bot answered for {escape(c.seat)}[/yellow]")


def tell_belief(console: Console, b: Any) -> None:
    """A seat's private beliefs (shown only to that seat's view and the full view)."""
    if b.probabilities is None:
        console.print(f"[yellow]⚠ {escape(b.seat)} gave no beliefs on day {b.day}: {escape(str(b.error or 'missing'))}[/yellow]")
        return
    rated = ", ".join(f"{escape(n)} {p:.0%}" for n, p in sorted(b.probabilities.items(), key=lambda kv: -kv[1]))
    console.print(f"[magenta]🔮 {escape(b.seat)}'s private beliefs (chance of being a werewolf):[/magenta] {rated or '(nobody to rate)'}")


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

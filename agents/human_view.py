"""What a person at the table sees: their seat's events, and the questions put to them.

Why it is built from the seat's events only (``SeatView.events`` /
``Game.observation``): the engine decided at emission who may see each event, so a
screen that prints nothing else cannot show a secret by mistake. The sentences are
the ones model seats read (the one text pipeline, ``prompts.events_text``, told to
the seat in rich markup), which keeps the person and the models on equal terms; this
module only adds the terminal's layout: night and day rules, the role card, secrets
marked as such, the numbered menu, the final reveal (the narrator's).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule

from agents.human_input import input_hint, numbered, pass_word
from arena.narrate import Died, Narrator
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision
from engine.events import Event
from engine.flow.day import Dawn
from engine.flow.deaths import DeathEvent
from engine.flow.main import Role
from engine.flow.night import NightStart
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.flow.victory import GameEnd
from engine.speech import Speech
from engine.roles import ROLES, WEREWOLVES
from prompts.catalog import catalog
from prompts.decisions_text import situation
from prompts.events_text import RICH, Reader, tell



class SeatScreen:
    """Prints one seat's events as they arrive, and the questions it is asked."""

    def __init__(self, console: Console, seat: str, language: str = "en"):
        self.console = console
        self.seat = seat
        self.language = language
        self._shown = 0  # how many of the seat's events are on screen already
        self._dead: dict[str, Died] = {}
        self._sheriff: str | None = None
        self.open: Decision | None = None  # the question waiting at the prompt, if any

    # ------------------------------------------------------------------ events
    def follow(self, events: list[Event]) -> None:
        """Show the seat's events that are not on screen yet (``events`` only grows)."""
        while self._shown < len(events):
            e = events[self._shown]
            self._shown += 1
            if e.visible_to(self.seat):  # the caller's list is the seat's already; this is a second lock
                self.show(e)

    def show(self, e: Event) -> None:
        d = e.data
        if isinstance(d, DeathEvent):
            self._dead[d.player] = Died(e.day, d.cause)
        elif isinstance(d, (SheriffElected, SheriffSuccessor)):
            self._sheriff = d.player
        if isinstance(d, (NightStart, Dawn)):
            night = isinstance(d, NightStart)
            style = "bold blue" if night else "bold yellow"
            heading = self.term("headings.night" if night else "headings.day", n=d.night if isinstance(d, NightStart) else d.day)
            self.console.print()
            self.console.print(Rule(f"[{style}]{heading}[/{style}]"))
            return
        if isinstance(d, GameEnd):
            self._reveal(d)
            return
        if isinstance(d, Role) and d.player == self.seat:
            self._role_card(e, d)
            return
        text = self._sentence(e)
        if not text:
            return
        if isinstance(d, Speech):
            self.console.print(f"[cyan]💬[/cyan] {text}")
        elif isinstance(d, DeathEvent):
            self.console.print(f"[red]✝[/red] {text}")
        elif e.is_public:
            self.console.print(text)
        else:
            others = sorted(a for a in e.audience if a != self.seat) if isinstance(e.audience, frozenset) else []
            words = self._words()
            mark = self.term("seat_screen.secret_with", others=words.join(words.text(o) for o in others)) if others else self.term("seat_screen.secret")
            self.console.print(f"[magenta]{mark}[/magenta] [italic]{text}[/italic]")

    def _words(self) -> Reader:
        return Reader(catalog(self.language), self.seat, RICH, narrator=True)

    def term(self, path: str, **values: Any) -> str:
        """The screen's own words (``narration.yaml``), in rich markup."""
        return self._words().term(f"narration.{path}", **values)

    def _sentence(self, e: Event) -> str:
        return tell(catalog(self.language), e, seat=self.seat, style=RICH)

    def _role_card(self, e: Event, d: Role) -> None:
        cat = catalog(self.language)
        role = d.role  # a role id, as the engine dealt it
        name = cat.role_name(role)
        lines = [f"[bold]{escape(name)}[/bold]: {escape(cat.role_summary(role))}"]
        win = _win_line(cat, role)
        if win:
            lines.append(escape(win))
        title = self.term("seat_screen.card" if e.phase == "setup" else "seat_screen.card_changed", seat=self.seat)
        self.console.print(Panel("\n".join(lines), title=title, border_style="magenta", expand=False))

    def _reveal(self, end: GameEnd) -> None:
        narrator = Narrator(self.console, language=self.language)
        narrator.dead = dict(self._dead)
        narrator.sheriff = self._sheriff
        narrator.final_reveal(end)

    # ------------------------------------------------------------------ questions
    def question(self, decision: Decision, timeout: float | None, default_text: str | None, alive: list[str] | None = None) -> None:
        """The question and its numbered legal answers, just before the prompt."""
        self.console.print()
        self.console.print(Rule(f"[bold]{escape(self.seat)}, your turn: {escape(decision.kind.replace('_', ' '))}[/bold]", style="green"))
        for line in situation(decision, self.language):
            self.console.print(escape(line))
        if decision.shape in (CHOICE, MULTI):
            for number, label in numbered(decision, self.language):
                self.console.print(f"  [bold]{number:>2}[/bold]  {escape(label)}")
            if decision.allow_pass:
                self.console.print(f"  [bold] 0[/bold]  [dim]{escape(pass_word(decision))}[/dim]")
        if timeout is not None:
            then = f"; then: {default_text}" if default_text else ""
            self.console.print(f"[dim]You have {timeout:g} s to answer{escape(then)}.[/dim]")
        self.console.print(f"[dim]({escape(input_hint(decision, alive))})[/dim]")

    def prompt(self, decision: Decision) -> None:
        label = {TEXT: "You say", BOOL: "Yes or no", MULTI: "Your picks"}.get(decision.shape, "Your choice")
        self.console.print(f"[bold green]{label}[/bold green] › ", end="")
        self.console.file.flush()
        self.open = decision

    def closed(self) -> None:
        """The prompt got its line (or gave up waiting for one)."""
        self.open = None

    def news(self, markup: str) -> None:
        """A line from outside the game (rich markup: a model seat that stopped
        answering, ``arena.model_trouble``), printed between the game's lines; a
        question open at the prompt is asked again below it."""
        asking = self.open
        if asking is not None:
            self.console.print()
        self.console.print(markup)
        if asking is not None:
            self.prompt(asking)

    def problem(self, message: str) -> None:
        self.console.print(f"[yellow]⚠ {escape(message)}[/yellow]")

    def note(self, message: str) -> None:
        self.console.print(f"[dim]{escape(message)}[/dim]")


def _win_line(cat: Any, role: str | None) -> str:
    spec = ROLES.get(role) if role else None
    if spec is None:
        return ""
    try:
        if spec.camp == WEREWOLVES:  # the exact goal depends on a rule option; the rules say it
            return "You play for the werewolves: the village must not find you out."
        if cat.has(f"roles.win.{spec.camp}"):
            return cat.text(f"roles.win.{spec.camp}")
    except Exception:
        return ""
    return ""

"""Narration: the game told as a narrator would tell it at the table, on a terminal.

The narrator reads events only, never the live ``Game``, so the same code narrates a
game being played and a recorded one (``replay``). By default it shows what the whole
table sees (public events); ``god`` adds the night's secrets. It speaks the game's
language: every sentence is the one text pipeline's (``prompts.events_text``), told
from the omniscient narrator's viewpoint in rich markup, and every word of the layout
(headings, the vote table, the final reveal) is in ``prompts/<lang>/narration.yaml``.
This module only lays them out: rules between night and day, tables, the secret mark,
and it remembers what it told, so that the copies of one secret sent to several seats
(each wolf's ``wolf_pack``) or its echoes (what the Little Girl overhears of the
pack's talk) are told once. Event kinds it does not know (a role added later) are
still shown, plainly, rather than dropped.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, NamedTuple

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from arena.model_trouble import Notice, notice_line
from engine.events import Event
from engine.flow.day import Dawn, DayStart
from engine.flow.deaths import DeathEvent
from engine.flow.main import GameStart
from engine.flow.night import NightStart
from engine.flow.protocols import Bids, DiscussionRound
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.flow.victory import GameEnd
from engine.flow.voting import SheriffVotes, VoteResult
from engine.roles import ROLES
from engine.roles.cupid import CupidLovers, CupidParamours, Lovers, Paramours
from engine.roles.infect_father import InfectFatherInfected, Infected
from engine.roles.insomniac import InsomniacSaw, InsomniacSeen
from engine.roles.pied_piper import Charmed, PiedPiperCharm
from engine.roles.priest import Revived
from engine.roles.werewolf import WolfChat, WolfChatOverheard, WolfVictim, WolfVictimOverheard, WolfVotes, WolfVotesOverheard
from engine.speech import Speech
from prompts.catalog import LANGUAGES, Catalog, catalog
from prompts.events_text import RICH, Reader, recipients, tell


def role_name(role: str | None) -> str:
    """A role's English name (the CLI's tables); the narrator names roles in its language."""
    if role is None:
        return "?"
    spec = ROLES.get(role)
    return spec.name if spec else role


def deck_words(roles: Iterable[str], name: Callable[[str], str] = role_name) -> str:
    """``Werewolf ×2, Seer, Villager ×5``: a deck as people count cards, in the order
    the cards first appear."""
    counts: dict[str, int] = {}
    for r in roles:
        counts[r] = counts.get(r, 0) + 1
    return ", ".join(f"{name(r)} ×{c}" if c > 1 else name(r) for r, c in counts.items())


def catalog_for(language: str | None) -> Catalog:
    """The catalog of a game's language; a language the prompts lack reads in English."""
    return catalog(language if language in LANGUAGES else "en")


# What an event tells that another event may tell again: the copies of one secret
# sent to each of its seats, and the echoes of the pack's night heard by a spy. An
# event is told unless everything it tells was told already, so through one seat's
# eyes (a replay ``--as``) the only copy it had is still told.
def _facts(e: Event) -> list[tuple]:
    d, k = e.data, e.kind
    if isinstance(d, CupidLovers):
        return [("lovers", frozenset(d.lovers or ()))]
    if isinstance(d, Lovers):
        return [("lovers", frozenset((d.lover, d.beloved)))]
    if isinstance(d, (WolfChat, WolfChatOverheard)):
        return [("pack_talk", e.day, str(d.text or "").strip())]
    if isinstance(d, (WolfVotes, WolfVotesOverheard)):
        return [("pack_votes", e.day, d.attempt)]
    if isinstance(d, (WolfVictim, WolfVictimOverheard)):
        return [("pack_victim", e.day, d.target)]
    if isinstance(d, InfectFatherInfected):
        return [("infected", d.target)]
    if isinstance(d, Infected):
        return [("infected", d.player)]
    if isinstance(d, PiedPiperCharm):
        return [("charmed", t) for t in d.targets or ()]
    if isinstance(d, Charmed):
        return [("charmed", d.player)]
    if isinstance(d, CupidParamours):
        return [("paramours", d.deceiver), ("paramours", d.paramour)]
    if isinstance(d, Paramours):
        return [("paramours", d.lover)]
    if isinstance(d, InsomniacSaw) and d.wolf is not None:
        return [("insomniac", e.day, d.wolf)]
    if isinstance(d, InsomniacSeen):
        to = recipients(e)
        return [("insomniac", e.day, to[0] if len(to) == 1 else None)]
    if e.is_public:
        return []  # one event, one telling
    return [(k, e.day, e.phase, repr(sorted(dict(d).items())))]


class Died(NamedTuple):
    """A death as the final reveal tells it: the day and the cause."""

    day: int
    cause: str


class Narrator:
    """Prints events to a rich console as they are fed in, in ``language``."""

    def __init__(self, console: Console, *, god: bool = False, language: str = "en"):
        self.console = console
        self.god = god
        self.cat = catalog_for(language)
        self.words = Reader(self.cat, "", RICH, narrator=True)  # the layout's own words
        self._seen = 0  # events already narrated (when following a live game)
        self._phase = ""
        self.sheriff: str | None = None
        self.dead: dict[str, Died] = {}  # by name
        self._told: set[tuple] = set()

    # ------------------------------------------------------------------ feeding
    def follow(self, events: list[Event]) -> None:
        """Narrate the events appended to ``events`` since the last call."""
        while self._seen < len(events):
            self.event(events[self._seen])
            self._seen += 1

    def feed(self, events: Iterable[Event]) -> None:
        for e in events:
            self.event(e)

    def event(self, e: Event) -> None:
        d = e.data
        if isinstance(d, (SheriffElected, SheriffSuccessor)):
            self.sheriff = d.player
        elif isinstance(d, DeathEvent):
            self.dead[d.player] = Died(e.day, d.cause)
        elif isinstance(d, Revived):
            self.dead.pop(d.player, None)
        if not e.is_public and not self.god:
            return
        facts = _facts(e)
        if facts and all(f in self._told for f in facts):
            return
        self._told.update(facts)
        self.lay_out(e)

    # ------------------------------------------------------------------ words
    def sentence(self, e: Event) -> str:
        """The event's words, as the narrator tells it (rich markup)."""
        return tell(self.cat, e, style=RICH)

    def term(self, path: str, **values: Any) -> str:
        return self.words.term(f"narration.{path}", **values)

    def say(self, text: str, *, secret: bool = False) -> None:
        if secret:
            self.console.print(f"[dim]{self.term('marks.secret')}[/dim] [italic]{text}[/italic]")
        else:
            self.console.print(text)

    def model_notice(self, notice: Notice) -> None:
        """A model seat that stopped answering, or answers again (``arena.model_trouble``):
        the arena's news, told between the game's lines, never one of its events."""
        self.console.print(notice_line(notice, self.term))

    # ------------------------------------------------------------------ layout
    def lay_out(self, e: Event) -> None:
        d = e.data
        if isinstance(d, GameStart):
            preset = d.preset
            title = self.words.word("presets", preset) if preset else ""
            self.console.print(Rule(f"[bold]{self.term('headings.game', preset=title)}[/bold]"))
        elif isinstance(d, NightStart):
            self._scene("headings.night", "bold blue", d.night)
            self._phase = "night"
            self.say(f"[dim]{self.sentence(e)}[/dim]")
            return
        elif isinstance(d, Dawn):
            self._scene("headings.day", "bold yellow", d.day)
            self._phase = "dawn"
            self.say(f"[dim]{self.sentence(e)}[/dim]")
            return
        elif isinstance(d, DayStart):
            if e.day == 0 and self._phase != "dawn":  # the forum's opening day: no night, no dawn before it
                self._scene("headings.opening_day", "bold yellow", 0)
                self._phase = "dawn"
            self.say(f"[dim]{self.sentence(e)}[/dim]")
            return
        elif isinstance(d, (Speech, DiscussionRound, Bids)) and not (isinstance(d, Speech) and d.last_words):
            self._phase_title(e)
        elif isinstance(d, (VoteResult, SheriffVotes)):
            self._vote_table(e, d)
            return
        elif isinstance(d, GameEnd):
            self.final_reveal(d, sentence=self.sentence(e))
            return
        text = self.sentence(e)
        if isinstance(d, DeathEvent):
            text = f"[red]✝[/red] {text}"
        self.say(text, secret=not e.is_public)

    def _scene(self, heading: str, style: str, n: Any) -> None:
        self.console.print()
        self.console.print(Rule(f"[{style}]{self.term(heading, n=n)}[/{style}]"))

    def _phase_title(self, e: Event) -> None:
        """The heading of a new part of the day (the campaign, the debate), once."""
        if e.phase != self._phase:
            self._phase = e.phase
            if self.cat.has(f"narration.phases.{e.phase}"):
                title = self.term(f"phases.{e.phase}")
            else:
                title = self.words.word("phases", e.phase)
            self.console.print(f"[underline]{title}[/underline]")

    def _vote_table(self, e: Event, d: VoteResult | SheriffVotes) -> None:
        """Every ballot in a table (★: the Sheriff's), then the narrator's count."""
        rnd = d.round
        if isinstance(d, SheriffVotes):
            title = self.term("votes.sheriff", n=rnd)
        else:
            title = self.term("votes.title") if rnd == 1 else self.term("votes.title_round", n=rnd)
        self.console.print(f"[underline]{title}[/underline]")
        sheriff = d.sheriff if isinstance(d, VoteResult) else None
        w = self.words
        table = Table(show_edge=False, pad_edge=False)
        table.add_column(self.term("votes.voter"))
        table.add_column(self.term("votes.votes_for"))
        votes = d.votes or {}
        for voter, target in votes.items():
            mark = " ★" if sheriff and voter == sheriff else ""
            table.add_row(w.text(voter) + mark, w.text(target) if target is not None else f"[dim]{self.term('votes.abstains')}[/dim]")
        self.console.print(table)
        note = f" [dim]{self.term('votes.sheriff_note')}[/dim]" if sheriff in votes else ""
        self.say(self.sentence(e) + note, secret=not e.is_public)

    # ------------------------------------------------------------------ the end
    def final_reveal(self, data: GameEnd, *, sentence: str | None = None) -> None:
        """Every card turned over: who was what, who lived, who won. ``sentence``: the
        game's end as told (its winner, its reason, the winners); built here when the
        caller has only the payload (a seat's screen)."""
        w = self.words
        if sentence is None:
            sentence = self.sentence(Event(0, 0, "end", "public", data))
        winners = set(data.winners or [])
        roles = data.roles or {}
        initial = data.initial_roles or roles
        lovers = set(data.lovers or [])
        self.console.print()
        self.console.print(Rule(f"[bold]{self.term('headings.reveal')}[/bold]"))
        table = Table(show_edge=False, pad_edge=False)
        for col in ("player", "initial", "final", "fate", "marks", "won"):
            table.add_column(self.term(f"reveal.{col}"))
        for name in roles:
            dead = self.dead.get(name)
            if dead:
                fate = f"[red]{self.term('reveal.dead', n=dead.day, cause=w.word('causes', dead.cause))}[/red]"
            else:
                fate = f"[green]{self.term('reveal.alive')}[/green]"
            marks = [self.term("reveal.lover")] if name in lovers else []
            if name == self.sheriff:
                marks.append(self.term("reveal.sheriff"))
            table.add_row(
                w.text(name),
                w.text(self.cat.role_name(initial.get(name))),
                w.text(self.cat.role_name(roles.get(name))),
                fate,
                " ".join(marks),
                "✓" if name in winners else "",
            )
        self.console.print(table)
        self.console.print(f"[bold green]{sentence}[/bold green]")

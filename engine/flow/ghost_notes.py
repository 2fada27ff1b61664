"""Ghost notes (004 "Ghosts and Notes", option ``ghost_notes``).

"If you are dead and have written a note you believe will benefit the other Human
players, PM it to me with what it will say, letting me know whether one individual will
find it privately (I will PM it to them; you cannot stipulate who: I will choose
randomly from among the remaining living Humans) or whether the note will be
discovered publicly (I will post it in the thread)."

Each player who dies may write one note (``ghost_note``, text; an empty text writes
none), then say how it is found (``ghost_note_delivery``: ``public`` or ``private``).
The host posts a public note in the thread, or hands a private one to a living human
drawn by lot. The host passes notes as they are written; a note never names who may
find it. Ghost sightings are the host's case-by-case choice and are not modelled.

Article 3: "This Host WILL NOT pass along any note that ... can only be found by
particular individuals (although I will accept notes that can only be found by the
Coroner, as they investigate dead bodies; in which case, the note must be hidden on
your person, ahead of time)"; Article 4: "your note must be authored and PM'ed to me
before that Night's deadline." Option ``coroner_notes``, on the game's clock: while a
Coroner lives, each night opens with every other living player asked what note they
keep hidden on their person (``coroner_note``, text; the context shows the one they
hold; an empty text holds none). When a player the Coroner examines dies (the pack's
victim at dawn, the lynched at Sundown: the ``coroner_report``'s causes), each living
Coroner also finds the note on the body (``coroner_note``, to him alone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypedDict

from engine.decisions import CHOICE, TEXT, decision
from engine.events import OMIT, PUBLIC, EventData, Name, Said, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import NightStep, register_before_dawn, register_death_hook, register_step
from engine.game_state import GameState, Player


class GhostNoteContext(TypedDict, total=False):
    round: int  # always 1: one note per death
    phase: str  # always ``ghost_note``, where the words are written


GHOST_NOTE = decision("ghost_note", TEXT, context=GhostNoteContext, unmeasured="a dead player's note")
GHOST_NOTE_DELIVERY = decision("ghost_note_delivery", CHOICE, unmeasured="how a note is delivered")


class CoronerNoteContext(TypedDict, total=False):
    night: int  # the night whose deadline the note is written before
    current: str  # the note the seat keeps hidden now ("": none)


CORONER_NOTE = decision("coroner_note", TEXT, context=CoronerNoteContext, unmeasured="a note only the Coroner may find")

DELIVERIES = ("public", "private")


@event("ghost_note")
class GhostNote(EventData):
    """A dead player's note, posted in the thread or found by one living human
    (``reader``, written only then: only the author and the reader see it)."""

    author: Name
    text: Said
    reader: Annotated[Name | None, OMIT] = None


@dataclass(slots=True)
class WrittenNote:
    """A night victim's note, written at dawn before the night's deaths are told
    (Article 4: "before that Night's deadline"), posted once the death is."""

    text: str = ""
    how: str = ""


def _words(said: object) -> str:
    """A text answer's words: a reply object's ``text``, or the bare string."""
    if isinstance(said, dict):
        return str(said.get("text", ""))
    return str(said) if said else ""


def _write(game: GameState, player: Player) -> Script:
    """Ask ``player`` for a note and how it is found: (text, delivery); ("", "") for none."""
    phase = game.phase
    said = yield from ask_one(game.ask(player.name, GHOST_NOTE, (), {"round": 1, "phase": "ghost_note"}))
    text = _words(said)
    if not text.strip():
        game.phase = phase
        return "", ""
    how = yield from ask_one(game.ask(player.name, GHOST_NOTE_DELIVERY, DELIVERIES))
    game.phase = phase
    return text, how


def _before_dawn(game: GameState) -> Script:
    """Article 4: "If you are going to be nightkilled (which you have no way of knowing
    ahead of time, of course), your note must be authored and PM'ed to me before that
    Night's deadline." The night's victims write now, once the kills are final (no
    guard can still save them: asking would tell them) and before dawn tells anything,
    so a note holds nothing the night's deadline did not know."""
    seen: set[str] = set()
    for name, _cause in game.night.kills:
        player = game.by_name[name]
        if name in seen or not player.alive:
            continue
        seen.add(name)
        note = player.state.of(WrittenNote)
        note.text, note.how = yield from _write(game, player)


def _note(game: GameState, player: Player, cause: str) -> Script:
    written = player.state.drop(WrittenNote)
    if written is not None:
        text, how = written.text, written.how
    else:
        text, how = yield from _write(game, player)
    if not text:
        return
    humans = sorted(p.name for p in game.players if p.alive and not p.is_wolf)
    if how == "private" and humans:
        reader = game.rng.choice(humans)
        game.emit(GhostNote(player.name, text, reader), private(player.name, reader))
    else:
        game.emit(GhostNote(player.name, text), PUBLIC)


register_death_hook(40, _note, when=lambda o: o.ghost_notes)
register_before_dawn(40, _before_dawn, when=lambda o: o.ghost_notes)


# ------------------------------------------------------------------ notes for the Coroner
@event("coroner_note_hidden")
class CoronerNoteHidden(EventData):
    """``author`` now keeps ``text`` hidden on their person, for the Coroner alone to
    find on their body (empty: they keep none); told to the author only."""

    author: Name
    text: Said


@event("coroner_note")
class CoronerNote(EventData):
    """The Coroner finds the note hidden on the body of ``author``."""

    author: Name
    text: Said


@dataclass(slots=True)
class HiddenNote:
    """The note a player keeps on their person for the Coroner ("" for none)."""

    text: str = ""


def _hide(game: GameState) -> Script:
    coroners = {c.name for c in game.able("coroner")}
    seats = [p for p in game.players if p.alive and p.name not in coroners]
    if not seats:
        return
    batch = [game.ask(p.name, CORONER_NOTE, (), {"night": game.day, "current": p.state.of(HiddenNote).text}) for p in seats]
    answers = yield batch
    for p, d in zip(seats, batch):
        said = answers[d.id]
        text = _words(said)
        text = text if text.strip() else ""
        note = p.state.of(HiddenNote)
        if text != note.text:
            note.text = text
            game.emit(CoronerNoteHidden(p.name, text), private(p.name))


def _found(game: GameState, player: Player, cause: str) -> Script:
    note = player.state.peek(HiddenNote)
    if cause in ("werewolves", "vote") and note is not None and note.text:
        for c in game.able("coroner"):
            game.emit(CoronerNote(player.name, note.text), private(c.name))
    return
    yield


register_step(
    NightStep(
        name="coroner_notes", run=_hide, active=lambda g: g.has_able("coroner"), roles=("coroner",), when=lambda o: o.coroner_notes
    )
)
register_death_hook(7, _found, before_victory=True, roles=("coroner",), when=lambda o: o.coroner_notes)

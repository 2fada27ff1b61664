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
find it. Ghost sightings are the host's case-by-case choice and are not modelled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypedDict

from engine.decisions import CHOICE, TEXT, decision
from engine.events import OMIT, PUBLIC, EventData, Name, Said, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import register_death_hook

if TYPE_CHECKING:  # pragma: no cover  (engine.game imports the flow: a cycle at run time)
    from engine.game import Game, Player


class GhostNoteContext(TypedDict, total=False):
    round: int  # always 1: one note per death
    phase: str  # always ``ghost_note``, where the words are written


GHOST_NOTE = decision("ghost_note", TEXT, context=GhostNoteContext, unmeasured="a dead player's note")
GHOST_NOTE_DELIVERY = decision("ghost_note_delivery", CHOICE, unmeasured="how a note is delivered")

DELIVERIES = ("public", "private")


@event("ghost_note")
class GhostNote(EventData):
    """A dead player's note, posted in the thread or found by one living human
    (``reader``, written only then: only the author and the reader see it)."""

    author: Name
    text: Said
    reader: Annotated[Name | None, OMIT] = None


def _note(game: Game, player: Player, cause: str) -> Script:
    phase = game.phase
    said = yield from ask_one(game.ask(player.name, GHOST_NOTE, (), {"round": 1, "phase": "ghost_note"}))
    text = said.get("text", "") if said.__class__ is dict else (said or "")
    if not text.strip():
        game.phase = phase
        return
    how = yield from ask_one(game.ask(player.name, GHOST_NOTE_DELIVERY, DELIVERIES))
    game.phase = phase
    humans = sorted(p.name for p in game.players if p.alive and not p.is_wolf)
    if how == "private" and humans:
        reader = game.rng.choice(humans)
        game.emit(GhostNote(player.name, text, reader), private(player.name, reader))
    else:
        game.emit(GhostNote(player.name, text), PUBLIC)


register_death_hook(40, _note, when=lambda o: o.ghost_notes)

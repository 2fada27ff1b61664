"""The Two Sisters (003 "Two sisters").

"The two holders open their eyes together the first night to recognize each other.
They defend the village. The booklet proposes to the experienced to remind them from
time to time for a short silent concertation; to begin, use only the initial
recognition."

Night 1 (after the Seer): each sister is told the other's name (``sisters``). With
``sisters_chat_every`` N > 0 they also confer on night 1 and every N nights after
(nights 1, 1+N, 1+2N...), while two of them live with their power: one ``sister_chat``
turn each (text, private to the sisters).
"""

from __future__ import annotations

from typing import TypedDict

from engine.decisions import TEXT, decision
from engine.events import EventData, Name, Names, Said, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState


class SisterChatContext(TypedDict, total=False):
    sisters: list[str]  # the sisters conferring tonight, in seat order (the speaker too)


SISTER_CHAT = decision("sister_chat", TEXT, context=SisterChatContext, unmeasured="the Sisters' talk")


@event("sisters")
class Sisters(EventData):
    """Night 1: who the sisters are (the reader among them)."""

    sisters: Names


@event("sister_chat")
class SisterChat(EventData):
    speaker: Name
    text: Said


SISTER = register_role(
    RoleSpec(
        id="sister",
        name="Sister",
        camp=VILLAGE,
        summary="The two Sisters know each other from the first night, and may be woken from time to time to confer in secret.",
        decisions=(SISTER_CHAT,),
        presets=("best_of",),
    )
)


def _chat_night(game: GameState) -> bool:
    every = game.options.sisters_chat_every
    return every > 0 and (game.day - 1) % every == 0


def _active(game: GameState) -> bool:
    return (game.day == 1 or _chat_night(game)) and game.has_able("sister")


def _run(game: GameState) -> Script:
    sisters = game.able("sister")
    names = [p.name for p in sisters]
    if game.day == 1:
        everyone = [p.name for p in game.players if p.role == "sister" and p.alive]
        for name in everyone:
            game.emit(Sisters(list(everyone)), private(name))
    if len(sisters) < 2 or not _chat_night(game):
        return
    audience = private(*names)
    for name in names:
        context: SisterChatContext = {"sisters": list(names)}
        said = yield from ask_one(game.ask(name, SISTER_CHAT, (), context))
        text = said.get("text", "") if isinstance(said, dict) else said
        game.emit(SisterChat(name, text), audience)


register_step(NightStep(name="sister", run=_run, active=_active, group="night_main", roles=("sister",)))

"""The Thief (000 "The Thief"): on the first night he may swap his card for one of the
two set aside, and must take a Werewolf when both are Werewolves."""

from __future__ import annotations

from typing import TypedDict

from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, RoleId, RoleIds, event, private
from engine.flow.common import Script, ask_one
from engine.flow.main import Role
from engine.roles.base import ROLES, VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState


class ThiefSwapContext(TypedDict, total=False):
    cards: list[str]  # the two cards set aside, as dealt
    forced: bool  # both are werewolves: he must take one


THIEF_SWAP = decision("thief_swap", CHOICE, context=ThiefSwapContext, unmeasured="a card, not a player")


@event("thief_cards")
class ThiefCards(EventData):
    """The Thief is shown the two cards set aside."""

    cards: RoleIds


@event("thief_swap")
class ThiefSwap(EventData):
    """The card the Thief took (None: he kept his own)."""

    player: Name
    took: RoleId | None


THIEF = register_role(
    RoleSpec(
        id="thief",
        name="Thief",
        camp=VILLAGE,
        summary="On the first night you see the two set-aside cards and may take one of them in exchange for yours; if both are werewolves you must take one.",
        decisions=(THIEF_SWAP,),
        presets=("millers_hollow", "millers_hollow_es", "langrensha"),
    )
)


def _active(game: GameState) -> bool:
    return len(game.center) == 2 and game.has_alive("thief")


def _run(game: GameState) -> Script:
    thief = game.with_role("thief")[0]
    audience = private(thief.name)
    cards = list(game.center)
    game.emit(ThiefCards(cards), audience)
    forced = all(ROLES[c].is_wolf for c in cards)
    options = tuple(dict.fromkeys(cards))
    took = yield from ask_one(game.ask(thief.name, THIEF_SWAP, options, {"cards": cards, "forced": forced}, not forced))
    if took is None:
        game.emit(ThiefSwap(thief.name, None), audience)
        return
    game.center[cards.index(took)] = "thief"
    thief.set_role(took)
    game.emit(ThiefSwap(thief.name, took), audience)
    game.emit(Role(thief.name, took), audience)


register_step(NightStep(name="thief", run=_run, active=_active, first_night_only=True, roles=("thief",)))

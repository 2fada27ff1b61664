"""The Wolf-Hound (003 "Dog-Loup").

"On the first night, he definitely chose to stay a village or join the wolves. The
leader took this choice secretly before the first call of the pack, to know if he had
to participate. He could not change his mind later." Aide-mémoire: "Provide the secret
choice of Dog-Loup before the first pack wakes up."

Night 1, after Cupid and before the Seer and the pack: ``wolf_hound_side`` answers
``village`` or ``werewolves``. Choosing the wolves, he wakes with the pack that same
night; his card stays a Wolf-Hound (the Seer cannot tell his side).
"""

from __future__ import annotations


from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, WEREWOLVES, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

WOLF_HOUND_SIDE = decision("wolf_hound_side", CHOICE, unmeasured="a side, not a player")


@event("wolf_hound_side")
class WolfHoundSide(EventData):
    """The Wolf-Hound's side for the game (``village`` or ``werewolves``), told to him."""

    player: Name
    side: str


WOLF_HOUND = register_role(
    RoleSpec(
        id="wolf_hound",
        name="Wolf-Hound",
        camp=VILLAGE,
        summary="On the first night you choose, for good, to play for the village or to join the werewolves.",
        decisions=(WOLF_HOUND_SIDE,),
        presets=("best_of",),
    )
)


def _active(game: GameState) -> bool:
    return game.has_alive("wolf_hound")


def _run(game: GameState) -> Script:
    for hound in game.with_role("wolf_hound"):
        side = yield from ask_one(game.ask(hound.name, WOLF_HOUND_SIDE, (VILLAGE, WEREWOLVES)))
        # His choice is his camp (``Player.camp``, by ``convert``): nothing else keeps it.
        if side == WEREWOLVES:
            hound.convert(WEREWOLVES, True)
        game.emit(WolfHoundSide(hound.name, side), private(hound.name))


register_step(NightStep(name="wolf_hound", run=_run, active=_active, first_night_only=True, roles=("wolf_hound",)))

"""The forum's Seer (004 "Seer"): "You can sense danger. Each night, you must PM the Host
and tell them whether you wish to exercise your ability (which is to know how many
Wolves there are left)."

Not the base game's Seer (who sees a card): role id ``forum_seer``. Each night she
answers ``forum_seer_sense`` (true / false); if true she learns how many werewolves
are alive. "In some large games, the Wolves may be informed it's happened (or even who
you are)": option ``wolves_told_seers`` (``act``: the living wolves learn that the Seer
used her gift; ``who``: and who she is), shared with the Psychic (``tell_pack``)."""

from __future__ import annotations

from typing import Annotated

from engine.decisions import BOOL, decision
from engine.events import OMIT, EventData, Name, RoleId, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

FORUM_SEER_SENSE = decision("forum_seer_sense", BOOL, unmeasured="yes/no, no target (a count of wolves)")


@event("forum_seer_sense")
class ForumSeerSense(EventData):
    """What the Seer sensed: how many werewolves are alive."""

    wolves: int


@event("seer_spotted")
class SeerSpotted(EventData):
    """The pack is told that a seer (``role``: the forum's Seer or the Psychic) used her
    gift tonight; ``player`` names her under ``wolves_told_seers: who`` (else absent)."""

    role: RoleId
    player: Annotated[Name | None, OMIT] = None


FORUM_SEER = register_role(
    RoleSpec(
        id="forum_seer",
        name="Seer (forum)",
        camp=VILLAGE,
        summary="Each night you may sense how many werewolves are still alive.",
        decisions=(FORUM_SEER_SENSE,),
        presets=("forum",),
    )
)


def tell_pack(game: GameState, role: str, player: str) -> None:
    """004: "the Wolves may be informed it's happened (or even who you are)"."""
    told = game.options.wolves_told_seers
    wolves = [w.name for w in game.wolves()]
    if told == "never" or not wolves:
        return
    game.emit(SeerSpotted(role, player if told == "who" else None), private(*wolves))


def _run(game: GameState) -> Script:
    for seer in game.able("forum_seer"):
        use = yield from ask_one(game.ask(seer.name, FORUM_SEER_SENSE, (True, False)))
        if use:
            game.emit(ForumSeerSense(len(game.wolves())), private(seer.name))
            tell_pack(game, "forum_seer", seer.name)


register_step(
    NightStep(
        name="forum_seer", run=_run, active=lambda game: game.has_able("forum_seer"), group="night_main", roles=("forum_seer",)
    )
)

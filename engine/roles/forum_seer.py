"""The forum's Seer (004 "Seer"): "You can sense danger. Each night, you must PM the Host
and tell them whether you wish to exercise your ability (which is to know how many
Wolves there are left)."

Not the base game's Seer (who sees a card): role id ``forum_seer``. Each night she
answers ``forum_seer_sense`` (true / false); if true she learns how many werewolves
are alive. "In some large games, the Wolves may be informed it's happened": not
modelled."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step

FORUM_SEER = register_role(
    RoleSpec(
        id="forum_seer",
        name="Seer (forum)",
        camp=VILLAGE,
        summary="Each night you may sense how many werewolves are still alive.",
        decisions=("forum_seer_sense",),
        presets=("forum",),
    )
)


def _run(game):
    for seer in game.able("forum_seer"):
        use = yield from ask_one(game.ask_bool(seer.name, "forum_seer_sense", True))
        if use:
            game.emit("forum_seer_sense", game.private(seer.name), wolves=len(game.wolves()))


register_step(
    NightStep(
        name="forum_seer", order=101, run=_run, active=lambda game: game.has_able("forum_seer"), group="night_main", roles=("forum_seer",)
    )
)

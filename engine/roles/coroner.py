"""The Coroner (004): "Via PM, each Dawn, you're told the exact role of the person the
Wolves killed, and each Sundown, you're told the exact role of the player who got
lynched."

No decision: when the pack's victim dies (cause ``werewolves``) or a player is lynched
(cause ``vote``), every living Coroner privately learns the dead player's card
(``coroner_report``)."""

from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role

CORONER = register_role(
    RoleSpec(
        id="coroner",
        name="Coroner",
        camp=VILLAGE,
        summary="You are told the exact role of each victim of the werewolves at dawn and of each lynched player at sundown.",
        presets=("forum",),
    )
)


def _report(game, player, cause):
    if cause in ("werewolves", "vote"):
        for c in game.able("coroner"):
            game.emit("coroner_report", game.private(c.name), target=player.name, role=player.role, cause=cause)
    return
    yield


register_death_hook(5, _report, before_victory=True, roles=("coroner",))

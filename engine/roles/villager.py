"""The Ordinary Villager: no power but judgement (000 "The Ordinary Villager")."""

from engine.roles.base import VILLAGE, RoleSpec, register_role

VILLAGER = register_role(
    RoleSpec(
        id="villager",
        name="Villager",
        camp=VILLAGE,
        summary="No special power. Find the werewolves by reasoning and persuade the village to eliminate them.",
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)

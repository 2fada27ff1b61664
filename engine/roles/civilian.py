"""The Civilian (004): "You're an ordinary human who does not hold an Auxiliary Role.
Nothing you can do other than cast your lynch vote, really." Every other human card of
the forum is an Auxiliary ("Aux") Role."""

from engine.roles.base import VILLAGE, RoleSpec, register_role

CIVILIAN = register_role(
    RoleSpec(
        id="civilian",
        name="Civilian",
        camp=VILLAGE,
        summary="An ordinary human without an Auxiliary Role: your lynch vote is your weapon.",
        presets=("forum",),
    )
)

# The forum's human cards that are not Auxiliary Roles (the Pack Leader's sniff).
PLAIN = ("civilian", "villager")

"""Every role of every preset. Importing this package registers them all."""

from engine.roles.base import (  # noqa: F401  (re-exported)
    DEATH_HOOKS,
    DECISION_KINDS,
    NIGHT_STEPS,
    ROLES,
    VILLAGE,
    WEREWOLVES,
    NightStep,
    RoleSpec,
    register_death_hook,
    register_role,
    register_step,
)

from engine.roles import (  # noqa: F401,E402  (registration side effects)
    villager,
    werewolf,
    seer,
    witch,
    hunter,
    cupid,
    thief,
    little_girl,
)

"""The roles' registries and the ways to fill them, re-exported from
``engine.roles.base`` for users of the engine.

The roles themselves register when ``engine.catalogue`` imports them (which importing
``engine`` does); no module of the engine imports this face, so a role module can be
imported alone without pulling every other role in through it.
"""

from engine.decisions import DECISION_KINDS
from engine.roles.base import (
    DEATH_HOOKS,
    DEVOURED,
    NIGHT_STEPS,
    ROLES,
    VILLAGE,
    WEREWOLVES,
    NightStep,
    RoleSpec,
    register_batch_hook,
    register_before_dawn,
    register_dawn_hook,
    register_death_hook,
    register_opening_day,
    register_pardon,
    register_resolver,
    register_role,
    register_setup_hook,
    register_sheriff_pool,
    register_step,
    register_victory,
    night_steps,
    rules_for,
)

__all__ = [  # what ``engine.roles`` re-exports: the registries and the ways to fill them
    "DEATH_HOOKS",
    "DECISION_KINDS",
    "DEVOURED",
    "NIGHT_STEPS",
    "ROLES",
    "VILLAGE",
    "WEREWOLVES",
    "NightStep",
    "RoleSpec",
    "register_batch_hook",
    "register_before_dawn",
    "register_dawn_hook",
    "register_death_hook",
    "register_opening_day",
    "register_pardon",
    "register_resolver",
    "register_role",
    "register_setup_hook",
    "register_sheriff_pool",
    "register_step",
    "register_victory",
    "night_steps",
    "rules_for",
]

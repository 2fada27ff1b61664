"""Every role of every preset. Importing this package registers them all: the books'
roles in a fixed order, then any other module of the package (``_import_the_others``)."""

import importlib
import pkgutil

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

from engine.roles import (  # noqa: F401,E402  (registration side effects)
    villager,
    werewolf,
    seer,
    witch,
    hunter,
    cupid,
    thief,
    little_girl,
    # best_of (003) and langrensha (001)
    elder,
    idiot,
    protector,
    sister,
    fox,
    rusty_knight,
    bear_tamer,
    wild_child,
    wolf_hound,
    white_werewolf,
    infect_father,
    big_bad_wolf,
    pied_piper,
    angel,
    # forum (004)
    civilian,
    pack_leader,
    forum_seer,
    psychic,
    coroner,
    insomniac,
    unknown_celebrity,
    vigilante,
    ninja,
    guardian_angel,
    priest,
    mad_scientist,
    # village (000, The Village)
    raven,
    arsonist,
)

from engine import buildings as _buildings  # noqa: F401,E402  (The Village's buildings register their hooks)


def _import_the_others() -> None:
    """A role module added to this package is found by its file: adding a role touches
    no list. The roles above are imported first, in the books' order, because their
    registration order is the order the rules text and ``werewolf roles`` show them."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


_import_the_others()

"""The catalogue: every role and building the engine knows, registered in the books'
order.

Roles and buildings fill the registries of ``engine.roles.base`` and
``engine.buildings.base`` when they are imported (``register_role``, the hooks).
This module is the one place that imports them all, and nothing in the rules engine
imports it: the flow and the game read the registries they are given, so a role or a
building module can be imported (and tested) alone, and the engine's modules form no
import cycle. Importing ``engine`` imports the catalogue.

The books' roles come first, in a fixed order, because registration order is the
order the rules text and ``werewolf roles`` show them (and the order of hooks that
share a moment); any other module of ``engine/roles`` is found by its file, so adding
a role touches no list.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import engine.roles.base  # noqa: F401
import engine.roles.villager  # noqa: F401
import engine.roles.werewolf  # noqa: F401
import engine.roles.seer  # noqa: F401
import engine.roles.witch  # noqa: F401
import engine.roles.hunter  # noqa: F401
import engine.roles.cupid  # noqa: F401
import engine.roles.thief  # noqa: F401
import engine.roles.little_girl  # noqa: F401
# best_of (003) and langrensha (001)
import engine.roles.elder  # noqa: F401
import engine.roles.idiot  # noqa: F401
import engine.roles.protector  # noqa: F401
import engine.roles.sister  # noqa: F401
import engine.roles.fox  # noqa: F401
import engine.roles.rusty_knight  # noqa: F401
import engine.roles.bear_tamer  # noqa: F401
import engine.roles.wild_child  # noqa: F401
import engine.roles.wolf_hound  # noqa: F401
import engine.roles.white_werewolf  # noqa: F401
import engine.roles.infect_father  # noqa: F401
import engine.roles.big_bad_wolf  # noqa: F401
import engine.roles.pied_piper  # noqa: F401
import engine.roles.angel  # noqa: F401
# forum (004)
import engine.roles.civilian  # noqa: F401
import engine.roles.pack_leader  # noqa: F401
import engine.roles.forum_seer  # noqa: F401
import engine.roles.psychic  # noqa: F401
import engine.roles.coroner  # noqa: F401
import engine.roles.insomniac  # noqa: F401
import engine.roles.unknown_celebrity  # noqa: F401
import engine.roles.vigilante  # noqa: F401
import engine.roles.ninja  # noqa: F401
import engine.roles.guardian_angel  # noqa: F401
import engine.roles.priest  # noqa: F401
import engine.roles.mad_scientist  # noqa: F401
# The Village's buildings (before the village's roles, which build on them)
import engine.buildings.base  # noqa: F401
import engine.buildings.handout  # noqa: F401
import engine.buildings.farmers  # noqa: F401
import engine.buildings.confessor  # noqa: F401
import engine.buildings.bonesetter  # noqa: F401
import engine.buildings.barber  # noqa: F401
import engine.buildings.schoolmistress  # noqa: F401
import engine.buildings.bailiff  # noqa: F401
import engine.buildings.baker  # noqa: F401
import engine.buildings.tavernkeeper  # noqa: F401
import engine.buildings.castellan  # noqa: F401
# village (000, The Village)
import engine.roles.raven  # noqa: F401
import engine.roles.arsonist  # noqa: F401

ROLES_DIR = Path(__file__).with_name("roles")


def _import_the_others() -> None:
    for info in sorted(pkgutil.iter_modules([str(ROLES_DIR)]), key=lambda m: m.name):
        if info.name != "base":
            importlib.import_module(f"engine.roles.{info.name}")


_import_the_others()

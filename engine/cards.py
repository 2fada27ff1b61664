"""The cards in the box: what a role and a building are as data, and their registries.

A role's card (``RoleSpec``: its camp, whether it wakes with the pack) and a
building's token (``BuildingSpec``) are plain data that the deal (``engine.setup``),
a player (``engine.game_state.Player``: the camp of its card) and every reader of the
rules need. They live here, below the rules, rather than beside the hooks in
``engine.roles.base`` and ``engine.buildings.base``: the hooks' signatures name the
game's state, so the state cannot import the hooks' modules without making the whole
rules engine one strongly connected component. ``ROLES`` and ``BUILDINGS`` are filled
when ``engine.catalogue`` imports each role and building module.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import DECISION_KINDS, DecisionKind


@dataclass(frozen=True, slots=True)
class RoleSpec:
    id: str
    name: str
    camp: str
    is_wolf: bool = False
    summary: str = ""
    decisions: tuple[DecisionKind, ...] = ()  # the decision kinds this role is asked
    presets: tuple[str, ...] = ("millers_hollow",)


@dataclass(frozen=True, slots=True)
class BuildingSpec:
    id: str  # the holder's title, snake_case: the id a game file's ``building:`` names
    name: str
    home: str  # the building itself ("" for the Vagabonds, who have none)
    power: str  # PERMANENT or UNIQUE (``engine.buildings.base``)
    box: int  # how many of its tokens the box holds
    summary: str = ""
    decisions: tuple[DecisionKind, ...] = ()


ROLES: dict[str, RoleSpec] = {}
BUILDINGS: dict[str, BuildingSpec] = {}


def check_declared(owner: str, kinds: tuple[DecisionKind, ...]) -> None:
    """A role or building lists the decisions it is asked: each must be declared
    (``engine.decisions.decision``), so no kind exists as a bare string."""
    for kind in kinds:
        if DECISION_KINDS.get(kind) is not kind:
            raise ValueError(f"{owner}: decision kind {kind!r} is not declared with engine.decisions.decision")


def register_role(spec: RoleSpec) -> RoleSpec:
    ROLES[spec.id] = spec
    check_declared(spec.id, spec.decisions)
    return spec


def register_building(spec: BuildingSpec) -> BuildingSpec:
    BUILDINGS[spec.id] = spec
    check_declared(spec.id, spec.decisions)
    return spec

"""The Arsonist (000 The Village): "Power: unique ... When called upon, the Arsonist may,
once and only once in the game, designate a building on which the narrator places the
"fire" marker. The following morning, after all the inhabitants have witnessed the
disaster, the building is permanently removed from the table. Its former occupant is
not eliminated from the game — they become a Vagabond. If the Arsonist designated the
building where that day's Werewolf victim lives, the first Werewolf to the right of the
victim is eliminated, burned completely. Panicked by the flames, any surviving
Werewolves have no time to sit down to their meal! In that case, there is no victim."

Called after the White Werewolf and before the Witch (000's reminder), once per game,
``arsonist_burn``: a living player whose home still stands (never a Vagabond, who has
none; his own home is allowed), or null to wait. At dawn, before the night's deaths
apply, the fire is public (``fire``); the occupant becomes a Vagabond. If the pack's
victim lived there, the victim is spared and the first living werewolf to the victim's
right (the seats before theirs, the contract's clockwise order) dies, cause
``arsonist``. The Arsonist is a villager: his aim is the village's."""

from __future__ import annotations

from dataclasses import dataclass

from engine.buildings.base import VAGABOND, layer_on, refresh
from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, BuildingId, EventData, Name, event, private
from engine.flow.common import Script, optional_target
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_resolver, register_role, register_step
from engine.game_state import GameState, Player

ARSONIST_BURN = decision("arsonist_burn", CHOICE, power=Power(WOLF, note="the fire: the home's occupant is the target"))


@dataclass(slots=True)
class ArsonistState:
    burned: bool = False  # his one fire is spent


@dataclass(slots=True)
class FireNight:
    """The home set on fire tonight (its occupant), burned at dawn."""

    target: str | None = None


@event("fire_set")
class FireSet(EventData):
    """The Arsonist is told his fire is set on ``player``'s home."""

    player: Name
    building: BuildingId


@event("fire")
class Fire(EventData):
    """At dawn ``player``'s home burns down; ``wolf_burned``: the pack's victim lived
    there, and the werewolf to their right burned instead."""

    player: Name
    building: BuildingId
    wolf_burned: bool

ARSONIST = register_role(
    RoleSpec(
        id="arsonist",
        name="Arsonist",
        camp=VILLAGE,
        summary="Once per game, at night, you may set fire to a player's home: they become a Vagabond; if the werewolves' victim lived there, the werewolf to the victim's right burns instead of the victim.",
        decisions=(ARSONIST_BURN,),
        presets=("village",),
    )
)


def _homes(game: GameState) -> tuple[str, ...]:
    return tuple(p.name for p in game.players if p.alive and p.building and p.building != VAGABOND)


def _spent(p: Player) -> bool:
    st = p.state.peek(ArsonistState)
    return st is not None and st.burned


def _active(game: GameState) -> bool:
    return any(p.role == "arsonist" and p.alive and not p.powerless and not _spent(p) for p in game.players)


def _run(game: GameState) -> Script:
    for a in game.able("arsonist"):
        if _spent(a):
            continue
        target = yield from optional_target(game, a.name, ARSONIST_BURN, _homes(game))
        if target is None:
            continue
        a.state.of(ArsonistState).burned = True
        game.night.of(FireNight).target = target
        game.emit(FireSet(target, game.by_name[target].building), private(a.name))


def right_wolf(game: GameState, name: str) -> Player | None:
    """The first living werewolf to ``name``'s right: the seats before theirs."""
    table = game.table
    n = len(table)
    seat = game.by_name[name].seat
    for k in range(1, n):
        p = table[(seat - k) % n]
        if p.alive and p.is_wolf and p.name != name:
            return p
    return None


def _burn(game: GameState) -> None:
    night = game.night
    fire = night.drop(FireNight)
    target = fire.target if fire is not None else None
    if target is None:
        return
    home = game.by_name[target]
    building = home.building
    victim = night.wolf_victim
    burned = None
    if victim == target:
        night.kills = [(n, c) for n, c in night.kills if not (n == victim and c == "werewolves")]
        night.attacked = [n for n in night.attacked if n != victim]
        night.wolf_victim = None
        wolf = right_wolf(game, victim)
        if wolf is not None:
            burned = wolf.name
            night.kills.append((wolf.name, "arsonist"))
    game.emit(Fire(target, building, burned is not None), PUBLIC)
    home.building = VAGABOND
    home.token = True
    refresh(game)


register_step(NightStep(name="arsonist", run=_run, active=_active, roles=("arsonist",), when=layer_on))
register_resolver(5, _burn, roles=("arsonist",), when=layer_on)

"""The Vigilante (004): "you only have one bullet. Once you're sure you know who you want
dead, during any Day phase, you can announce your role publicly, and shoot anyone you
want (this MUST BE CONFIRMED BY THE HOST). That player is dead IMMEDIATELY"; 6-A: "Any
Vigilante who makes a kill which is confirmed by the Host is a confirmed Human.

Each day, after the debate and before the votes, ``vigilante_shoot``: a living player,
or null to hold fire. The shot is public and names the Vigilante; the target dies at
once (cause ``vigilante``). One bullet per game. "Nobody can pretend to be the
Vigilante": only the card is asked. Not modelled: the Hosts who cancel the lynching
after a shot.

"Note: In some games, if the Vigilante is killed before he can use his weapon, another
human might find it, and the role of Vigilante is added to any other Aux Role that
player might have" -- ``vigilante_gun_found``: a Vigilante dying with his bullet
unused leaves the gun to a living human drawn by lot (``gun_found``, to the finder
alone), who from the next day may shoot as a Vigilante, besides his own card.
Article 3-B (two Vigilantes shooting each other): the Vigilantes are asked one after
another, and a dead one is not asked, which is the Host's "if the Host spotted the
first kill before the second was posted, ... the second shot will simply not go
through"; its other branch (both shots posted unseen) has no counterpart here."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.flow.day_powers import register_day_power
from engine.flow.deaths import kill_batch
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.game_state import GameState, Player

VIGILANTE_SHOOT = decision("vigilante_shoot", CHOICE, power=Power(WOLF, note="the forum's Vigilante"))


@dataclass(slots=True)
class VigilanteState:
    """Whether this player's bullet is gone: fired, or his gun found by someone else."""

    shot: bool = False


@dataclass(slots=True)
class GunsFoundMemory:
    """The humans who found a dead Vigilante's gun, in the order they found one."""

    finders: list[str] = field(default_factory=list)


@event("vigilante_shot")
class VigilanteShot(EventData):
    shooter: Name
    target: Name


@event("gun_found")
class GunFound(EventData):
    """``player`` found the gun ``previous`` (a Vigilante) died without firing."""

    player: Name
    previous: Name


VIGILANTE = register_role(
    RoleSpec(
        id="vigilante",
        name="Vigilante",
        camp=VILLAGE,
        summary="Once per game, during a day, you may reveal yourself and shoot a player dead on the spot.",
        decisions=(VIGILANTE_SHOOT,),
        presets=("forum",),
    )
)


def _fired(p: Player) -> bool:
    st = p.state.peek(VigilanteState)
    return st is not None and st.shot


def _shooters(game: GameState) -> list[Player]:
    """The Vigilantes with their card, then the humans who found a dead one's gun."""
    found = game.memory.peek(GunsFoundMemory)
    shooters = list(game.able("vigilante"))
    if found is not None and found.finders:
        shooters += [game.by_name[n] for n in found.finders if game.by_name[n] not in shooters]
    return shooters


def _day(game: GameState) -> Script:
    for v in _shooters(game):
        if _fired(v) or not v.alive or game.over:
            continue
        options = game.targets(v.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(v.name, VIGILANTE_SHOOT, options, None, True))
        if target is None:
            continue
        v.state.of(VigilanteState).shot = True
        game.emit(VigilanteShot(v.name, target), PUBLIC)
        yield from kill_batch(game, [(target, "vigilante")])
        if game.over:
            return


def _gun_left(game: GameState, player: Player, cause: str) -> Script:
    """004: "another human might find it" -- the unused gun, to a living human by lot."""
    if player.role != "vigilante" or _fired(player):
        return
    found = game.memory.of(GunsFoundMemory).finders
    humans = [p.name for p in game.players if p.alive and not p.is_wolf and p.name not in found]
    if not humans:
        return
    finder = game.rng.choice(humans)
    found.append(finder)
    player.state.of(VigilanteState).shot = True  # one gun, one bullet: it has changed hands
    game.emit(GunFound(finder, player.name), private(finder))
    return
    yield


def _ready(game: GameState) -> bool:
    if game.has_able("vigilante"):
        return True
    found = game.memory.peek(GunsFoundMemory)
    return found is not None and any(game.by_name[n].alive for n in found.finders)


register_day_power(("vigilante",), _day, ready=_ready)
register_death_hook(30, _gun_left, roles=("vigilante",), when=lambda o: o.vigilante_gun_found)

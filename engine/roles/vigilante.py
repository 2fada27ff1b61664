"""The Vigilante (004): "you only have one bullet. Once you're sure you know who you want
dead, during any Day phase, you can announce your role publicly, and shoot anyone you
want (this MUST BE CONFIRMED BY THE HOST). That player is dead IMMEDIATELY"; 6-A: "Any
Vigilante who makes a kill which is confirmed by the Host is a confirmed Human."

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

from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.flow.day_powers import register_day_power
from engine.roles.base import VILLAGE, RoleSpec, register_death_hook, register_role
from engine.decisions import CHOICE, WOLF, Power, decision

VIGILANTE_SHOOT = decision("vigilante_shoot", CHOICE, power=Power(WOLF, note="the forum's Vigilante"))

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


def _shooters(game) -> list:
    """The Vigilantes with their card, then the humans who found a dead one's gun."""
    found = game.memory.get("guns_found")
    shooters = list(game.able("vigilante"))
    if found:
        shooters += [game.by_name[n] for n in found if game.by_name[n] not in shooters]
    return shooters


def _day(game):
    for v in _shooters(game):
        if v.state.get("shot") or not v.alive or game.over:
            continue
        options = game.targets(v.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(v.name, VIGILANTE_SHOOT, options, allow_pass=True))
        if target is None:
            continue
        v.state["shot"] = True
        game.emit("vigilante_shot", PUBLIC, shooter=v.name, target=target)
        from engine.flow.deaths import kill_batch

        yield from kill_batch(game, [(target, "vigilante")])
        if game.over:
            return


def _gun_left(game, player, cause):
    """004: "another human might find it" -- the unused gun, to a living human by lot."""
    if player.role != "vigilante" or player.state.get("shot"):
        return
    found = game.memory.setdefault("guns_found", [])
    humans = [p.name for p in game.players if p.alive and not p.is_wolf and p.name not in found]
    if not humans:
        return
    finder = game.rng.choice(humans)
    found.append(finder)
    player.state["shot"] = True  # one gun, one bullet: it has changed hands
    game.emit("gun_found", game.private(finder), player=finder, previous=player.name)
    return
    yield


register_day_power(
    ("vigilante",), _day, ready=lambda game: game.has_able("vigilante") or any(game.by_name[n].alive for n in game.memory.get("guns_found", ()))
)
register_death_hook(30, _gun_left, roles=("vigilante",), when=lambda o: o.vigilante_gun_found)

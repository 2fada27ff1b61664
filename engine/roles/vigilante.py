"""The Vigilante (004): "you only have one bullet. Once you're sure you know who you want
dead, during any Day phase, you can announce your role publicly, and shoot anyone you
want (this MUST BE CONFIRMED BY THE HOST). That player is dead IMMEDIATELY"; 6-A: "Any
Vigilante who makes a kill which is confirmed by the Host is a confirmed Human."

Each day, after the debate and before the votes, ``vigilante_shoot``: a living player,
or null to hold fire. The shot is public and names the Vigilante; the target dies at
once (cause ``vigilante``). One bullet per game. "Nobody can pretend to be the
Vigilante": only the card is asked. Not modelled: the Hosts who cancel the lynching
after a shot, and the gun found by another human."""

from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.flow.day_powers import register_day_power
from engine.roles.base import VILLAGE, RoleSpec, register_role

VIGILANTE = register_role(
    RoleSpec(
        id="vigilante",
        name="Vigilante",
        camp=VILLAGE,
        summary="Once per game, during a day, you may reveal yourself and shoot a player dead on the spot.",
        decisions=("vigilante_shoot",),
        presets=("forum",),
    )
)


def _day(game):
    for v in game.able("vigilante"):
        if v.state.get("shot") or not v.alive or game.over:
            continue
        options = game.targets(v.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(v.name, "vigilante_shoot", options, allow_pass=True))
        if target is None:
            continue
        v.state["shot"] = True
        game.emit("vigilante_shot", PUBLIC, shooter=v.name, target=target)
        from engine.flow.deaths import kill_batch

        yield from kill_batch(game, [(target, "vigilante")])
        if game.over:
            return


register_day_power(("vigilante",), _day)

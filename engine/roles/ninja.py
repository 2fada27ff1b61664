"""The Ninja (004): "At night, you must PM the Host to tell them if you're doing any
stealthy assassinating tonight. Even if you kill a Wolf, the Wolves still get their kill
(meaning if you act, the Humans will wake up with two deaths in the morning) ... as you
can do it multiple times ... (Also, if other Aux Roles that perform actions at night,
such as the Insomniac or Guardian Angel, happen to be up and about the same night you
are, you'll be told what you saw on the way to your target.)"

Each night, after the pack, ``ninja_kill``: a living player, or null. The victim dies at
dawn with the pack's (cause ``ninja``; a night kill: no final words). Acting, he is told
who else was up that night (an awake Insomniac, a protecting Guardian Angel) and what
they are."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import CHOICE, WOLF, Power, decision

NINJA_KILL = decision("ninja_kill", CHOICE, power=Power(WOLF, note="the forum's Ninja (a human): a night kill"))

NINJA = register_role(
    RoleSpec(
        id="ninja",
        name="Ninja",
        camp=VILLAGE,
        summary="Each night you may assassinate a player; on the way you see who else is up and about.",
        decisions=(NINJA_KILL,),
        presets=("forum",),
    )
)


def _run(game):
    for ninja in game.able("ninja"):
        options = game.targets(ninja.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(ninja.name, NINJA_KILL, options, allow_pass=True))
        if target is None:
            continue
        game.night["kills"].append((target, "ninja"))
        up = [n for n in game.night.get("up", ()) if n != ninja.name]
        game.emit("ninja_saw", game.private(ninja.name), target=target, seen={n: game.by_name[n].role for n in up})


register_step(NightStep(name="ninja", order=235, run=_run, active=lambda game: game.has_able("ninja"), roles=("ninja",)))

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

from __future__ import annotations

from dataclasses import dataclass, field

from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

NINJA_KILL = decision("ninja_kill", CHOICE, power=Power(WOLF, note="the forum's Ninja (a human): a night kill"))


@dataclass(slots=True)
class UpNight:
    """Who is "up and about" tonight, in the order they got up (an awake Insomniac, a
    protecting Guardian Angel): what a Ninja sees on his way. They write it, he reads it."""

    names: list[str] = field(default_factory=list)


@event("ninja_saw")
class NinjaSaw(EventData):
    """The Ninja's strike, and who he saw up on the way: ``seen`` maps each of them to
    their card."""

    target: Name
    seen: dict[str, str]


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


def _run(game: GameState) -> Script:
    for ninja in game.able("ninja"):
        options = game.targets(ninja.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(ninja.name, NINJA_KILL, options, None, True))
        if target is None:
            continue
        game.night.kills.append((target, "ninja"))
        up = game.night.peek(UpNight)
        seen = [n for n in up.names if n != ninja.name] if up is not None else []
        game.emit(NinjaSaw(target, {n: game.by_name[n].role for n in seen}), private(ninja.name))


register_step(NightStep(name="ninja", run=_run, active=lambda game: game.has_able("ninja"), roles=("ninja",)))

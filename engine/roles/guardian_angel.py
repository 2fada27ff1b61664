"""The Guardian Angel (004): "Each night, you must PM the Host telling them who, if anyone,
you're protecting tonight. You can't protect the same person more than one night in a
row (unless the Wolves choose that person to kill - in which case, nobody dies that
night, and you can protect the same player again the next night). Sure, you can
protect yourself".

Each night, first, ``guardian_angel_protect``: a living player (herself allowed), or
null. Not last night's charge, unless the pack attacked that charge last night. The
protected player survives every night kill (the pack's, the Ninja's). A protecting
Angel is "up and about" for the Ninja. "Some games force you to blow your cover when
a protection is successful": ``guardian_angel_reveal`` makes a save public, with her
name (Article 6-B: "Any Guardian Angel who makes a successful save that blows their
cover ... is a confirmed Human"); by default it is told to the Angel alone."""

from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_resolver, register_role, register_step
from engine.decisions import CHOICE, NOT_WOLF, Power, decision

GUARDIAN_ANGEL_PROTECT = decision("guardian_angel_protect", CHOICE, power=Power(NOT_WOLF, note="the forum's Guardian Angel"))

GUARDIAN_ANGEL = register_role(
    RoleSpec(
        id="guardian_angel",
        name="Guardian Angel",
        camp=VILLAGE,
        summary="Each night you may protect a player from being killed; never the same player two nights running, unless they were attacked.",
        decisions=(GUARDIAN_ANGEL_PROTECT,),
        presets=("forum",),
    )
)
NIGHT_KILLS = ("werewolves", "ninja")


def _run(game):
    for angel in game.able("guardian_angel"):
        options = list(game.alive_names())
        last = angel.state.get("last_protect")  # (night, target, attacked)
        if last is not None and last[0] == game.day - 1 and not last[2]:
            options = [n for n in options if n != last[1]]
        target = yield from ask_one(
            game.ask(angel.name, GUARDIAN_ANGEL_PROTECT, tuple(options), allow_pass=True, last=last[1] if last else None)
        )
        angel.state["last_protect"] = (game.day, target, False) if target is not None else None
        if target is None:
            continue
        game.night.setdefault("protected", []).append((angel.name, target))
        game.night.setdefault("up", []).append(angel.name)


def _protect(game) -> None:
    night = game.night
    for angel_name, target in night.get("protected", ()):
        angel = game.by_name[angel_name]
        if target in night.get("attacked", ()):
            angel.state["last_protect"] = (game.day, target, True)
        before = len(night["kills"])
        night["kills"] = [(n, c) for n, c in night["kills"] if not (n == target and c in NIGHT_KILLS)]
        if len(night["kills"]) != before:
            if game.options.guardian_angel_reveal:  # 004: "some games force you to blow your cover"
                game.emit("guardian_angel_saved", PUBLIC, target=target, angel=angel_name)
            else:
                game.emit("guardian_angel_saved", game.private(angel_name), target=target)


register_step(
    NightStep(name="guardian_angel", order=96, run=_run, active=lambda game: game.has_able("guardian_angel"), roles=("guardian_angel",))
)
register_resolver(11, _protect, roles=("guardian_angel",))

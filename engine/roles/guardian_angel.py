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

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, TypedDict

from engine.decisions import CHOICE, NOT_WOLF, Power, decision
from engine.events import OMIT, PUBLIC, EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_resolver, register_role, register_step
from engine.roles.ninja import UpNight
from engine.game_state import GameState


class GuardianAngelProtectContext(TypedDict, total=False):
    last: str | None  # the player she protected last night (None: nobody)


GUARDIAN_ANGEL_PROTECT = decision(
    "guardian_angel_protect",
    CHOICE,
    context=GuardianAngelProtectContext,
    power=Power(NOT_WOLF, note="the forum's Guardian Angel"),
)


@dataclass(slots=True)
class GuardianAngelState:
    """Her last protection: (night, charge, whether the pack attacked that charge), or
    None when she protected nobody last time she was called."""

    last: tuple[int, str, bool] | None = None


@dataclass(slots=True)
class ProtectedNight:
    """Tonight's protections: (angel, charge) pairs, in the order they were made."""

    charges: list[tuple[str, str]] = field(default_factory=list)


@event("guardian_angel_saved")
class GuardianAngelSaved(EventData):
    """A protection that saved ``target`` from a night kill; ``angel`` names her when the
    save is public (``guardian_angel_reveal``), else the key is absent."""

    target: Name
    angel: Annotated[Name | None, OMIT] = None


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


def _run(game: GameState) -> Script:
    for angel in game.able("guardian_angel"):
        st = angel.state.of(GuardianAngelState)
        options = list(game.alive_names())
        last = st.last
        if last is not None and last[0] == game.day - 1 and not last[2]:
            options = [n for n in options if n != last[1]]
        context: GuardianAngelProtectContext = {"last": last[1] if last else None}
        target = yield from ask_one(game.ask(angel.name, GUARDIAN_ANGEL_PROTECT, tuple(options), context, True))
        st.last = (game.day, target, False) if target is not None else None
        if target is None:
            continue
        game.night.of(ProtectedNight).charges.append((angel.name, target))
        game.night.of(UpNight).names.append(angel.name)


def _protect(game: GameState) -> None:
    night = game.night
    protected = night.peek(ProtectedNight)
    if protected is None:
        return
    for angel_name, target in protected.charges:
        angel = game.by_name[angel_name]
        if target in night.attacked:
            angel.state.of(GuardianAngelState).last = (game.day, target, True)
        before = len(night.kills)
        night.kills = [(n, c) for n, c in night.kills if not (n == target and c in NIGHT_KILLS)]
        if len(night.kills) != before:
            if game.options.guardian_angel_reveal:  # 004: "some games force you to blow your cover"
                game.emit(GuardianAngelSaved(target, angel_name), PUBLIC)
            else:
                game.emit(GuardianAngelSaved(target), private(angel_name))


register_step(
    NightStep(name="guardian_angel", run=_run, active=lambda game: game.has_able("guardian_angel"), roles=("guardian_angel",))
)
register_resolver(11, _protect, roles=("guardian_angel",))

"""The Guard / Protector (001 zh 守护者 / 守卫).

"每晚可以守护一个人，该人不会被狼人杀害（但仍然可以被女巫毒死）。可以守护自己，但是不能连续2天
晚上守护同一个人。" Each night he guards one player, who cannot be devoured that night
(the Witch's poison still kills); he may guard himself, never the same player two nights
running. Variant 10 (option ``protector_neighbours_only``): "守卫只能保护自己，或者他左右手
的两名玩家中的一个" -- only himself or one of his two living neighbours.

Called before the Seer and the pack (at the table the guard wakes first, so his choice
cannot depend on the wolves'). The guard applies at dawn, before the night's kills: a
guarded player attacked by the wolves does not die. Common 狼人杀 practice (option
``protector_heal_clash``, off by default): guarded and healed the same night, he dies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from engine.decisions import CHOICE, NOT_WOLF, Power, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import DEVOURED, VILLAGE, NightStep, RoleSpec, Shielded, register_resolver, register_role, register_step
from engine.roles.witch import Healed
from engine.game_state import GameState


class ProtectorGuardContext(TypedDict, total=False):
    last: str | None  # the player he guarded last night, whom he may not guard again (None: none)


PROTECTOR_GUARD = decision("protector_guard", CHOICE, context=ProtectorGuardContext, power=Power(NOT_WOLF, note="the Protector's guard"))


@dataclass(slots=True)
class ProtectorState:
    """His last guard: (night, guarded player), None before his first."""

    last: tuple[int, str] | None = None


@dataclass(slots=True)
class GuardNight:
    """The players guarded tonight, in the order the guards chose them."""

    guarded: list[str] = field(default_factory=list)


@event("protector_guard")
class ProtectorGuard(EventData):
    target: Name


PROTECTOR = register_role(
    RoleSpec(
        id="protector",
        name="Protector",
        camp=VILLAGE,
        summary="Each night you guard one player (yourself allowed, never the same player two nights running): the werewolves cannot kill them that night.",
        decisions=(PROTECTOR_GUARD,),
        presets=("langrensha",),
    )
)


def _active(game: GameState) -> bool:
    return game.has_able("protector")


def _run(game: GameState) -> Script:
    for guard in game.able("protector"):
        options = game.alive_names()
        if game.options.protector_neighbours_only:
            near = {guard.name, *(p.name for p in game.neighbours(guard.name))}
            options = [n for n in options if n in near]
        st = guard.state.of(ProtectorState)
        last = st.last
        if last is not None and last[0] == game.day - 1:
            options = [n for n in options if n != last[1]]
        if not options:
            continue
        context: ProtectorGuardContext = {"last": last[1] if last else None}
        target = yield from ask_one(game.ask(guard.name, PROTECTOR_GUARD, tuple(options), context))
        st.last = (game.day, target)
        game.night.of(GuardNight).guarded.append(target)
        game.emit(ProtectorGuard(target), private(guard.name))


def _shield(game: GameState) -> None:
    night = game.night
    guards = night.peek(GuardNight)
    if guards is None:
        return
    kills = night.kills
    for g in guards.guarded:
        if g not in night.attacked:
            continue
        if game.options.protector_heal_clash and g in _healed(game):
            if not any(n == g for n, _ in kills):
                kills.insert(0, (g, "werewolves"))  # 同守同救: the two protections cancel out
            continue
        night.kills = kills = [(n, c) for n, c in kills if not (n == g and c in DEVOURED)]
        night.of(Shielded).players.append(g)


def _healed(game: GameState) -> list[str]:
    """The players the Witch healed tonight."""
    healed = game.night.peek(Healed)
    return healed.players if healed is not None else []


register_step(NightStep(name="protector", run=_run, active=_active, roles=("protector",)))
register_resolver(10, _shield, roles=("protector",))

"""The Pack Leader (004, "(Were)Wolf"): "In some larger games, the Pack Leader role may
be used; the Pack Leader can choose to "sniff" a Human each night to see if that Human
holds an Auxiliary Role."

A werewolf (he hunts with the pack) who, each night alongside the pack, may name a
living non-wolf (``pack_leader_sniff``, or null) and learns whether they hold an
Auxiliary Role (any human card but the Civilian's). "In really big games, he might even
be told what it is": from ``pack_leader_exact_from`` players (0, the default: never) he
is told the card itself."""

from __future__ import annotations

from typing import Annotated

from engine.decisions import AUXILIARY, CHOICE, Power, decision
from engine.events import OMIT, EventData, Name, RoleId, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step
from engine.roles.civilian import PLAIN
from engine.game_state import GameState

PACK_LEADER_SNIFF = decision("pack_leader_sniff", CHOICE, power=Power(AUXILIARY, side="werewolves", note="the Pack Leader looks for Auxiliary Roles among humans"))


@event("pack_leader_sniff")
class PackLeaderSniff(EventData):
    """Whether ``target`` holds an Auxiliary Role; ``role`` is the card itself in games
    of ``pack_leader_exact_from`` players or more (else the key is absent)."""

    target: Name
    auxiliary: bool
    role: Annotated[RoleId | None, OMIT] = None


PACK_LEADER = register_role(
    RoleSpec(
        id="pack_leader",
        name="Pack Leader",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="A werewolf who each night may sniff a human to learn whether they hold an Auxiliary Role.",
        decisions=(PACK_LEADER_SNIFF,),
        presets=("forum",),
    )
)


def _run(game: GameState) -> Script:
    for leader in game.able("pack_leader"):
        options = tuple(p.name for p in game.players if p.alive and not p.is_wolf and p.name not in game.spares(leader.name))
        if not options:
            continue
        target = yield from ask_one(game.ask(leader.name, PACK_LEADER_SNIFF, options, None, True))
        if target is not None:
            role = game.by_name[target].role
            big = game.options.pack_leader_exact_from
            exact = role if big and len(game.players) >= big else None
            game.emit(PackLeaderSniff(target, role not in PLAIN, exact), private(leader.name))


register_step(
    NightStep(
        name="pack_leader",
        run=_run,
        active=lambda game: game.has_able("pack_leader"),
        group="night_main",
        roles=("pack_leader", "mad_scientist"),
    )
)

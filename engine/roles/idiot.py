"""The Idiot (001 zh 白痴).

The seed lists him among the roles ("白痴行动：白痴无法行动" -- he has no night action)
and says: "白痴如果已经揭开身份，则将同长老一起死去" -- a revealed Idiot dies with the Elder.
His power is the common 狼人杀 one (the issue's statement, also New Moon's Village
Idiot): when the village votes him out he reveals his card and survives, but from then
on he has no vote. It works once: voted out again, he dies. A revealed Idiot still
speaks. When the Elder's death takes the village's powers, a revealed Idiot dies with
him (cause ``with_elder``); an Idiot not yet revealed simply loses his pardon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.events import PUBLIC, EventData, Name, RoleId, event
from engine.flow.common import Script
from engine.roles.base import VILLAGE, RoleSpec, register_batch_hook, register_pardon, register_role
from engine.roles.elder import PowersLost

if TYPE_CHECKING:  # pragma: no cover  (engine.game imports the roles: a cycle at run time)
    from engine.game import Game, Player


@event("idiot_revealed")
class IdiotRevealed(EventData):
    """Voted out, the Idiot shows his card and survives, without a vote from now on."""

    player: Name
    role: RoleId


@dataclass(slots=True)
class IdiotState:
    """His pardon is spent: revealed, he has no vote and dies with the Elder."""

    revealed: bool = False


IDIOT = register_role(
    RoleSpec(
        id="idiot",
        name="Idiot",
        camp=VILLAGE,
        summary="If the village votes you out, your card is revealed and you survive, but you can no longer vote.",
        presets=("langrensha",),
    )
)


def _pardon(game: Game, target: str) -> Script:
    p = game.by_name[target]
    if p.role != "idiot" or p.powerless:
        return False
    st = p.state.of(IdiotState)
    if st.revealed:
        return False
    st.revealed = True
    game.voteless.add(target)
    game.emit(IdiotRevealed(target, "idiot"), PUBLIC)
    return True
    yield  # a generator, like every pardon


def _revealed(p: Player) -> bool:
    st = p.state.peek(IdiotState)
    return st is not None and st.revealed


def _with_elder(game: Game, fallen: list[tuple[Player, str]], queue: list[tuple[str, str]]) -> None:
    lost = game.memory.peek(PowersLost)
    if lost is None or not lost.elder:
        return
    for p in game.players:
        if p.role == "idiot" and p.alive and _revealed(p) and (p.name, "with_elder") not in queue:
            queue.append((p.name, "with_elder"))


register_pardon(10, _pardon, roles=("idiot",))
register_batch_hook(20, _with_elder, roles=("idiot",))

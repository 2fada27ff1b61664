"""The Idiot (001 zh 白痴).

The seed lists him among the roles ("白痴行动：白痴无法行动" -- he has no night action)
and says, right after the Elder's loss of the village's powers: "当长老不是被狼人杀死的
（即死于女巫，猎人，村民投票）的时候，村里的特殊身份（猎人，守护者，女巫，先知）将全部失去他们
的能力。白痴如果已经揭开身份，则将同长老一起死去。" -- an Idiot who has already revealed
himself when the Elder dies that way dies together with him. His power is the common
狼人杀 one (the issue's statement, also New Moon's Village Idiot): when the village
votes him out he reveals his card and survives, but from then on he has no vote. It
works once: voted out again, he dies. A revealed Idiot still speaks.

The death with the Elder is tied to a moment, the Elder's death ("同长老一起", together
with the Elder), not to the state it leaves: the batch hook acts only in the batch in
which an Elder dies by the vote, the poison or the Hunter's shot, and kills the Idiots
revealed by then (cause ``with_elder``). An Idiot revealed later (he kept his pardon
under ``elder_loss_roles: listed``, whose list does not name him) lives on; one not
yet revealed under ``all`` has simply lost his pardon (``Player.powerless``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import PUBLIC, EventData, Name, RoleId, event
from engine.flow.common import Script
from engine.roles.base import VILLAGE, RoleSpec, register_batch_hook, register_pardon, register_role
from engine.roles.elder import takes_the_powers
from engine.game_state import GameState, Player


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


def _pardon(game: GameState, target: str) -> Script:
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


def _with_elder(game: GameState, fallen: list[tuple[Player, str]], queue: list[tuple[str, str]]) -> None:
    """In the Elder's own batch only: a later batch leaves a later-revealed Idiot alone."""
    if not any(takes_the_powers(p, cause) for p, cause in fallen):
        return
    for p in game.players:
        if p.role == "idiot" and p.alive and _revealed(p) and (p.name, "with_elder") not in queue:
            queue.append((p.name, "with_elder"))


register_pardon(10, _pardon, roles=("idiot",))
register_batch_hook(20, _with_elder, roles=("idiot",))

"""The Knight with the Rusty Sword (003 "Knight in the Rugged Sword").

"If it is devoured, it dies, but contaminates the first responsible Wolf-Garou met to
its left around the circle. This wolf dies at the beginning of the next night; the
leader reveals this death the following morning. It is not an immediate elimination
the same morning as the Knight." Aide-mémoire: "Early night: remove the wolf condemned
by the Sword if its delay arrives; do not allow it to hunt. His death will be announced
in the morning."

Devoured means by the pack or the Big Bad Wolf. The contaminated wolf is the first
living werewolf clockwise from the Knight's left (the next seat). Nobody is told
(narrator-only ``rusty_sword``). At the start of the next night he is out of play (he
neither hunts nor is targeted); his death (cause ``rusty_sword``) is told at dawn with
the night's other deaths, first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import NARRATOR, EventData, Name, event
from engine.flow.common import Script
from engine.flow.leaving import OutOfPlay, ToldAtDawn
from engine.roles.base import DEVOURED, VILLAGE, NightStep, RoleSpec, register_death_hook, register_role, register_step
from engine.game_state import GameState, Player


@event("rusty_sword")
class RustySword(EventData):
    """The devoured Knight's sword contaminates this wolf (narrator only: nobody is told)."""

    knight: Name
    wolf: Name


@dataclass(slots=True)
class Contaminated:
    """Memory: the wolves the sword contaminated, taken out of play when the next night starts."""

    wolves: list[str] = field(default_factory=list)


RUSTY_KNIGHT = register_role(
    RoleSpec(
        id="rusty_knight",
        name="Knight with the Rusty Sword",
        camp=VILLAGE,
        summary="If the werewolves devour you, the first werewolf to your left catches tetanus from your rusty sword and dies the next night.",
        presets=("best_of",),
    )
)


def _contaminate(game: GameState, player: Player, cause: str) -> Script:
    if player.role != "rusty_knight" or cause not in DEVOURED or player.powerless:
        return
    n = len(game.players)
    for k in range(1, n):
        p = game.table[(player.seat + k) % n]
        if p.alive and p.is_wolf:
            game.memory.of(Contaminated).wolves.append(p.name)
            game.emit(RustySword(player.name, p.name), NARRATOR)
            break
    return
    yield  # a generator, like every death hook


def _active(game: GameState) -> bool:
    due = game.memory.peek(Contaminated)
    return due is not None and bool(due.wolves)


def _run(game: GameState) -> Script:
    due = game.memory.drop(Contaminated)
    assert due is not None  # ``_active``
    for name in due.wolves:
        p = game.by_name[name]
        if not p.alive:
            continue
        p.alive = False  # out of play from the start of the night...
        p.state.of(OutOfPlay)  # ...his death told at dawn (engine.flow.deaths)
        game.night.kills.insert(0, (name, "rusty_sword"))
        game.night.of(ToldAtDawn).deaths.append((name, "rusty_sword"))
    return
    yield


register_death_hook(15, _contaminate, roles=("rusty_knight",))
register_step(NightStep(name="rusty_sword", run=_run, active=_active, roles=("rusty_knight",)))

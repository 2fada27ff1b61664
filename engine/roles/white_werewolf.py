"""The White Werewolf (003 "White Wolf-Garou"; 000 The Village).

"He hunts every night with the pack, but wins only if he remains the only survivor.
From the second night, one night out of two, he is awakened alone after the pack and
can kill another Wolf-Garou. He is an enemy of both sides; do not announce a joint
victory with wolves as long as he pursues his goal." Aide-mémoire: "The White
Wolf-Garou does not receive a solitary attack on the first night."

He is a werewolf (he wakes with the pack, the pack cannot devour him, the village wins
only once he is dead too) whose camp is his own. On nights 2, 4, 6... after the pack he
answers ``white_werewolf_kill``: another living werewolf, or null. The victim dies at
dawn (cause ``white_werewolf``). It is not a devouring: the Witch is not shown it, the
Elder's life and the guard do not stop it. He wins alone when he is the last one alive.
"""

from __future__ import annotations


from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.flow.victory import camp_of
from engine.roles.base import NightStep, RoleSpec, register_role, register_step, register_victory
from engine.game_state import GameState, Player

WHITE_WEREWOLF_KILL = decision("white_werewolf_kill", CHOICE, unmeasured="a kill among the wolves, for a solitary goal")


@event("white_werewolf_kill")
class WhiteWerewolfKill(EventData):
    """The White Werewolf's choice tonight, told to him (None: he spared the pack)."""

    target: Name | None


WHITE = "white_werewolf"

WHITE_WEREWOLF = register_role(
    RoleSpec(
        id=WHITE,
        name="White Werewolf",
        camp=WHITE,
        is_wolf=True,
        summary="You hunt with the werewolves, but every other night you may also kill a werewolf: you win only as the last one alive.",
        decisions=(WHITE_WEREWOLF_KILL,),
        presets=("best_of",),
    )
)


def _active(game: GameState) -> bool:
    return game.day % 2 == 0 and game.has_able(WHITE)


def _run(game: GameState) -> Script:
    for ww in game.able(WHITE):
        spare = game.spares(ww.name)
        options = tuple(p.name for p in game.players if p.alive and p.is_wolf and p is not ww and p.name not in spare)
        target = yield from ask_one(game.ask(ww.name, WHITE_WEREWOLF_KILL, options, None, True))
        game.emit(WhiteWerewolfKill(target), private(ww.name))
        if target is not None:
            game.night.kills.append((target, "white_werewolf"))


def _alone(game: GameState, alive: list[Player]) -> tuple[str, str] | None:
    if len(alive) == 1 and alive[0].role == WHITE and camp_of(game, alive[0]) == WHITE:
        return WHITE, "the White Werewolf is the last one alive"
    return None


register_step(NightStep(name=WHITE, run=_run, active=_active, later_nights_only=True, roles=(WHITE,)))
register_victory(20, _alone, roles=(WHITE,))

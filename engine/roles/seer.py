"""The Seer (Fortune Teller): each night she sees one player's card (000 "The Fortune Teller").

She is asked alongside the wolves: her look does not depend on their choice, so both
are pending together (group ``night_main``)."""

from __future__ import annotations

from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import EventData, Name, RoleId, event, private
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.roles.werewolf import Exposed
from engine.game_state import GameState, Script

SEER_CHECK = decision("seer_check", CHOICE, power=Power(WOLF, note="the Seer sees a card"))


@event("seer_result")
class SeerResult(EventData):
    """What the Seer saw: ``target``'s card at that moment."""

    seer: Name
    target: Name
    role: RoleId

SEER = register_role(
    RoleSpec(
        id="seer",
        name="Seer",
        camp=VILLAGE,
        summary="Each night you learn the true role of one player of your choice.",
        decisions=(SEER_CHECK,),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _active(game: GameState) -> bool:
    return game.has_able("seer")


def _run(game: GameState) -> Script:
    for seer in game.able("seer"):
        name = seer.name
        options = tuple([p.name for p in game.players if p.alive and p.name != name])
        if not options:
            continue
        d = game.ask(name, SEER_CHECK, options)
        target = (yield [d])[d.id]
        game.emit(SeerResult(name, target, game.by_name[target].role), private(name))
        if game.options.wolves_exposed_idle and game.by_name[target].is_wolf:
            # 失业狼人 (001 zh glossary): found out, he kills no more from the next night
            game.memory.of(Exposed).found.setdefault(target, game.day)


register_step(NightStep(name="seer", run=_run, active=_active, group="night_main", roles=("seer",)))

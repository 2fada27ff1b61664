"""The Psychic (004): "You can see hidden talents in others (and the truth in Wolves).
Each night, you must PM the Host and tell them whether you wish to exercise your
ability (you'll be informed of that player's exact role)."

Each night ``psychic_read``: a living player (not herself), or null to rest; she learns
their exact card. "The Wolves might get informed if you do this, so look out!": option
``wolves_told_seers`` (``engine.roles.forum_seer.tell_pack``)."""

from __future__ import annotations


from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import EventData, Name, RoleId, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.roles.forum_seer import tell_pack
from engine.game_state import GameState

PSYCHIC_READ = decision("psychic_read", CHOICE, power=Power(WOLF, note="the forum's Psychic reads a card"))


@event("psychic_result")
class PsychicResult(EventData):
    """What the Psychic read: ``target``'s exact card at that moment."""

    target: Name
    role: RoleId


PSYCHIC = register_role(
    RoleSpec(
        id="psychic",
        name="Psychic",
        camp=VILLAGE,
        summary="Each night you may learn the exact role of one player.",
        decisions=(PSYCHIC_READ,),
        presets=("forum",),
    )
)


def _run(game: GameState) -> Script:
    for psychic in game.able("psychic"):
        options = tuple(n for n in game.alive_names() if n != psychic.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(psychic.name, PSYCHIC_READ, options, None, True))
        if target is not None:
            game.emit(PsychicResult(target, game.by_name[target].role), private(psychic.name))
            tell_pack(game, "psychic", psychic.name)


register_step(
    NightStep(name="psychic", run=_run, active=lambda game: game.has_able("psychic"), group="night_main", roles=("psychic",))
)

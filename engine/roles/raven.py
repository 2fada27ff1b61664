"""The Raven (000 The Village, "The Raven"): "Each end of night, after the Werewolves have
gone back to sleep (when his role is called), the Raven may designate a player he
suspects. The narrator then places the "anonymous poster" marker on the designated
player's home. That player will automatically have 2 extra votes against them at the
next vote count ... The Raven cannot designate any Vagabond."

Last of the night (000 "Reminder of the Turns of Play": the Raven closes the night),
``raven_mark``: another living player, or null. The poster is public at dawn
(``raven_poster``); the next day vote counts 2 more votes against that player."""

from __future__ import annotations


from engine.buildings.base import vagabonds
from engine.decisions import CHOICE, WOLF, Power, decision
from engine.events import PUBLIC, EventData, Name, event
from engine.flow.common import Script, ask_one
from engine.flow.voting import VotesDue
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState

RAVEN_MARK = decision("raven_mark", CHOICE, power=Power(WOLF, note="the Raven's poster: two votes against"))


@event("raven_poster")
class RavenPoster(EventData):
    """The anonymous poster on ``target``'s home: two more votes against them."""

    target: Name


RAVEN = register_role(
    RoleSpec(
        id="raven",
        name="Raven",
        camp=VILLAGE,
        summary="At the end of each night you may post an anonymous accusation: that player gets 2 extra votes against them at the next vote.",
        decisions=(RAVEN_MARK,),
        presets=("village",),
    )
)


def _run(game: GameState) -> Script:
    for raven in game.able("raven"):
        options = game.targets(raven.name, exclude=vagabonds(game))
        if not options:
            continue
        target = yield from ask_one(game.ask(raven.name, RAVEN_MARK, options, None, True))
        if target is not None:
            due = game.memory.of(VotesDue).votes  # counted and forgotten by the next vote
            due[target] = due.get(target, 0) + 2
            game.emit(RavenPoster(target), PUBLIC)


register_step(NightStep(name="raven", run=_run, active=lambda game: game.has_able("raven"), roles=("raven",)))

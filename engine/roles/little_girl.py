"""The Little Girl, in a digital form of peeking (000 "The Little Girl").

At the table she half-opens her eyes during the wolves' turn. Here she decides each
night whether to spy (``little_girl_spy``). If she does, she reads the pack's talk and
sees their choices with every name of a wolf withheld, and runs a risk
``little_girl_catch_chance`` of being caught. Caught, the wolves learn who she is and
(000) "may change their mind and devour her instead", or (002, 001 en, option
``little_girl_caught: dies``) she dies in place of their victim. The pack step in
``engine.roles.werewolf`` does the reading and the catching; this step only asks."""

from __future__ import annotations

from typing import TypedDict

from engine.decisions import BOOL, decision
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.roles.werewolf import Spies
from engine.game_state import GameState


class LittleGirlSpyContext(TypedDict, total=False):
    catch_chance: float  # the chance that the pack catches her if she spies (``little_girl_catch_chance``)


LITTLE_GIRL_SPY = decision("little_girl_spy", BOOL, context=LittleGirlSpyContext, unmeasured="yes/no, no target")

LITTLE_GIRL = register_role(
    RoleSpec(
        id="little_girl",
        name="Little Girl",
        camp=VILLAGE,
        summary="Each night you may spy on the werewolves: you read their talk and see their choice without learning who they are, but you may be caught.",
        decisions=(LITTLE_GIRL_SPY,),
        presets=("millers_hollow", "millers_hollow_es", "best_of"),
    )
)


def _active(game: GameState) -> bool:
    return game.has_able("little_girl") and bool(game.wolves())


def _run(game: GameState) -> Script:
    spies = []
    for girl in game.able("little_girl"):
        chance = game.options.little_girl_catch_chance
        if (yield from ask_one(game.ask(girl.name, LITTLE_GIRL_SPY, (True, False), {"catch_chance": chance}))):
            spies.append(girl.name)
    game.night.of(Spies).names = spies


# Her choice to peek must be known before the pack wakes: the pack step reads the night's
# ``Spies`` when it starts (to route the overheard talk and to draw the catch). Asked in
# parallel with the pack (group ``night_main``), the spy answer arrived only after the
# pack step had read an empty list, so she never overheard anything and was never caught.
# 000 step 2: "During this turn, the Little Girl may spy on the Werewolves" -- she decides
# first, then the Seer and the pack are called as before.
register_step(NightStep(name="little_girl", run=_run, active=_active, roles=("little_girl",)))

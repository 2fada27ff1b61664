"""The Big Bad Wolf (003 "Grand-Méchant-Loup").

"He participates in the pack and then wakes up a second time to devour another
non-Wolf-Garou victim, as long as no other Wolf-Garou has been eliminated. As soon as
one of his congeners has died, this second attack disappears; he remains a member of
the pack."

After the pack and the Infect Father, while no other werewolf has died (any player who
was in the pack when he died, the Rusty Knight's victim included), he answers
``big_bad_wolf_kill``: a living player who is not a werewolf, not the pack's victim and
not his beloved. The victim dies at dawn (cause ``big_bad_wolf``); the Witch is shown
both victims.
"""

from __future__ import annotations

from typing import TypedDict

from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState


class BigBadWolfKillContext(TypedDict, total=False):
    pack_victim: str | None  # the pack's victim tonight, whom he may not take again


BIG_BAD_WOLF_KILL = decision(
    "big_bad_wolf_kill", CHOICE, context=BigBadWolfKillContext, unmeasured="a wolf's kill among non-wolves"
)


@event("big_bad_wolf_victim")
class BigBadWolfVictim(EventData):
    """The Big Bad Wolf's second victim tonight, told to him."""

    target: Name


BIG_BAD_WOLF = register_role(
    RoleSpec(
        id="big_bad_wolf",
        name="Big Bad Wolf",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="You hunt with the werewolves, then each night devour a second victim alone, as long as no werewolf has died.",
        decisions=(BIG_BAD_WOLF_KILL,),
        presets=("best_of",),
    )
)


def _active(game: GameState) -> bool:
    if not game.has_able("big_bad_wolf"):
        return False
    return not any(not p.alive and p.is_wolf and p.role != "big_bad_wolf" for p in game.players)


def _run(game: GameState) -> Script:
    night = game.night
    for bbw in game.able("big_bad_wolf"):
        if not bbw.is_wolf:
            continue
        spare = game.spares(bbw.name)
        first = night.wolf_victim
        options = tuple(
            p.name for p in game.players if p.alive and not p.is_wolf and p.name != first and p.name not in spare
        )
        if not options:
            continue
        target = yield from ask_one(game.ask(bbw.name, BIG_BAD_WOLF_KILL, options, {"pack_victim": first}))
        night.kills.append((target, "big_bad_wolf"))
        night.attacked.append(target)
        game.emit(BigBadWolfVictim(target), private(bbw.name))


register_step(NightStep(name="big_bad_wolf", run=_run, active=_active, roles=("big_bad_wolf",)))

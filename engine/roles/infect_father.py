"""The Infect Father of the Wolves (003 "Infected Wolf Father").

"He takes part in the pack. Once in the game, after his sleep, he can ask to infect his
victim instead of devouring her. The leader secretly warns the victim: she joins the
pack from the following calls. A character with night power keeps him in addition to
his new camp, unless exception specified by his role. The healing of the Witch does not
remove the infection." The Seer: "A map may not show a change of camp due to
infection". The Elder: "The Infected Father of the Wolves does not infect him." The
Pied Piper: "Infected, he loses this goal and becomes simple Loup-Garou."

After the pack (and the White Werewolf), while his infection is unused and the pack
has a victim, he answers ``infect_father_infect`` (true / false). Infected, the victim
does not die: she turns werewolf (her card, and any power, stay), is told
(``infected``) and wakes with the pack from the next night. The Witch is still shown
the victim; a heal spends the potion and changes nothing. The Elder cannot be
infected: the attempt fails unseen, he is devoured as usual, and the infection is spent
(``infect_father_elder_spends``; 003 does not arbitrate this).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from engine.decisions import BOOL, decision
from engine.events import NARRATOR, EventData, Name, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState


class InfectFatherInfectContext(TypedDict, total=False):
    victim: str  # the pack's victim he may infect instead


INFECT_FATHER_INFECT = decision(
    "infect_father_infect", BOOL, context=InfectFatherInfectContext, unmeasured="yes/no about the pack's victim"
)


@event("infect_father")
class InfectFatherInfected(EventData):
    """The Infect Father is told he infected the pack's victim."""

    target: Name


@event("infected")
class Infected(EventData):
    """The victim is told she was infected: she wakes with the pack from the next night."""

    player: Name


@event("infection_failed")
class InfectionFailed(EventData):
    """The infection of the Elder failed (he cannot be infected): nobody is told."""

    father: Name
    target: Name


@dataclass(slots=True)
class InfectFatherState:
    """His one infection a game: spent (also by a failed try on the Elder, under
    ``infect_father_elder_spends``)."""

    used: bool = False


INFECT_FATHER = register_role(
    RoleSpec(
        id="infect_father",
        name="Infect Father of the Wolves",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="You hunt with the werewolves; once per game you may infect the pack's victim instead: they survive and join the pack.",
        decisions=(INFECT_FATHER_INFECT,),
        presets=("best_of",),
    )
)


def _active(game: GameState) -> bool:
    victim = game.night.wolf_victim
    return victim is not None and game.by_name[victim].alive and game.has_able("infect_father")


def _run(game: GameState) -> Script:
    night = game.night
    for father in game.able("infect_father"):
        st = father.state.of(InfectFatherState)
        if st.used:
            continue
        victim = night.wolf_victim
        assert victim is not None  # ``_active``
        p = game.by_name[victim]
        if not p.alive or p.is_wolf or not any(n == victim and c == "werewolves" for n, c in night.kills):
            return
        infect = yield from ask_one(game.ask(father.name, INFECT_FATHER_INFECT, (True, False), {"victim": victim}))
        if not infect:
            continue
        if p.role == "elder":
            if game.options.infect_father_elder_spends:
                st.used = True
            game.emit(InfectionFailed(father.name, victim), NARRATOR)
            return
        st.used = True
        night.kills = [(n, c) for n, c in night.kills if not (n == victim and c == "werewolves")]
        p.convert(WEREWOLVES, True)
        game.emit(InfectFatherInfected(victim), private(father.name))
        game.emit(Infected(victim), private(victim))
        return


register_step(NightStep(name="infect_father", run=_run, active=_active, roles=("infect_father",)))

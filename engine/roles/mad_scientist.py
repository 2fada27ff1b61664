"""The Mad Scientist (004): "You've got a vial (or perhaps several vials in larger games)
of a DNA-altering compound. If you force this down someone's throat at night, it will,
guaranteed, change them into something else. It could give them (or if they already had
one, change) their Auxiliary Role, but it could just as easily change a Human into a
Wolf ... If you use it on a Wolf, they're gonna mutate and gain Aux Roles. (I can't
have Wolves ... turning into Humans". "Chances and potential nature of changes vary from
game to game."

``mad_scientist_dose``: another living player, or null; ``mad_scientist_vials`` doses
per game. Our chances: a human becomes, with equal chance, a Werewolf or any human card
of this game's deck other than their own (the Civilian included, so an Auxiliary Role
can be lost; the Mad Scientist's own card excluded); a Werewolf becomes the Pack Leader
(a wolf with an Auxiliary power); a Pack Leader is unchanged. The dosed player is told
their new card; the Scientist is told only that the dose went down."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from engine.decisions import CHOICE, decision
from engine.events import EventData, Name, RoleId, event, private
from engine.flow.common import Script, ask_one
from engine.flow.main import Role
from engine.roles.base import ROLES, VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState


class MadScientistDoseContext(TypedDict, total=False):
    vials: int  # the doses she has left, this one included


MAD_SCIENTIST_DOSE = decision(
    "mad_scientist_dose",
    CHOICE,
    context=MadScientistDoseContext,
    unmeasured="a lottery: a human may become a wolf, a wolf the Pack Leader; no target is good",
)


@dataclass(slots=True)
class MadScientistState:
    """The doses she has given; she has ``mad_scientist_vials`` (a game option) in all."""

    used: int = 0


@event("mad_scientist_dose")
class MadScientistDose(EventData):
    """The Scientist is told her dose went down ``target``'s throat (not what it did)."""

    target: Name


@event("mutated")
class Mutated(EventData):
    """The dosed player is told their card after the dose (maybe unchanged)."""

    player: Name
    role: RoleId


MAD_SCIENTIST = register_role(
    RoleSpec(
        id="mad_scientist",
        name="Mad Scientist",
        camp=VILLAGE,
        summary="At night you may force a vial of DNA-altering compound on a player: their card changes, maybe into a werewolf.",
        decisions=(MAD_SCIENTIST_DOSE,),
        presets=("forum",),
    )
)


def _pool(game: GameState, current: str) -> list[str]:
    deck = sorted({p.initial_role for p in game.players} | set(game.center))
    humans = [r for r in deck if not ROLES[r].is_wolf and ROLES[r].camp == VILLAGE and r not in (current, "mad_scientist")]
    return ["werewolf"] + humans


def _run(game: GameState) -> Script:
    for sci in game.able("mad_scientist"):
        st = sci.state.of(MadScientistState)
        left = game.options.mad_scientist_vials - st.used
        if left <= 0:
            continue
        options = game.targets(sci.name)
        if not options:
            continue
        context: MadScientistDoseContext = {"vials": left}
        target = yield from ask_one(game.ask(sci.name, MAD_SCIENTIST_DOSE, options, context, True))
        if target is None:
            continue
        st.used += 1
        p = game.by_name[target]
        if p.is_wolf:
            new = "pack_leader" if p.role == "werewolf" else p.role
        else:
            new = game.rng.choice(_pool(game, p.role))
        if new != p.role:
            p.set_role(new)
            p.powerless = False
        game.emit(MadScientistDose(target), private(sci.name))
        game.emit(Mutated(target, p.role), private(target))
        game.emit(Role(target, p.role), private(target))


register_step(
    NightStep(name="mad_scientist", run=_run, active=lambda game: game.has_able("mad_scientist"), roles=("mad_scientist",))
)

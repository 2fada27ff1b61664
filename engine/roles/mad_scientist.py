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

from engine.flow.common import ask_one
from engine.roles.base import ROLES, VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import CHOICE, decision

MAD_SCIENTIST_DOSE = decision("mad_scientist_dose", CHOICE, unmeasured="a lottery: a human may become a wolf, a wolf the Pack Leader; no target is good")

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


def _pool(game, current: str) -> list[str]:
    deck = sorted({p.initial_role for p in game.players} | set(game.center))
    humans = [r for r in deck if not ROLES[r].is_wolf and ROLES[r].camp == VILLAGE and r not in (current, "mad_scientist")]
    return ["werewolf"] + humans


def _run(game):
    for sci in game.able("mad_scientist"):
        left = sci.state.get("vials", game.options.mad_scientist_vials)
        if left <= 0:
            continue
        options = game.targets(sci.name)
        if not options:
            continue
        target = yield from ask_one(game.ask(sci.name, MAD_SCIENTIST_DOSE, options, allow_pass=True, vials=left))
        if target is None:
            continue
        sci.state["vials"] = left - 1
        p = game.by_name[target]
        if p.is_wolf:
            new = "pack_leader" if p.role == "werewolf" else p.role
        else:
            new = game.rng.choice(_pool(game, p.role))
        if new != p.role:
            p.set_role(new)
            p.powerless = False
        game.emit("mad_scientist_dose", game.private(sci.name), target=target)
        game.emit("mutated", game.private(target), player=target, role=p.role)
        game.emit("role", game.private(target), player=target, role=p.role)


register_step(
    NightStep(name="mad_scientist", order=325, run=_run, active=lambda game: game.has_able("mad_scientist"), roles=("mad_scientist",))
)

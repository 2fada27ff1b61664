"""The Thief (000 "The Thief"): on the first night he may swap his card for one of the
two set aside, and must take a Werewolf when both are Werewolves."""

from engine.flow.common import ask_one
from engine.roles import ROLES
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import CHOICE, decision

THIEF_SWAP = decision("thief_swap", CHOICE, unmeasured="a card, not a player")

THIEF = register_role(
    RoleSpec(
        id="thief",
        name="Thief",
        camp=VILLAGE,
        summary="On the first night you see the two set-aside cards and may take one of them in exchange for yours; if both are werewolves you must take one.",
        decisions=(THIEF_SWAP,),
        presets=("millers_hollow", "millers_hollow_es", "langrensha"),
    )
)


def _active(game) -> bool:
    return len(game.center) == 2 and game.has_alive("thief")


def _run(game):
    thief = game.with_role("thief")[0]
    cards = list(game.center)
    game.emit("thief_cards", game.private(thief.name), cards=cards)
    forced = all(ROLES[c].is_wolf for c in cards)
    options = tuple(dict.fromkeys(cards))
    took = yield from ask_one(game.ask(thief.name, THIEF_SWAP, options, allow_pass=not forced, cards=cards, forced=forced))
    if took is None:
        game.emit("thief_swap", game.private(thief.name), player=thief.name, took=None)
        return
    game.center[cards.index(took)] = "thief"
    thief.set_role(took)
    game.emit("thief_swap", game.private(thief.name), player=thief.name, took=took)
    game.emit("role", game.private(thief.name), player=thief.name, role=took)


register_step(NightStep(name="thief", order=10, run=_run, active=_active, first_night_only=True, roles=("thief",)))

"""Cupid and the Lovers (000 "Cupido", starting round).

On the first night Cupid names two players, himself allowed; the Lovers then "wake
up, recognize each other" without seeing each other's card. Grief is in
``engine.flow.deaths``; the mixed couple's victory in ``engine.flow.victory``."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step

CUPID = register_role(
    RoleSpec(
        id="cupid",
        name="Cupid",
        camp=VILLAGE,
        summary="On the first night you choose two players (you may choose yourself) who fall in love: if one dies, the other dies of grief.",
        decisions=("cupid_lovers",),
    )
)


def _active(game) -> bool:
    return game.lovers is None and game.has_alive("cupid")


def _run(game):
    cupid = game.with_role("cupid")[0]
    pair = yield from ask_one(game.ask(cupid.name, "cupid_lovers", tuple(game.alive_names()), shape="multi", count=2))
    a, b = pair
    game.lovers = (a, b)
    game.emit("cupid_lovers", game.private(cupid.name), lovers=[a, b])
    game.emit("lovers", game.private(a), lover=a, beloved=b)
    game.emit("lovers", game.private(b), lover=b, beloved=a)


register_step(NightStep(name="cupid", order=20, run=_run, active=_active, first_night_only=True))

"""Cupid and the Lovers (000 "Cupido", starting round).

On the first night Cupid names two players, himself allowed; the Lovers then "wake
up, recognize each other" without seeing each other's card. Grief is in
``engine.flow.deaths`` (``Game.grief``); the mixed couple's victory in
``engine.flow.victory``.

Variant "In any case it surely isn't him" (001 zh, option ``cupid_second_pair``):
"丘比特睁眼，指定两名爱人中的一个和另外一名玩家，这两个人成为情人" -- Cupid then names one
of the Lovers (the deceiver, 欺骗者) and another player (the paramour, 第三者); the other
Lover is the abandoned one (被抛弃者). Deaths chain: "如果被抛弃着死去，则欺骗者、第三者都
不会死。如果欺骗者死去，则被抛弃者、第三者都会死去。如果第三者死去则只有欺骗者死去" -- the
paramour's death takes only the deceiver ("只有", only): a death of grief takes nobody
further (``engine.flow.deaths``), so the abandoned one lives on.
Votes: "被抛弃者可以不投票给欺骗者，也可以投。欺骗者和第三者，不得互相投票" -- the abandoned
one may vote against the deceiver; the deceiver and the paramour never against each
other (and the deceiver still never against the abandoned one, 000's rule)."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.decisions import CHOICE, MULTI, decision

CUPID_DECEIVER = decision("cupid_deceiver", CHOICE, unmeasured="one of the Lovers, Cupid's second pair")
CUPID_LOVERS = decision("cupid_lovers", MULTI, unmeasured="a pair chosen on the first night, before anything is known")
CUPID_PARAMOUR = decision("cupid_paramour", CHOICE, unmeasured="Cupid's second pair, on the first night")

CUPID = register_role(
    RoleSpec(
        id="cupid",
        name="Cupid",
        camp=VILLAGE,
        summary="On the first night you choose two players (you may choose yourself) who fall in love: if one dies, the other dies of grief.",
        decisions=(CUPID_LOVERS, CUPID_DECEIVER, CUPID_PARAMOUR),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _active(game) -> bool:
    return game.lovers is None and game.has_able("cupid")


def _run(game):
    cupid = game.able("cupid")[0]
    pair = yield from ask_one(game.ask(cupid.name, CUPID_LOVERS, tuple(game.alive_names()), shape="multi", count=2))
    a, b = pair
    game.set_lovers(a, b)
    game.emit("cupid_lovers", game.private(cupid.name), lovers=[a, b])
    game.emit("lovers", game.private(a), lover=a, beloved=b)
    game.emit("lovers", game.private(b), lover=b, beloved=a)
    if game.options.cupid_second_pair:
        yield from _second_pair(game, cupid, a, b)


def _second_pair(game, cupid, a: str, b: str):
    deceiver = yield from ask_one(game.ask(cupid.name, CUPID_DECEIVER, (a, b), lovers=[a, b]))
    abandoned = b if deceiver == a else a
    options = tuple(n for n in game.alive_names() if n not in (a, b))
    if not options:
        return
    paramour = yield from ask_one(game.ask(cupid.name, CUPID_PARAMOUR, options, deceiver=deceiver))
    game.grief[abandoned] = ()
    game.grief[deceiver] = (abandoned, paramour)
    game.grief[paramour] = (deceiver,)
    game.spared[abandoned] = ()
    game.spared[deceiver] = (abandoned, paramour)
    game.spared[paramour] = (deceiver,)
    game.memory["paramours"] = {"deceiver": deceiver, "abandoned": abandoned, "paramour": paramour}
    game.emit("cupid_paramours", game.private(cupid.name), deceiver=deceiver, paramour=paramour, abandoned=abandoned)
    game.emit("paramours", game.private(deceiver), lover=deceiver, paramour=paramour)
    game.emit("paramours", game.private(paramour), lover=paramour, paramour=deceiver)


register_step(NightStep(name="cupid", order=20, run=_run, active=_active, first_night_only=True, roles=("cupid",)))

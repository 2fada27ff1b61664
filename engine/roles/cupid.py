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

from __future__ import annotations

from typing import TypedDict

from engine.decisions import CHOICE, MULTI, decision
from engine.events import EventData, Name, Names, event, private
from engine.flow.common import Script, ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState, Player


class CupidDeceiverContext(TypedDict, total=False):
    lovers: list[str]  # the couple he just made, one of whom he names the deceiver


class CupidParamourContext(TypedDict, total=False):
    deceiver: str  # the Lover he named the deceiver, whose paramour he now names


CUPID_DECEIVER = decision(
    "cupid_deceiver", CHOICE, context=CupidDeceiverContext, unmeasured="one of the Lovers, Cupid's second pair"
)
CUPID_LOVERS = decision("cupid_lovers", MULTI, unmeasured="a pair chosen on the first night, before anything is known")
CUPID_PARAMOUR = decision(
    "cupid_paramour", CHOICE, context=CupidParamourContext, unmeasured="Cupid's second pair, on the first night"
)


@event("cupid_lovers")
class CupidLovers(EventData):
    """Cupid is told the couple he made."""

    lovers: Names


@event("lovers")
class Lovers(EventData):
    """A Lover is told who their beloved is (not their card)."""

    lover: Name
    beloved: Name


@event("cupid_paramours")
class CupidParamours(EventData):
    """Cupid's second pair (``cupid_second_pair``), told to him."""

    deceiver: Name
    paramour: Name
    abandoned: Name


@event("paramours")
class Paramours(EventData):
    """The deceiver or the paramour is told who the other is."""

    lover: Name
    paramour: Name


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


def _active(game: GameState) -> bool:
    return game.lovers is None and game.has_able("cupid")


def _run(game: GameState) -> Script:
    cupid = game.able("cupid")[0]
    pair = yield from ask_one(game.ask(cupid.name, CUPID_LOVERS, tuple(game.alive_names()), None, False, 2))
    a, b = pair
    game.set_lovers(a, b)
    game.emit(CupidLovers([a, b]), private(cupid.name))
    game.emit(Lovers(a, b), private(a))
    game.emit(Lovers(b, a), private(b))
    if game.options.cupid_second_pair:
        yield from _second_pair(game, cupid, a, b)


def _second_pair(game: GameState, cupid: Player, a: str, b: str) -> Script:
    deceiver = yield from ask_one(game.ask(cupid.name, CUPID_DECEIVER, (a, b), {"lovers": [a, b]}))
    abandoned = b if deceiver == a else a
    options = tuple(n for n in game.alive_names() if n not in (a, b))
    if not options:
        return
    paramour = yield from ask_one(game.ask(cupid.name, CUPID_PARAMOUR, options, {"deceiver": deceiver}))
    # The pairs live in the game's tables of grief and restraint, which the deaths and
    # the votes read; nothing else keeps them.
    game.grief[abandoned] = ()
    game.grief[deceiver] = (abandoned, paramour)
    game.grief[paramour] = (deceiver,)
    game.spared[abandoned] = ()
    game.spared[deceiver] = (abandoned, paramour)
    game.spared[paramour] = (deceiver,)
    game.emit(CupidParamours(deceiver, paramour, abandoned), private(cupid.name))
    game.emit(Paramours(deceiver, paramour), private(deceiver))
    game.emit(Paramours(paramour, deceiver), private(paramour))


register_step(NightStep(name="cupid", run=_run, active=_active, first_night_only=True, roles=("cupid",)))

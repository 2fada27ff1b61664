"""The Witch: one healing and one poisoning potion per game (000 "The Witch").

She is shown the wolves' victim, then may heal it and may poison someone. Whether she
may heal herself (``witch_self_heal``, ``witch_self_heal_first_night_only``), poison
herself (``witch_self_poison``, 002: "La Bruja puede usar cualquiera de las dos pociones
sobre sí misma si lo desea"), use both
potions the same night (``witch_both_potions_same_night``) or only one potion in the
whole game (``witch_single_potion``, 001 zh) are options. A potion already spent is
still offered as a decision with only "no" legal, so an attempt at a second heal is
refused with its reason instead of being silently skipped.

When the wolves strike twice in a night (003: the Big Bad Wolf, the White Werewolf)
"The leader indicates to it the victim(s) of the wolves; a cure saves a person": she
is shown each victim in turn and may heal one of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from engine.decisions import BOOL, CHOICE, WOLF, Power, decision
from engine.events import EventData, Name, event, private
from engine.flow.common import Script
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step
from engine.game_state import GameState, Player


class WitchHealContext(TypedDict, total=False):
    victim: str | None  # the wolves' victim she is shown (None: nobody was attacked)
    unavailable: str  # why "yes" is not among the options tonight


class WitchPoisonContext(TypedDict, total=False):
    unavailable: str  # why she has no one to poison tonight


WITCH_HEAL = decision(
    "witch_heal", BOOL, context=WitchHealContext, unmeasured="yes/no about the pack's victim, never a wolf the pack knows"
)
WITCH_POISON = decision("witch_poison", CHOICE, context=WitchPoisonContext, power=Power(WOLF, note="the Witch's poison"))


@event("witch_victim")
class WitchVictim(EventData):
    """The narrator shows the Witch the wolves' victim (None: nobody was attacked)."""

    victim: Name | None


@event("witch_healed")
class WitchHealed(EventData):
    target: Name


@event("witch_poisoned")
class WitchPoisoned(EventData):
    target: Name


@dataclass(slots=True)
class WitchState:
    """Her potions still unused: one of each a game."""

    heal: bool = True
    poison: bool = True


@dataclass(slots=True)
class Healed:
    """The players healed tonight, in order (read by the Protector's rule for
    ``protector_heal_clash``, ``engine.roles.protector``)."""

    players: list[str] = field(default_factory=list)

WITCH = register_role(
    RoleSpec(
        id="witch",
        name="Witch",
        camp=VILLAGE,
        summary="You have one healing potion (save the werewolves' victim) and one poison (kill a player), each usable once per game.",
        decisions=(WITCH_HEAL, WITCH_POISON),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _active(game: GameState) -> bool:
    return game.has_able("witch")


def _heal_reason(game: GameState, witch: Player, st: WitchState, victim: str | None) -> str:
    opts = game.options
    if not st.heal:
        return "the healing potion is already used"
    if victim is None:
        return "nobody was attacked tonight"
    if opts.witch_single_potion and not st.poison:
        return "the Witch has already used her one potion"
    if victim == witch.name:
        if not opts.witch_self_heal:
            return "the Witch may not heal herself under these rules"
        if opts.witch_self_heal_first_night_only and game.day > 1:
            return "the Witch may heal herself only on the first night"
    return ""


def _run(game: GameState) -> Script:
    opts = game.options
    night = game.night
    for witch in game.able("witch"):
        name = witch.name
        audience = private(name)
        st = witch.state.of(WitchState)
        healed = False
        victims: Sequence[str | None] = night.attacked or [None]
        for victim in victims:
            game.emit(WitchVictim(victim), audience)
            reason = "the healing potion is already used" if healed else _heal_reason(game, witch, st, victim)
            if reason:
                d = game.ask(name, WITCH_HEAL, (False,), {"victim": victim, "unavailable": reason})
            else:
                d = game.ask(name, WITCH_HEAL, (True, False), {"victim": victim})
            heal = (yield [d])[d.id]
            if heal and victim is not None:  # "yes" is offered only for a victim
                healed = True
                st.heal = False
                night.kills = [(n, c) for n, c in night.kills if not (n == victim and c != "poison")]
                night.of(Healed).players.append(victim)
                game.emit(WitchHealed(victim), audience)
        reason = ""
        if not st.poison:
            reason = "the poison is already used"
        elif healed and opts.witch_single_potion:
            reason = "the Witch has already used her one potion"
        elif not st.heal and opts.witch_single_potion:
            reason = "the Witch has already used her one potion"
        elif healed and not opts.witch_both_potions_same_night:
            reason = "only one potion a night under these rules"
        if reason:
            d = game.ask(name, WITCH_POISON, (), {"unavailable": reason}, True)
        else:
            d = game.ask(name, WITCH_POISON, game.targets(name, opts.witch_self_poison), None, True)
        target = (yield [d])[d.id]
        if target is not None:
            st.poison = False
            night.kills.append((target, "poison"))
            game.emit(WitchPoisoned(target), audience)


register_step(NightStep(name="witch", run=_run, active=_active, roles=("witch",)))

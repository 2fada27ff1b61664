"""Powers used "at any point during the day" (004: the Vigilante's shot "during any Day
phase", the Priest's revival "anytime Day or Night"; 000 The Village: the Confessor,
the Bonesetter, the Barber, and the Schoolmistress "just before the vote").

A digital day has no "any point": the day offers these powers in two windows, the
``morning`` (after the dawn's news, before the Sheriff's election and the debate) and
the ``evening`` (after the debate, before the votes), in registration order, to the
living holders who still have them. Each power says in which windows it is offered.
Kept free of other imports so that role and building modules can register here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.game_state import GameState, Script

MORNING = "morning"
EVENING = "evening"


@dataclass(frozen=True, slots=True)
class DayPower:
    keys: tuple[str, ...]  # the role or building ids that can hold it
    fn: Callable[[GameState], Script]  # asks its holders, acts
    windows: tuple[str, ...]
    ready: Callable[[GameState], bool]  # a living holder still has it


DAY_POWERS: list[DayPower] = []


def _role_ready(roles: tuple[str, ...]) -> Callable[[GameState], bool]:
    def ready(game: GameState) -> bool:
        return any(game.has_able(r) for r in roles)

    return ready


def register_day_power(
    keys: tuple[str, ...],
    fn: Callable[[GameState], Script],
    *,
    windows: tuple[str, ...] = (EVENING,),
    ready: Callable[[GameState], bool] | None = None,
) -> None:
    """``keys`` are role ids unless ``ready`` says otherwise (a building's holders)."""
    DAY_POWERS.append(DayPower(keys, fn, windows, ready or _role_ready(keys)))


@dataclass(slots=True)
class HeldPowers:
    """The game's memory part: the day powers its cards and buildings can hold, found on
    the first day (``powers_of``); ``None`` until then."""

    powers: tuple[DayPower, ...] | None = field(default=None)


def powers_of(game: GameState) -> tuple[DayPower, ...]:
    """The day powers this game can hold (every card dealt or set aside: a swap or a
    Mad Scientist's vial only hands out cards of the deck; every building dealt:
    a Bailiff only hands out freed ones), found once per game."""
    held = game.memory.of(HeldPowers)
    found = held.powers
    if found is None:
        deck = {p.initial_role for p in game.players}
        deck.update(game.center)
        deck.update(p.building for p in game.players if p.building)
        found = held.powers = tuple(dp for dp in DAY_POWERS if any(k in deck for k in dp.keys))
    return found


def day_powers(game: GameState, powers: tuple[DayPower, ...], window: str) -> Script:
    for dp in powers:
        if window in dp.windows and dp.ready(game):
            yield from dp.fn(game)
            if game.over:
                return

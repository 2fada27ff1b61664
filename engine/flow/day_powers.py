"""Powers used "at any point during the day" (004: the Vigilante's shot "during any Day
phase", the Priest's revival "anytime Day or Night"; 000 The Village: the Confessor,
the Bonesetter, the Barber). The day offers them after the debate, before the votes,
in registration order, to the living holders who still have them. Kept free of other
imports so that role modules can register here."""

from __future__ import annotations

from engine.roles.base import DECISION_KINDS

# (role ids, fn(game) generator)
DAY_POWERS: list[tuple[tuple[str, ...], object]] = []

# Decision kinds of the forum's mechanics (engine.flow.forum, engine.flow.ghost_notes).
DECISION_KINDS.update(("vote_change", "ghost_note", "ghost_note_delivery"))


def register_day_power(roles: tuple[str, ...], fn) -> None:
    DAY_POWERS.append((roles, fn))


def powers_of(game) -> tuple:
    """The day powers this game's deck can hold (every card dealt or set aside: a swap
    or a Mad Scientist's vial only hands out cards of the deck), found once per game."""
    found = game.__dict__.get("_day_powers")
    if found is None:
        deck = {p.initial_role for p in game.players}
        deck.update(game.center)
        found = game._day_powers = tuple((roles, fn) for roles, fn in DAY_POWERS if any(r in deck for r in roles))
    return found


def day_powers(game, powers: tuple | None = None):
    for roles, fn in DAY_POWERS if powers is None else powers:
        for r in roles:
            if game.has_able(r):
                yield from fn(game)
                break
        if game.over:
            return

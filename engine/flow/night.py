"""The night: the narrator calls each role in the book's order.

Steps come from the role registry in the order of the preset's book
(``engine.night_order``: one declared sequence per rulebook, each quoting its book's call
list, such as 000 "Reminder of the Turns of Play" and 003 "Aide-mémoire"), kept per game
for the roles of its deck (``Game.rules``); consecutive steps of the same ``group`` are
independent and asked together. A solitary goal reached during the night (the Pied
Piper's last charm) ends the game at once."""

from __future__ import annotations


from engine.events import PUBLIC, EventData, event
from engine.flow.common import Script, parallel
from engine.state import Night
from engine.game_state import GameState


@event("night_start")
class NightStart(EventData):
    """Night ``night`` falls (night N precedes day N)."""

    night: int


def night(game: GameState) -> Script:
    game.phase = "night"
    game.night = Night()
    game.emit(NightStart(game.day), PUBLIC)
    plan = game.rules.first_night if game.day == 1 else game.rules.later_nights
    for group in plan:
        if len(group) == 1:
            step = group[0]
            if step.active(game):
                yield from step.run(game)
        else:
            scripts = [s.run(game) for s in group if s.active(game)]
            if len(scripts) == 1:
                yield from scripts[0]
            elif scripts:
                yield from parallel(scripts)
        if game.over:
            return

"""The night: the narrator calls each role in the book's order.

Steps come from the role registry sorted by ``order`` (000 "Reminder of the Turns of
Play"); consecutive steps of the same ``group`` are independent and asked together."""

from __future__ import annotations

from engine.events import PUBLIC
from engine.flow.common import parallel
from engine.roles import NIGHT_STEPS


def night(game):
    game.phase = "night"
    game.night = {"kills": [], "wolf_victim": None, "spies": []}
    game.emit("night_start", PUBLIC, night=game.day)
    steps = [s for s in NIGHT_STEPS if game.day == 1 or not s.first_night_only]
    i = 0
    while i < len(steps):
        step = steps[i]
        if step.group:
            j = i
            while j < len(steps) and steps[j].group == step.group:
                j += 1
            group = [s for s in steps[i:j] if s.active(game)]
            i = j
            if len(group) == 1:
                yield from group[0].run(game)
            elif group:
                yield from parallel([s.run(game) for s in group])
        else:
            i += 1
            if step.active(game):
                yield from step.run(game)

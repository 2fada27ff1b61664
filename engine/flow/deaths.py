"""Deaths and their consequences.

Deaths that happen at the same moment (the night's victims at dawn) form one batch.
A Lover dies of grief "immediately" (000), so grief joins the batch. The Hunter
retaliates "before giving up the ghost" (000), so his shot (a new batch) comes before
victory is checked; then, if the game goes on, a dead Sheriff names his successor.
"""

from __future__ import annotations

from engine.events import PUBLIC
from engine.flow.victory import check_victory
from engine.roles.base import AFTER_VICTORY, BEFORE_VICTORY


def kill_batch(game, deaths: list[tuple[str, str]]):
    from engine.game import Death

    queue = list(deaths)
    fallen = []
    while queue:
        name, cause = queue.pop(0)
        p = game.by_name[name]
        if not p.alive:
            continue
        p.alive = False
        game.deaths.append(Death(name, game.day, cause))
        if game.options.reveal_role_on_death:
            game.emit("death", PUBLIC, player=name, cause=cause, role=p.role)
        else:
            game.emit("death", PUBLIC, player=name, cause=cause)
        fallen.append((p, cause))
        beloved = game.beloved(name)
        if beloved is not None and game.by_name[beloved].alive:
            queue.append((beloved, "grief"))
    for hooks in (BEFORE_VICTORY, None, AFTER_VICTORY):
        if hooks is None:
            if check_victory(game):
                return
            continue
        for p, cause in fallen:
            for hook in hooks:
                yield from hook(game, p, cause)
                if game.over:
                    return

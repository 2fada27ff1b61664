"""Deaths and their consequences.

Deaths that happen at the same moment (the night's victims at dawn) form one batch.
A Lover dies of grief "immediately" (000), so grief joins the batch. A death of grief
takes nobody further: with Cupid's second pair (001 zh) "如果第三者死去则只有欺骗者死去"
-- the paramour's death takes only the deceiver, not (through him) the abandoned one;
with one couple the rule changes nothing (the beloved is already dead). Then the batch
hooks settle what the batch as a whole changes (the Elder's death taking the village's
powers). The Hunter retaliates "before giving up the ghost" (000), and the Wild Child
turns when his model dies (003: "After each elimination, check the lovers, the Hunter,
the model of the Wild Child and the Captain's transmission... Then check the conditions
of victory"), so those last acts come before victory is checked; then, if the game goes
on, a dead Sheriff names his successor.
"""

from __future__ import annotations


from engine.flow.common import Script
from engine.flow.leaving import OutOfPlay, record_death
from engine.flow.victory import check_victory
from engine.game_state import GameState, Player


def kill_batch(game: GameState, deaths: list[tuple[str, str]]) -> Script:
    queue = list(deaths)
    fallen: list[tuple[Player, str]] = []
    grief = game.grief
    rules = game.rules
    while queue:
        while queue:
            name, cause = queue.pop(0)
            p = game.by_name[name]
            if not p.alive:
                # Taken out of play earlier in the night (the Rusty Knight's victim), his
                # death is told now, with the night's other victims.
                if p.state.drop(OutOfPlay) is None:
                    continue
            p.alive = False
            record_death(game, p, cause)
            fallen.append((p, cause))
            if grief and cause != "grief":
                for mourner in grief.get(name, ()):
                    if game.by_name[mourner].alive:
                        queue.append((mourner, "grief"))
        for settle in rules.on_batch:
            settle(game, fallen, queue)
    for hooks in (rules.before_victory, None, rules.after_victory):
        if hooks is None:
            if check_victory(game):
                return
            continue
        for p, cause in fallen:
            for hook in hooks:
                yield from hook(game, p, cause)
                if game.over:
                    return

"""Who has won, checked after every batch of deaths.

000 "Victory Conditions": the Villagers win when the last Werewolf is eliminated, the
Werewolves when the last Villager is; Lovers who are one Werewolf and one Villager win
"as soon as all the other players are eliminated". Nobody left is a game with no winner.
A camp wins with its dead members.
"""

from __future__ import annotations

from engine.events import PUBLIC
from engine.roles import ROLES


def mixed_lovers(game) -> bool:
    lv = game.lovers
    if lv is None:
        return False
    a, b = game.by_name[lv[0]], game.by_name[lv[1]]
    return a.is_wolf != b.is_wolf


def camp_of(game, player) -> str:
    if game.lovers and player.name in game.lovers and mixed_lovers(game):
        return "lovers"
    return ROLES[player.role].camp


def check_victory(game) -> bool:
    """Set the winner and end the game if a camp has won; return whether it ended."""
    if game.winner is not None:
        return True
    alive = game.alive()
    if not alive:
        return end_game(game, "none", "nobody is left alive")
    if mixed_lovers(game) and {p.name for p in alive} == set(game.lovers):
        return end_game(game, "lovers", "the Lovers are the last two alive")
    wolves = [p for p in alive if p.is_wolf]
    if not wolves:
        return end_game(game, "village", "the last werewolf is dead")
    others = len(alive) - len(wolves)
    if others == 0:
        return end_game(game, "werewolves", "the last villager is dead")
    if game.options.wolves_win_at_parity and len(wolves) >= others and not (
        mixed_lovers(game) and any(p.name in game.lovers for p in alive)
    ):
        return end_game(game, "werewolves", "the werewolves are as many as the villagers")
    return False


def end_game(game, winner: str, reason: str) -> bool:
    game.winner = winner
    game.over = True
    game.end_reason = reason
    if winner == "none":
        game.winners = []
    else:
        game.winners = [p.name for p in game.players if camp_of(game, p) == winner]
    game.phase = "end"
    game.emit(
        "game_end",
        PUBLIC,
        winner=winner,
        winners=list(game.winners),
        reason=reason,
        roles={p.name: p.role for p in game.players},
        initial_roles={p.name: p.initial_role for p in game.players},
        lovers=list(game.lovers) if game.lovers else None,
    )
    return True

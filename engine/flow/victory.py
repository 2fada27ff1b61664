"""Who has won, checked after every batch of deaths.

000 "Victory Conditions": the Villagers win when the last Werewolf is eliminated, the
Werewolves when the last Villager is; Lovers who are one Werewolf and one Villager win
"as soon as all the other players are eliminated". Nobody left is a game with no winner.
A camp wins with its dead members. 003 "How can I win?" adds solitary goals (the White
Werewolf, the Pied Piper, the Angel), registered by their roles and checked first: "The
particular goals interrupt the game as soon as they are fulfilled."
"""

from __future__ import annotations


from engine.events import PUBLIC, EventData, Names, event
from engine.flow.leaving import OutOfPlay, ToldAtDawn, record_death
from engine.roles.base import ROLES, WEREWOLVES, register_victory
from engine.game_state import GameState, Player


@event("game_end")
class GameEnd(EventData):
    """The game is over: the winning camp (``none``: nobody won) and its players, why,
    every player's card at the end and at the deal, and the Lovers (None: no couple)."""

    winner: str
    winners: Names
    reason: str
    roles: dict[str, str]
    initial_roles: dict[str, str]
    lovers: Names | None


def mixed_lovers(game: GameState) -> bool:
    """Lovers of opposing camps (000: "1 Werewolf + 1 Villager"; 003: "lovers of
    opposing camps"). Camps, not cards: a conversion can make a couple mixed."""
    lv = game.lovers
    if lv is None:
        return False
    a, b = game.by_name[lv[0]], game.by_name[lv[1]]
    return a.camp != b.camp


def _mixed_couple_alive(game: GameState, alive: list[Player]) -> bool:
    """A Lover of a mixed couple still alive: the wolves have not won by their numbers."""
    lv = game.lovers
    return lv is not None and mixed_lovers(game) and any(p.name in lv for p in alive)


def camp_of(game: GameState, player: Player) -> str:
    if game.lovers and player.name in game.lovers and mixed_lovers(game):
        return "lovers"
    return player.camp


def check_victory(game: GameState) -> bool:
    """Set the winner and end the game if a camp has won; return whether it ended."""
    if game.winner is not None:
        return True
    alive = game.alive()
    if not alive:
        return end_game(game, "none", "nobody is left alive")
    for goal in game.rules.victory:
        reached = goal(game, alive)
        if reached:
            return end_game(game, *reached)
    if game.lovers is not None and mixed_lovers(game) and {p.name for p in alive} == set(game.lovers):
        return end_game(game, "lovers", "the Lovers are the last two alive")
    wolves = 0  # counted in a loop: checked after every batch of deaths
    for p in alive:
        if p.is_wolf:
            wolves += 1
    opts = game.options
    if not wolves:
        if opts.village_wins_at_quiet_dawn:
            return False  # 004: the humans win only on a morning without a death (engine.flow.forum)
        return end_game(game, "village", "the last werewolf is dead")
    others = len(alive) - wolves
    if others == 0:
        # 003: the wolves win "when they have eliminated their opponents": a White
        # Werewolf or a mixed couple still alive among them is an opponent.
        if all(camp_of(game, p) == WEREWOLVES for p in alive):
            return end_game(game, "werewolves", "the last villager is dead")
        return False
    if opts.wolves_win_at_parity and wolves >= others and not _mixed_couple_alive(game, alive):
        return end_game(game, "werewolves", "the werewolves are as many as the villagers")
    when = opts.wolves_win_when
    if when != "last_villager" and not _mixed_couple_alive(game, alive):
        if when == "one_villager_left" and others <= 1:
            return end_game(game, "werewolves", "the second last villager is dead")
        if when == "more_than_half" and wolves * 2 > len(alive):
            return end_game(game, "werewolves", "the werewolves are more than half of the living")
    if opts.wolves_win_side and _side_cleared(game, alive):
        return end_game(game, "werewolves", "a whole side of the village is dead")
    return False


def _one_execution(game: GameState, alive: list[Player]) -> tuple[str, str] | None:
    """The one-execution variant (001 zh, option ``one_execution``): "若处决的玩家为狼人，
    则好人阵营获胜，反之则狼人阵营获胜" and "被处决的玩家将揭示身份，如果是狼人，则村民方取得
    胜利；如果是村民，则狼人方取得胜利" -- the village's first execution ends the game: a
    werewolf executed, the village wins; anyone else, the werewolves. Checked after the
    solitary goals (an Angel voted out on day 0 still wins alone)."""
    for d in game.deaths:
        if d.cause == "vote":
            if game.by_name[d.name].is_wolf:
                return "village", "the one execution struck a werewolf"
            return WEREWOLVES, "the one execution struck an innocent"
    return None


register_victory(90, _one_execution, when=lambda o: o.one_execution)


def _side_cleared(game: GameState, alive: list[Player]) -> bool:
    """屠边 (common 狼人杀 practice): the wolves win once every ordinary villager, or
    every villager with a power, is dead, in a deck that had both; a solitary player
    or a mixed couple still alive keeps the game going."""
    if any(camp_of(game, p) not in (WEREWOLVES, "village") for p in alive):
        return False
    village = [p for p in game.players if p.camp == "village"]
    plain = [p for p in village if p.role == "villager"]
    gods = [p for p in village if p.role != "villager" and ROLES[p.role].camp == "village"]
    if not plain or not gods:
        return False
    return not any(p.alive for p in plain) or not any(p.alive for p in gods)


def end_game(game: GameState, winner: str, reason: str) -> bool:
    # Players taken out of play earlier in the night (the Rusty Knight's victim) whose
    # death was to be told at dawn: the game ends first, so it is told now.
    due = game.night.peek(ToldAtDawn)
    if due is not None:
        for name, cause in due.deaths:
            p = game.by_name[name]
            if p.state.drop(OutOfPlay) is not None:
                record_death(game, p, cause)
    game.winner = winner
    game.over = True
    game.end_reason = reason
    if winner == "none":
        game.winners = []
    elif game.lovers:
        game.winners = [p.name for p in game.players if camp_of(game, p) == winner]
    else:  # without Lovers a player's camp is ``Player.camp`` (``camp_of``)
        game.winners = [p.name for p in game.players if p.camp == winner]
    game.phase = "end"
    game.emit(
        GameEnd(
            winner,
            list(game.winners),
            reason,
            {p.name: p.role for p in game.players},
            {p.name: p.initial_role for p in game.players},
            list(game.lovers) if game.lovers else None,
        ),
        PUBLIC,
    )
    return True

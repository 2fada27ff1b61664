"""The debate: who speaks when, and the rounds of speeches (000 step 6, "the
villagers debate"). Its own module because both the day's debate
(``engine.flow.day``) and the 狼人杀 candidates' speeches (``engine.flow.sheriff``)
run it, and the day itself asks the Sheriff's candidacy."""

from __future__ import annotations


from engine.events import PUBLIC
from engine.flow.common import Script
from engine.flow.protocols import bidding, parallel_rounds
from engine.speech import SPEAK, Speech
from engine.game_state import GameState, Player


def speaking_order(game: GameState) -> list[Player]:
    """The living players clockwise from the opening seat."""
    table = game.table
    rule = game.options.speaking_order
    n = len(table)
    if rule == "sheriff_left" and game.sheriff and game.by_name[game.sheriff].alive:
        start = (game.by_name[game.sheriff].seat + 1) % n
    elif rule == "seat":
        start = 0
    else:
        start = (game.day - 1) % n
    # ``Player.seat`` is the index into ``game.table``, so the table read from ``start``
    # round to the seat before it is the clockwise order.
    return [p for p in table[start:] + table[:start] if p.alive]


def discussion(game: GameState, phase: str, rounds: int, speakers: list[str] | None = None, extra: int = 0) -> Script:
    """``speakers``: only these players speak (The Village's Farmers campaigning).
    ``extra``: rounds the Host adds to the day (004, an extended Sundown).
    The ``discussion`` option may hand the debate to another protocol (``protocols``):
    ``parallel`` runs campaign and debate; ``bidding`` the debate, every candidate still
    campaigning in turn."""
    game.phase = phase
    protocol = game.options.discussion
    if protocol != "round_robin":
        if protocol == "parallel":
            yield from parallel_rounds(game, phase, rounds + extra, speaking_order, speakers)
            return
        if phase == "discussion":
            yield from bidding(game, rounds, speaking_order, extra)
            return
    for rnd in range(1, rounds + extra + 1):
        context = {"round": rnd, "phase": phase}  # one a round (``Decision.context``)
        for player in speaking_order(game):
            if not player.alive or (speakers is not None and player.name not in speakers):
                continue
            name = player.name
            # The engine's hottest loop: ``ask_one`` inlined, positional ``ask`` and payload.
            d = game.ask(name, SPEAK, (), context)
            said = (yield [d])[d.id]
            # ``engine.speech.speech_data`` inlined: a call per speech is 0.3% of a game.
            if said.__class__ is dict:
                game.emit(Speech(name, said["text"], rnd, said.get("claims")), PUBLIC)
            else:
                game.emit(Speech(name, said, rnd), PUBLIC)

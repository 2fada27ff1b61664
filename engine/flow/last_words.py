"""Last words (遗言), the common 狼人杀 practice (option ``last_words``).

000: the eliminated "can no longer communicate with the other players in any way": no
last words (``none``, the default of the base game). 狼人杀 tables let the dead speak
once: ``first_night_and_vote`` -- the victims of the first night and the players voted
out; ``all`` -- every dead player. The speech (``speak``, phase ``last_words``) comes
after the death's consequences, only if the game goes on.
"""

from __future__ import annotations


from engine.events import PUBLIC
from engine.flow.common import Script, ask_one
from engine.roles.base import register_death_hook
from engine.speech import SPEAK, speech_data
from engine.game_state import GameState, Player


def _last_words(game: GameState, player: Player, cause: str) -> Script:
    rule = game.options.last_words
    if rule == "none":
        return
    if rule == "vote" and cause != "vote":  # 004: "ONE POST after I post your lynching"
        return
    if rule == "first_night_and_vote" and not (cause == "vote" or (game.day == 1 and game.phase == "dawn")):
        return
    phase = game.phase
    said = yield from ask_one(game.ask(player.name, SPEAK, (), {"round": 1, "phase": "last_words"}))
    game.phase = phase
    game.emit(speech_data(player.name, said, 1, True), PUBLIC)


# After the Vigilante's gun is left (30): an order of its own, because a role module may
# import the flow (``engine.flow.main.Role``) before the later roles register, and a tie
# is kept in registration order.
register_death_hook(35, _last_words, when=lambda o: o.last_words != "none")

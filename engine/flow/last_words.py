"""Last words (遗言), the common 狼人杀 practice (option ``last_words``).

000: the eliminated "can no longer communicate with the other players in any way": no
last words (``none``, the default of the base game). 狼人杀 tables let the dead speak
once: ``first_night_and_vote`` -- the victims of the first night and the players voted
out; ``all`` -- every dead player. The speech (``speak``, phase ``last_words``) comes
after the death's consequences, only if the game goes on.
"""

from engine.decisions import TEXT
from engine.events import PUBLIC
from engine.flow.common import ask_one
from engine.roles.base import register_death_hook
from engine.speech import SPEAK


def _last_words(game, player, cause):
    rule = game.options.last_words
    if rule == "none":
        return
    if rule == "vote" and cause != "vote":  # 004: "ONE POST after I post your lynching"
        return
    if rule == "first_night_and_vote" and not (cause == "vote" or (game.day == 1 and game.phase == "dawn")):
        return
    phase = game.phase
    said = yield from ask_one(game.ask(player.name, SPEAK, shape=TEXT, round=1, phase="last_words"))
    game.phase = phase
    if said.__class__ is dict:
        if "claims" in said:
            game.emit("speech", PUBLIC, speaker=player.name, text=said["text"], round=1, claims=said["claims"], last_words=True)
        else:
            game.emit("speech", PUBLIC, speaker=player.name, text=said["text"], round=1, last_words=True)
    else:
        game.emit("speech", PUBLIC, speaker=player.name, text=said, round=1, last_words=True)


register_death_hook(30, _last_words, when=lambda o: o.last_words != "none")

"""The whole game, night after day, until a camp wins or the day limit is reached."""

from __future__ import annotations

from engine.events import PUBLIC
from engine.flow.day import day
from engine.flow.night import night
from engine.flow.victory import end_game
from engine.flow import sheriff as _sheriff  # noqa: F401  (registers the successor hook)
from engine.flow import last_words as _last_words  # noqa: F401  (registers the last words)
from engine.flow import ghost_notes as _ghost_notes  # noqa: F401  (registers the ghost notes)


def script(game):
    game.emit_data(
        "game_start",
        PUBLIC,
        {
            "players": [p.name for p in game.players],
            "preset": game.preset,
            # The deck is public at the table. The set-aside cards are part of it: listing
            # only the seats' cards would tell everyone what lies in the center.
            "roles_in_play": sorted([p.role for p in game.players] + list(game.center)),
            "set_aside": len(game.center),
        },
    )
    for p in game.players:
        game.emit_data("role", game.private_to(p.name), {"player": p.name, "role": p.role})
    if game.center:
        game.emit("center", "narrator", cards=list(game.center))
    for hook in game.rules.setup:  # The Village: the buildings are handed out
        yield from hook(game)
    if game.rules.opening_day:
        # 003 "Preparing the game": "With Angel, start with a day of debate and an
        # eliminatory vote, then the first night if the game continues." It is day 0:
        # night N still precedes day N.
        yield from day(game, opening=True)
        if game.over:
            return
    while True:
        if game.day >= game.options.max_days:
            end_game(game, "none", f"the day limit ({game.options.max_days}) was reached")
            return
        game.day += 1
        yield from night(game)
        if game.over:
            return
        yield from day(game)
        if game.over:
            return

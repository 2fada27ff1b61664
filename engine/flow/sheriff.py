"""The Sheriff's badge passing at death: "with his dying breath he designates his
successor" (000 "The Sheriff"); and who may hold it when the rules narrow that (The
Village's Farmers, ``sheriff_pool``)."""

from engine.events import PUBLIC
from engine.roles.base import register_death_hook


def sheriff_pool(game) -> list[str] | None:
    """Who may elect and be the Sheriff when the rules narrow it (The Village's
    Farmers), else None: everyone."""
    for pool in game.rules.sheriff_pools:
        found = pool(game)
        if found is not None:
            return found
    return None


def _successor(game, player, cause):
    if game.sheriff != player.name:
        return
    options = tuple(game.alive_names())
    if game.rules.sheriff_pools:
        pool = sheriff_pool(game)
        if pool is not None:  # 000 The Village: "only from among the surviving Farmers"
            options = tuple(n for n in options if n in pool)
    if not options:
        game.sheriff = None
        game.emit("sheriff_gone", PUBLIC, previous=player.name)
        return
    d = game.ask_with(player.name, "sheriff_successor", options, {})
    heir = (yield [d])[d.id]  # ``ask_one`` inlined: most games pass the badge on
    game.sheriff = heir
    game.emit_data("sheriff_successor", PUBLIC, {"previous": player.name, "player": heir})


register_death_hook(20, _successor)

"""The Tavernkeeper (000 The Village): "Building: the tavern. Power: permanent
(conditional) ... The Werewolves do not devour him, and the villagers cannot vote
against him. If he has voted against someone who ends up eliminated (even pardoned),
he loses his immunity and his token. Tradition dictates that he always votes alone,
before the others (unless he has lost his immunity)."

While he holds his token he is sheltered from the pack's ``wolf_kill`` and from every
``vote`` (``Game.sheltered``), and he votes first, alone, in public (``first_vote``).
When the vote designates a player he voted against that day, before any pardon, he
returns his token. The Raven's poster may still hang on the tavern (the Raven's rule),
and its two votes count against him."""

from __future__ import annotations

from engine.buildings.base import PERMANENT, REFRESHERS, BuildingSpec, layer_on, register_building, spend_token, with_token
from engine.roles.base import register_pardon

TAVERNKEEPER = register_building(
    BuildingSpec(
        id="tavernkeeper",
        name="Tavernkeeper",
        home="tavern",
        power=PERMANENT,
        box=1,
        summary="While you keep your token the werewolves cannot devour you and nobody can vote against you; you vote first, alone; if you vote against a player the vote eliminates, you lose the token.",
    )
)


def _shelter(game) -> None:
    immune = frozenset(p.name for p in game.players if p.building == "tavernkeeper" and p.token and p.alive)
    if immune:
        game.sheltered = {"vote": immune, "devour": immune}
        game.first_voters = tuple(sorted(immune))
    elif game.sheltered or game.first_voters:
        game.sheltered = {}
        game.first_voters = ()


def _designated(game, target: str):
    day_votes = game.memory.get("first_votes")
    if day_votes and day_votes[0] == game.day:
        for t in with_token(game, "tavernkeeper"):
            if target in day_votes[1].get(t.name, ()):
                spend_token(game, t, "voted_out")
    return False
    yield  # a generator, like every pardon


REFRESHERS.append(_shelter)
register_pardon(0, _designated, when=layer_on)

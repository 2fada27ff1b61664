"""The Tavernkeeper (000 The Village): "Building: the tavern. Power: permanent
(conditional) ... The Werewolves do not devour him, and the villagers cannot vote
against him. If he has voted against someone who ends up eliminated (even pardoned),
he loses his immunity and his token. Tradition dictates that he always votes alone,
before the others (unless he has lost his immunity)."

While he holds his token he is sheltered from the pack's ``wolf_kill`` and from every
``vote`` (the tavern's part of the game's memory, ``Tavern``, kept in step with the
tokens), and he votes first, alone, in public (``first_vote``).
When the vote designates a player he voted against that day, before any pardon, he
returns his token. The Raven's poster may still hang on the tavern (the Raven's rule),
and its two votes count against him."""

from __future__ import annotations

from dataclasses import dataclass

from engine.buildings.base import PERMANENT, REFRESHERS, BuildingSpec, layer_on, register_building, spend_token, with_token
from engine.flow.common import Script
from engine.flow.voting import EarlyVotes
from engine.roles.base import Ballot, register_ballot, register_pardon, register_shelter
from engine.game_state import GameState


@dataclass(slots=True)
class Tavern:
    """Who the Tavernkeeper's immunity covers: the living Tavernkeepers who hold their
    token. Refreshed whenever a token or a home changes hands (``refresh``); a
    Tavernkeeper who died since is harmless there (the dead are neither voted nor
    devoured)."""

    immune: frozenset[str] = frozenset()

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


def _shelter(game: GameState) -> None:
    immune = frozenset(p.name for p in game.players if p.building == "tavernkeeper" and p.token and p.alive)
    tavern = game.memory.peek(Tavern)
    if tavern is None:
        if not immune:
            return
        tavern = game.memory.of(Tavern)
    tavern.immune = immune


def _ballot(game: GameState, ballot: Ballot) -> None:
    """Nobody votes against him; he votes first, alone."""
    tavern = game.memory.peek(Tavern)
    if tavern is not None and tavern.immune:
        ballot.sheltered |= tavern.immune
        ballot.first += sorted(tavern.immune)


def _shelter_from_pack(game: GameState) -> frozenset[str]:
    tavern = game.memory.peek(Tavern)
    return tavern.immune if tavern is not None else frozenset()


def _designated(game: GameState, target: str) -> Script:
    early = game.memory.peek(EarlyVotes)
    if early is not None and early.day == game.day:
        for t in with_token(game, "tavernkeeper"):
            if target in early.picks.get(t.name, ()):
                spend_token(game, t, "voted_out")
    return False
    yield  # a generator, like every pardon


REFRESHERS.append(_shelter)
register_pardon(0, _designated, when=layer_on)
register_ballot(10, _ballot, when=layer_on)
register_shelter(0, _shelter_from_pack, when=layer_on)

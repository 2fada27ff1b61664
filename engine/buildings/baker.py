"""The Baker (000 The Village): "Building: the bakery. Power: permanent ... Sometimes,
just before dawn, he thinks he sees Werewolves returning from their misdeeds ... Each
night, the Baker opens their eyes immediately after the narrator finishes saying
"…the Werewolves go back to sleep!" After a moment, the narrator asks the Baker to go
back to sleep."

At the table the Baker catches what he can of the pack going back to its seats. Our
digital form, as for the Little Girl's peeking: each night after the pack (000's
reminder lists "The Little Girl - the Baker" right after the Werewolves), a living
Baker who is not a werewolf himself sees, with chance ``baker_glimpse_chance``, one
living werewolf (``baker_glimpse``, private). No decision: the book gives him none.
The glimpse is an adaptation, not the book's rule (docs/RULES.md 9.8):
``baker_glimpse_chance: 0`` plays the book to the letter (he wakes and sees nothing)."""

from __future__ import annotations


from engine.buildings.base import PERMANENT, BuildingSpec, holders, layer_on, register_building
from engine.events import EventData, Name, event, private
from engine.flow.common import Script
from engine.roles.base import NightStep, register_step
from engine.game_state import GameState


@event("baker_glimpse")
class BakerGlimpse(EventData):
    """The Baker caught sight of ``player``, a werewolf going back to their seat."""

    player: Name


BAKER = register_building(
    BuildingSpec(
        id="baker",
        name="Baker",
        home="bakery",
        power=PERMANENT,
        box=1,
        summary="Each night, as the werewolves go back to sleep, you may catch sight of one of them.",
    )
)


def _run(game: GameState) -> Script:
    wolves = sorted(p.name for p in game.wolves())
    for b in holders(game, "baker"):
        if b.is_wolf or not wolves:
            continue
        if game.rng.random() < game.options.baker_glimpse_chance:
            game.emit(BakerGlimpse(game.rng.choice(wolves)), private(b.name))
    return
    yield


def _active(game: GameState) -> bool:
    return any(p.building == "baker" and p.alive for p in game.players)


register_step(NightStep(name="baker", run=_run, active=_active, when=layer_on))

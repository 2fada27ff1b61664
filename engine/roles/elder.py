"""The Elder (003 "Old"; 001 zh 长老).

003: "He survives the first devouring attack of the pack and dies at the second. The
leader secretly keeps the number of remaining lives. The vote, the poison of the Witch
or the shooting of the Hunter kill him immediately and deprive the villagers of their
special powers for the end of the game. Death by grief does not cause this loss. A cure
only makes him one life. The Infected Father of the Wolves does not infect him."
001 zh: "长老对于狼人来说有2条命…被女巫救活以后的长老只有一条命。当长老不是被狼人杀死的
（即死于女巫，猎人，村民投票）的时候，村里的特殊身份（猎人，守护者，女巫，先知）将全部失去
他们的能力。"

Lives: resolved at dawn, before the night's kills apply. Each devouring attack (the
pack's, the Big Bad Wolf's) that a guard did not stop costs a life; with a life to
spare he does not die. A heal saves him but leaves him one life ("A cure only makes him
one life"). Nobody is told (the leader keeps the count secretly; a narrator-only event
records it).

The loss of powers: when the Elder dies by the vote, the poison or the Hunter's shot,
every player then playing for the village loses their power (``Player.powerless``), as
003 says; 001 zh names the ones who do: "村里的特殊身份（猎人，守护者，女巫，先知）将全部
失去他们的能力" -- with ``elder_loss_roles: listed`` (the ``langrensha`` default) only
the Hunter, the Protector, the Witch and the Seer lose theirs (an Idiot not yet revealed
keeps his pardon; one revealed by then still dies with the Elder, in the Elder's batch
only, ``engine.roles.idiot``).
003 does not arbitrate the players dying in the same batch (a Hunter devoured the night
the Witch poisons the Elder): ``elder_loss_spares_batch`` (default true) lets them keep
their last act, the deaths being simultaneous.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from engine.events import NARRATOR, OMIT, PUBLIC, EventData, Name, RoleIds, event
from engine.roles.base import DEVOURED, VILLAGE, RoleSpec, Shielded, register_batch_hook, register_resolver, register_role
from engine.game_state import GameState, Player


@event("elder_life")
class ElderLife(EventData):
    """The Elder's lives after tonight's attack (narrator only: the leader keeps the count)."""

    player: Name
    lives: int


@event("village_powers_lost")
class VillagePowersLost(EventData):
    """The Elder died by the village's hand: its powers are lost. ``roles`` names the
    cards that lose theirs under ``elder_loss_roles: listed`` (absent: every villager)."""

    elder: Name
    cause: str
    roles: Annotated[RoleIds | None, OMIT] = None


@dataclass(slots=True)
class ElderState:
    """His lives against the wolves' attacks (003: he survives the first)."""

    lives: int = 2


@dataclass(slots=True)
class PowersLost:
    """Memory: the village's powers are gone since this Elder's death (None: not yet), so
    they are taken once, at that death ("for the end of the game"), whoever dies later."""

    elder: str | None = None


ELDER = register_role(
    RoleSpec(
        id="elder",
        name="Elder",
        camp=VILLAGE,
        summary="You survive the first attack of the werewolves. If the village, the Witch or the Hunter kills you, every villager loses their power.",
        presets=("best_of", "langrensha"),
    )
)

LOSS_CAUSES = ("vote", "poison", "hunter")
# 001 zh: "猎人，守护者，女巫，先知" -- the Hunter, the Guard, the Witch, the Seer.
LISTED = ("hunter", "protector", "witch", "seer")


def _lives(game: GameState) -> None:
    night = game.night
    attacked = night.attacked
    shielded = night.peek(Shielded)
    for elder in game.players:
        if elder.role != "elder" or not elder.alive or elder.name not in attacked:
            continue
        if shielded is not None and elder.name in shielded.players:
            continue  # the guard stopped the attack: it costs nothing
        st = elder.state.of(ElderState)
        lives = st.lives
        still = [(n, c) for n, c in night.kills if n == elder.name and c in DEVOURED]
        if not still:  # healed: "A cure only makes him one life"
            lives = 1
        elif lives > 1:
            lives -= 1
            night.kills = [(n, c) for n, c in night.kills if not (n == elder.name and c in DEVOURED)]
        else:
            lives = 0
        st.lives = lives
        game.emit(ElderLife(elder.name, lives), NARRATOR)


def takes_the_powers(p: Player, cause: str) -> bool:
    """Whether this death is the one that takes the village's powers: the Elder's, by
    "the vote, the poison of the Witch or the shooting of the Hunter" (003; 001 zh "死于
    女巫，猎人，村民投票"), not by the wolves nor by grief, and while he has his power: a
    hypnotised Elder (001 zh "失去他原有的能力（和普通村民无异）", ``wolves_hypnotise``) is a
    plain villager, as is one who lost it to another Elder. The Idiot's death with him
    is tied to the same moment (``engine.roles.idiot``)."""
    return p.role == "elder" and cause in LOSS_CAUSES and not p.powerless


def _loss(game: GameState, fallen: list[tuple[Player, str]], queue: list[tuple[str, str]]) -> None:
    lost = game.memory.of(PowersLost)
    if lost.elder:
        return
    for p, cause in fallen:
        if takes_the_powers(p, cause):
            lost.elder = p.name
            spare = game.options.elder_loss_spares_batch
            listed = game.options.elder_loss_roles == "listed"
            for q in game.players:
                if q.camp == VILLAGE and (q.alive or not spare) and (not listed or q.role in LISTED):
                    q.powerless = True
            game.emit(VillagePowersLost(p.name, cause, list(LISTED) if listed else None), PUBLIC)
            return


register_resolver(20, _lives, roles=("elder",))
register_batch_hook(10, _loss, roles=("elder",))

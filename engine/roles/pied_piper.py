"""The Pied Piper (003 "Flute player"; 001 zh 乐师 / 吹笛者).

003: "Every night, he designates two new people to be charmed, or the last still
uncharacterized if there is only one left, never himself. The leader warns them and
then wakes up all the charms so that they recognize themselves. They keep their powers
and their camp. As soon as all the other survivors are charmed and the Flute Player is
alive, he wins alone. The charm is not transmitted between lovers and the Witch does not
heal him. Infected, he loses this goal and becomes simple Loup-Garou." 001 zh: "场上活着
的玩家，如果全都被乐师施过魔法，则吹笛者获胜…这种情况可能会在某次投票之后发生，或者狼人杀了
人之后。乐师不得对自己施魔法。被施了魔法的玩家仍然扮演他们的角色…魔法不会在两名爱人之间传播。"

Last of the night (003: "Flute player ; all the charms"): ``pied_piper_charm`` names two
living players not yet charmed (one when only one is left). Each is told
(``charmed``), then every living charmed player learns who the charmed are
(``charmed_players``). His goal is checked at once ("as soon as"), the night's victims
still being alive until dawn, and after every death. His camp is his own: the wolves
must kill him too, and the village wins without him.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.decisions import MULTI, decision
from engine.events import EventData, Name, Names, event, private
from engine.flow.common import Script, ask_one
from engine.flow.victory import camp_of, end_game
from engine.roles.base import NightStep, RoleSpec, register_role, register_step, register_victory
from engine.game_state import GameState, Player

PIED_PIPER_CHARM = decision("pied_piper_charm", MULTI, unmeasured="a solitary goal: every player is to be charmed")

PIPER = "pied_piper"


@dataclass(slots=True)
class CharmedMemory:
    """The players charmed so far, in the order they were charmed (dead ones too)."""

    players: list[str] = field(default_factory=list)


@event("pied_piper_charm")
class PiedPiperCharm(EventData):
    """The Piper is told whom he charmed tonight."""

    targets: Names


@event("charmed")
class Charmed(EventData):
    """``player`` is told they are charmed."""

    player: Name


@event("charmed_players")
class CharmedPlayers(EventData):
    """The living charmed players recognise each other."""

    players: Names


PIED_PIPER = register_role(
    RoleSpec(
        id=PIPER,
        name="Pied Piper",
        camp=PIPER,
        summary="Each night you charm two players; you win alone as soon as every other living player is charmed.",
        decisions=(PIED_PIPER_CHARM,),
        presets=("best_of", "langrensha"),
    )
)


def charmed(game: GameState) -> list[str]:
    """The players charmed so far (the list the Piper adds to)."""
    return game.memory.of(CharmedMemory).players


def _pipers(game: GameState) -> list[Player]:
    return [p for p in game.players if p.role == PIPER and p.alive and p.camp == PIPER and not p.powerless]


def _active(game: GameState) -> bool:
    return bool(_pipers(game))


def _run(game: GameState) -> Script:
    done = charmed(game)
    for piper in _pipers(game):
        options = tuple(n for n in game.alive_names() if n != piper.name and n not in done)
        if not options:
            continue
        count = min(2, len(options))
        picks = yield from ask_one(game.ask(piper.name, PIED_PIPER_CHARM, options, None, False, count))
        done.extend(picks)
        game.emit(PiedPiperCharm(list(picks)), private(piper.name))
        for name in picks:
            game.emit(Charmed(name), private(name))
        awake = [n for n in game.alive_names() if n in done]
        game.emit(CharmedPlayers(awake), private(*awake))
    reached = _all_charmed(game, game.alive())
    if reached:
        end_game(game, *reached)


def _all_charmed(game: GameState, alive: list[Player]) -> tuple[str, str] | None:
    done = game.memory.peek(CharmedMemory)
    for p in alive:
        if p.role == PIPER and camp_of(game, p) == PIPER:
            if done is not None and all(q.name in done.players for q in alive if q is not p):
                return PIPER, "every other living player is charmed"
    return None


register_step(NightStep(name=PIPER, run=_run, active=_active, roles=(PIPER,)))
register_victory(30, _all_charmed, roles=(PIPER,))

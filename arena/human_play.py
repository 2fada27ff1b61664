"""``werewolf play --human NAME``: seating a person and keeping the table's secrets.

Why the checks live here and not in the game file: a file may well describe a table
with several people (a future server gives each their own screen), but one terminal
can only hide a seat's secrets from the others when it serves one person, and a
terminal that narrates the night (``--god``) would show that person everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from agents.base import Agent, SeatView
from agents.human import HumanAgent
from arena.gamefile import HUMAN, GameFileError, GameSpec, spec_from_data
from engine.game import Game

if TYPE_CHECKING:
    from agents.human import HumanAgent


def seat_humans(spec: GameSpec, names: Iterable[str], timeout: float | None) -> GameSpec:
    """``spec`` with ``names`` played by a person and ``timeout`` on every human seat;
    ``GameFileError`` naming the problem."""
    data = spec.model_dump(exclude_unset=True)
    seats = data["seats"]
    known = [s["name"] for s in seats]
    for name in names:
        if name not in known:
            raise GameFileError(f"--human {name}: no seat named '{name}' (seats: {', '.join(known)})")
        seat = seats[known.index(name)]
        seat["agent"] = HUMAN
        seat.pop("answers", None)  # a scripted seat's queues and a model's settings do not carry over
        seat.pop("options", None)
    if timeout is not None:
        if timeout <= 0:
            raise GameFileError(f"--human-timeout needs a positive number of seconds, got {timeout:g}")
        humans = [s for s in seats if s.get("agent") == HUMAN]
        if not humans:
            raise GameFileError("--human-timeout needs a human seat (--human NAME, or agent: human in the game file)")
        for seat in humans:
            seat["timeout"] = timeout
    return spec_from_data(data)


def humans_at_terminal(agents: Mapping[str, Agent], *, god: bool) -> list[HumanAgent]:
    """The human seats of a table played at this terminal; ``ValueError`` when the
    terminal could not keep their secrets."""
    humans = [a for a in agents.values() if isinstance(a, HumanAgent)]
    if not humans:
        return humans
    names = ", ".join(h.name for h in humans)
    if god:
        raise ValueError(
            f"--god narrates every secret of the night, so it cannot be used while a person plays ({names}); "
            "drop --god (or replay the transcript with --god after the game)"
        )
    if len(humans) > 1:
        raise ValueError(
            f"one terminal can seat one person, since it shows that seat's secrets; this table has {len(humans)} human seats ({names})"
        )
    return humans


def show_humans(humans: list[HumanAgent], game: Game) -> None:
    """Bring each person's screen up to date with what their seat was shown."""
    for h in humans:
        h.notify(SeatView(h.name, game.observation(h.name)))

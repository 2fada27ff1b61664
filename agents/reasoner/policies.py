"""The reasoner's own plays, by decision kind (``POLICIES``): the village's (``village``),
the pack's (``pack``) and the speeches (``talk``). ``agents.reasoner.agent`` routes
every other kind to the heuristic bot's policy reading the reasoner's beliefs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import agents.heuristic_votes as heuristic_votes
import agents.reasoner.pack as pack
import agents.reasoner.talk as talk
import agents.reasoner.village as village

if TYPE_CHECKING:
    from agents.reasoner.mind import Mind


def vote(m: "Mind") -> str | None:
    return pack.vote(m) if m.mem.is_wolf else village.vote(m)


def _village_or_heuristic(play: Callable[["Mind"], Any], heuristic: Callable[..., Any]) -> Callable[["Mind"], Any]:
    """The village's play for a villager; a wolf keeps the heuristic bot's (reading the
    public posterior)."""

    def choose(m: "Mind") -> Any:
        return heuristic(m) if m.mem.is_wolf else play(m)

    choose.__doc__ = play.__doc__
    return choose


POLICIES: dict[str, Callable[["Mind"], Any]] = {
    "vote": vote,
    "speak": talk.speak,
    "sheriff_vote": _village_or_heuristic(village.sheriff_vote, pack.sheriff_vote),
    "sheriff_successor": _village_or_heuristic(village.sheriff_successor, heuristic_votes.sheriff_successor),
    "sheriff_tiebreak": _village_or_heuristic(village.sheriff_tiebreak, heuristic_votes.sheriff_tiebreak),
    "seer_check": village.seer_check,
    "witch_heal": village.witch_heal,
    "witch_poison": village.witch_poison,
    "hunter_shot": village.hunter_shot,
    "protector_guard": village.protector_guard,
    "wolf_kill": pack.wolf_kill,
    "wolf_chat": pack.wolf_chat,
}

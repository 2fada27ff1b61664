"""The pack's plays: the night's victim, the pack's talk, the day's vote.

The victim is worth what removing him takes from the village (a likely Seer above all,
then a trusted voice, the badge) less what his death tells the village: the public
belief is updated as if he died tonight (his card shown not a wolf's, the kill weighed
by the model of the pack, ``model.KillFactor``) and the rise of the village's P(wolf)
on the pack is the price. Every wolf of the pack reads the same evidence and breaks
ties by seat order, so the pack agrees without talk; its talk proposes the choice and
the kill follows the latest proposal, as the heuristic bot's does, so a mixed pack
agrees too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

import agents.heuristic_votes as heuristic_votes
from agents.heuristic_night import kill_options, pack_consensus
from agents.reasoner.space import Space
from agents.reasoner.village import first_best

if TYPE_CHECKING:
    from agents.reasoner.mind import Mind
    from agents.reasoner.table import Table

# The victim's worth, in units of the village's summed P(wolf) on the pack. Measured on
# 1,000 games at 8 players against the heuristic village (benchmarks/reasoner_strength.py
# prints the current figures): a heavier price on exposure, or on P(Seer) for players
# who have not claimed, cost the pack 2-3 points of win rate there, since that village
# hardly reads who the pack devours; what they assume is a village that does.
SEER_WORTH = 0.5  # a likely Seer removed
TRUSTED_WORTH = 1.0  # a player the table trusts (1 - its P(wolf)) is a voice the pack silences
SHERIFF_WORTH = 0.4
ACCUSER_WORTH = 0.4  # per accusation or vote he cast against the pack: a sharp voice
EXPOSURE = 0.25  # the price of each unit of P(wolf) the kill adds to the pack in the village's eyes


def victim(m: "Mind", legal: list[str]) -> str | None:
    """The pack's best victim among ``legal`` (see the module docstring)."""
    mem = m.mem
    if not legal:
        return None
    if mem.caught_girl in legal and mem.caught_girl not in mem.dead:
        return mem.caught_girl
    angels = mem.likely_angels()
    if angels:  # devouring the Angel in his first round makes him win
        legal = [n for n in legal if n not in angels] or legal
    worth = _worth(m, legal)
    return first_best(legal, lambda n: worth[n])


def _worth(m: "Mind", legal: list[str]) -> dict[str, float]:
    agent = m.agent
    t = agent.belief.table
    assert t is not None and t.tracker is not None
    key = ("victims", len(t.log), t.tracker.space.version, tuple(legal), frozenset(m.mem.pack))
    kept = m.plan.get("victims")
    if kept is not None and kept[0] == key:
        return kept[1]
    space = t.tracker.space
    pack = [t.slot[w] for w in m.mem.pack_alive if w in t.slot]
    exposure = _exposure(t, space, pack) if pack and EXPOSURE else {}
    out: dict[str, float] = {}
    for n in legal:
        s = t.slot.get(n)
        if s is None:
            out[n] = 0.0
            continue
        value = SEER_WORTH * m.mine.role(n, "seer") + TRUSTED_WORTH * (1.0 - m.public.of(n))
        value += ACCUSER_WORTH * float(t.accused[s, pack].sum() + t.voted[s, pack].sum()) if pack else 0.0
        if n == m.mem.sheriff:
            value += SHERIFF_WORTH
        out[n] = value - EXPOSURE * exposure.get(n, 0.0)
    m.plan["victims"] = (key, out)
    return out


def _exposure(t: "Table", space: Space, pack: list[int]) -> dict[str, float]:
    """For each living player, how much the table's P(wolf) summed over the pack would
    rise were he devoured tonight (his card then shown, not a wolf's): every victim's
    lookahead from one evaluation of the kill's factor (``KillFactor.every_victim``)."""
    alive = t.alive
    if not alive:
        return {}
    w = space.weights()
    ll = t.kill_factor_for(t.slot[alive[0]]).every_victim(space)  # (rows, alive): rows where he is a wolf are -inf
    top = ll.max(axis=0, keepdims=True)
    with np.errstate(invalid="ignore"):
        post = w[:, None] * np.exp(ll - np.where(np.isfinite(top), top, 0.0))  # unnormalised posterior per victim
    mass = post.sum(axis=0)
    on_pack = space.wolf_f[:, pack].sum(axis=1)
    before = float(w @ on_pack)
    after = (on_pack @ post) / np.where(mass > 0, mass, 1.0)
    return {n: float(after[i]) - before if mass[i] > 0 else 0.0 for i, n in enumerate(alive)}


def wolf_kill(m: "Mind") -> str | None:
    """The pack's agreed victim when there is one (as the heuristic's wolves agree),
    else the reasoner's own choice."""
    options, agreed = pack_consensus(m.mem, m.decision)
    if agreed is not None or not options:
        return agreed
    return victim(m, [o for o in options if o not in m.mem.pack]) or options[0]


def wolf_chat(m: "Mind") -> dict[str, Any]:
    """Propose the pack's best victim, or agree with the latest proposal."""
    mem = m.mem
    tonight = mem.chat_targets.get(mem.day, [])
    legal = kill_options(mem)
    proposal = tonight[-1][1] if tonight else None
    if proposal in legal:
        return {"text": m.say("wolf_chat.agree", target=proposal), "target": proposal}
    target = victim(m, legal)
    if target is None:
        return {"text": ""}
    if proposal is not None:
        return {"text": m.say("wolf_chat.counter", target=target, other=proposal), "target": target}
    return {"text": m.say("wolf_chat.propose", target=target), "target": target}


def sheriff_vote(m: "Mind") -> str | None:
    """The badge where the village's own votes go: the player the table trusts most
    (never oneself), mate or not. A wolf who votes his mate stands out once the mate's
    card is shown (the reasoner's village reads it from the first day: ``model``)."""
    options = [o for o in m.decision.options if o != m.me] or list(m.decision.options)
    if not options:
        return None
    return m.consensus(options, lambda n: -m.public.of(n) + 0.3 * m.public.cred.get(n, 0.0))


def vote(m: "Mind") -> str | None:
    """Ride the table's mood against a villager (the heuristic bot's pack vote, reading
    the public posterior)."""
    return heuristic_votes.vote(m)

"""What the reasoner assumes about the other players: how likely each observed action is
under each assignment of the cards.

Every public action is one *factor*: a function from the rows of a ``Space`` to a
log-likelihood per row. The assumptions, in one place (docs/AGENTS.md says the same
in words, and where they can be exploited):

- **Picks** (day votes, accusations, Sheriff votes, the dying Sheriff's heir): an actor picks among the legal
  targets with a softmax over ``beta * mood + gamma * [target is a wolf]``, where the
  *mood* is the table's public P(wolf) just before the action (``Table.mood``), and
  ``beta``, ``gamma`` depend on the actor's card: a villager follows the mood, the
  Seer also leans on what she saw (``gamma`` > 0), a wolf rides the mood but spares
  his mates (``gamma`` < 0). A small share ``noise`` of picks is uniform, so no single
  act rules a hypothesis out.
- **Role claims**: the holder of a role claims it; a wolf fakes a claim now and then;
  a villager almost never claims a card he does not hold.
- **Seer reports**: the real Seer reports what she saw; a wolf posing as the Seer calls
  villagers wolves, rarely a mate.
- **The night's victim**: the pack devours a non-wolf, the likelier the more he threatens
  it: a Seer claim, the badge, his accusations and votes against the wolves.

The constants were fitted by maximum likelihood of the true cards on the reasoner's
village playing the heuristic bot's pack (``benchmarks/reasoner_fit.py`` prints the
fit; its docstring says how): the actions a reasoner village reads in the games it is
measured by. A villager's pick keeps ``gamma`` at 0: he knows no card the table does
not, so his vote tells whether he is a wolf, never what his target is. The model is a
modest one on purpose: a few weights per action, so that a table of people or models
who act otherwise moves the beliefs less, and never rules the truth out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.reasoner.space import Space

LOG_ZERO = -np.inf


@dataclass(frozen=True)
class Pick:
    """A choice of one player among ``options`` (see the module docstring). Indexed
    by the actor's class: ``VILLAGER``, ``SEER``, ``WOLF``."""

    beta: tuple[float, float, float]
    gamma: tuple[float, float, float]
    noise: float = 0.05


@dataclass(frozen=True)
class ClaimModel:
    """P(a player claims a role at some point) for its holder, for a wolf, for anyone else."""

    holder: float
    wolf: float
    other: float


@dataclass(frozen=True)
class ReportModel:
    """P(a reported Seer result says "werewolf") given the reporter's card and the target's."""

    seer_error: float  # the real Seer misreports (a model's slip)
    wolf_on_villager: float  # a fake Seer calls a villager a wolf
    wolf_on_mate: float  # a fake Seer calls his mate a wolf
    other_on_wolf: float  # a villager posing as the Seer calls a wolf a wolf
    other_on_villager: float


@dataclass(frozen=True)
class KillModel:
    """The pack's victim: a softmax over the living non-wolves of ``KILL_FEATURES``
    (weighed by ``weights``) and of the pressure each candidate put on the row's wolves."""

    trust: float  # times (1 - mood): the trusted are worth killing
    seer_claim: float  # claimed the Seer
    hunter_claim: float  # claimed the Hunter (devoured, he shoots back)
    power_claim: float  # claimed another power role
    sheriff: float
    accused_wolf: float  # per accusation of a wolf (in this hypothesis) by the candidate
    voted_wolf: float  # per vote for a wolf by the candidate
    reported_wolf: float  # per Seer report naming a wolf (in this hypothesis) by the candidate

    @property
    def weights(self) -> np.ndarray:
        return np.array([self.trust, self.seer_claim, self.hunter_claim, self.power_claim, self.sheriff])


@dataclass(frozen=True)
class Params:
    vote: Pick
    accuse: Pick
    sheriff_vote: Pick
    successor: Pick  # the dying Sheriff's heir
    claim_seer: ClaimModel
    claim_power: ClaimModel
    report: ReportModel
    kill: KillModel


# Fitted by ``python benchmarks/reasoner_fit.py --games 300 --rounds 5 --seed 60000``
# (its docstring says how): maximum likelihood of the true cards, per kind of action, on
# 600 games of the reasoner's village against the heuristic pack at 8 and 12 players,
# played with the constants of the fit before (seed 50000), itself fitted on games of the
# first, hand-set model. Each pass made the village stronger at 8 players against that
# pack: 87%, 90.5%, 96.9% of wins over the same 1,000 deals.
PARAMS = Params(
    vote=Pick(beta=(4.487, 2.73, 1.488), gamma=(0.0, 1.118, -0.485)),
    accuse=Pick(beta=(5.752, 5.936, 2.323), gamma=(0.0, 0.149, -2.077)),
    sheriff_vote=Pick(beta=(-19.352, -6.527, 0.8), gamma=(0.0, -1.768, 1.528)),
    successor=Pick(beta=(-9.401, 0.559, 2.253), gamma=(0.0, -6.608, 6.236)),
    claim_seer=ClaimModel(holder=0.796, wolf=0.048, other=0.001),
    claim_power=ClaimModel(holder=0.5, wolf=0.03, other=0.01),
    report=ReportModel(seer_error=0.01, wolf_on_villager=0.683, wolf_on_mate=0.248, other_on_wolf=0.5, other_on_villager=0.5),
    kill=KillModel(
        trust=2.279, seer_claim=16.843, hunter_claim=-0.127, power_claim=0.127, sheriff=4.341, accused_wolf=1.196, voted_wolf=1.629, reported_wolf=-9.319
    ),
)


# ---------------------------------------------------------------------- factors
class Factor:
    """One observed action: ``loglik(space)`` weighs every row of a space."""

    def loglik(self, space: Space) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


class PickFactor(Factor):
    """``actor`` picked ``target`` among ``options`` (slots), the mood being ``mood``.

    Per row, the actor's class ``c`` gives ``beta``, ``gamma``; the softmax's
    denominator is the sum over the options of ``exp(beta * mood)``, times
    ``exp(gamma)`` for the options that are wolves in that row: one matrix product of
    the rows' wolf cards with each class's ``exp(beta * mood)``, then per row the
    actor's column."""

    __slots__ = ("actor", "target", "options", "mood", "model", "_e", "_s", "_top")

    def __init__(self, actor: int, target: int, options: np.ndarray, mood: np.ndarray, model: Pick):
        self.actor, self.target, self.options, self.mood, self.model = actor, target, options, mood, model
        beta = np.asarray(model.beta)
        e = np.zeros((len(mood), 3))
        e[options] = np.exp(np.outer(mood[options], beta))
        self._e = e  # per slot and class: exp(beta * mood), 0 off the options
        self._s = e.sum(axis=0)
        self._top = beta * mood[target]

    def loglik(self, space: Space) -> np.ndarray:
        m = self.model
        gamma = np.asarray(m.gamma)
        c = space.cls[:, self.actor]
        g = (space.wolf_f @ self._e)[space.at, c]
        z = self._s[c] + np.expm1(gamma)[c] * g
        ll = self._top[c] + gamma[c] * space.wolf_f[:, self.target] - np.log(z)
        if m.noise > 0:  # the uniform share, as a floor: max(a, b) is within log 2 of log(e^a + e^b)
            ll = np.maximum(ll + math.log1p(-m.noise), math.log(m.noise / len(self.options)))
        return ll


def picks_loglik(picks: list[PickFactor], space: Space) -> np.ndarray:
    """The summed log-likelihood of many picks over a space's rows, in one pass: every
    pick's denominator from one matrix product, every actor's class gathered at once.
    The same sums as each ``PickFactor.loglik`` added up (to rounding): what a sampled
    space's Metropolis moves score every proposal by (``tracker``)."""
    if not picks:
        return np.zeros(space.size)
    n = len(picks)
    e = np.stack([p._e for p in picks], axis=1)  # (slots, picks, classes)
    s = np.stack([p._s for p in picks])  # (picks, classes)
    top = np.stack([p._top for p in picks])
    gamma = np.array([p.model.gamma for p in picks])
    noise = np.array([p.model.noise for p in picks])
    floor = np.log(np.maximum(noise, 1e-300) / np.array([len(p.options) for p in picks]))
    actors = np.array([p.actor for p in picks])
    targets = np.array([p.target for p in picks])
    g = (space.wolf_f @ e.reshape(e.shape[0], n * 3)).reshape(space.size, n, 3)
    c = space.cls[:, actors].astype(np.intp)  # (rows, picks)
    f = np.arange(n)
    g = np.take_along_axis(g, c[:, :, None], axis=2)[:, :, 0]
    z = s[f, c] + np.expm1(gamma)[f, c] * g
    ll = top[f, c] + gamma[f, c] * space.wolf_f[:, targets] - np.log(z)
    ll = np.where(noise > 0, np.maximum(ll + np.log1p(-noise), floor), ll)
    return ll.sum(axis=1)


class ClaimFactor(Factor):
    """``actor`` claimed to hold a card of type ``role``."""

    __slots__ = ("actor", "role", "model")

    def __init__(self, actor: int, role: str, model: ClaimModel):
        self.actor, self.role, self.model = actor, role, model

    def loglik(self, space: Space) -> np.ndarray:
        m = self.model
        holder = space.holds(self.actor, self.role)
        wolf = space.wolf[:, self.actor]
        return np.where(holder, np.log(m.holder), np.where(wolf, np.log(m.wolf), np.log(m.other)))


class ConfessionFactor(Factor):
    """``actor`` said he is a werewolf. A wolf almost never says so; the Angel, who wins if
    the village votes him out on the first day, says it on purpose (003 "Angel"); anyone
    else, hardly ever. Not fitted: the constants of ``CONFESSION``."""

    __slots__ = ("actor",)

    def __init__(self, actor: int):
        self.actor = actor

    def loglik(self, space: Space) -> np.ndarray:
        angel = space.holds(self.actor, "angel")
        wolf = space.wolf[:, self.actor]
        return np.where(angel, np.log(CONFESSION[0]), np.where(wolf, np.log(CONFESSION[1]), np.log(CONFESSION[2])))


CONFESSION = (0.8, 0.01, 0.005)  # P(says he is a wolf) for the Angel, a wolf, anyone else


class ReportFactor(Factor):
    """``actor`` said he saw ``target``'s card, a wolf's (``wolf``) or not."""

    __slots__ = ("actor", "target", "wolf", "model")

    def __init__(self, actor: int, target: int, wolf: bool, model: ReportModel):
        self.actor, self.target, self.wolf, self.model = actor, target, wolf, model

    def loglik(self, space: Space) -> np.ndarray:
        m = self.model
        tw = space.wolf[:, self.target]
        cls = space.cls[:, self.actor]
        seer = np.where(tw, 1.0 - m.seer_error, m.seer_error)
        fake = np.where(tw, m.wolf_on_mate, m.wolf_on_villager)
        other = np.where(tw, m.other_on_wolf, m.other_on_villager)
        p = np.where(cls == 1, seer, np.where(cls == 2, fake, other))
        if not self.wolf:
            p = 1.0 - p
        return np.log(p)


# The public features of a candidate victim, in ``KillModel.weights`` order.
KILL_FEATURES = ("trust", "seer_claim", "hunter_claim", "power_claim", "sheriff")


class KillFactor(Factor):
    """The pack devoured ``victim`` among the living ``alive`` (slots). ``features``: each
    living player's public features (``KILL_FEATURES``); ``accused`` / ``voted`` /
    ``reported``: who accused, voted for, or reported as a wolf whom so far (players x
    players), which weigh as pressure on the wolves of each row."""

    __slots__ = ("victim", "alive", "features", "accused", "voted", "reported", "model", "_base", "_pressure")

    def __init__(self, victim: int, alive: np.ndarray, features: np.ndarray, accused: np.ndarray, voted: np.ndarray, reported: np.ndarray, model: KillModel):
        self.victim, self.alive, self.features, self.model = victim, alive, features, model
        self.accused, self.voted, self.reported = accused, voted, reported
        self._base = features @ model.weights
        self._pressure = (model.accused_wolf * accused[alive] + model.voted_wolf * voted[alive] + model.reported_wolf * reported[alive]).T

    def loglik(self, space: Space) -> np.ndarray:
        v = int(np.flatnonzero(self.alive == self.victim)[0])
        return self.every_victim(space)[:, v]

    def every_victim(self, space: Space) -> np.ndarray:
        """The log-likelihood of each row had the pack devoured each of the living
        (rows x ``alive``): the softmax's denominator is shared, so what any choice of
        victim would tell is one computation (the pack's lookahead, ``pack``)."""
        n = self.accused.shape[0]
        s = self._base[None, :] + space.wolf_f[:, :n] @ self._pressure  # (rows, alive)
        valid = ~space.wolf[:, self.alive]
        top = s.max(axis=1, keepdims=True)
        z = (np.exp(s - top) * valid).sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore"):
            return np.where(valid, s - top - np.log(np.maximum(z, 1e-300)), LOG_ZERO)


class HardFactor(Factor):
    """A fact: rows where ``slot`` holds type ``kind`` (``fixed``), a wolf card
    (``wolf``) or no wolf card (``not_wolf``) stand; the others fall."""

    __slots__ = ("slot", "what", "kind")

    def __init__(self, slot: int, what: str, kind: int = -1):
        self.slot, self.what, self.kind = slot, what, kind

    def loglik(self, space: Space) -> np.ndarray:
        if self.what == "fixed":
            ok = space.rows[:, self.slot] == self.kind
        elif self.what == "wolf":
            ok = space.wolf[:, self.slot]
        else:
            ok = ~space.wolf[:, self.slot]
        return np.where(ok, 0.0, LOG_ZERO)


class GroupFactor(Factor):
    """A fact about a group (the Fox's sniff): a wolf card among ``slots``, or none."""

    __slots__ = ("slots", "wolf")

    def __init__(self, slots: list[int], wolf: bool):
        self.slots, self.wolf = slots, wolf

    def loglik(self, space: Space) -> np.ndarray:
        anyw = space.wolf[:, self.slots].any(axis=1)
        return np.where(anyw == self.wolf, 0.0, LOG_ZERO)

"""The heuristic bot: plays every role with intent, from its events alone.

It is the arena's sparring partner and yardstick: stronger than random, cheap
enough for thousands of simulated games, and deterministic for a given seed and
name. The work is split by job: ``heuristic_memory`` digests events,
``heuristic_suspicion`` weighs them, ``heuristic_talk``, ``heuristic_votes`` and
``heuristic_night`` decide, ``heuristic_roles`` plays the characters of Best of
Werewolves and 狼人杀 (``ROLE_POLICIES``). This module only routes a decision to its policy and
guarantees that whatever comes back is a legal answer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping  # typing's alias costs ~30x more per isinstance (once per seat)
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

import agents.heuristic_forum as forum
import agents.heuristic_night as night
import agents.heuristic_roles as roles
import agents.heuristic_talk as talk
import agents.heuristic_village as village
import agents.heuristic_votes as votes
from agents.base import Agent, SeatView
from agents.heuristic_lines import LANGUAGES
from agents.heuristic_memory import Memory
from agents.heuristic_noise import noisy_answer
from agents.heuristic_situation import Situation
from agents.heuristic_powers import aimed_power, declared_power
from agents.heuristic_suspicion import judged, normalise
from agents.random_agent import legal_or_random, random_answer
from engine.decisions import Decision

Policy = Callable[[Situation], Any]

# How sharply the stated beliefs follow the evidence: fitted by Brier score on 200
# self-play games at 8 and 12 seats (villagers' answers; 1.0 is the play's own odds:
# Brier 0.227, 0.3: 0.197, 0: the public share of hidden wolves, 0.208).
BELIEF_TEMPERATURE = 0.3

POLICIES: dict[str, Policy] = {
    "speak": talk.speak,
    "bid": talk.bid,
    "wolf_chat": talk.wolf_chat,
    "vote": votes.vote,
    "sheriff_vote": votes.sheriff_vote,
    "sheriff_successor": votes.sheriff_successor,
    "sheriff_tiebreak": votes.sheriff_tiebreak,
    "sheriff_run": votes.sheriff_run,
    "sheriff_withdraw": votes.sheriff_withdraw,
    "wolf_kill": night.wolf_kill,
    "seer_check": night.seer_check,
    "witch_heal": night.witch_heal,
    "witch_poison": night.witch_poison,
    "hunter_shot": night.hunter_shot,
    "cupid_lovers": night.cupid_lovers,
    "thief_swap": night.thief_swap,
    "little_girl_spy": night.little_girl_spy,
}
POLICIES.update(forum.POLICIES)  # message-board Werewolf (004)
POLICIES.update(village.POLICIES)  # The Village (000)


class SideNoise(BaseModel):
    """``noise`` split by side: the share of random moves while the bot is a villager
    (any seat outside the pack) and while it is a werewolf (in the pack, converted
    ones included). Two strengths in one bot, for testing ratings that tell a
    participant's play on each side apart (``arena.ratings.side_skills``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    village: float = Field(default=0.0, ge=0.0, le=1.0)
    werewolves: float = Field(default=0.0, ge=0.0, le=1.0)

    def at(self, wolf: bool) -> float:
        return self.werewolves if wolf else self.village


Noise = float | SideNoise


def _one_share(v: Any) -> float:
    """One share of random moves, from 0 to 1 (a bool is not one, though Python counts it a number)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
        raise ValueError(f"noise is a share from 0 to 1 (or {{village: P, werewolves: Q}}), not {v!r}")
    return float(v)


class HeuristicOptions(BaseModel):
    """The heuristic bot's ``options:``. ``noise`` builds a ladder of known strengths
    from one bot: with probability ``noise`` each decision is a uniformly random legal
    move (``agents.heuristic_noise``) instead of the policy's; ``{village: P,
    werewolves: Q}`` gives each side its own share (``SideNoise``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # frozen: the defaults are one shared instance

    noise: Noise = 0.0

    @field_validator("noise", mode="before")
    @classmethod
    def _share(cls, v: Any) -> Noise:
        """A share from 0 to 1, or one per side; said plainly (a union's own errors
        name its members' internals)."""
        if isinstance(v, SideNoise):
            return v
        if isinstance(v, Mapping):
            unknown = [k for k in v if k not in SideNoise.model_fields]
            if unknown:
                raise ValueError(f"noise by side takes village and werewolves, not {unknown[0]!r}")
            return SideNoise(**{k: _one_share(x) for k, x in v.items()})
        return _one_share(v)

    @classmethod
    def parse(cls, raw: Any) -> "HeuristicOptions":
        """``raw`` checked; ``ValueError`` naming the key. Anything but a mapping (a
        model seat's settings passed to every seat as wiring) is not the bot's."""
        if not isinstance(raw, Mapping) or not raw:
            # nothing to check: the defaults (every seat of a simulation), built once, as
            # pydantic takes ~10 us to construct one, half the rest of a seat's setup
            return _DEFAULT_OPTIONS if cls is HeuristicOptions else cls.model_construct()
        try:
            return cls.model_validate(dict(raw))
        except ValidationError as e:
            first = e.errors()[0]
            key = ".".join(str(x) for x in first["loc"])
            if first["type"] == "extra_forbidden":
                raise ValueError(f"the heuristic bot has no option '{key}' (it takes: noise; only model seats take model settings)") from None
            raise ValueError(f"heuristic option {key}: {first['msg'].removeprefix('Value error, ')}") from None


_DEFAULT_OPTIONS = HeuristicOptions.model_construct()


class HeuristicAgent(Agent):
    spec = "heuristic"
    # Tests set this to surface a policy's bug instead of covering it with a random answer.
    strict: bool = False

    def __init__(self, name: str, seed: int = 0, language: str | None = None, noise: Noise | Mapping[str, float] = 0.0):
        super().__init__(name)
        self.seed = seed
        self.rng = random.Random(f"{seed}:{name}")
        # Its own generator, so that noise 0 plays exactly the noiseless bot's game and
        # the coin never shifts the policy's draws; seeded only when there is noise
        # (seeding costs as much as a few decisions, and a simulation seats thousands).
        self.noise: Noise = 0.0 if noise == 0.0 else HeuristicOptions.model_validate({"noise": noise}).noise
        noisy = self.noise.village or self.noise.werewolves if isinstance(self.noise, SideNoise) else self.noise
        self.noise_rng = random.Random(f"{seed}:{name}:noise") if noisy else None
        self.memory = Memory(name)
        self.plan: dict[str, Any] = {}
        # The language of the bot's speech (``prompts/bot_lines/<language>.yaml``): the
        # game's, when the table says it; otherwise the first language another seat is
        # heard speaking in (a Chinese table of people or models), else English.
        self.language = language if language in LANGUAGES else None

    @property
    def lang(self) -> str:
        return self.language or self.memory.heard or "en"

    def decide(self, view: SeatView, decision: Decision) -> Any:
        self._remember(view)
        if self.noise_rng is not None and self.noise_rng.random() < self._noise():
            sit = Situation(self.memory, self.noise_rng, decision, self.plan, self.lang, self.seed)
            return self._legal(decision, noisy_answer(sit, view))
        policy = POLICIES.get(decision.kind) or roles.ROLE_POLICIES.get(decision.kind)
        if policy is None and declared_power(decision.kind) is not None:
            policy = aimed_power  # a power aimed at a player, played from its declaration
        if policy is None:  # a kind this bot has no play for
            return random_answer(self.rng, decision)
        try:
            answer = policy(Situation(self.memory, self.rng, decision, self.plan, self.lang, self.seed))
        except Exception:
            if self.strict:
                raise
            return random_answer(self.rng, decision)
        return self._legal(decision, answer)

    def _noise(self) -> float:
        """The share of random moves for this decision: the side's, when split by side
        (the side the bot is on now: a villager bitten into the pack plays as a wolf)."""
        noise = self.noise
        return noise.at(self.memory.is_wolf) if isinstance(noise, SideNoise) else noise

    def _remember(self, view: SeatView) -> None:
        if self.memory.update(view):
            self.plan = {}  # a new game: yesterday's lies belong to another table

    def beliefs(self, view: SeatView, moment: int | None = None) -> dict[str, float]:
        """The suspicion model's P(wolf) for every other living player, from the seat's
        private knowledge, calibrated: the same evidence scores spread over the same
        expected number of hidden wolves, at ``BELIEF_TEMPERATURE``. The play reads the
        sharp odds (ranking suspects is all a vote needs); stated as probabilities
        they were overconfident (of answers >= 0.9, about half were wolves) and scored
        worse than the constant answer. Reading the view only advances the memory the
        next decision would read anyway (in the same order), and judging draws no
        random number, so asking changes nothing in how the bot plays."""
        self._remember(view)
        b = judged(self.memory, private=True)
        others = [n for n in view.alive if n != self.name]
        pool = [n for n in others if n not in b.known and n in b.score]
        p = normalise({n: BELIEF_TEMPERATURE * b.score[n] for n in pool}, pool, b.hidden_wolves)
        for n in others:
            if n in b.known:
                p[n] = 1.0 if b.known[n] else 0.0
        return {n: round(min(1.0, max(0.0, p.get(n, 0.0))), 6) for n in others}

    def _legal(self, decision: Decision, answer: Any) -> Any:
        return legal_or_random(self.rng, decision, answer, strict=self.strict)

"""The random bot: uniform over the legal answers, passing included where legal.

It is the baseline every other agent is measured against, and the fuzzer of the
engine's property tests."""

from __future__ import annotations

import random
from typing import Any

from agents.base import BlindAgent
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, IllegalAnswer

_LINES = ("I have nothing to add.", "Let's think carefully.", "I am a simple villager.", "Hmm.")
_NLINES = len(_LINES)
_LINE_BITS = _NLINES.bit_length()  # the bits ``rng.choice(_LINES)`` draws


class RandomAgent(BlindAgent):
    """Never reads its view: the sync runner asks it ``answer`` without one (``BlindAgent``).

    ``rng``: the stream to draw from, when the seat shares its game's
    (``arena.gamefile.random_seats_stream``); otherwise its own, from ``seed`` and name."""

    spec = "random"

    def __init__(self, name: str, seed: int = 0, rng: random.Random | None = None):
        super().__init__(name)
        self.rng = rng if rng is not None else random.Random(f"{seed}:{name}")

    def answer(self, decision: Decision) -> Any:
        return random_answer(self.rng, decision)


def random_answer(rng: random.Random, d: Decision) -> Any:
    """A uniform legal answer. Picks are drawn as ``rng.choice`` draws them (the
    same bits of the same stream, ``Random._randbelow``), without its two Python
    calls: a random game spends more on choosing than on most rules."""
    shape = d.shape
    if shape == TEXT:
        getrandbits = rng.getrandbits
        r = getrandbits(_LINE_BITS)
        while r >= _NLINES:
            r = getrandbits(_LINE_BITS)
        return _LINES[r]
    options = d.options
    if shape == MULTI:
        if len(options) < d.count:
            return None
        return rng.sample(list(options), d.count)
    n = len(options)
    if d.allow_pass and shape != BOOL:
        n += 1  # passing is one more choice, drawn last (None)
    if not n:
        return None
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return options[r] if r < len(options) else None


def legal_or_random(rng: random.Random, decision: Decision, answer: Any, *, strict: bool = False) -> Any:
    """A bot's ``answer`` if the rules allow it, else a uniformly random legal one: a
    bot that fails a game over a corner case would be worse than a weak move.
    ``strict`` (tests) raises the refusal instead."""
    if isinstance(answer, str) and decision.shape == CHOICE and answer in decision.options:
        return answer  # the commonest answer, accepted as ``validate`` accepts it first
    try:
        decision.validate(answer)
        return answer
    except IllegalAnswer:
        if strict:
            raise
        return random_answer(rng, decision)

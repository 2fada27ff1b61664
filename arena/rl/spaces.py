"""The environments' spaces: one fixed action vocabulary per table, and the texts.

Why a fixed vocabulary rather than "the i-th legal option": a policy learns what an
index means, so index ``PLAYER + k`` is always seat ``k`` (in a vote, a night kill, a
Seer's check alike) and a role or a camp always has its own index. The decision's
legal options are the 1s of the action mask.

The action is ``{"choice": int, "text": str}`` (``SeatActionSpace``): ``text`` carries
a speech when ``choice`` is ``SPEAK``, and is ignored otherwise. The space's
``sample`` also takes the flat int8 mask the observation carries (PettingZoo's
convention), so a random policy speaks a short random line when it picks ``SPEAK``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from engine.buildings.base import BUILDINGS
from engine.flow.ghost_notes import DELIVERIES
from engine.roles import ROLES
from engine.roles.base import VILLAGE, WEREWOLVES
from engine.words import MAX_CHARS, repair

# The first indices of every table's vocabulary.
WAIT = 0  # nothing to decide now (a parallel step in which this seat is not asked)
PASS = 1  # null: abstain, keep, no target; an empty speech
YES = 2  # true
NO = 3  # false
SPEAK = 4  # a speech: the words are the action's ``text``
PLAYER = 5  # PLAYER + k: the player in seat k
SPECIALS = ("wait", "pass", "yes", "no", "speak")

# Longest speech, in characters: the engine's bound on every seat's words (``engine.words``).
MAX_SPEECH = MAX_CHARS
# Longest observation text: a forum game of many days stays far below it.
MAX_TEXT = 10_000_000
# Length of the lines a random policy speaks (``SeatActionSpace.sample``).
SAMPLE_SPEECH = (0, 60)


def words() -> tuple[str, ...]:
    """The non-player answers any decision may name: role ids (the Thief's cards),
    camps (the Wolf-Hound), building ids, a ghost note's delivery. Sorted, deduplicated."""
    found = set(ROLES) | set(BUILDINGS) | {VILLAGE, WEREWOLVES} | set(DELIVERIES)
    return tuple(sorted(found))


@lru_cache(maxsize=1)
def charset() -> str:
    """Every printable character of Unicode's basic plane: what a speech or a prompt may
    contain (English, Chinese, typographic punctuation). Astral characters (most
    emoji) are outside it and are replaced in speeches (``clean_speech``)."""
    ranges = ((0x20, 0x7F), (0xA0, 0xD800), (0xE000, 0xFFFE))
    return "\n\t" + "".join(chr(c) for lo, hi in ranges for c in range(lo, hi))


@lru_cache(maxsize=1)
def _char_set() -> frozenset[str]:
    return frozenset(charset())


@lru_cache(maxsize=1)
def history_text() -> spaces.Text:
    """One shared space for every seat's observation text (building a space over the
    whole plane takes a good part of a second; the space is immutable)."""
    return spaces.Text(MAX_TEXT, min_length=0, charset=charset())


@lru_cache(maxsize=1)
def speech_text() -> spaces.Text:
    return spaces.Text(MAX_SPEECH, min_length=0, charset=charset())


@lru_cache(maxsize=4)
def language_chars(language: str) -> tuple[str, ...]:
    """The characters a random policy speaks in ``language``: printable ASCII, plus the
    CJK ideographs and punctuation for Chinese."""
    def keep(c: str) -> bool:
        o = ord(c)
        return 0x20 <= o < 0x7F or (language == "zh" and (0x4E00 <= o <= 0x9FFF or 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF))

    return tuple(c for c in charset() if keep(c))


def clean_speech(text: str) -> str:
    """A speech as the other seats will read it: sayable (``engine.words.repair``: at
    most ``MAX_SPEECH`` characters, no surrogate, no control character), and the
    characters outside ``charset`` (astral emoji) replaced by U+FFFD, so every
    observation stays inside its space."""
    allowed = _char_set()
    text = repair(text).text
    if allowed.issuperset(text):  # the common case, checked in C
        return text
    return "".join(c if c in allowed else "\ufffd" for c in text)


class SeatActionSpace(spaces.Dict):
    """``{"choice": Discrete(n), "text": Text}``; ``sample(mask)`` takes either the Dict
    form gymnasium defines or the flat int8 mask over ``choice`` the observation carries."""

    def __init__(self, n: int, language: str = "en", seed: int | None = None):
        super().__init__({"choice": spaces.Discrete(n), "text": speech_text()}, seed=seed)
        self.language = language
        self._mask_shape: tuple[int] = (n,)  # the flat mask's

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        if isinstance(mask, np.ndarray):
            choice = self._pick(mask)
            text = ""
            if choice == SPEAK:
                # Drawn here rather than by ``Text.sample``, which scans the whole
                # plane's mask on every call (tens of milliseconds).
                chars = language_chars(self.language)
                length = int(self.np_random.integers(*SAMPLE_SPEECH))
                text = "".join(chars[i] for i in self.np_random.integers(0, len(chars), size=length))
            return {"choice": choice, "text": text}
        return super().sample(mask=mask, probability=probability)

    def _pick(self, mask: np.ndarray) -> int:
        """A uniform legal index of the flat mask. Drawn from one uniform float of the
        space's generator rather than by ``Discrete.sample(mask)``, whose checks of the
        mask's every value and ``Generator.choice`` cost more than a step of the game."""
        if mask.shape != self._mask_shape or mask.dtype.kind not in "biu":
            raise ValueError(f"the mask is a flat int8 array of {self._mask_shape[0]} 0s and 1s, not {mask.dtype} of shape {mask.shape}")
        legal = mask.nonzero()[0]
        if not len(legal):
            return 0
        return int(legal[int(self.np_random.random() * len(legal))])


def observation_space(players: int, roles: int, max_days: int, actions: int, text: bool = False) -> spaces.Dict:
    """A seat's observation: a structured summary of its view, and with ``text`` its
    prompt text (left out unless asked for: rendering it costs more than the rest)."""
    fields: dict[str, spaces.Space[Any]] = {
        "action_mask": spaces.MultiBinary(actions),
        "seat": spaces.Discrete(players),
        "role": spaces.Discrete(roles + 1),  # 0: unknown (before the deal is told)
        "day": spaces.Discrete(max_days + 2),
        "alive": spaces.MultiBinary(players),
        "sheriff": spaces.Discrete(players + 1),  # ``players``: no Sheriff
        "picked": spaces.MultiBinary(players),
    }
    if text:
        fields = {"text": history_text(), **fields}
    return spaces.Dict(fields)

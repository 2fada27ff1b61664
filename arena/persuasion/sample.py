"""Which speeches are measured, whom they are measured on, and which are sampled.

A speech can be measured when it accuses someone and a vote follows it the same day:

- **the accused**: the players its structured claims name (``claims.accuses``, and
  the targets of any check it reports as a werewolf card), the speaker excluded. A
  speech that names nobody has no "player it accuses" and moves no vote toward
  anyone in particular, so it is not measured.
- **the listeners**: every seat that casts a day vote (``vote``) after the speech on
  the same day, except the speaker and the accused (whose own vote cannot go to
  themselves); each is measured at its **first** such vote (its next vote), and a
  person is never asked again. A vote answered by another agent than the seat's
  (the part of a forked game played before the fork) has no listener to ask again.

Sampling is nested and seeded: a speech is sampled when a uniform number drawn from
its game and position is below the fraction, so a larger fraction adds speeches to
a smaller one's sample (every ask already recorded for the smaller one is reused)
and the same seed samples the same speeches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterable

from engine.roles import ROLES
from transcripts.schema import AnswerRecord, EventRecord, Transcript

VOTE = "vote"
HUMAN = "human"


@dataclass(frozen=True)
class Listener:
    """A seat that hears a speech, and the vote decision it is measured at."""

    seat: str
    decision: int


@dataclass(frozen=True)
class Target:
    """A speech to measure: where it is in the game, who said it, whom it accuses,
    and who hears it before voting. ``moment`` is the day's first vote decision (the
    moment the day's beliefs are asked, when the game asks them)."""

    seq: int
    day: int
    speaker: str
    accused: tuple[str, ...]
    listeners: tuple[Listener, ...]
    moment: int
    agent: str | None = None  # the agent that said it (its seat's answer), when not the seat's own


def accused_by(claims: Any, speaker: str) -> tuple[str, ...]:
    """The players a speech's claims accuse, in order, each once, never the speaker:
    its ``accuses`` and the targets of the checks it reports as a werewolf card."""
    if not isinstance(claims, dict):
        return ()
    named: list[str] = []
    accuses = claims.get("accuses")
    for name in accuses if isinstance(accuses, list) else ():
        if isinstance(name, str):
            named.append(name)
    checks = claims.get("checks")
    for c in checks if isinstance(checks, list) else ():
        if isinstance(c, dict) and isinstance(c.get("target"), str):
            spec = ROLES.get(c.get("role"))  # type: ignore[arg-type]
            if spec is not None and spec.is_wolf:
                named.append(c["target"])
    out: list[str] = []
    for name in named:
        if name != speaker and name not in out:
            out.append(name)
    return tuple(out)


def targets(transcript: Transcript) -> list[Target]:
    """Every speech of the game that can be measured (see the module docstring), in
    the order they were said."""
    humans = {s.name for s in transcript.header.seats if s.agent == HUMAN}
    seated = {s.name: s.agent for s in transcript.header.seats}
    said_by: dict[str, str] = {}  # seat -> the agent of its latest answer
    speakers: dict[int, str] = {}  # speech seq -> the agent that said it
    found: list[tuple[EventRecord, tuple[str, ...]]] = []
    listeners: dict[int, dict[str, int]] = {}  # speech seq -> seat -> its next vote's decision
    moments: dict[int, int] = {}  # day -> its first vote decision
    day = 0
    open_speeches: list[tuple[EventRecord, tuple[str, ...]]] = []  # today's, not yet voted on by everyone
    for r in transcript.records:
        if isinstance(r, EventRecord):
            if r.day != day:
                day, open_speeches = r.day, []
            if r.kind == "speech" and r.audience == "public":
                speaker = r.data.get("speaker")
                accused = accused_by(r.data.get("claims"), speaker) if isinstance(speaker, str) else ()
                if accused:
                    speakers[r.seq] = said_by.get(str(speaker), seated.get(str(speaker), ""))
                    entry = (r, accused)
                    found.append(entry)
                    open_speeches.append(entry)
                    listeners[r.seq] = {}
        elif isinstance(r, AnswerRecord):
            said_by[r.seat] = r.agent
            if r.kind != VOTE:
                continue
            moments.setdefault(day, r.decision)
            for speech, accused in open_speeches:
                heard = listeners[speech.seq]
                seat = r.seat
                if seat == speech.data.get("speaker") or seat in accused or seat in heard or seat in humans:
                    continue
                heard[seat] = r.decision if r.agent == seated.get(seat) else -1  # -1: heard by another agent
    for heard in listeners.values():
        for seat in [s for s, d in heard.items() if d < 0]:
            del heard[seat]
    out = []
    for speech, accused in found:
        heard = listeners[speech.seq]
        if heard:
            out.append(
                Target(
                    seq=speech.seq,
                    day=speech.day,
                    speaker=str(speech.data["speaker"]),
                    accused=accused,
                    listeners=tuple(Listener(s, d) for s, d in heard.items()),
                    moment=moments[speech.day],
                    agent=None if speakers[speech.seq] == seated.get(str(speech.data["speaker"])) else speakers[speech.seq],
                )
            )
    return out


def draw(seed: int, game_key: str, seq: int) -> float:
    """A uniform number in [0, 1) fixed by the seed, the game and the speech."""
    digest = hashlib.blake2b(f"{seed}:{game_key}:{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def sampled(candidates: Iterable[Target], fraction: float, seed: int, game_key: str) -> list[Target]:
    """The speeches of one game that a run with ``fraction`` and ``seed`` measures."""
    return [t for t in candidates if draw(seed, game_key, t.seq) < fraction]


def game_key(transcript: Transcript) -> str:
    """What tells a game apart for sampling: its header's digest (chained files), else
    its seed and seats."""
    h = transcript.header
    return h.digest or f"{h.seed}:{','.join(h.names)}"

"""What a tournament says about a participant it paused (``arena.tournament.trial``):
the figures the verdict read, the last error its model gave, what to do next.

The last error is read from the transcripts of the games the verdict read, not kept
from the calls of this run, so a rerun that stops again at once says the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from agents.llm.accounting import redact
from arena.fastjson import loads
from arena.tournament.trial import TRIAL_DECISIONS, Verdict

ERROR_CHARS = 200  # of the last error, on one line


@dataclass
class PausedParticipant:
    participant: str
    agent: str
    games: int  # games its verdict read
    asked: int
    decided: int
    min_decided: float
    early: bool  # paused before its trial's end, on overwhelming evidence
    last_error: str | None
    unplayed: int = 0  # games seating it that this run left unplayed
    retried: bool = False  # its verdict read a new trial (``--retry-paused``), not its first games

    @classmethod
    def of(cls, participant: str, agent: str, v: Verdict, bar: float, last_error: str | None, retried: bool = False) -> "PausedParticipant":
        return cls(participant, agent, v.games, v.asked, v.decided, bar, v.early, last_error, retried=retried)

    @property
    def share(self) -> float:
        return 1.0 if self.asked <= 0 else self.decided / self.asked

    def sentence(self) -> str:
        """Why it was paused, in one sentence a person can act on."""
        first = "the first {} of its new trial" if self.retried else "its first {}"
        games = first.format("game" if self.games == 1 else f"{self.games} games")
        why = (
            f"its own agent decided {self.decided} of its {self.asked} decisions in {games} "
            f"({100 * self.share:.0f}%), below --min-decided {self.min_decided:g}"
        )
        if self.early:
            why += f" by too much to be chance (judged before its trial's {TRIAL_DECISIONS} decisions)"
        text = f"paused {self.participant} ({self.agent}): {why}, so the leaderboard would leave its games out"
        if self.last_error:
            text += f". Last error: {self.last_error}"
        return text

    def advice(self) -> str:
        left = f"{self.unplayed} game{'s' if self.unplayed != 1 else ''} seating it left unplayed" if self.unplayed else "no game of it left to play"
        return (
            f"{left}: fix the cause (address, key, model name, options) and run the same command with --retry-paused "
            "to give it a new trial, or with --min-decided 0 to play its games with fallback moves"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "participant": self.participant, "agent": self.agent, "games": self.games, "asked": self.asked,
            "decided": self.decided, "share": round(self.share, 4), "min_decided": self.min_decided, "early": self.early,
            "last_error": self.last_error, "unplayed": self.unplayed, "retried": self.retried,
        }  # fmt: skip


def last_error(transcripts: Iterable[Path], participant: str) -> str | None:
    """The last error (or refused reply) of a decision the fallback bot played for
    ``participant``, in the last of ``transcripts`` (plan order) that holds one."""
    for path in reversed(list(transcripts)):
        found = _last_in(path, participant)
        if found:
            return found
    return None


def _last_in(path: Path, participant: str) -> str | None:
    found = None
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if '"fallback":true' not in line and '"fallback": true' not in line:
                    continue
                try:
                    rec = loads(line)
                except ValueError:
                    continue
                if rec.get("type") == "call" and rec.get("display_name") == participant and rec.get("fallback"):
                    text = rec.get("error") or rec.get("violation")
                    if isinstance(text, str) and text.strip():
                        found = text
    except OSError:
        return None
    if found is None:
        return None
    one_line = " ".join(str(redact(found)).split())
    return one_line if len(one_line) <= ERROR_CHARS else one_line[: ERROR_CHARS - 1] + "…"

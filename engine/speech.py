"""What a speech may carry besides its words, checked before it becomes public.

A speech (``speak``) may state public claims — a role, Seer results, accusations —
so deception can later be measured against the truth; a wolf's night talk
(``wolf_chat``) may propose a victim. Both are read by other seats, so a malformed
claim is refused with its reason (a model is then asked again) rather than published.
Only the known keys are kept: private reasoning never reaches another seat.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from engine.decisions import TEXT, IllegalAnswer, decision
from engine.events import OMIT, EventData, Name, Said, event


class SpeakContext(TypedDict, total=False):
    round: int  # the round of the debate (under ``bidding``: the turn)
    phase: str  # where the words are said: ``discussion``, ``campaign``, ``last_words``
    protocol: str  # the discussion protocol when not round robin: ``parallel``, ``bidding``
    speakers: int  # ``parallel``: how many players speak at once this round
    turns: int  # ``bidding``: how many speeches the debate holds


SPEAK = decision("speak", TEXT, context=SpeakContext, unmeasured="talk: the claims are checked by the deception metric")


@event("speech")
class Speech(EventData):
    """A player's public words. ``claims``: what the speech states, in the canonical
    shape of ``check_claims`` (absent when it states nothing); ``last_words``: the
    words of a player who has just died (absent otherwise)."""

    speaker: Name
    text: Said
    round: int
    claims: Annotated[dict[str, Any] | None, OMIT] = None
    last_words: Annotated[bool, OMIT] = False


def _names(value: Any, players: dict[str, Any], what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalAnswer(f"{what} must be a list of player names")
    unknown = [v for v in value if v not in players]
    if unknown:
        raise IllegalAnswer(f"{what} names an unknown player: {unknown[0]!r}")
    return list(value)


def check_claims(claims: Any, players: dict[str, Any], roles: dict[str, Any]) -> dict[str, Any]:
    """Claims in one canonical shape: ``{"role": id or None, "checks": [...], "accuses": [...]}``."""
    if not isinstance(claims, dict):
        raise IllegalAnswer("claims must be an object with role, checks and accuses")
    role = claims.get("role")
    if role is not None and (not isinstance(role, str) or role not in roles):
        raise IllegalAnswer(f"claimed role {role!r} is not a role id")
    checks = claims.get("checks") or []
    if not isinstance(checks, list):
        raise IllegalAnswer("claims.checks must be a list of {target, role}")
    clean = []
    for c in checks:
        if not isinstance(c, dict) or not isinstance(c.get("target"), str) or not isinstance(c.get("role"), str):
            raise IllegalAnswer("each claimed check needs a target name and a role id")
        if c["target"] not in players:
            raise IllegalAnswer(f"claimed check names an unknown player: {c['target']!r}")
        if c["role"] not in roles:
            raise IllegalAnswer(f"claimed check gives an unknown role: {c['role']!r}")
        clean.append({"target": c["target"], "role": c["role"]})
    accuses = _names(claims.get("accuses"), players, "claims.accuses")
    return {"role": role, "checks": clean, "accuses": accuses}


def check_speech(kind: str, answer: dict[str, Any], players: dict[str, Any], roles: dict[str, Any]) -> dict[str, Any]:
    """Canonical form of a structured speech answer, or ``IllegalAnswer``."""
    text = answer.get("text", "")
    if not isinstance(text, str):
        raise IllegalAnswer(f"{kind} text must be a string")
    out: dict[str, Any] = {"text": text}
    if answer.get("claims") is not None:
        out["claims"] = check_claims(answer["claims"], players, roles)
    target = answer.get("target")
    if target is not None:
        if not isinstance(target, str) or target not in players or not players[target].alive:
            raise IllegalAnswer(f"proposed target {target!r} is not a living player")
        out["target"] = target
    return out


def speech_data(speaker: str, said: str | dict[str, Any], rnd: int, last_words: bool = False) -> Speech:
    """The ``speech`` event of an accepted ``speak`` answer (plain words or the
    canonical dict of ``check_speech``, whose claims are kept and whose other keys a
    speech does not carry), whichever discussion protocol asked for it."""
    if isinstance(said, dict):
        return Speech(speaker, said["text"], rnd, said.get("claims"), last_words)
    return Speech(speaker, said, rnd, None, last_words)

"""What a speech may carry besides its words, checked before it becomes public.

A speech (``speak``) may state public claims — a role, Seer results, accusations —
so deception can later be measured against the truth; a wolf's night talk
(``wolf_chat``) may propose a victim. Both are read by other seats, so a malformed
claim is refused with its reason (a model is then asked again) rather than published.
Only the known keys are kept: private reasoning never reaches another seat.
"""

from __future__ import annotations

from typing import Any

from engine.decisions import TEXT, IllegalAnswer, decision

SPEAK = decision("speak", TEXT, unmeasured="talk: the claims are checked by the deception metric")


def _names(value: Any, players: dict, what: str) -> list[str]:
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


def check_claims(claims: Any, players: dict, roles: dict) -> dict[str, Any]:
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


def check_speech(kind: str, answer: dict, players: dict, roles: dict) -> dict[str, Any]:
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


def speech_data(speaker: str, said: Any, rnd: int) -> dict[str, Any]:
    """A ``speech`` event's data from an accepted ``speak`` answer (plain words or the
    canonical dict of ``check_speech``): the same keys, in the same order, whichever
    discussion protocol asked for it."""
    if said.__class__ is dict:
        if "claims" in said:
            return {"speaker": speaker, "text": said["text"], "round": rnd, "claims": said["claims"]}
        return {"speaker": speaker, "text": said["text"], "round": rnd}
    return {"speaker": speaker, "text": said, "round": rnd}

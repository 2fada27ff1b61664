"""The ``beliefs`` question: its answer schema and the tolerant reading of a reply.

The schema asks for one number from 0 to 1 per named player, every one required,
inside a closed object (OpenAI's strict mode refuses anything else), with the private
reasoning first as in every answer schema. When no server enforced it, the reply is
read as leniently as the answers to decisions are (JSON in prose, a name's case, a
flat object without ``probabilities``, "30%"), but never guessed: a missing player or
a number outside [0, 1] is sent back with the reason, and a seat that never gives a
readable answer has its belief recorded as missing, not filled in.
"""

from __future__ import annotations

import math
import re
from typing import Any

from agents.llm.interpret import Reading
from agents.llm.parse import NoAnswer, extract_json, match_option

TOOL_NAME = "beliefs"
FAMILY = "beliefs"  # the schema shape, for learning which answer format a server accepts

_CONTAINERS = ("probabilities", "beliefs", "probability", "wolf_probabilities", "p_wolf", "estimates", "answer")
_NAME_KEYS = ("player", "name", "target")
_VALUE_KEYS = ("probability", "p", "p_wolf", "value", "wolf")
_PERCENT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*$")


def belief_schema(players: list[str], *, reasoning_chars: int = 0) -> dict[str, Any]:
    """A closed object: ``reasoning`` (at most ``reasoning_chars`` characters, when
    given), then ``probabilities`` with one number in [0, 1] per player of
    ``players``, every one required."""
    number = {"type": "number", "minimum": 0, "maximum": 1}
    reasoning: dict[str, Any] = {"type": "string", "description": "your private reasoning; nobody else reads it"}
    if reasoning_chars:
        reasoning["maxLength"] = reasoning_chars
    return {
        "type": "object",
        "properties": {
            "reasoning": reasoning,
            "probabilities": {
                "type": "object",
                "description": "for each player, the probability (0 to 1) that they are a werewolf",
                "properties": {p: dict(number) for p in players},
                "required": list(players),
                "additionalProperties": False,
            },
        },
        "required": ["reasoning", "probabilities"],
        "additionalProperties": False,
    }


def belief_fields() -> dict[str, Any]:
    """The cache layout's line for the beliefs question: the game schema's
    ``probabilities`` (``agents.llm.schema.game_schema``), whose players the question names."""
    return {"properties": {"probabilities": {"$ref": "#/properties/probabilities"}}}


def read_beliefs(data: Any, text: str, players: list[str]) -> Reading:
    """The reply as ``{player: probability}`` for exactly ``players``, or the reason it
    cannot be one (written for the model: it is sent back with the re-ask)."""
    if not isinstance(data, dict):
        try:
            data = extract_json(text or "")
        except NoAnswer as e:
            return Reading(reason=f"could not read an answer ({e}); {_expected(players)}")
    reasoning = data.get("reasoning") if isinstance(data, dict) else None
    found = _mapping(data, players)
    if found is None:
        return Reading(parsed=data if isinstance(data, dict) else None, reason=f"the reply has no 'probabilities' object; {_expected(players)}")
    probs: dict[str, float] = {}
    bad: list[str] = []
    for key, value in found.items():
        name = match_option(key, players) if isinstance(key, str) else key
        if name not in players or name in probs:
            continue  # the seat itself, the dead, a stray key: not a belief about the living
        p = _number(value)
        if p is None:
            bad.append(f"{name}: {value!r}")
        else:
            probs[name] = p
    parsed = {"probabilities": probs, "reasoning": reasoning if isinstance(reasoning, str) else ""}
    if bad:
        return Reading(parsed=parsed, reason=f"each probability must be a number from 0 to 1, not {'; '.join(bad)}")
    missing = [p for p in players if p not in probs]
    if missing:
        return Reading(parsed=parsed, reason=f"no probability for {', '.join(missing)}; {_expected(players)}")
    answer = {p: probs[p] for p in players}
    parsed["probabilities"] = answer
    return Reading(answer=answer, parsed=parsed)


def _mapping(data: Any, players: list[str]) -> dict[Any, Any] | None:
    """Where the probabilities are: under ``probabilities`` (or a synonym), as the
    object itself when its keys are the players, or as a list of {player, probability}."""
    if isinstance(data, list):
        return _from_list(data)
    if not isinstance(data, dict):
        return None
    for key in _CONTAINERS:
        inner = data.get(key)
        if isinstance(inner, dict):
            return inner
        if isinstance(inner, list):
            listed = _from_list(inner)
            if listed is not None:
                return listed
    named = {k: v for k, v in data.items() if isinstance(k, str) and match_option(k, players) in players}
    return named or None


def _from_list(items: list[Any]) -> dict[Any, Any] | None:
    out: dict[Any, Any] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        name = next((item[k] for k in _NAME_KEYS if isinstance(item.get(k), str)), None)
        value = next((item[k] for k in _VALUE_KEYS if k in item), None)
        if name is None:
            return None
        out[name] = value
    return out or None


def _number(value: Any) -> float | None:
    """A probability in [0, 1] from a number or a numeric text ("0.3", "30%")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        m = _PERCENT.match(value)
        if m:
            value = float(m.group(1)) / 100
        else:
            try:
                value = float(value.strip())
            except ValueError:
                return None
    if not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= 1:
        return None
    return float(value)


def _expected(players: list[str]) -> str:
    return 'answer a JSON object with "probabilities": one number from 0 to 1 for each of ' + ", ".join(players)

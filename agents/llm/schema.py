"""What a model answers, as JSON schemas built per decision and pydantic models to read them.

The schema enumerates the legal options of the very decision being asked, so a server
that enforces JSON schemas (OpenAI structured outputs, llama.cpp grammars, Anthropic
forced tool use) cannot even produce a dead or unknown target. The same schema is the
answer format the tolerant text parser aims at when a server enforces nothing.

Every object is closed (``additionalProperties: false``) with every property required,
because OpenAI's strict mode refuses anything else. ``reasoning`` comes first: a model
writes properties in schema order, and thinking before choosing makes better choices.

Speeches carry structured claims (a role, Seer results, accusations) next to their
text so deception can be measured later against the truth without parsing prose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision

SPEECH_KINDS = ("speak",)  # text decisions whose answer is a public speech with claims
TARGETED_TEXT_KINDS = ("wolf_chat",)  # text decisions whose answer proposes a target


# ---------------------------------------------------------------------- reply models
class _Lenient(BaseModel):
    """Replies come from models: unknown keys are ignored, never fatal."""

    model_config = ConfigDict(extra="ignore")


class CheckClaim(_Lenient):
    target: str
    role: str


class Claims(_Lenient):
    role: str | None = None
    checks: list[CheckClaim] = Field(default_factory=list)
    accuses: list[str] = Field(default_factory=list)


class ActionReply(_Lenient):
    """Choice, multi and bool decisions: the action and the private reasoning behind it."""

    action: Any = None
    reasoning: str = ""


class SpeechReply(_Lenient):
    text: str = ""
    claims: Claims = Field(default_factory=Claims)
    reasoning: str = ""


class WolfChatReply(_Lenient):
    text: str = ""
    target: str | None = None
    reasoning: str = ""


# ---------------------------------------------------------------------- schemas
def tool_name(decision: Decision) -> str:
    """The schema's / tool's name: the decision kind, which already matches the
    ``^[a-zA-Z0-9_-]{1,64}$`` pattern both vendors require."""
    return decision.kind[:64]


def _enum(values: Iterable[Any], *, nullable: bool, json_type: str = "string") -> dict[str, Any]:
    vals = list(values)
    if nullable:
        return {"type": [json_type, "null"], "enum": vals + [None]}
    return {"type": json_type, "enum": vals}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


_REASONING = {"type": "string", "description": "your private reasoning; nobody else reads it"}


@dataclass(frozen=True)
class ReplyLimits:
    """How long a reply's free parts may be (``LLMOptions.reasoning_chars`` and
    ``text_chars``; 0: no limit). In a schema a local server enforces as a grammar
    they bound what a small model can spend on one reply: an unbounded string lets it
    write until the token budget cuts it, and a cut reply is no answer. The lists of a
    speech's claims are bounded too (the few that matter in one speech)."""

    reasoning: int = 0
    text: int = 0
    claims: int = 3  # the longest list of accusations or of Seer results in one speech, when the words are bounded


def _string(base: dict[str, Any], limit: int) -> dict[str, Any]:
    return base | {"maxLength": limit} if limit else base


def answer_schema(decision: Decision, *, players: list[str], roles: list[str], limits: ReplyLimits | None = None) -> dict[str, Any]:
    """The JSON schema of a legal answer to ``decision``.

    ``players`` are every name at the table (claims may name the dead), ``roles`` the
    role ids a speech may claim, ``limits`` the longest reasoning and words (none by
    default).
    """
    limits = limits or ReplyLimits()
    shape = decision.shape
    reasoning = _string(_REASONING, limits.reasoning)
    bounded = {"maxItems": min(limits.claims, len(players))} if limits.reasoning or limits.text else {}
    if shape == TEXT:
        if decision.kind in TARGETED_TEXT_KINDS:
            return _object(
                {
                    "reasoning": reasoning,
                    "text": _string({"type": "string", "description": "what you tell your pack"}, limits.text),
                    "target": _enum(players, nullable=True) | {"description": "the victim you propose, or null"},
                }
            )
        claims = _object(
            {
                "role": _enum(roles, nullable=True) | {"description": "the role you publicly claim, or null"},
                "checks": {
                    "type": "array",
                    "description": "Seer results you publicly announce",
                    "items": _object({"target": _enum(players, nullable=False), "role": _enum(roles, nullable=False)}),
                }
                | bounded,
                "accuses": {"type": "array", "description": "players you accuse", "items": _enum(players, nullable=False)} | bounded,
            }
        )
        text = _string({"type": "string", "description": "your words, heard by everyone"}, limits.text)
        if decision.kind in SPEECH_KINDS:  # an empty speech is refused and asked again (agents.llm.interpret)
            text["minLength"] = 1
        return _object({"reasoning": reasoning, "text": text, "claims": claims})
    if shape == BOOL:
        legal = [o for o in decision.options if isinstance(o, bool)] or [False]
        action: dict[str, Any] = {"type": "boolean"}
        if len(set(legal)) == 1:
            action["enum"] = [legal[0]]
        return _object({"reasoning": reasoning, "action": action})
    if shape == MULTI:
        items = _enum(decision.options, nullable=False)
        action = {"type": "array", "items": items, "minItems": decision.count, "maxItems": decision.count}
        if decision.allow_pass:
            action = {"anyOf": [action, {"type": "null"}]}
        return _object({"reasoning": reasoning, "action": action})
    if shape == CHOICE:
        numbers = bool(decision.options) and all(type(o) is int for o in decision.options)  # a bid's scale
        kind = "integer" if numbers else "string"
        return _object({"reasoning": reasoning, "action": _enum(decision.options, nullable=decision.allow_pass, json_type=kind)})
    raise ValueError(f"unknown decision shape {shape}")


def question_family(decision: Decision) -> str:
    """Which completion budget a question takes (``LLMOptions.budget``): words for a
    speech or a private talk, a choice for everything else."""
    return "words" if decision.shape == TEXT else "choice"


def reply_model(decision: Decision) -> type[_Lenient]:
    if decision.shape == TEXT:
        return WolfChatReply if decision.kind in TARGETED_TEXT_KINDS else SpeechReply
    return ActionReply


# ---------------------------------------------------------------------- the cache layout
GAME_TOOL = "answer"  # the one tool / schema name of the cache layout
GAME_TOOL_DESCRIPTION = "Submit your answer to the question: fill the fields the question names, leave the others empty."


def game_schema(*, players: list[str], roles: list[str], beliefs: bool = False) -> dict[str, Any]:
    """One answer schema for every decision of a game (the cache layout).

    The vendors cache tools and structured-output schemas as the start of the prompt
    (OpenAI renders them before the messages, Anthropic's order is tools, system,
    messages), so a schema that enumerates each decision's options changes the first
    bytes of every request and nothing after it is ever read from the cache. This one
    depends only on the table (names and roles, fixed for the game): the question
    names the fields to fill and lists the legal answers (``narrowed_fields``), and
    the answer's legality is checked when it comes back, re-asked as always.
    """
    speech = answer_schema(Decision(id=0, seat="", kind=SPEECH_KINDS[0], shape=TEXT), players=players, roles=roles)["properties"]
    pack = answer_schema(Decision(id=0, seat="", kind=TARGETED_TEXT_KINDS[0], shape=TEXT), players=players, roles=roles)["properties"]
    action = {
        "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "array", "items": {"type": "string"}}, {"type": "boolean"}, {"type": "null"}],
        "description": "a choice: one of the legal answers the question lists, written exactly as shown; null when the question asks for words",
    }
    fields: dict[str, Any] = {
        "reasoning": _REASONING,
        "action": action,
        "text": {"type": "string", "description": "the words of a speech or of a private talk; empty for a choice"},
        "target": pack["target"] | {"description": "in the pack's private talk: the victim you propose; else null"},
        "claims": speech["claims"] | {"description": "in a public speech: what you publicly claim; else null role and empty lists"},
    }
    if beliefs:
        fields["probabilities"] = {
            "anyOf": [_object({p: dict(_PROBABILITY) for p in players}), {"type": "null"}],
            "description": "in the private beliefs question: for each player it names, the probability (0 to 1) that they are a werewolf, the others null; else null",
        }
    return _object(fields)


_PROBABILITY = {"type": ["number", "null"], "minimum": 0, "maximum": 1}


def _bare(schema: Any) -> Any:
    """A schema without its descriptions: what a comparison or a compact line needs."""
    if isinstance(schema, dict):
        return {k: _bare(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_bare(v) for v in schema]
    return schema


_STRING_TYPES = ("string", ["string", "null"])


def _compact(schema: Any) -> Any:
    """A bare schema without the ``"type": "string"`` an ``enum`` of names already
    implies (a number's type stays: a bid is 3, not "3"). The question's line is sent
    fresh in every request, so every token of it is paid."""
    if isinstance(schema, dict):
        return {k: _compact(v) for k, v in schema.items() if not (k == "type" and "enum" in schema and v in _STRING_TYPES)}
    if isinstance(schema, list):
        return [_compact(v) for v in schema]
    return schema


def narrowed_fields(decision: Decision, *, players: list[str], roles: list[str], game: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``game`` this decision's answer fills, as a JSON schema fragment:
    a field the game schema already constrains exactly is a ``$ref`` to it, the
    others (a choice's legal answers) are spelt out."""
    exact = answer_schema(decision, players=players, roles=roles)["properties"]
    props: dict[str, Any] = {}
    for name, sub in exact.items():
        if name == "reasoning":
            continue
        same = _bare(sub) == _bare(game["properties"].get(name))
        props[name] = {"$ref": f"#/properties/{name}"} if same else _compact(_bare(sub))
    return {"properties": props}

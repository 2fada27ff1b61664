"""The Witch's two questions of a night in one round trip.

The engine asks the Witch whether she heals the pack's victim, then, once that is
answered, whom she poisons: two sequential round trips every night she holds both
potions. Her rules let both be answered at once (the poison's options do not depend
on the heal, only, under some rules, whether she may poison at all), so the model
seat asks them together: the heal in ``action``, the poison in ``target``. Where the
rules put a condition between them (one potion a night, or one in the game), the
question says so and a heal comes first, as in the engine's order: the poison given
beside it is not played, and the engine's poison question, with no option left, is
answered null without a call.

The engine stays as it is, pure and deterministic: it still asks the poison decision
after the heal, and the seat answers it from the kept reply without a call when that
reply is legal for the decision the engine really asks (its options are the engine's,
not the seat's guess); otherwise the poison is asked on its own, as before. Same
answers, same transcript.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.base import SeatView
from engine.decisions import CHOICE, Decision, IllegalAnswer
from engine.roles.witch import WitchPoisoned
from prompts.catalog import catalog

HEAL, POISON = "witch_heal", "witch_poison"


@dataclass(slots=True)
class KeptPoison:
    """The poison answer given with a heal, for the decision that follows it."""

    night: int
    heal_decision: int
    target: str | None
    reasoning: str = ""


def combinable(view: SeatView, decision: Decision) -> bool:
    """A heal the Witch may really choose, on a night her poison is still hers."""
    if decision.kind != HEAL or set(decision.options) != {True, False}:
        return False
    return not any(isinstance(e.data, WitchPoisoned) for e in view.events)


def one_potion(rules: Any) -> bool:
    """Whether healing tonight leaves the poison unusable tonight."""
    return bool(getattr(rules, "witch_single_potion", False)) or not getattr(rules, "witch_both_potions_same_night", True)


def poison_decision(view: SeatView, heal: Decision) -> Decision:
    """The poison question as the seat expects it: any other living player. The
    engine's own decision, asked next, has the last word."""
    targets = tuple(n for n in view.players if n in view.alive and n != view.name)
    return Decision(id=heal.id, seat=heal.seat, kind=POISON, shape=CHOICE, options=targets, allow_pass=True)


def question(heal_question: str, poison: Decision, rules: Any, language: str) -> str:
    cat = catalog(language)
    lines = [
        heal_question,
        cat.text("decisions.witch_both.together"),
        cat.text("decisions.kinds.witch_poison.ask"),
        cat.text("decisions.witch_both.legal", options=cat.table(cat.literal(o) for o in poison.options)),
    ]
    if one_potion(rules):
        lines.append(cat.text("decisions.witch_both.one_potion"))
    return "\n".join(lines)


def schema(heal_schema: dict[str, Any], poison: Decision) -> dict[str, Any]:
    """The heal's own schema with the poison's ``target`` beside ``action``."""
    props = dict(heal_schema["properties"])
    props["target"] = {"type": ["string", "null"], "enum": [*poison.options, None], "description": "whom you poison tonight, or null"}
    return {**heal_schema, "properties": props, "required": list(props)}


def read_target(data: Any, poison: Decision, healed: bool, rules: Any, language: str) -> tuple[str | None, str | None]:
    """(the poison answer, why it is refused)."""
    cat = catalog(language)
    target = data.get("target") if isinstance(data, dict) else None
    if isinstance(target, str) and target.strip().lower() in ("", "null", "none"):
        target = None
    if target is not None:
        try:
            target = poison.validate(target)
        except IllegalAnswer:
            return None, cat.text("decisions.witch_both.not_a_target", options=cat.table(cat.literal(o) for o in poison.options))
    if healed and one_potion(rules):
        return None, None  # the heal came first: tonight's poison is not hers to use
    return target, None

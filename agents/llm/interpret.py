"""From a model's reply to an answer the engine accepts, or the reason it cannot be one.

The reason is written for the model: it is sent back in the re-ask, so it must say
what to change ("Hugo is dead", "the healing potion is already used", "legal: ...")
rather than only that something was wrong. The engine's ``validate`` has the last
word; the checks before it exist to give better reasons and to tidy what is merely
sloppy (a name's case, a claim naming nobody).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from agents.base import SeatView
from agents.llm.parse import NoAnswer, as_bool, is_pass_word, match_option, parse_reply
from agents.llm.schema import SPEECH_KINDS, TARGETED_TEXT_KINDS, ActionReply, SpeechReply, WolfChatReply
from engine import words
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, IllegalAnswer


@dataclass(slots=True)
class Reading:
    """What was made of one reply: the engine answer (when legal), the structured
    reply it came from (reasoning included) and, when refused, why; or, when taken
    after a repair of its words (``engine.words.repair``), what was repaired: a
    rule-following violation all the same."""

    answer: Any = None
    parsed: dict[str, Any] | None = None
    reason: str | None = None
    repaired: str | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None


def read_reply(data: Any, text: str, decision: Decision, view: SeatView) -> Reading:
    """Interpret a reply: ``data`` is the structured output when the server produced
    one (a dict), else ``None`` and ``text`` is parsed tolerantly."""
    if not isinstance(data, dict):
        try:
            data = parse_reply(text, decision)
        except NoAnswer as e:
            return Reading(reason=f"could not read an answer ({e}); {_expected(decision)}")
    repaired = None
    try:
        if decision.shape == TEXT:
            answer, parsed, repaired = _text(data, decision, view)
        else:
            answer, parsed = _action(data, decision, view)
    except _Refused as e:
        return Reading(parsed=_safe(data), reason=str(e))
    try:
        answer = decision.validate(answer)
    except IllegalAnswer as e:
        return Reading(parsed=parsed, reason=_explain(e, decision))
    return Reading(answer=answer, parsed=parsed, repaired=repaired)


class _Refused(ValueError):
    pass


def _shown(value: Any) -> str:
    """A model's own value quoted back to it in a correction: as in its history, one
    JSON literal on one line, so the correction cannot be made to say more."""
    from prompts.quoting import quote

    if isinstance(value, str):
        return quote(value)
    try:
        return json.dumps(value, default=str)  # ASCII only: one printable line
    except (TypeError, ValueError):
        return quote(repr(value))


def _safe(data: Any) -> dict[str, Any] | None:
    return data if isinstance(data, dict) else None


# ---------------------------------------------------------------------- actions
def _action(data: dict[str, Any], decision: Decision, view: SeatView) -> tuple[Any, dict[str, Any]]:
    try:
        reply = ActionReply.model_validate(data)
    except ValidationError:
        raise _Refused(f"the reply is not an object with an 'action'; {_expected(decision)}") from None
    if "action" not in data:
        raise _Refused(f"the reply has no 'action'; {_expected(decision)}")
    value = reply.action
    parsed = {"action": value, "reasoning": reply.reasoning}
    if decision.shape == BOOL:
        value = as_bool(value)
        if not isinstance(value, bool):
            if value is None and decision.can_pass:
                value = decision.pass_answer
            else:
                raise _Refused(f"{_shown(value)} is not true or false; {_expected(decision)}")
    elif decision.shape == CHOICE:
        if is_pass_word(value):
            value = None
        else:
            value = match_option(value, decision.options)
            if value not in decision.options or isinstance(value, bool):  # ``true`` is no bid of 1
                raise _Refused(_bad_target(value, decision, view))
            value = decision.options[decision.options.index(value)]  # 3.0 or "3" read as the option 3
    elif decision.shape == MULTI:
        if is_pass_word(value):
            value = None
        else:
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list):
                raise _Refused(f"expected a list of {decision.count} names; {_expected(decision)}")
            picks = [match_option(v, decision.options) for v in value]
            for p in picks:
                if p not in decision.options:
                    raise _Refused(_bad_target(p, decision, view))
            value = picks
    parsed["action"] = value
    return value, parsed


def _bad_target(value: Any, decision: Decision, view: SeatView) -> str:
    legal = _legal_text(decision)
    if isinstance(value, str):
        name = match_option(value, view.players)
        if name in view.dead:
            return f"{name} is dead; legal: {legal}"
        if name == view.name and name in view.players:
            return f"you may not choose yourself for {decision.kind}; legal: {legal}"
        if name in view.players:
            why = decision.context.get("unavailable")
            return f"{name} is not a legal choice for {decision.kind}{' (' + why + ')' if why else ''}; legal: {legal}"
        return f"{_shown(value)} is not a player or option here; legal: {legal}"
    return f"{_shown(value)} is not a legal {decision.kind}; legal: {legal}"


# ---------------------------------------------------------------------- text
def _text(data: dict[str, Any], decision: Decision, view: SeatView) -> tuple[Any, dict[str, Any], str | None]:
    """The words and what they carry, the structured reply, and what had to be
    repaired in the words (None: nothing). Words the engine would refuse (too long,
    an unpaired surrogate, a control character: ``engine.words``) are repaired, not
    asked again: a model that wrote 10,000 characters when told 600 would spend a
    re-ask on another long speech, and it cannot mean a lone surrogate."""
    if decision.kind in TARGETED_TEXT_KINDS:
        reply = WolfChatReply.model_validate(_coerce_text(data))
        target = reply.target
        if target is not None and not is_pass_word(target):
            target = match_option(target, view.alive)
            if target not in view.alive:
                target = None  # a proposal naming nobody alive is just talk, not a move
        else:
            target = None
        said = words.repair(reply.text.strip())
        answer: dict[str, Any] = {"text": said.text}
        if target:
            answer["target"] = target
        return answer, {**answer, "reasoning": reply.reasoning}, said.summary() if said.changed else None
    reply = SpeechReply.model_validate(_coerce_text(data))
    said = words.repair(reply.text.strip())
    if not said.text and decision.kind in SPEECH_KINDS:  # the question says so (``decisions.pass.speech``)
        raise _Refused("the speech is empty; say something to the table in 'text'")
    claims = _claims(reply, view)
    answer = {"text": said.text, "claims": claims}
    return answer, {**answer, "reasoning": reply.reasoning}, said.summary() if said.changed else None


def _coerce_text(data: dict[str, Any]) -> dict[str, Any]:
    """Models put the speech under other names; and a claims field that is not an
    object is dropped rather than refused (claims are optional)."""
    out = dict(data)
    if not isinstance(out.get("text"), str):
        for k in ("speech", "message", "say", "content", "answer"):
            if isinstance(out.get(k), str):
                out["text"] = out[k]
                break
        else:
            out["text"] = ""
    if "claims" in out and not isinstance(out["claims"], dict):
        out.pop("claims")
    if "reasoning" in out and not isinstance(out["reasoning"], str):
        out["reasoning"] = str(out["reasoning"])
    return out


def _claims(reply: SpeechReply, view: SeatView) -> dict[str, Any]:
    """Claims kept only where they name real players and real role ids: a claim is a
    measurement of what the speaker said, so a garbled one is dropped, not guessed."""
    from engine.roles import ROLES

    roles = list(ROLES)
    c = reply.claims
    role = match_option(c.role, roles) if c.role else None
    checks = []
    for chk in c.checks:
        t, r = match_option(chk.target, view.players), match_option(chk.role, roles)
        if t in view.players and r in roles:
            checks.append({"target": t, "role": r})
    accuses = []
    for a in c.accuses:
        n = match_option(a, view.players)
        if n in view.players and n not in accuses:
            accuses.append(n)
    return {"role": role if role in roles else None, "checks": checks, "accuses": accuses}


# ---------------------------------------------------------------------- wording
def _legal_text(decision: Decision) -> str:
    if decision.shape == BOOL:
        text = " or ".join("true" if o else "false" for o in decision.options) or "false"
    else:
        text = ", ".join(map(str, decision.options)) or "(none)"
    if decision.allow_pass and decision.shape in (CHOICE, MULTI):
        text += " or null"
    return text


def _expected(decision: Decision) -> str:
    if decision.shape == TEXT:
        return 'answer a JSON object with "text"'
    if decision.shape == MULTI:
        return f'answer a JSON object with "action": a list of exactly {decision.count} of: {_legal_text(decision)}'
    return f'answer a JSON object with "action": one of {_legal_text(decision)}'


def _explain(e: IllegalAnswer, decision: Decision) -> str:
    why = decision.context.get("unavailable")
    msg = str(e)
    if why and why not in msg:
        msg = f"{msg} ({why})"
    return msg

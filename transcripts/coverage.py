"""Every model answer backed by the call that produced it, and every call by its answer.

A model's reply cannot be re-played, but its consequences can be tied to it. A model
seat (``LLMAgent``) writes one ``call`` record per request, and the last one of each
decision says how the decision ended: ``accepted`` (the reply became the answer, its
reading in ``parsed``) or ``fallback`` (the heuristic bot answered for the seat), with
``answer`` the move played; it is written before the ``answer`` line. So:

- an answer credited to a model spec needs exactly one such final call of that seat
  and decision, before it, by that back end and model, whose ``answer`` is the one
  recorded; an accepted call's ``parsed`` reply must read as that answer too;
- a call must belong to an answer credited to a model (or to a decision still
  unanswered where the file stops): a call beside a bot's answer is a stray line;
- a model seat's ``belief`` must be its accepted ``beliefs`` call's answer.

An agent of one's own (``py:MODULE:CLASS``) makes no request; the decisions the
fallback bot played for it have one record each (``OWN_AGENT_BACKEND``, written by
``agents.own_seat``), checked as a model's fallback is: before its answer, of that
class, a fallback and not accepted, with no request, its ``answer`` the one recorded.
Its other answers, its own, have none.

This is what defeats relabelling: a bots' game whose answers are credited to a model
lacks the calls, and a model game whose calls are dropped or edited no longer matches.
It cannot prove that a vendor's model wrote the reply: whoever writes the file can
write calls too (``docs/TRANSCRIPTS.md``, what verify proves).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from agents.llm.langchain_spec import PROVIDERS
from engine.decisions import TEXT, IllegalAnswer
from transcripts.call_counts import OWN_AGENT_BACKEND, OWN_AGENT_PREFIX, is_own_agent
from transcripts.values import jsonish, show

# The specs of agents that are not models: they make no calls. Anything else named as
# an agent (``openai:...``, ``anthropic:...``, ``langchain:...``, or a name this
# version does not know) must show its calls: deny by default, so a made-up spec
# cannot excuse an answer from the check.
NON_MODEL_AGENTS = frozenset({"heuristic", "random", "scripted", "human"})
# An agent of one's own (``py:MODULE:CLASS``, ``agents.custom``) makes no calls: credited
# to one, an answer claims no model, so it excuses nothing; only its fallbacks have a
# record (``OWN_AGENT_BACKEND``, ``is_own_agent``).
BELIEFS_KIND = "beliefs"
SPEECH_FIELDS = ("text", "claims", "target")  # a text answer's fields (``agents.llm.interpret``)


def is_model_agent(spec: str) -> bool:
    return spec not in NON_MODEL_AGENTS and not is_own_agent(spec)


@dataclass
class Backing:
    """The outcome: how many model answers and beliefs were matched with their calls
    (and fallbacks of agents of one's own with their records), and the first line at
    fault (with why), if any."""

    model_answers: int = 0
    model_beliefs: int = 0
    own_fallbacks: int = 0
    line: int | None = None
    message: str = ""

    @property
    def holds(self) -> bool:
        return self.line is None


class _Fault(Exception):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message


def _final(c: Any) -> bool:
    return bool(c.accepted or c.fallback)


def _same_model(c: Any, agent: str) -> bool:
    """Whether call ``c`` was made by the back end and model the seat's spec names.
    A LangChain seat's call names the chat model's own model: for
    ``langchain:PROVIDER:MODEL`` that is MODEL; a ``langchain:MODULE:FACTORY``
    builds a model the spec does not name, so only the back end is checked."""
    vendor, _, model = agent.partition(":")
    model = model.strip()
    if c.backend != vendor:
        return False
    if vendor == "langchain":
        head, _, tail = model.partition(":")
        if head.strip() not in PROVIDERS:  # a factory (never imported here) or init_chat_model's provider
            return True
        model = tail.strip()
    return c.model == model


def _own_record(c: Any, agent: str) -> bool:
    """Whether call ``c`` is a fallback record of the agent of one's own ``agent``."""
    return c.backend == OWN_AGENT_BACKEND and c.model == agent[len(OWN_AGENT_PREFIX):]


def _own_fault(mine: list[tuple[int, Any]], line: int, r: Any, d: Any, what: str) -> tuple[int, str] | None:
    """What is wrong with the records of an answer credited to an agent of one's own
    (``mine``, at least one): (line, why), or None for one fallback record that
    produced it."""
    cl, c = mine[0]
    if len(mine) > 1:
        return mine[1][0], f"a second call record for {what}, credited to '{r.agent}', which makes no calls"
    if cl > line:
        return cl, f"the record of {what} comes after that answer (line {line}): a seat's records precede its answer"
    if not _own_record(c, r.agent):
        return cl, f"a call record by '{c.backend}:{c.model}' for {what}, which is credited to '{r.agent}'"
    if not c.fallback or c.accepted or c.messages:
        return cl, f"the record of {what}, credited to '{r.agent}', is not a fallback made without a request"
    if _canonical(d, c.answer) != jsonish(r.answer):
        return cl, f"the fallback record of {what} says the seat played {show(c.answer)}, but the answer recorded is {show(r.answer)}"
    return None


def _canonical(decision: Any, value: Any) -> Any:
    try:
        return jsonish(decision.validate(value))
    except (IllegalAnswer, TypeError, ValueError, KeyError, AttributeError):
        return _Unreadable()


class _Unreadable:
    """A value the rules refuse: equal to nothing."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


def _read_parsed(decision: Any, parsed: Any) -> Any:
    """The answer an accepted call's ``parsed`` reply stands for (``agents.llm.interpret``
    keeps the action under ``action``, a speech's fields beside its reasoning)."""
    if not isinstance(parsed, dict):
        return _Unreadable()
    if decision.shape == TEXT:  # the fields a speech answer has; the reasoning and any notes are not played
        return _canonical(decision, {k: parsed[k] for k in SPEECH_FIELDS if k in parsed})
    if "action" not in parsed:
        return _Unreadable()
    return _canonical(decision, parsed["action"])


def check_backing(calls: list[tuple[int, Any]], answered: list[tuple[int, Any, Any]], beliefs: list[tuple[int, Any]], seat_agents: dict[str, str]) -> Backing:
    """``calls``: (line, call record); ``answered``: (line, answer record, the engine's
    decision) as re-played; ``beliefs``: (line, belief record); ``seat_agents``: each
    seat's agent where no answer says otherwise (the header's)."""
    out = Backing()
    by_decision: dict[tuple[str, int], list[tuple[int, Any]]] = defaultdict(list)
    belief_calls: dict[tuple[str, int], list[tuple[int, Any]]] = defaultdict(list)
    for line, c in calls:
        (belief_calls if c.kind == BELIEFS_KIND else by_decision)[(c.seat, c.decision)].append((line, c))
    faults: list[_Fault] = []

    def fault(line: int, message: str) -> None:
        faults.append(_Fault(line, message))

    timeline: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for line, r, _ in answered:
        timeline[r.seat].append((line, r.agent))

    def agent_at(seat: str, line: int) -> str:
        """The seat's agent at ``line``: that of its next answer (a belief or a call
        comes before the answer of its batch), else its last, else the header's (a
        fork's replayed part is credited to the agents that played it)."""
        answers = timeline.get(seat, [])
        later = [a for al, a in answers if al > line]
        if later:
            return later[0]
        return answers[-1][1] if answers else seat_agents.get(seat, "")

    answered_keys = set()
    for line, r, d in answered:
        key = (r.seat, r.decision)
        answered_keys.add(key)
        mine = by_decision.get(key, [])
        what = f"the answer to decision {r.decision} ({r.seat}: {r.kind})"
        if is_own_agent(r.agent) and mine:
            wrong = _own_fault(mine, line, r, d, what)
            if wrong is not None:
                fault(*wrong)
            else:
                out.own_fallbacks += 1
            continue
        if not is_model_agent(r.agent):
            if mine:
                first = mine[0][0]
                fault(first, f"a model call for decision {r.decision} ({r.seat}: {r.kind}), whose answer (line {line}) is credited to '{r.agent}', not to a model")
            continue
        out.model_answers += 1
        late = [cl for cl, _ in mine if cl > line]
        if late:
            fault(late[0], f"a call for {what} comes after that answer (line {line}): a seat's calls precede its answer")
            continue
        finals = [(cl, c) for cl, c in mine if _final(c)]
        if not finals:
            if mine:
                fault(line, f"{what} is credited to '{r.agent}', but none of its {len(mine)} call record(s) produced an answer")
            else:
                fault(line, f"{what} is credited to '{r.agent}', but no call record produced it (a model's answer without its call)")
            continue
        if len(finals) > 1:
            fault(finals[1][0], f"a second call record claims to have produced {what}")
            continue
        cl, c = finals[0]
        if not _same_model(c, r.agent):
            fault(cl, f"the call that produced {what} was made by '{c.backend}:{c.model}', but the answer is credited to '{r.agent}'")
        elif _canonical(d, c.answer) != jsonish(r.answer):
            fault(cl, f"the call that produced {what} says the seat played {show(c.answer)}, but the answer recorded is {show(r.answer)}")
        elif c.accepted and c.fallback:
            fault(cl, f"the call for {what} is both accepted and a fallback")
        elif c.accepted and c.error is not None:  # a violation there is what was repaired (``engine.words``)
            fault(cl, f"the call for {what} is accepted, yet says it failed")
        elif c.accepted and _read_parsed(d, c.parsed) != jsonish(r.answer):
            fault(cl, f"the accepted reply of the call for {what} does not read as the answer recorded ({show(r.answer)})")
    for key, mine in by_decision.items():  # calls whose decision has no answer in the file
        if key in answered_keys:
            continue
        agent = agent_at(key[0], mine[0][0])
        if is_own_agent(agent) and all(_own_record(c, agent) for _, c in mine):
            continue  # a fallback whose answer the file does not hold yet (it stops there)
        if not is_model_agent(agent):
            fault(mine[0][0], f"a model call for decision {key[1]} of {key[0]}, who is seated as '{agent}', not a model")
    for line, b in beliefs:
        mine = belief_calls.get((b.seat, b.decision), [])
        accepted = [(cl, c) for cl, c in mine if c.accepted]
        agent = agent_at(b.seat, line)
        what = f"the belief of {b.seat} at decision {b.decision}"
        if not is_model_agent(agent):
            if mine:
                fault(mine[0][0], f"a beliefs call for {b.seat}, who is seated as '{agent}', not a model")
            continue
        out.model_beliefs += 1
        if b.probabilities is None:
            if accepted:
                fault(line, f"{what} is recorded as missing, but a call gave it (line {accepted[0][0]})")
            continue
        if len(accepted) != 1:
            fault(line, f"{what} has {'no call that gave it' if not accepted else 'more than one call that gave it'}")
            continue
        cl, c = accepted[0]
        if cl > line or jsonish(c.answer) != jsonish(b.probabilities):
            fault(cl, f"the beliefs call of {b.seat} at decision {b.decision} does not match {what} (line {line})")
    if faults:
        earliest = min(faults, key=lambda f: f.line)
        out.line, out.message = earliest.line, earliest.message
    return out

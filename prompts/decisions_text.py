"""The question a seat is asked, built from the engine's ``Decision`` alone.

Why from the decision alone: the engine puts in a decision's context exactly what
the asker is shown with it (the Witch's victim, the tied players, the Thief's
cards), so the question can state the stakes and the legal answers without reading
anything the seat was not given. Legal answers are written as JSON literals because
that is how they must come back; anything else would be refused by the engine.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.buildings.bailiff import BAILIFF_ASSIGN, VAGABOND_ACCEPT
from engine.buildings.handout import BUILDING_CHOICE
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, DecisionKind
from engine.flow.protocols import BID
from engine.flow.sheriff import SHERIFF_RUN, SHERIFF_SUCCESSOR, SHERIFF_WITHDRAW
from engine.flow.voting import SHERIFF_TIEBREAK, SHERIFF_VOTE, VOTE
from engine.roles.big_bad_wolf import BIG_BAD_WOLF_KILL
from engine.roles.cupid import CUPID_DECEIVER, CUPID_LOVERS, CUPID_PARAMOUR
from engine.roles.fox import FOX_SNIFF
from engine.roles.hunter import HUNTER_SHOT
from engine.roles.infect_father import INFECT_FATHER_INFECT
from engine.roles.little_girl import LITTLE_GIRL_SPY
from engine.roles.pied_piper import PIED_PIPER_CHARM
from engine.roles.protector import PROTECTOR_GUARD
from engine.roles.seer import SEER_CHECK
from engine.roles.sister import SISTER_CHAT
from engine.roles.thief import THIEF_SWAP
from engine.roles.werewolf import WOLF_CHAT, WOLF_KILL
from engine.roles.white_werewolf import WHITE_WEREWOLF_KILL
from engine.roles.wild_child import WILD_CHILD_MODEL
from engine.roles.witch import WITCH_HEAL, WITCH_POISON
from engine.roles.wolf_hound import WOLF_HOUND_SIDE
from engine.speech import SPEAK
from prompts.catalog import Catalog, catalog

Asker = Callable[[Catalog, Decision], list[str]]


def _k(cat: Catalog, kind: str, key: str, **values: Any) -> str:
    return cat.text(f"decisions.kinds.{kind}.{key}", **values)


def _told(cat: Catalog, d: Decision, kind: str, key: str) -> list[str]:
    """``kind``'s ``key`` line, quoting the context's ``key``, when the context gives one."""
    value = d.context.get(key)
    return [_k(cat, kind, key, **{key: value})] if value else []


def _unavailable(cat: Catalog, reason: Any) -> str:
    found = cat.get("terms.unavailable")
    if isinstance(found, dict) and reason in found:
        return found[reason]
    return str(reason)


# ---------------------------------------------------------------------------- per kind
def _speak(cat: Catalog, d: Decision) -> list[str]:
    phase = d.context.get("phase", "discussion")
    rnd = d.context.get("round", 1)
    protocol = d.context.get("protocol")  # a benchmark's debate (``engine.flow.protocols``)
    if protocol and cat.has(f"decisions.kinds.speak.{phase}_{protocol}"):
        ctx = d.context
        return [_k(cat, SPEAK, f"{phase}_{protocol}", round=rnd, turn=rnd, turns=ctx.get("turns"), speakers=ctx.get("speakers"))]
    if cat.has(f"decisions.kinds.speak.{phase}"):
        return [_k(cat, SPEAK, phase, round=rnd)]
    return [_k(cat, SPEAK, "other", phase=cat.word("phases", phase), round=rnd)]


def _bid(cat: Catalog, d: Decision) -> list[str]:
    last = d.context.get("last")
    lines = [_k(cat, BID, "ask", turn=d.context.get("turn", 1), turns=d.context.get("turns", 1))]
    lines.append(_k(cat, BID, "last", last=last) if last else _k(cat, BID, "first"))
    return lines


def bid_level(cat: Catalog, amount: Any) -> str:
    """What a bid means, in words (the option labels of people's seats)."""
    return cat.text(f"decisions.kinds.bid.levels.{amount}")


def _wolf_chat(cat: Catalog, d: Decision) -> list[str]:
    wolves = d.context.get("wolves") or []
    names = cat.join(cat.text("terms.you") if w == d.seat else w for w in wolves)
    lines = [_k(cat, WOLF_CHAT, "ask", round=d.context.get("round", 1), wolves=names)]
    if d.context.get("little_girl", True):  # an older caller's context: the warning as before
        lines.append(_k(cat, WOLF_CHAT, "spied"))
    return lines


def _vote(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, VOTE, "ask")]
    candidates = d.context.get("candidates")
    if candidates:
        lines.append(_k(cat, VOTE, "revote", round=d.context.get("round", 2), candidates=cat.join(candidates)))
    return lines


def _sheriff_vote(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, SHERIFF_VOTE, "ask")]
    if d.context.get("round", 1) > 1:
        lines.append(_k(cat, SHERIFF_VOTE, "revote", round=d.context["round"]))
    return lines


def _sheriff_tiebreak(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, SHERIFF_TIEBREAK, "ask", tied=cat.join(d.context.get("tied") or d.options))]


def _wolf_kill(cat: Catalog, d: Decision) -> list[str]:
    order = d.context.get("order")
    if order and d.context.get("turn"):  # ``wolf_pack: first_named`` (004): the wolves in turn
        turn = d.context["turn"]
        lines = [_k(cat, WOLF_KILL, "ask_turn", turn=turn, count=len(order))]
        if turn > 1:
            lines.append(_k(cat, WOLF_KILL, "waited"))
        later = order[turn:]
        if later:
            lines.append(_k(cat, WOLF_KILL, "later", later=cat.join(later)))
        elif d.allow_pass:  # the last may pass only where the pack may: what it costs, then
            lines += [_k(cat, WOLF_KILL, "last"), *_silent(cat, d)]
        else:
            lines.append(_k(cat, WOLF_KILL, "last_forced"))
        return lines + _told(cat, d, WOLF_KILL, "caught")
    rule = d.context.get("rule")
    known = isinstance(rule, str) and cat.has(f"decisions.kinds.wolf_kill.rule.{rule}")
    lines = [cat.text(f"decisions.kinds.wolf_kill.rule.{rule}") if known else _k(cat, WOLF_KILL, "ask")]
    attempt = d.context.get("attempt", 1)
    if attempt and attempt > 1:
        lines.append(_k(cat, WOLF_KILL, "attempt", attempt=attempt))
    attempts = d.context.get("attempts", 1)
    if known and rule != "plurality" and attempts > 1:  # a plurality always names someone
        lines.append(_k(cat, WOLF_KILL, "again" if attempt < attempts else "final", attempt=attempt, attempts=attempts))
    if d.context.get("idle"):  # 失业狼人: found out by the Seer
        lines.append(_k(cat, WOLF_KILL, "idle"))
    elif d.allow_pass and d.options:
        lines += _silent(cat, d)
    return lines + _told(cat, d, WOLF_KILL, "caught")


def _silent(cat: Catalog, d: Decision) -> list[str]:
    """What the pack pays if it names nobody (``wolves_silent``), where passing is legal."""
    silent = d.context.get("silent")
    path = f"decisions.kinds.wolf_kill.silent.{silent}"
    return [cat.text(path)] if isinstance(silent, str) and cat.has(path) else []


def _witch_heal(cat: Catalog, d: Decision) -> list[str]:
    victim = d.context.get("victim")
    if victim is None:
        lines = [_k(cat, WITCH_HEAL, "none")]
    elif victim == d.seat:
        lines = [_k(cat, WITCH_HEAL, "victim_self")]
    else:
        lines = [_k(cat, WITCH_HEAL, "victim", victim=victim)]
    reason = d.context.get("unavailable")
    if reason and not (victim is None and reason == "nobody was attacked tonight"):
        lines.append(_k(cat, WITCH_HEAL, "unavailable", reason=_unavailable(cat, reason)))
    return lines


def _witch_poison(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, WITCH_POISON, "ask")]
    reason = d.context.get("unavailable")
    if reason:
        lines.append(_k(cat, WITCH_POISON, "unavailable", reason=_unavailable(cat, reason)))
    return lines


def _hunter_shot(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, HUNTER_SHOT, "ask", cause=cat.word("causes", d.context.get("cause")))]


def _thief_swap(cat: Catalog, d: Decision) -> list[str]:
    cards = d.context.get("cards") or list(d.options)
    lines = [_k(cat, THIEF_SWAP, "ask", cards=cat.join(cat.role_name(c) for c in cards))]
    if d.context.get("forced"):
        lines.append(_k(cat, THIEF_SWAP, "forced"))
    return lines


def _little_girl_spy(cat: Catalog, d: Decision) -> list[str]:
    chance = float(d.context.get("catch_chance", 0.0) or 0.0)
    return [_k(cat, LITTLE_GIRL_SPY, "ask", percent=f"{chance * 100:g}")]


def _protector_guard(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, PROTECTOR_GUARD, "ask"), *_told(cat, d, PROTECTOR_GUARD, "last")]


def _sister_chat(cat: Catalog, d: Decision) -> list[str]:
    sisters = d.context.get("sisters") or []
    return [_k(cat, SISTER_CHAT, "ask", sisters=cat.join(cat.text("terms.you") if s == d.seat else s for s in sisters))]


def _infect(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, INFECT_FATHER_INFECT, "ask", victim=d.context.get("victim"))]


def _charm(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, PIED_PIPER_CHARM, "ask", count=d.count)]


def _deceiver(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, CUPID_DECEIVER, "ask", lovers=cat.join(d.context.get("lovers") or d.options))]


def _paramour(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, CUPID_PARAMOUR, "ask", deceiver=d.context.get("deceiver"))]


def _home_ask(kind: str) -> Asker:
    """The Bailiff's offer: the freed building by its name in the language."""

    def ask(cat: Catalog, d: Decision) -> list[str]:
        home = cat.word("homes", d.context.get("building"))
        return [_k(cat, kind, "ask", building=home, former=d.context.get("former"))]

    return ask


def _building_choice(cat: Catalog, d: Decision) -> list[str]:
    tokens = d.context.get("tokens") or {}
    listed = cat.join(f"{cat.word('buildings', b)} × {k}" for b, k in sorted(tokens.items()))
    return [_k(cat, BUILDING_CHOICE, "ask", tokens=listed)]


def _plain_ask(kind: str) -> Asker:
    return lambda cat, d: [_k(cat, kind, "ask")]


def _generic(cat: Catalog, d: Decision) -> list[str]:
    """A future role's decision: its kind and context, so a model can still answer."""
    lines = [cat.text("decisions.generic.ask", kind=d.kind.replace("_", " "))]
    if d.context:
        items = [cat.text("decisions.generic.item", key=str(k).replace("_", " "), value=_plain(v)) for k, v in d.context.items()]
        lines.append(cat.text("decisions.generic.context", items="; ".join(items)))
    return lines


def _plain(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# The kinds whose question needs more than their catalog's ``ask`` line filled from the
# context (``_catalogued``), keyed by the engine's declared kinds (``decision(...)``).
ASKERS: dict[DecisionKind, Asker] = {
    SPEAK: _speak,
    WOLF_CHAT: _wolf_chat,
    BID: _bid,
    VOTE: _vote,
    SHERIFF_VOTE: _sheriff_vote,
    SHERIFF_SUCCESSOR: _plain_ask(SHERIFF_SUCCESSOR),
    SHERIFF_RUN: _plain_ask(SHERIFF_RUN),
    SHERIFF_WITHDRAW: lambda cat, d: [_k(cat, SHERIFF_WITHDRAW, "ask", candidates=cat.join(d.context.get("candidates") or ()))],
    SHERIFF_TIEBREAK: _sheriff_tiebreak,
    WOLF_KILL: _wolf_kill,
    SEER_CHECK: _plain_ask(SEER_CHECK),
    WITCH_HEAL: _witch_heal,
    WITCH_POISON: _witch_poison,
    HUNTER_SHOT: _hunter_shot,
    CUPID_LOVERS: _plain_ask(CUPID_LOVERS),
    THIEF_SWAP: _thief_swap,
    LITTLE_GIRL_SPY: _little_girl_spy,
    PROTECTOR_GUARD: _protector_guard,
    SISTER_CHAT: _sister_chat,
    FOX_SNIFF: _plain_ask(FOX_SNIFF),
    WILD_CHILD_MODEL: _plain_ask(WILD_CHILD_MODEL),
    WOLF_HOUND_SIDE: _plain_ask(WOLF_HOUND_SIDE),
    WHITE_WEREWOLF_KILL: _plain_ask(WHITE_WEREWOLF_KILL),
    INFECT_FATHER_INFECT: _infect,
    BIG_BAD_WOLF_KILL: _plain_ask(BIG_BAD_WOLF_KILL),
    PIED_PIPER_CHARM: _charm,
    CUPID_DECEIVER: _deceiver,
    CUPID_PARAMOUR: _paramour,
    BAILIFF_ASSIGN: _home_ask(BAILIFF_ASSIGN),
    VAGABOND_ACCEPT: _home_ask(VAGABOND_ACCEPT),
    BUILDING_CHOICE: _building_choice,
}

# Decisions whose options are role ids, shown with the role's name beside the id;
# and those whose options are camps, shown with the camp's name.
ROLE_ANSWERS: frozenset[DecisionKind] = frozenset({THIEF_SWAP})
CAMP_ANSWERS: frozenset[DecisionKind] = frozenset({WOLF_HOUND_SIDE})
BUILDING_ANSWERS: frozenset[DecisionKind] = frozenset({BUILDING_CHOICE})
SCALE_ANSWERS: frozenset[DecisionKind] = frozenset({BID})  # numbers on a scale, shown with what each means
# The reminder of the reply's fields, for the kinds whose reply is words (a speech, night talk).
REMINDERS: dict[DecisionKind, str] = {SPEAK: "speech", WOLF_CHAT: "wolf_chat", SISTER_CHAT: "sister_chat"}
# What a brief question (the grammar layout) still says of its fields: only what the
# system text's "How to answer" does not (the pack's proposed victim).
BRIEF_REMINDERS: dict[DecisionKind, str] = {WOLF_CHAT: "wolf_chat"}


# ---------------------------------------------------------------------------- answers
def _option_text(cat: Catalog, d: Decision, option: Any) -> str:
    literal = cat.literal(option)
    if d.kind in ROLE_ANSWERS:
        return cat.text("decisions.role_option", literal=literal, name=cat.role_name(option))
    if d.kind in CAMP_ANSWERS:
        return cat.text("decisions.role_option", literal=literal, name=cat.word("camps", option))
    if d.kind in BUILDING_ANSWERS:
        return cat.text("decisions.role_option", literal=literal, name=cat.word("buildings", option))
    if d.kind in SCALE_ANSWERS:
        return cat.text("decisions.role_option", literal=literal, name=bid_level(cat, option))
    return literal


def _bare_answers(d: Decision) -> bool:
    """Whether the legal answers are bare values (names, true/false) that a JSON enum
    states as well as the words do; role ids, camps, buildings and bids come with
    what each means, and a list with how many to pick."""
    labelled = ROLE_ANSWERS | CAMP_ANSWERS | BUILDING_ANSWERS | SCALE_ANSWERS
    return d.shape in (BOOL, CHOICE) and d.kind not in labelled


def _legal_lines(cat: Catalog, d: Decision, listed: bool = True, brief: bool = False) -> list[str]:
    options = [o for o in d.options]
    if d.shape == TEXT:
        lines = [cat.text("decisions.legal.text")]
    elif not options:
        return [cat.text("decisions.legal.empty")]
    elif not listed and _bare_answers(d):
        lines = []  # the cache layout's fields line lists them, as a JSON enum
    elif d.shape == MULTI:
        table = cat.table(_option_text(cat, d, o) for o in options)
        example = cat.literal(options[: d.count])
        lines = [cat.text("decisions.legal.multi", count=d.count, options=table, example=example)]
    elif d.shape == BOOL:
        lines = [cat.text("decisions.legal.bool", options=cat.table(cat.literal(o) for o in options))]
    else:
        lines = [cat.text("decisions.legal.choice", options=cat.table(_option_text(cat, d, o) for o in options))]
    lines.append(_pass_line(cat, d, brief))
    return lines


def _pass_line(cat: Catalog, d: Decision, brief: bool = False) -> str:
    meaning_path = f"decisions.kinds.{d.kind}.pass"
    meaning = cat.text(meaning_path) if cat.has(meaning_path) else cat.text("decisions.pass.default")
    if d.kind == SPEAK:  # a model seat's empty speech is refused and asked again (agents.llm.interpret)
        return cat.text("decisions.pass.speech")
    if d.shape == TEXT:  # the schema asks for a string: silence is an empty one, not null
        return cat.text("decisions.pass.text", meaning=meaning)
    if d.shape == BOOL:
        return cat.text("decisions.pass.bool") if d.allow_pass else ""  # validate() takes null only then
    if d.allow_pass:
        return cat.text("decisions.pass.allowed", meaning=meaning)
    return "" if brief else cat.text("decisions.pass.forbidden")  # brief: the system text says it


def _reminder(cat: Catalog, d: Decision, brief: bool = False) -> str:
    if brief:
        key = BRIEF_REMINDERS.get(d.kind)
        return cat.text(f"decisions.brief.{key}") if key else ""
    return cat.text(f"decisions.reminder.{REMINDERS.get(d.kind, 'default')}")


def _catalogued(cat: Catalog, d: Decision) -> list[str]:
    """A kind without an asker of its own: its ``ask`` line, filled from the context
    (lists joined, players' names as they are), else the generic question."""
    if not cat.has(f"decisions.kinds.{d.kind}.ask"):
        return _generic(cat, d)
    values = {k: cat.join(v) if isinstance(v, (list, tuple)) else _plain(v) for k, v in d.context.items()}
    return [_k(cat, d.kind, "ask", **values)]


def situation(decision: Decision, language: str = "en") -> list[str]:
    """The question's words without its legal answers: what a model seat reads and
    what a person's seat (terminal, web page) shows above its buttons."""
    cat = catalog(language)
    asker = ASKERS.get(decision.kind, _catalogued)
    try:
        lines = asker(cat, decision)
    except (KeyError, TypeError, ValueError, AttributeError):
        lines = _generic(cat, decision)
    return [line for line in lines if line]


def decision_prompt(decision: Decision, *, language: str = "en", reminder: bool = True, listed: bool = True, brief: bool = False) -> str:
    """The question. Without ``reminder`` it ends at its legal answers: the cache
    layout follows it with the line naming the fields to fill, which says it all.
    Without ``listed`` either, bare legal answers (names, true/false) are left to that
    line's enum, which states them exactly: the question is paid fresh in every
    request, so nothing in it is said twice.

    ``brief`` is the grammar layout's question: the request carries the decision's
    own schema, which a local server enforces, and the system text's "How to answer"
    already says what each field is for and that null is legal only where a question
    says so. So the answer-format reminder and the line refusing null are left out
    (on a CPU every token of a question is evaluated afresh at every call: they were
    a third of a small model's prefill), keeping only what the system text does not
    say (``BRIEF_REMINDERS``)."""
    cat = catalog(language)
    lines = [
        cat.text("decisions.heading"),
        *situation(decision, language),
        *_legal_lines(cat, decision, listed, brief),
        _reminder(cat, decision, brief) if reminder else "",
    ]
    return "\n".join(line for line in lines if line)

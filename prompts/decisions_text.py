"""The question a seat is asked, built from the engine's ``Decision`` alone.

Why from the decision alone: the engine puts in a decision's context exactly what
the asker is shown with it (the Witch's victim, the tied players, the Thief's
cards), so the question can state the stakes and the legal answers without reading
anything the seat was not given. Legal answers are written as JSON literals because
that is how they must come back; anything else would be refused by the engine.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision
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
        return [_k(cat, "speak", f"{phase}_{protocol}", round=rnd, turn=rnd, turns=ctx.get("turns"), speakers=ctx.get("speakers"))]
    if cat.has(f"decisions.kinds.speak.{phase}"):
        return [_k(cat, "speak", phase, round=rnd)]
    return [_k(cat, "speak", "other", phase=cat.word("phases", phase), round=rnd)]


def _bid(cat: Catalog, d: Decision) -> list[str]:
    last = d.context.get("last")
    lines = [_k(cat, "bid", "ask", turn=d.context.get("turn", 1), turns=d.context.get("turns", 1))]
    lines.append(_k(cat, "bid", "last", last=last) if last else _k(cat, "bid", "first"))
    return lines


def bid_level(cat: Catalog, amount: Any) -> str:
    """What a bid means, in words (the option labels of people's seats)."""
    return cat.text(f"decisions.kinds.bid.levels.{amount}")


def _wolf_chat(cat: Catalog, d: Decision) -> list[str]:
    wolves = d.context.get("wolves") or []
    names = cat.join(cat.text("terms.you") if w == d.seat else w for w in wolves)
    lines = [_k(cat, "wolf_chat", "ask", round=d.context.get("round", 1), wolves=names)]
    if d.context.get("little_girl", True):  # an older caller's context: the warning as before
        lines.append(_k(cat, "wolf_chat", "spied"))
    return lines


def _vote(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, "vote", "ask")]
    candidates = d.context.get("candidates")
    if candidates:
        lines.append(_k(cat, "vote", "revote", round=d.context.get("round", 2), candidates=cat.join(candidates)))
    return lines


def _sheriff_vote(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, "sheriff_vote", "ask")]
    if d.context.get("round", 1) > 1:
        lines.append(_k(cat, "sheriff_vote", "revote", round=d.context["round"]))
    return lines


def _sheriff_tiebreak(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "sheriff_tiebreak", "ask", tied=cat.join(d.context.get("tied") or d.options))]


def _wolf_kill(cat: Catalog, d: Decision) -> list[str]:
    order = d.context.get("order")
    if order and d.context.get("turn"):  # ``wolf_pack: first_named`` (004): the wolves in turn
        turn = d.context["turn"]
        lines = [_k(cat, "wolf_kill", "ask_turn", turn=turn, count=len(order))]
        if turn > 1:
            lines.append(_k(cat, "wolf_kill", "waited"))
        later = order[turn:]
        if later:
            lines.append(_k(cat, "wolf_kill", "later", later=cat.join(later)))
        elif d.allow_pass:  # the last may pass only where the pack may: what it costs, then
            lines += [_k(cat, "wolf_kill", "last"), *_silent(cat, d)]
        else:
            lines.append(_k(cat, "wolf_kill", "last_forced"))
        return lines + _told(cat, d, "wolf_kill", "caught")
    rule = d.context.get("rule")
    known = isinstance(rule, str) and cat.has(f"decisions.kinds.wolf_kill.rule.{rule}")
    lines = [cat.text(f"decisions.kinds.wolf_kill.rule.{rule}") if known else _k(cat, "wolf_kill", "ask")]
    attempt = d.context.get("attempt", 1)
    if attempt and attempt > 1:
        lines.append(_k(cat, "wolf_kill", "attempt", attempt=attempt))
    attempts = d.context.get("attempts", 1)
    if known and rule != "plurality" and attempts > 1:  # a plurality always names someone
        lines.append(_k(cat, "wolf_kill", "again" if attempt < attempts else "final", attempt=attempt, attempts=attempts))
    if d.context.get("idle"):  # 失业狼人: found out by the Seer
        lines.append(_k(cat, "wolf_kill", "idle"))
    elif d.allow_pass and d.options:
        lines += _silent(cat, d)
    return lines + _told(cat, d, "wolf_kill", "caught")


def _silent(cat: Catalog, d: Decision) -> list[str]:
    """What the pack pays if it names nobody (``wolves_silent``), where passing is legal."""
    silent = d.context.get("silent")
    path = f"decisions.kinds.wolf_kill.silent.{silent}"
    return [cat.text(path)] if isinstance(silent, str) and cat.has(path) else []


def _witch_heal(cat: Catalog, d: Decision) -> list[str]:
    victim = d.context.get("victim")
    if victim is None:
        lines = [_k(cat, "witch_heal", "none")]
    elif victim == d.seat:
        lines = [_k(cat, "witch_heal", "victim_self")]
    else:
        lines = [_k(cat, "witch_heal", "victim", victim=victim)]
    reason = d.context.get("unavailable")
    if reason and not (victim is None and reason == "nobody was attacked tonight"):
        lines.append(_k(cat, "witch_heal", "unavailable", reason=_unavailable(cat, reason)))
    return lines


def _witch_poison(cat: Catalog, d: Decision) -> list[str]:
    lines = [_k(cat, "witch_poison", "ask")]
    reason = d.context.get("unavailable")
    if reason:
        lines.append(_k(cat, "witch_poison", "unavailable", reason=_unavailable(cat, reason)))
    return lines


def _hunter_shot(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "hunter_shot", "ask", cause=cat.word("causes", d.context.get("cause")))]


def _thief_swap(cat: Catalog, d: Decision) -> list[str]:
    cards = d.context.get("cards") or list(d.options)
    lines = [_k(cat, "thief_swap", "ask", cards=cat.join(cat.role_name(c) for c in cards))]
    if d.context.get("forced"):
        lines.append(_k(cat, "thief_swap", "forced"))
    return lines


def _little_girl_spy(cat: Catalog, d: Decision) -> list[str]:
    chance = float(d.context.get("catch_chance", 0.0) or 0.0)
    return [_k(cat, "little_girl_spy", "ask", percent=f"{chance * 100:g}")]


def _protector_guard(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "protector_guard", "ask"), *_told(cat, d, "protector_guard", "last")]


def _sister_chat(cat: Catalog, d: Decision) -> list[str]:
    sisters = d.context.get("sisters") or []
    return [_k(cat, "sister_chat", "ask", sisters=cat.join(cat.text("terms.you") if s == d.seat else s for s in sisters))]


def _infect(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "infect_father_infect", "ask", victim=d.context.get("victim"))]


def _charm(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "pied_piper_charm", "ask", count=d.count)]


def _deceiver(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "cupid_deceiver", "ask", lovers=cat.join(d.context.get("lovers") or d.options))]


def _paramour(cat: Catalog, d: Decision) -> list[str]:
    return [_k(cat, "cupid_paramour", "ask", deceiver=d.context.get("deceiver"))]


def _home_ask(kind: str) -> Asker:
    """The Bailiff's offer: the freed building by its name in the language."""

    def ask(cat: Catalog, d: Decision) -> list[str]:
        home = cat.word("homes", d.context.get("building"))
        return [_k(cat, kind, "ask", building=home, former=d.context.get("former"))]

    return ask


def _building_choice(cat: Catalog, d: Decision) -> list[str]:
    tokens = d.context.get("tokens") or {}
    listed = cat.join(f"{cat.word('buildings', b)} × {k}" for b, k in sorted(tokens.items()))
    return [_k(cat, "building_choice", "ask", tokens=listed)]


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


ASKERS: dict[str, Asker] = {
    "speak": _speak,
    "wolf_chat": _wolf_chat,
    "bid": _bid,
    "vote": _vote,
    "sheriff_vote": _sheriff_vote,
    "sheriff_successor": _plain_ask("sheriff_successor"),
    "sheriff_run": _plain_ask("sheriff_run"),
    "sheriff_withdraw": lambda cat, d: [_k(cat, "sheriff_withdraw", "ask", candidates=cat.join(d.context.get("candidates") or ()))],
    "sheriff_tiebreak": _sheriff_tiebreak,
    "wolf_kill": _wolf_kill,
    "seer_check": _plain_ask("seer_check"),
    "witch_heal": _witch_heal,
    "witch_poison": _witch_poison,
    "hunter_shot": _hunter_shot,
    "cupid_lovers": _plain_ask("cupid_lovers"),
    "thief_swap": _thief_swap,
    "little_girl_spy": _little_girl_spy,
    "protector_guard": _protector_guard,
    "sister_chat": _sister_chat,
    "fox_sniff": _plain_ask("fox_sniff"),
    "wild_child_model": _plain_ask("wild_child_model"),
    "wolf_hound_side": _plain_ask("wolf_hound_side"),
    "white_werewolf_kill": _plain_ask("white_werewolf_kill"),
    "infect_father_infect": _infect,
    "big_bad_wolf_kill": _plain_ask("big_bad_wolf_kill"),
    "pied_piper_charm": _charm,
    "cupid_deceiver": _deceiver,
    "cupid_paramour": _paramour,
    "bailiff_assign": _home_ask("bailiff_assign"),
    "vagabond_accept": _home_ask("vagabond_accept"),
    "building_choice": _building_choice,
}

# Decisions whose options are role ids, shown with the role's name beside the id;
# and those whose options are camps, shown with the camp's name.
ROLE_ANSWERS = {"thief_swap"}
CAMP_ANSWERS = {"wolf_hound_side"}
BUILDING_ANSWERS = {"building_choice"}
SCALE_ANSWERS = {"bid"}  # numbers on a scale, shown with what each means


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


def _legal_lines(cat: Catalog, d: Decision, listed: bool = True) -> list[str]:
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
    lines.append(_pass_line(cat, d))
    return lines


def _pass_line(cat: Catalog, d: Decision) -> str:
    meaning_path = f"decisions.kinds.{d.kind}.pass"
    meaning = cat.text(meaning_path) if cat.has(meaning_path) else cat.text("decisions.pass.default")
    if d.shape == TEXT:  # the schema asks for a string: silence is an empty one, not null
        return cat.text("decisions.pass.text", meaning=meaning)
    if d.shape == BOOL:
        return cat.text("decisions.pass.bool") if d.allow_pass else ""  # validate() takes null only then
    if d.allow_pass:
        return cat.text("decisions.pass.allowed", meaning=meaning)
    return cat.text("decisions.pass.forbidden")


def _reminder(cat: Catalog, d: Decision) -> str:
    if d.kind == "speak":
        return cat.text("decisions.reminder.speech")
    if d.kind == "wolf_chat":
        return cat.text("decisions.reminder.wolf_chat")
    if d.kind == "sister_chat":
        return cat.text("decisions.reminder.sister_chat")
    return cat.text("decisions.reminder.default")


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


def decision_prompt(decision: Decision, *, language: str = "en", reminder: bool = True, listed: bool = True) -> str:
    """The question. Without ``reminder`` it ends at its legal answers: the cache
    layout follows it with the line naming the fields to fill, which says it all.
    Without ``listed`` either, bare legal answers (names, true/false) are left to that
    line's enum, which states them exactly: the question is paid fresh in every
    request, so nothing in it is said twice."""
    cat = catalog(language)
    lines = [cat.text("decisions.heading"), *situation(decision, language), *_legal_lines(cat, decision, listed), _reminder(cat, decision) if reminder else ""]
    return "\n".join(line for line in lines if line)

"""A decision as the page asks it: the words, the buttons, the clock.

Why the words are the prompts' own questions (``prompts.decisions_text.situation``):
one text per decision kind, the one model seats read.
The headings and buttons around them are the page's words (``arena.web.words``).
The page gets the legal options as the engine listed them and posts one of them
back; the engine's ``validate`` is still the judge.
"""

from __future__ import annotations

import time
from typing import Any

from agents.human_input import ROLE_OPTIONS, SCALE_OPTIONS, SPEECH_KINDS, TARGETED_KINDS, option_label
from arena.web.web_agent import Given, Question, WebAgent
from arena.web.words import pass_label, say, words
from engine.decisions import BOOL, TEXT, Decision
from engine.flow.main import GameStart
from engine.words import MAX_CHARS
from prompts.catalog import catalog
from prompts.decisions_text import situation


def title(decision: Decision, language: str = "en") -> str:
    """The question's heading in the page's words (``q.<kind>``), else its kind."""
    found = words(language).get(f"q.{decision.kind}")
    return found or decision.kind.replace("_", " ").capitalize()


def question(agent: WebAgent, q: Question, language: str) -> dict[str, Any]:
    d = q.decision
    out: dict[str, Any] = {
        "id": d.id,
        "kind": d.kind,
        "shape": d.shape,
        "title": title(d, language),
        "lines": situation(d, language),
        "count": d.count,
        "allow_pass": d.allow_pass,
        "options": [{"value": o, "label": _label(d, o, language)} for o in d.options],
        "pass_label": (pass_label(d, language) if d.allow_pass and d.shape != TEXT else None),
        "seconds_left": None if q.deadline is None else max(0.0, round(q.deadline - time.time(), 1)),
        "timeout": agent.timeout,
        "default": agent.default_text(d) if agent.timeout is not None else None,
    }
    if d.shape == TEXT:
        out["max_chars"] = MAX_CHARS  # the engine's bound on words (``engine.words``): the text box's too
    extras = _extras(d, q.view, language)
    if extras:
        out["extras"] = extras
    return out


def _extras(d: Decision, view: Any, language: str) -> dict[str, Any] | None:
    """What a speech may carry besides its words, as the page offers it (``engine.speech``):
    claims for a speech (a role among the ones in play, Seer results, accusations), a
    proposed victim for the pack's talk. Only what the seat was shown is listed."""
    if d.kind in SPEECH_KINDS:
        cat = catalog(language)
        deck: list[str] = []
        for e in view.events:
            if isinstance(e.data, GameStart):
                deck = list(dict.fromkeys(e.data.roles_in_play or []))
        return {
            "kind": "claims",
            "roles": [{"value": r, "label": cat.role_name(r)} for r in deck],
            "players": [p for p in view.players if p != view.name],
        }
    if d.kind in TARGETED_KINDS:
        return {"kind": "target", "players": list(view.alive)}
    return None


def _label(d: Decision, option: Any, language: str) -> str:
    if d.shape == BOOL:
        return say(language, "yes" if option else "no")
    if d.kind in ROLE_OPTIONS:
        return catalog(language).role_name(option)
    if d.kind in SCALE_OPTIONS:  # the number itself, then what it means
        return f"{option} · {option_label(d, option, language)}"
    return option_label(d, option, language)


def given(agent: WebAgent, g: Given) -> dict[str, Any]:
    return {
        "id": g.decision.id,
        "kind": g.decision.kind,
        "title": title(g.decision, agent.language),
        "answer": g.answer,
        "text": agent.describe_answer(g.decision, g.answer),
        "by_default": g.by_default,
    }

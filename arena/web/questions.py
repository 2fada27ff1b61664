"""A decision as the page asks it: the words, the buttons, the clock.

Why the words are the terminal seat's (``agents.human_view._situation``, which reads
the prompts' own questions): one text per decision kind, the one model seats read.
The page gets the legal options as the engine listed them and posts one of them
back; the engine's ``validate`` is still the judge.
"""

from __future__ import annotations

import time
from typing import Any

from agents.human_input import option_label, pass_word
from agents.human_view import _situation
from engine.decisions import BOOL, TEXT, Decision

from arena.web.web_agent import Given, Question, WebAgent

TITLES = {
    "speak": "Your turn to speak",
    "vote": "Vote",
    "sheriff_vote": "Elect the Sheriff",
    "wolf_kill": "The pack's victim",
    "wolf_chat": "Talk with the pack",
    "seer_check": "Whose card do you look at?",
    "witch_heal": "The healing potion",
    "witch_poison": "The poison",
    "hunter_shot": "The Hunter's last shot",
}


def title(decision: Decision) -> str:
    return TITLES.get(decision.kind, decision.kind.replace("_", " ").capitalize())


def question(agent: WebAgent, q: Question, language: str) -> dict[str, Any]:
    d = q.decision
    out: dict[str, Any] = {
        "id": d.id,
        "kind": d.kind,
        "shape": d.shape,
        "title": title(d),
        "lines": _situation(d, language),
        "count": d.count,
        "allow_pass": d.allow_pass,
        "options": [{"value": o, "label": _label(d, o)} for o in d.options],
        "pass_label": (pass_word(d).capitalize() if d.allow_pass and d.shape != TEXT else None),
        "seconds_left": None if q.deadline is None else max(0.0, round(q.deadline - time.time(), 1)),
        "timeout": agent.timeout,
        "default": agent._default_text(d) if agent.timeout is not None else None,
    }
    return out


def _label(d: Decision, option: Any) -> str:
    if d.shape == BOOL:
        return "Yes" if option else "No"
    return option_label(d, option)


def given(agent: WebAgent, g: Given) -> dict[str, Any]:
    return {
        "id": g.decision.id,
        "kind": g.decision.kind,
        "title": title(g.decision),
        "answer": g.answer,
        "text": agent.describe_answer(g.decision, g.answer),
        "by_default": g.by_default,
    }

"""What counts as a forged line in a model's prompt, decided by the renderer itself.

The prompt builders write three kinds of line a reader takes as the game's own: a
history entry (``terms.entry``: a time label, the separator, a sentence), a line of a
question (``decisions.*``: its heading, the situation, the legal answers, the
reminder) and a heading (``## ...`` in any prompt file). Their shapes are read here
from ``prompts/<language>/*.yaml``, placeholders as wildcards, so a new template is
covered the day it is written.

A line of one of those shapes is genuine only when the renderer wrote it whole for
this request: one of the seat's history entries rendered from the events it was shown
(of an entry that itself spans several lines, only the first: its other lines came
from a player's words), or a line of the question asked. Any other line of
such a shape, in the system part or the messages a seat reads, is forged. Tested both
ways: a clean game finds none; the payload suite on the old renderer finds many
(``benchmarks/prompt_safety.py``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from prompts.catalog import LANGUAGES, catalog
from prompts.decisions_text import decision_prompt
from prompts.history import history_entries

_PLACEHOLDER = re.compile(r"\$(?:(\w+)|\{(\w+)\})")
# Parts of a question that are pieces of a line, not lines (filled into another).
_FRAGMENTS = {"pass", "item", "role_option", "default", "unavailable", "told"}


def _regex(template: str, fill: dict[str, str] | None = None) -> str:
    out, last = [], 0
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[last : m.start()]))
        out.append((fill or {}).get(m.group(1) or m.group(2), ".*"))
        last = m.end()
    out.append(re.escape(template[last:]))
    return "".join(out)


def _leaves(node: Any, path: tuple[str, ...] = ()) -> Iterable[tuple[tuple[str, ...], str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (str(k),))
    elif isinstance(node, str):
        yield path, node
    elif isinstance(node, list):
        for v in node:
            yield from _leaves(v, path)


@dataclass(frozen=True)
class Shapes:
    entry: re.Pattern  # the start of every history entry
    question: tuple[re.Pattern, ...]  # every whole line of a question
    heading: re.Pattern  # every "## ..." heading of any prompt file

    def kind(self, line: str) -> str | None:
        if self.entry.match(line):
            return "entry"
        if self.heading.match(line):
            return "heading"
        if any(p.match(line) for p in self.question):
            return "question"
        return None


@lru_cache(maxsize=None)
def shapes(language: str) -> Shapes:
    cat = catalog(language)
    tree = {stem: cat.get(stem) for stem in ("system", "rules", "roles", "events", "decisions", "terms")}
    whens = [_regex(t, {"n": r"\d+"}) for _, t in _leaves(tree["terms"]["when"])]
    entry = cat.get("terms.entry")
    head, _, _ = entry.partition("$body")
    entry_re = re.compile("^" + _regex(head, {"when": "(?:" + "|".join(whens) + ")"}))
    question = []
    for path, text in _leaves(tree["decisions"]):
        if path[-1] in _FRAGMENTS or len(_PLACEHOLDER.sub("", text).strip()) < 6:
            continue
        question.append(re.compile("^" + _regex(text) + "$"))
    headings = {text for stem in tree.values() for _, text in _leaves(stem) if text.startswith("#")}
    heading_re = re.compile("^(?:" + "|".join(_regex(h) for h in sorted(headings)) + ")$")
    return Shapes(entry_re, tuple(question), heading_re)


def shaped(line: str) -> str | None:
    """The kind of game line ``line`` looks like, in any prompt language."""
    for lang in LANGUAGES:
        k = shapes(lang).kind(line.strip())
        if k:
            return k
    return None


# ---------------------------------------------------------------------- requests
def request_texts(body: dict[str, Any]) -> tuple[str, list[str]]:
    """A request as sent (either vendor's format): its system text, and the texts of
    every message the seat reads (not its own earlier replies)."""
    system = body.get("system")
    texts: list[str] = []
    if system is None:
        first = body["messages"][0]
        system, messages = first.get("content") or "", body["messages"][1:]
    else:
        messages = body["messages"]
    if isinstance(system, list):
        system = "".join(b.get("text", "") for b in system)
    for m in messages:
        if m["role"] == "assistant":
            continue
        texts += list(_block_texts(m.get("content")))
    return system, texts


def _block_texts(content: Any) -> Iterable[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for b in content:
            if isinstance(b, dict):
                if b.get("type") == "text":
                    yield b.get("text", "")
                elif b.get("type") == "tool_result":
                    yield from _block_texts(b.get("content"))


def same_messages(body: dict[str, Any], record_messages: list[dict[str, Any]]) -> bool:
    sent = body["messages"] if body.get("system") is None else [{"role": "system", "content": body["system"]}] + body["messages"]
    return json.dumps(sent, sort_keys=True, ensure_ascii=False) == json.dumps(record_messages, sort_keys=True, ensure_ascii=False, default=str)


@dataclass
class Forgery:
    seat: str
    where: str  # system | message
    kind: str
    line: str


@dataclass
class Audit:
    requests: int = 0
    lines: int = 0
    forged: list[Forgery] = field(default_factory=list)


def genuine_lines(view: Any, decision: Any, seat: str, language: str, rules: Any = None) -> Counter:
    """The game lines the renderer wrote whole for this request: each entry of the
    seat's history that is one line, and the first line of any that is not (the
    renderer began it; its other lines are a player's words); the question's lines,
    and the Witch's poison question when a model seat asks it beside her heal
    (``agents.llm.witch``)."""
    from agents.llm import witch

    found: Counter = Counter()
    for entry in history_entries(view.events, seat, language=language):
        lines = entry.splitlines()
        if lines:
            found[lines[0].strip()] += 1
    question = decision_prompt(decision, language=language)
    if witch.combinable(view, decision):
        question = witch.question(question, witch.poison_decision(view, decision), rules, language)
    for line in question.splitlines():
        found[line.strip()] += 1
    return found


def audit_request(body: dict[str, Any], seat: str, view: Any, decision: Any, language: str, audit: Audit, rules: Any = None) -> None:
    system, texts = request_texts(body)
    audit.requests += 1
    for line in system.splitlines():
        audit.lines += 1
        kind = shaped(line)
        if kind in ("entry", "question"):
            audit.forged.append(Forgery(seat, "system", kind, line))
    budget = genuine_lines(view, decision, seat, language, rules)
    for text in texts:
        for line in text.splitlines():
            audit.lines += 1
            kind = shaped(line)
            if kind is None:
                continue
            key = line.strip()
            if budget[key] > 0:
                budget[key] -= 1
            else:
                audit.forged.append(Forgery(seat, "message", kind, line))

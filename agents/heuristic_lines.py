"""The heuristic bot's wording, kept as data in ``prompts/bot_lines/<lang>.yaml``.

Text is data so that writers can vary or translate it without touching the logic;
the structured claims carry the meaning, the lines only make the table readable.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from engine.roles import ROLES
from prompts.catalog import catalog


def _lines_path(lang: str) -> Path:
    """Prefer the installed ``prompts`` package; fall back to the checkout layout so a
    bare source tree works too."""
    try:
        candidate = files("prompts") / "bot_lines" / f"{lang}.yaml"
        if candidate.is_file():
            return Path(str(candidate))
    except Exception:  # a namespace or zipped package: use the checkout path
        pass
    return Path(__file__).resolve().parent.parent / "prompts" / "bot_lines" / f"{lang}.yaml"


@lru_cache(maxsize=None)
def load_lines(lang: str = "en") -> dict[str, Any]:
    if lang not in LANGUAGES:
        lang = "en"
    with open(_lines_path(lang), encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise ValueError(f"bot lines for '{lang}' must be a mapping of situations to lines")
    return data


LANGUAGES = ("en", "zh")
CJK = re.compile("[\u4e00-\u9fff]")


def language_of(text: object) -> str | None:
    """``zh`` for a text written in Chinese, else ``None`` (no opinion)."""
    if text.__class__ is not str or text.isascii():  # the common case, at C speed
        return None
    return "zh" if CJK.search(text) else None


def role_name(role: str | None, lang: str = "en") -> str:
    if lang != "en":
        try:
            return catalog(lang).role_name(role or "villager")
        except ValueError:  # a language without prompts: the English name
            pass
    spec = ROLES.get(role) if isinstance(role, str) else None
    return spec.name if spec else str(role or "villager")


def join(parts: list[str], lang: str = "en") -> str:
    """Sentences side by side: Chinese needs no space between them."""
    return ("" if lang == "zh" else " ").join(filter(None, parts))


def line(rng: random.Random, key: str, lang: str = "en", fill: dict[str, str] | None = None) -> str:
    """One line for the situation ``key`` (dotted for nested keys), filled in from
    ``fill`` (a dict, not keywords: ``Situation.say`` passes on the one its keywords
    made, ~46 lines a game). A missing situation yields no text rather than an error:
    wording is never fatal."""
    choices = _choices(lang, key)
    if not choices:
        return ""
    template, fields = rng.choice(choices)
    if not fields:
        return template  # what ``format`` would return, without its parse (~half the lines)
    try:
        return template.format_map(fill or {})
    except (KeyError, IndexError, ValueError):
        return template


@lru_cache(maxsize=None)
def _choices(lang: str, key: str) -> tuple[tuple[str, bool], ...]:
    """The lines ``line`` draws from for ``key``, as text with whether it holds braces
    (fields, or escaped braces: only those need ``format``): none for a missing
    situation. Kept once resolved: a seat says ~46 lines a game, and walking the
    loaded mapping for each cost more than the draw; the loaded lines never change
    (``load_lines`` is cached), so neither does this."""
    node: Any = load_lines(lang)
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if not node:
        return ()
    texts = [str(c) for c in (node if isinstance(node, list) else [node])]
    return tuple((t, "{" in t or "}" in t) for t in texts)

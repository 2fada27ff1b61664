"""The page's own words (buttons, labels, headings) in the game's language.

Why one data file, ``static/i18n.json``, read by the server and by the pages alike:
the words a seat is sent (a question's title, an answer read back) and the words its
page draws around them must be the same language, and a translator edits one file.
The game's own sentences (events, questions, roles) are the prompts' (``prompts/``).
A word missing in one language is said in English.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.decisions import Decision
from prompts.catalog import catalog

FILE = Path(__file__).parent / "static" / "i18n.json"


@lru_cache(maxsize=None)
def _all() -> dict[str, dict[str, str]]:
    return json.loads(FILE.read_text(encoding="utf-8"))


def words(language: str) -> dict[str, str]:
    table = _all()
    return {**table["en"], **table.get(language, {})}


def say(language: str, key: str, **values: Any) -> str:
    """The words for ``key`` with ``{name}`` filled in (unknown keys read as themselves)."""
    text = words(language).get(key, key)
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), text)


def pass_phrase(decision: Decision, language: str) -> str:
    """Passing, said to the seat in the prompts' words ("you abstain", "你弃票")."""
    cat = catalog(language)
    path = f"decisions.kinds.{decision.kind}.pass"
    try:
        if cat.has(path):
            return cat.text(path)
    except Exception:  # the words are a nicety: a missing catalog must not stop a game
        pass
    return say(language, "a.pass")


def pass_label(decision: Decision, language: str) -> str:
    """The pass button ("Abstain", "弃票")."""
    phrase = pass_phrase(decision, language)
    you = str(catalog(language).get("terms.you") or "")
    if you and phrase.startswith(you):
        phrase = phrase[len(you) :].lstrip()
    return phrase[:1].upper() + phrase[1:]

"""Turning what a person types into an answer the engine accepts.

Why a module of pure functions: every way a person can mistype (a letter, a number
off the list, one name too few, the same name twice) must come back as one sentence
they can act on, and that is only practical to check exhaustively without a terminal.
The engine's ``Decision.validate`` stays the last word, so this module can be friendly
(names as well as numbers, commas or spaces) without ever being more permissive.
"""

from __future__ import annotations

import re
from typing import Any

from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, IllegalAnswer

YES = frozenset({"y", "yes", "true", "oui", "是", "是的"})
NO = frozenset({"n", "no", "false", "non", "否", "不"})
# Decisions whose options are role ids; people read the role's name beside them.
ROLE_OPTIONS = frozenset({"thief_swap"})


class BadInput(ValueError):
    """Input that cannot be an answer; the message tells the person what to type."""


def option_label(decision: Decision, option: Any) -> str:
    """How an option is shown on its numbered line."""
    if decision.kind in ROLE_OPTIONS:
        from engine.roles import ROLES

        spec = ROLES.get(option)
        return spec.name if spec else str(option)
    return str(option)


def numbered(decision: Decision) -> list[tuple[int, str]]:
    """The lines of the menu: 1-based numbers, in the engine's order of options."""
    return [(i, option_label(decision, o)) for i, o in enumerate(decision.options, start=1)]


def input_hint(decision: Decision) -> str:
    """What to type, said in the prompt itself so nobody has to guess the format."""
    n = len(decision.options)
    if decision.shape == TEXT:
        return "type your words and press Enter; an empty line = say nothing"
    if decision.shape == BOOL:
        if len(decision.options) == 1:
            only = "y" if decision.options[0] else "n"
            return f"only '{only}' is possible here (Enter = {only})"
        return "y = yes, n = no"
    zero = ", 0 = " + pass_word(decision) if decision.allow_pass else ""
    if decision.shape == MULTI:
        return f"{decision.count} different numbers from 1 to {n}, separated by spaces or commas{zero}"
    return f"a number from 1 to {n}{zero}" if n > 1 else f"1{zero}"


def pass_word(decision: Decision) -> str:
    """What passing means for this kind, in the words the prompts already use."""
    try:
        from prompts.catalog import catalog

        cat = catalog("en")
        path = f"decisions.kinds.{decision.kind}.pass"
        if cat.has(path):
            return cat.text(path).removeprefix("you ")
    except Exception:  # the words are a nicety: a missing catalog must not stop a game
        pass
    return "pass"


def parse_answer(decision: Decision, line: str) -> Any:
    """The answer ``line`` stands for, checked by the engine's own rules; ``BadInput``."""
    raw = line.strip()
    shape = decision.shape
    if shape == TEXT:
        answer: Any = raw
    elif shape == BOOL:
        answer = _yes_no(decision, raw)
    elif shape == MULTI:
        answer = _several(decision, raw)
    elif shape == CHOICE:
        answer = _one(decision, raw)
    else:
        raise BadInput(f"this question ({decision.kind}) cannot be answered from the terminal")
    try:
        return decision.validate(answer)
    except IllegalAnswer as e:
        raise BadInput(str(e)) from None


def _yes_no(decision: Decision, raw: str) -> bool:
    word = raw.lower()
    if not word:
        if len(decision.options) == 1:
            return bool(decision.options[0])
        raise BadInput("type y for yes or n for no")
    if word in YES:
        value = True
    elif word in NO:
        value = False
    else:
        raise BadInput(f"'{raw}' is neither yes nor no: type y or n")
    if value not in decision.options:
        raise BadInput(f"{'yes' if value else 'no'} is not possible here: type {'n' if value else 'y'}")
    return value


def _one(decision: Decision, raw: str) -> Any:
    if not raw:
        raise BadInput(f"type {input_hint(decision)}")
    index = _index(decision, raw)
    if index == 0:
        if not decision.allow_pass:
            raise BadInput(f"you must choose here; passing is not allowed: type {input_hint(decision)}")
        return None
    return decision.options[index - 1]


def _several(decision: Decision, raw: str) -> Any:
    tokens = [t for t in re.split(r"[\s,;，、]+", raw) if t]
    if not tokens:
        raise BadInput(f"type {input_hint(decision)}")
    indexes = [_index(decision, t) for t in tokens]
    if 0 in indexes:
        if indexes == [0] and decision.allow_pass:
            return None
        raise BadInput(f"0 cannot be one of the picks: type {input_hint(decision)}")
    if len(set(indexes)) != len(indexes):
        twice = next(i for i in indexes if indexes.count(i) > 1)
        raise BadInput(f"{twice} is there twice: the {decision.count} picks must be different")
    if len(indexes) != decision.count:
        raise BadInput(f"you gave {len(indexes)} pick(s); exactly {decision.count} are needed")
    return [decision.options[i - 1] for i in indexes]


def _index(decision: Decision, token: str) -> int:
    """A menu number (0 = pass) from a number or an option's name, case-insensitively."""
    n = len(decision.options)
    if token.lstrip("+-").isdigit():
        value = int(token)
        if value == 0 or 1 <= value <= n:
            return value
        raise BadInput(f"{token} is not on the list: type {input_hint(decision)}")
    folded = token.casefold()
    for i, label in numbered(decision):
        if folded in (label.casefold(), str(decision.options[i - 1]).casefold()):
            return i
    raise BadInput(f"'{token}' is not a number on the list: type {input_hint(decision)}")

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

from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision, DecisionKind, IllegalAnswer
from engine.flow.protocols import BID
from engine.roles import ROLES
from engine.roles.thief import THIEF_SWAP
from engine.roles.werewolf import WOLF_CHAT
from engine.speech import SPEAK
from engine.words import MAX_CHARS, problem as words_problem
from prompts.catalog import catalog
from prompts.decisions_text import bid_level

# Text decisions that take more than words, as model seats send them (``engine.speech``):
# a speech may state public claims, the pack's night talk may propose a victim.
SPEECH_KINDS: frozenset[DecisionKind] = frozenset({SPEAK})
TARGETED_KINDS: frozenset[DecisionKind] = frozenset({WOLF_CHAT})
SPEECH_COMMANDS = {
    "/role": "/role ROLE claims a role",
    "/check": "/check NAME ROLE claims a night check's result",
    "/accuse": "/accuse NAME [NAME ...] accuses",
}
TARGET_COMMANDS = {"/target": "/target NAME proposes the pack's victim"}
# A word that starts with a slash and a letter is a command; "//" keeps a literal slash.
_COMMAND = re.compile(r"(?:(?<=\s)|^)(/[^\W\d]\w*)")
_LITERAL = re.compile(r"(?:(?<=\s)|^)//(?=[^\W\d])")
ROLE_ALIASES = {"wolf": "werewolf", "wolves": "werewolf", "werewolves": "werewolf"}

YES = frozenset({"y", "yes", "true", "oui", "是", "是的"})
NO = frozenset({"n", "no", "false", "non", "否", "不"})
# Decisions whose options are role ids; people read the role's name beside them.
ROLE_OPTIONS: frozenset[DecisionKind] = frozenset({THIEF_SWAP})
# Decisions whose options are numbers on a scale (the bid for the floor, 0-4): a person
# types the number itself, which is also its line's number in the menu.
SCALE_OPTIONS: frozenset[DecisionKind] = frozenset({BID})


class BadInput(ValueError):
    """Input that cannot be an answer; the message tells the person what to type."""


def option_label(decision: Decision, option: Any, language: str = "en") -> str:
    """How an option is shown on its numbered line."""
    if decision.kind in ROLE_OPTIONS:
        spec = ROLES.get(option)
        return spec.name if spec else str(option)
    if decision.kind in SCALE_OPTIONS:
        return bid_level(catalog(language), option)
    return str(option)


def numbered(decision: Decision, language: str = "en") -> list[tuple[int, str]]:
    """The lines of the menu: 1-based numbers, in the engine's order of options (on a
    scale, the numbers themselves)."""
    if decision.kind in SCALE_OPTIONS:
        return [(o, option_label(decision, o, language)) for o in decision.options]
    return [(i, option_label(decision, o, language)) for i, o in enumerate(decision.options, start=1)]


def input_hint(decision: Decision, alive: list[str] | None = None) -> str:
    """What to type, said in the prompt itself so nobody has to guess the format. The
    pack's example victim is a living player outside the pack (``alive``), never one
    of the reader's own packmates."""
    n = len(decision.options)
    if decision.shape == TEXT:
        said = f"type your words (at most {MAX_CHARS:,} characters) and press Enter; an empty line = say nothing"
        if decision.kind in SPEECH_KINDS:
            return said + "; after your words you may add claims: /role ROLE, /check NAME ROLE, /accuse NAME (e.g. I know what Bob is. /check Bob werewolf /accuse Bob)"
        if decision.kind in TARGETED_KINDS:
            pack = set(decision.context.get("wolves") or ()) | {decision.seat}
            prey = next((a for a in alive or () if a not in pack), None)
            example = f" (e.g. Let's take {prey}. /target {prey})" if prey else ""
            return said + "; add /target NAME to propose the victim" + example
        return said
    if decision.shape == BOOL:
        if len(decision.options) == 1:
            only = "y" if decision.options[0] else "n"
            return f"only '{only}' is possible here (Enter = {only})"
        return "y = yes, n = no"
    if decision.kind in SCALE_OPTIONS and decision.options:
        low, high = decision.options[0], decision.options[-1]
        return f"a number from {low} ({option_label(decision, low)}) to {high} ({option_label(decision, high)})"
    zero = ", 0 = " + pass_word(decision) if decision.allow_pass else ""
    if decision.shape == MULTI:
        return f"{decision.count} different numbers from 1 to {n}, separated by spaces or commas{zero}"
    return f"a number from 1 to {n}{zero}" if n > 1 else f"1{zero}"


def pass_word(decision: Decision) -> str:
    """What passing means for this kind, in the words the prompts already use."""
    try:
        cat = catalog("en")
        path = f"decisions.kinds.{decision.kind}.pass"
        if cat.has(path):
            return cat.text(path).removeprefix("you ")
    except Exception:  # the words are a nicety: a missing catalog must not stop a game
        pass
    return "pass"


def parse_answer(decision: Decision, line: str, players: list[str] | None = None, alive: list[str] | None = None) -> Any:
    """The answer ``line`` stands for, checked by the engine's own rules; ``BadInput``.
    ``players`` (everyone at the table) and ``alive`` are what a speech's claims and
    the pack's proposed victim may name."""
    raw = line.strip()
    shape = decision.shape
    if shape == TEXT:
        answer: Any = _text(decision, raw, list(players or ()), list(alive if alive is not None else players or ()))
        why = words_problem(answer["text"] if isinstance(answer, dict) else answer)  # what the engine will refuse
        if why is not None:
            raise BadInput(why)
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
    if decision.kind in SCALE_OPTIONS:
        if raw.lstrip("+-").isdigit() and int(raw) in decision.options:
            return int(raw)
        raise BadInput(f"'{raw}' is not on the scale: type {input_hint(decision)}")
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


# ---------------------------------------------------------------------- words with claims
def _text(decision: Decision, raw: str, players: list[str], alive: list[str]) -> Any:
    """A speech's words, with ``/role``, ``/check`` and ``/accuse`` claims after them,
    or the pack's talk with a ``/target``: the dict a model seat sends. Plain words stay
    a plain string."""
    if decision.kind in SPEECH_KINDS:
        allowed = SPEECH_COMMANDS
    elif decision.kind in TARGETED_KINDS:
        allowed = TARGET_COMMANDS
    else:
        return raw
    parts = _COMMAND.split(raw)
    text = parts[0]
    claims: dict[str, Any] = {"role": None, "checks": [], "accuses": []}
    target = None
    for command, arg in zip(parts[1::2], parts[2::2]):
        name = command.casefold()
        if name not in allowed:
            other = "the pack's night talk" if name in TARGET_COMMANDS else "a speech" if name in SPEECH_COMMANDS else None
            where = f"{command} is for {other}; " if other else f"{command} is not a command; "
            raise BadInput(where + "here: " + "; ".join(allowed.values()) + " (// for a word starting with a slash)")
        arg = arg.strip()
        if name == "/role":
            if claims["role"] is not None:
                raise BadInput("one /role per speech")
            claims["role"] = _role(arg, "/role ROLE")
        elif name == "/check":
            claims["checks"].append(_check(arg, players))
        elif name == "/accuse":
            claims["accuses"].extend(n for n in _names(arg, players, "/accuse NAME") if n not in claims["accuses"])
        elif name == "/target":
            if target is not None:
                raise BadInput("one /target per message")
            target = _player(arg, alive, "/target NAME", living=True)
    text = _LITERAL.sub("/", text.strip())
    if len(parts) == 1:
        return text
    if decision.kind in TARGETED_KINDS:
        return {"text": text, "target": target}
    return {"text": text, "claims": claims}


def _fold(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text.casefold())


def _role(text: str, usage: str) -> str:
    if not text:
        raise BadInput(f"type {usage}")
    wanted = _fold(text)
    wanted = ROLE_ALIASES.get(wanted, wanted)
    for rid, spec in ROLES.items():
        if wanted in (_fold(rid), _fold(spec.name)):
            return rid
    raise BadInput(f"'{text}' is not a role (for example: werewolf, seer, witch, villager)")


def _player(text: str, names: list[str], usage: str, living: bool = False) -> str:
    if not text:
        raise BadInput(f"type {usage}")
    for n in names:
        if n.casefold() == text.casefold():
            return n
    who = "a living player" if living else "a player at this table"
    raise BadInput(f"'{text}' is not {who}: {', '.join(names)}")


def _names(text: str, players: list[str], usage: str) -> list[str]:
    """Names separated by spaces or commas (a name with a space in it is matched whole)."""
    tokens = [t for t in re.split(r"[\s,;，、]+", text) if t]
    if not tokens:
        raise BadInput(f"type {usage}")
    out, i = [], 0
    while i < len(tokens):
        for j in range(len(tokens), i, -1):  # the longest run of words that is a name
            joined = " ".join(tokens[i:j]).casefold()
            match = next((n for n in players if n.casefold() == joined), None)
            if match is not None:
                out.append(match)
                i = j
                break
        else:
            _player(tokens[i], players, usage)  # raises, naming the players
    return out


def _check(text: str, players: list[str]) -> dict[str, str]:
    """``NAME ROLE`` (or ``NAME=ROLE``, ``NAME:ROLE``): a Seer result announced."""
    usage = "/check NAME ROLE, e.g. /check Bob werewolf"
    text = re.sub(r"\s*[=:]\s*", " ", text).strip()
    tokens = text.split()
    if len(tokens) < 2:
        raise BadInput(f"type {usage}")
    for k in range(len(tokens) - 1, 0, -1):
        name = " ".join(tokens[:k])
        match = next((n for n in players if n.casefold() == name.casefold()), None)
        if match is not None:
            return {"target": match, "role": _role(" ".join(tokens[k:]), usage)}
    _player(tokens[0], players, usage)
    raise BadInput(f"type {usage}")

"""Reading what a model wrote when no server enforced the schema.

Small and local models wrap JSON in prose or code fences, use Python quotes, answer
a bare name, change a name's case, say "yes" for true. Each of those is still a clear
answer, and refusing it would cost a re-ask (tokens, latency) for nothing; so the
parser accepts whatever is unambiguous and leaves the judging of legality to the
caller, which can then tell the model precisely what was wrong.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from typing import Any, Iterable

from engine.decisions import BOOL, MULTI, TEXT, Decision
import transcripts.bounded as bounded

_FENCE = re.compile(r"```(?:json|JSON|javascript|js|python)?\s*\n?(.*?)```", re.S)
_SMART = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "：": ":", "，": ","})
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)

PASS_WORDS = frozenset(
    {"pass", "none", "null", "nobody", "no one", "noone", "abstain", "skip", "nil", "n/a", "no target", "弃票", "弃权", "跳过", "无", "不"}
)
TRUE_WORDS = frozenset({"true", "yes", "y", "yeah", "yep", "1", "heal", "save", "use", "do it", "是", "好", "要", "救", "对"})
FALSE_WORDS = frozenset({"false", "no", "n", "nope", "0", "don't", "do not", "not", "否", "不", "不要", "不救"})


class NoAnswer(ValueError):
    """The text holds no answer at all; the message says what was expected."""


# ---------------------------------------------------------------------- JSON in prose
def strip_thinking(text: str) -> str:
    """Reasoning models print ``<think>...</think>`` before answering; the answer follows it."""
    return _THINK.sub("", text).strip()


def _loads(s: str) -> Any:
    """``s`` as JSON, or as what a model meant by it; ``ValueError`` when it is neither,
    or when it nests deeper or holds a longer number than any input may
    (``transcripts.bounded``: the reply is recorded, and its record must read back)."""
    s = s.strip()
    if not s:
        raise ValueError("empty")
    s2 = s.translate(_SMART)
    for text in (s, s2):
        try:
            return bounded.loads_json(text)
        except bounded.InputError as e:
            if not e.syntax:
                raise ValueError(e.problem) from None
    # Python literals: single quotes, True/False/None. Also the JSON words, which
    # literal_eval does not know.
    py = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", s2)))
    try:
        value = ast.literal_eval(py)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    else:
        why = bounded.beyond(value)
        if why is not None:
            raise ValueError(why)
        return value
    # Trailing commas, the last common slip.
    try:
        return bounded.loads_json(re.sub(r",\s*([}\]])", r"\1", s2))
    except bounded.InputError as e:
        raise ValueError(str(e)) from None


def _balanced(text: str, opener: str, closer: str) -> Iterable[str]:
    """Every balanced ``{...}`` (or ``[...]``) substring, outermost first, ignoring
    brackets inside quoted strings."""
    i = text.find(opener)
    while i != -1:
        depth, quote, esc = 0, "", False
        for j in range(i, len(text)):
            c = text[j]
            if quote:
                if esc:
                    esc = False
                elif c == "\\":
                    esc = True
                elif c == quote:
                    quote = ""
                continue
            if c in "\"'" and depth:
                # An apostrophe inside prose keys is rare; inside values it is common
                # ("I'm"), so only double quotes open strings unless the object uses
                # single quotes throughout.
                if c == '"' or text[i + 1 : i + 2] == "'":
                    quote = c
                continue
            if c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    yield text[i : j + 1]
                    break
        i = text.find(opener, i + 1)


def extract_json(text: str) -> Any:
    """The first JSON value (object preferred, then array) found in ``text``.

    Raises ``NoAnswer`` when there is none.
    """
    text = strip_thinking(text)
    candidates: list[str] = [text]
    candidates += [m.group(1) for m in _FENCE.finditer(text)]
    for c in candidates:
        try:
            return _loads(c)
        except ValueError:
            pass
    for opener, closer in (("{", "}"), ("[", "]")):
        for chunk in _balanced(text, opener, closer):
            try:
                value = _loads(chunk)
            except ValueError:
                continue
            if isinstance(value, (dict, list)):
                return value
    raise NoAnswer("no JSON object found")


# ---------------------------------------------------------------------- names and words
def norm(s: str) -> str:
    """Case, width, accents, whitespace and surrounding punctuation do not make a
    different name: ``" alice. "`` is Alice."""
    s = unicodedata.normalize("NFKC", s).casefold().strip()
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    s = re.sub(r"\s+", " ", s)
    return s.strip(" \t\n.,;:!?\"'`*_()[]{}<>@#")


def match_option(value: Any, options: Iterable[Any]) -> Any:
    """``value`` as one of ``options`` when it names one unambiguously, else ``value``
    unchanged (so the caller can say what was wrong with it)."""
    opts = list(options)
    if value in opts:
        return value
    if not isinstance(value, str):
        return value
    if value.strip().isdigit() and int(value) in opts:  # a number on a scale (a bid), written as a string
        return int(value)
    key = norm(value)
    by_norm = {norm(str(o)): o for o in opts}
    if key in by_norm:
        return by_norm[key]
    # "Player Bob", "I vote for Bob": exactly one option named as a whole word.
    found = [o for o in opts if isinstance(o, str) and re.search(rf"(?<!\w){re.escape(norm(o))}(?!\w)", key)]
    if len(found) == 1:
        return found[0]
    return value


def mentioned(text: str, names: Iterable[str]) -> list[str]:
    """The names that appear as whole words in ``text``, in order of appearance."""
    key = norm(text)
    hits = []
    for n in names:
        m = re.search(rf"(?<!\w){re.escape(norm(n))}(?!\w)", key)
        if m:
            hits.append((m.start(), n))
    return [n for _, n in sorted(hits)]


def is_pass_word(value: Any) -> bool:
    return value is None or (isinstance(value, str) and norm(value) in PASS_WORDS)


def as_bool(value: Any) -> Any:
    """``True``/``False`` from a bool, a number or a yes/no word; else ``value`` unchanged."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        k = norm(value)
        if k in TRUE_WORDS:
            return True
        if k in FALSE_WORDS:
            return False
        words = set(re.findall(r"\w+", k))
        yes, no = bool(words & TRUE_WORDS), bool(words & FALSE_WORDS)
        if yes != no:
            return yes
    return value


# ---------------------------------------------------------------------- whole replies
_ACTION_KEYS = ("action", "answer", "target", "choice", "vote", "name", "player", "targets", "decision", "value", "pick")


def parse_reply(text: str, decision: Decision) -> dict[str, Any]:
    """A free-text reply as the structured reply the schema describes.

    Returns ``{"action": ...}`` (choice, multi, bool) or the reply's object (text
    decisions: its ``text`` is the speech); the action is only parsed, not checked
    against the rules. Raises ``NoAnswer`` when nothing in the text can be read as an
    answer, and for a text decision when there is no JSON object (or string) at all.
    """
    raw = strip_thinking(text or "")
    try:
        data: Any = extract_json(raw)
    except NoAnswer:
        data = None
    if decision.shape == TEXT:
        # Words become public only from a readable object (or a bare JSON string):
        # prose or a broken object may hold the private reasoning (a reply cut inside
        # ``{"reasoning": ...``), so it is refused and asked again, never published.
        if isinstance(data, dict):
            return data
        if isinstance(data, str):
            return {"text": data}
        raise NoAnswer("no complete JSON object with \"text\" was found; the words of a speech are read only from one")
    if isinstance(data, dict):
        for k in _ACTION_KEYS:
            if k in data:
                out = dict(data)
                out["action"] = data[k]
                return out
        if len(data) == 1:
            return {"action": next(iter(data.values()))}
        raise NoAnswer("the JSON object has no 'action' field")
    if isinstance(data, (list, bool, int, float)) or (data is None and raw.strip().lower() == "null"):
        return {"action": data}
    if isinstance(data, str):
        raw = data
    return {"action": _bare(raw, decision)}


def _bare(raw: str, decision: Decision) -> Any:
    """A reply without JSON: a bare name, a yes/no, a pass, or a sentence naming options."""
    line = raw.strip()
    if not line:
        raise NoAnswer("the reply is empty")
    if decision.shape == BOOL:
        value = as_bool(line)
        if isinstance(value, bool):
            return value
        raise NoAnswer("expected true or false")
    if is_pass_word(line):
        return None
    options = [o for o in decision.options if isinstance(o, str)]
    if decision.shape == MULTI:
        names = mentioned(line, options)
        if names:
            return names
        parts = [p for p in re.split(r"[,;/&\n]| and ", line) if p.strip()]
        return [p.strip() for p in parts]
    picked = match_option(line, options)
    if picked in options:
        return picked
    names = mentioned(line, options)
    if len(names) == 1:
        return names[0]
    if len(line) <= 40 and "\n" not in line:
        return line  # a bare word that is not an option: let the caller say why
    raise NoAnswer("no legal option is named in the reply" if not names else f"the reply names several options ({', '.join(names)})")

"""Reading what comes from outside within bounds: a file's bytes, its lines, its JSON
or YAML, and a request's body (issue 45).

Why one module for every reader: a path may point anywhere (a link to ``/dev/zero``
never ends, a pipe waits for its writer), and Python's parsers have limits of their
own that surface as tracebacks rather than messages: ``json`` recurses once per
nested list and raises ``RecursionError`` near a thousand levels, PyYAML's composer
does the same, and converting a decimal integer longer than 4,300 digits raises
``ValueError`` (``sys.get_int_max_str_digits``) inside either parser, or later, when
an error message prints the number. So every file, transcript, key, price table and
request body is read here: at most its bound in bytes (``Bound``; docs/SECURITY.md
lists them) before any parsing, nested at most ``MAX_DEPTH`` levels, no number longer
than ``MAX_DIGITS`` digits, each refusal naming the line and column.

Why in ``transcripts``: it is the lowest layer that reads files (the engine does no
I/O; ``prompts`` reads only the catalogs it ships), and layers import downward only,
so the price tables of ``agents`` and every reader of ``arena`` can use it.

A file or a body is scanned for the two hazards above, then read by ``json``. The
lines of a transcript and a database's stored metrics, the bulk of what is read, are
decoded by orjson where it gives ``json``'s value (``fast``: about three times as
fast), which stops at 1,024 levels and at a number no float holds; what it refuses
and ``json`` reads (``NaN``, which ``json.dumps`` writes; an unpaired surrogate's
escape, which ``engine.words`` then names) and a run of 20 digits (an integer of
2**64 or more, which orjson reads as a float) take the careful way.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Literal

import orjson

from prompts.yaml_parser import yaml_module

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

MAX_DEPTH = 64  # lists and mappings inside each other: a table nests about 6 levels
RECORD_DEPTH = MAX_DEPTH + 16  # a transcript's line: a table's or a reply's value inside the record's own levels
MAX_DIGITS = 100  # digits of one number: a seed is at most 19, a price a dozen
MAX_VALUES = 100_000  # values in one YAML document, aliases expanded: far above any table

Format = Literal["JSON", "YAML"]


@dataclass(frozen=True)
class Bound:
    """How much of one kind of input is read: ``size`` bytes in all and, for a file
    of lines (a transcript), ``line`` bytes in one line."""

    what: str  # "a game file": the subject of the refusal's sentence
    size: int
    line: int | None = None

    def refusal(self) -> str:
        return f"larger than {_size(self.size)}, the most {self.what} may be (docs/SECURITY.md)"


def _size(n: int) -> str:
    for unit, name in ((GiB, "GiB"), (MiB, "MiB"), (KiB, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit:,} {name}"
    return f"{n:,} bytes"


# Every kind of input and its bound; docs/SECURITY.md ("Bounds") lists the same.
GAME_FILE = Bound("a game file", 16 * MiB)  # 30 seats of scripted answers, 2,000 characters each, fit many times
TOURNAMENT_FILE = Bound("a tournament file", 16 * MiB)
PRICE_TABLE = Bound("a price table", 16 * MiB)  # LiteLLM's map of every model it knows is 3.4 MB
USER_CONFIG = Bound("your config file", 1 * MiB)
KEY_FILE = Bound("a key file", 64 * KiB)  # an Ed25519 key in PEM is about 120 bytes
# A record holds a model call's whole prompt: a million-token context is about 4 MiB.
TRANSCRIPT = Bound("a transcript", 1 * GiB, line=64 * MiB)
SESSION_FILE = Bound("a web game's file", 1 * MiB)  # ``arena.web.persist``: tokens' digests and a few names
REQUEST_BODY = Bound("a request body", 256 * KiB)  # the web's and the A2A assessor's: a table, or one answer


class TooLarge(OSError):
    """Input beyond its bound; an ``OSError`` (``EFBIG``), so every reader's own
    "cannot read FILE: ..." says it, with the bound, in ``strerror``."""

    def __init__(self, message: str):
        super().__init__(errno.EFBIG, message)


class InputError(ValueError):
    """Text refused as it was parsed: not JSON or YAML (``syntax`` names which), or
    nested too deep, or a number too long. ``line`` and ``column`` (from 1) say where."""

    def __init__(self, problem: str, line: int | None = None, column: int | None = None, syntax: Format | None = None):
        self.problem, self.line, self.column, self.syntax = problem, line, column, syntax
        super().__init__(self.words())

    def words(self) -> str:
        at = f"line {self.line}, column {self.column}" if self.line and self.column else f"line {self.line}" if self.line else ""
        if self.syntax:
            return f"invalid {self.syntax}{' at ' + at if at else ''}: {self.problem}"
        return f"{at}: {self.problem}" if at else self.problem

    def __str__(self) -> str:
        return self.words()


def too_deep(limit: int) -> str:
    return f"nested deeper than {limit} levels of lists and mappings (docs/SECURITY.md)"


def too_long() -> str:
    return f"a number of more than {MAX_DIGITS} digits (docs/SECURITY.md)"


# ---------------------------------------------------------------------- bytes
def _check_regular(f: Any, bound: Bound) -> None:
    st = os.fstat(f.fileno())
    if stat.S_ISREG(st.st_mode) and st.st_size > bound.size:
        raise TooLarge(bound.refusal())


def read_bytes(path: str | Path, bound: Bound) -> bytes:
    """The file's bytes, at most ``bound.size`` of them (``TooLarge`` beyond: a regular
    file by its size, before reading; anything else, a device or a pipe, after
    reading one byte more than the bound). ``OSError`` as ``open`` raises it."""
    with open(path, "rb") as f:
        _check_regular(f, bound)
        data = f.read(bound.size + 1)
    if len(data) > bound.size:
        raise TooLarge(bound.refusal())
    return data


def read_text(path: str | Path, bound: Bound) -> str:
    """``read_bytes`` as UTF-8 text; ``UnicodeDecodeError`` (its ``start``: the byte of
    the file) for text that is not."""
    return read_bytes(path, bound).decode("utf-8")


@dataclass(frozen=True)
class Line:
    """One line of a file of lines: its number (from 1), its text without the line
    break, and whether it ended with one (a last line without it was cut mid-write)."""

    number: int
    text: str
    ended: bool


def read_lines(path: str | Path, bound: Bound = TRANSCRIPT) -> Iterator[Line]:
    """The file's lines, as read: at most ``bound.line`` bytes in one and ``bound.size``
    in all (``TooLarge`` naming the line beyond either). A line that is not UTF-8 is
    ``InputError`` naming it and the byte of the file. ``OSError`` as ``open`` raises it."""
    longest = bound.line or bound.size
    with open(path, "rb") as f:
        _check_regular(f, bound)
        number = offset = 0
        while True:
            raw = f.readline(longest + 1)
            if not raw:
                return
            number += 1
            ended = raw.endswith(b"\n")
            if not ended and len(raw) > longest:
                raise TooLarge(f"line {number} is longer than {_size(longest)}, the most one line of {bound.what} may be (docs/SECURITY.md)")
            if offset + len(raw) > bound.size:
                raise TooLarge(bound.refusal())
            try:
                text = raw[:-1].decode("utf-8") if ended else raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise InputError(f"not UTF-8 text (byte {offset + e.start} of the file)", line=number) from None
            yield Line(number, text, ended)
            offset += len(raw)


# ---------------------------------------------------------------------- JSON
# Outside strings, the only tokens that matter: a bracket opens or closes a level, a
# number is checked for its digits (and, strictly, for what no float holds). A string
# is skipped whole (one unterminated runs to the end, so its contents are never read
# as tokens).
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]|[\]}]|-?(?:Infinity|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)|NaN', re.S)
_DIGITS = re.compile(r"[0-9]+")
# Every digit as 0, to find a run of 20 (2**64 has 20 digits) by a plain search: a
# regular expression's repeat costs five times as much on a transcript's lines.
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_TWENTY_DIGITS = b"0" * 20


def _within(value: Any, max_depth: int) -> bool:
    """Whether ``value`` nests at most ``max_depth`` levels (walking its containers:
    for a line with more brackets than levels allowed, most of them in strings)."""
    stack: list[tuple[Any, int]] = [([value], 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return False
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return True


def json_hazard(text: str, *, max_depth: int = MAX_DEPTH, first_line: int = 1, strict: bool = False) -> InputError | None:
    """The first place ``text`` (JSON) nests deeper than ``max_depth`` or holds a
    number longer than ``MAX_DIGITS`` digits, or (``strict``) writes ``NaN`` or
    ``Infinity``, which ``json`` reads and JSON has not; or ``None``. Scans tokens
    only: a string, however long, is one step of the regular expression."""
    depth = 0
    for m in _JSON_TOKENS.finditer(text):
        token = m.group()
        c = token[0]
        if c == '"':
            continue
        if c in "[{":
            depth += 1
            if depth > max_depth:
                return _at(text, m.start(), too_deep(max_depth), first_line)
        elif c in "]}":
            depth = max(0, depth - 1)
        elif token.endswith(("Infinity", "NaN")):
            if strict:
                return _at(text, m.start(), f"{token} is not JSON (a number JSON cannot write)", first_line)
        elif len(token) > MAX_DIGITS and max(map(len, _DIGITS.findall(token))) > MAX_DIGITS:
            return _at(text, m.start(), too_long(), first_line)
        elif strict and ("e" in token or "E" in token) and math.isinf(float(token)):
            return _at(text, m.start(), f"{token} is not JSON this program reads (no number is that large)", first_line)
    return None


def _at(text: str, pos: int, problem: str, first_line: int = 1, syntax: Format | None = None) -> InputError:
    line = text.count("\n", 0, pos) + first_line
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return InputError(problem, line, column, syntax)


def loads_json(text: str | bytes, *, max_depth: int = MAX_DEPTH, first_line: int = 1, strict: bool = False, fast: bool = False) -> Any:
    """``json.loads(text)``'s value, within the bounds; ``InputError`` otherwise, naming
    the line (counted from ``first_line``: a transcript's line gives its own number)
    and the column.

    ``strict``: JSON as the standard has it, without ``NaN``, ``Infinity`` or a number
    no float holds (a request's body; what this program writes to files may hold NaN).
    ``fast``: decoded by orjson where it gives the same value (a transcript's lines,
    a database's stored metrics: the bulk of what is read). orjson reads an integer
    of 2**64 or more as the nearest float, so text with a run of 20 digits takes the
    careful way, as does anything orjson refuses; the same value either way."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text (byte {e.start})") from None
    if fast and _TWENTY_DIGITS not in text.encode("utf-8", "surrogatepass").translate(_ZEROS):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # NaN, a surrogate's escape, deeper than orjson's 1,024 levels, or not JSON: the careful way
        else:
            if text.count("[") + text.count("{") <= max_depth or _within(value, max_depth):
                return value
    hazard = json_hazard(text, max_depth=max_depth, first_line=first_line, strict=strict)
    if hazard is not None:
        raise hazard
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _at(text, e.pos, e.msg, first_line, "JSON") from None
    except (RecursionError, ValueError) as e:  # the scan above stops both; this says so if it ever does not
        raise InputError(f"{type(e).__name__}: {str(e)[:200]}", first_line, None, "JSON") from None


# ---------------------------------------------------------------------- YAML
def loads_yaml(text: str, *, max_depth: int = MAX_DEPTH, max_values: int = MAX_VALUES) -> Any:
    """``yaml.safe_load(text)``'s value, within the bounds (aliases counted as what they
    stand for: a few lines of ``&a [*b, *b, ...]`` hold billions of values); ``InputError``
    otherwise, naming the line and the column."""
    yaml: Any = yaml_module()
    loader = _bounded_loader(max_depth)
    try:
        value = yaml.load(text, Loader=loader)  # noqa: S506 (a SafeLoader: no tag makes an object)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        syntax: Format | None = None if isinstance(e, loader.Refused) else "YAML"
        raise InputError(e.problem or e.context or "not YAML", line, column, syntax) from None
    except yaml.YAMLError as e:
        raise InputError(str(e).splitlines()[0] if str(e) else "not YAML", syntax="YAML") from None
    return count_values(value, max_values)


@lru_cache(maxsize=4)
def _bounded_loader(max_depth: int) -> Any:
    """PyYAML's ``SafeLoader`` that counts levels as it composes (its composer recurses
    once a level) and measures a number's text before converting it. An alias stands
    for its anchor's whole value, so each composed node knows its height, and an alias
    is refused where that height would take the document past ``max_depth``."""
    yaml: Any = yaml_module()
    AliasEvent, MappingNode, SequenceNode = yaml.AliasEvent, yaml.MappingNode, yaml.SequenceNode
    marked_error: Any = yaml.MarkedYAMLError
    safe_loader: Any = yaml.SafeLoader

    class Refused(marked_error):
        """A document within YAML's grammar but beyond a bound."""

    class Loader(safe_loader):
        Refused: Any  # the class of this loader's refusals (set below)

        def __init__(self, stream: Any) -> None:
            super().__init__(stream)
            self._depth = 0
            self._heights: dict[int, int] = {}

        def compose_node(self, parent: Any, index: Any) -> Any:
            alias = self.check_event(AliasEvent)
            mark = self.peek_event().start_mark
            self._depth += 1
            try:
                if self._depth > max_depth + 1:  # a scalar at the bound is at depth + 1
                    raise Refused(None, None, too_deep(max_depth), mark)
                node = super().compose_node(parent, index)
            finally:
                self._depth -= 1
            height = self._heights.get(id(node))
            if height is None:
                if alias:  # an alias inside its own anchor: a value that holds itself
                    raise Refused(None, None, "a value that holds itself (an alias inside its own anchor)", mark)
                height = self._height(node)
            if self._depth + height > max_depth:
                raise Refused(None, None, too_deep(max_depth), mark)
            return node

        def _height(self, node: Any) -> int:
            if isinstance(node, SequenceNode):
                height = 1 + max((self._heights[id(n)] for n in node.value), default=0)
            elif isinstance(node, MappingNode):
                height = 1 + max((self._heights[id(n)] for pair in node.value for n in pair), default=0)
            else:
                height = 0
            self._heights[id(node)] = height
            return height

        def compose_document(self) -> Any:
            node = super().compose_document()
            self._heights.clear()
            return node

    def bounded_number(convert: Any) -> Any:
        def construct(self: Any, node: Any) -> Any:
            if sum(c.isdigit() for c in str(node.value)) > MAX_DIGITS or len(str(node.value)) > 2 * MAX_DIGITS:
                raise Refused(None, None, too_long(), node.start_mark)
            return convert(self, node)

        return construct

    Loader.Refused = Refused
    Loader.add_constructor("tag:yaml.org,2002:int", bounded_number(yaml.SafeLoader.construct_yaml_int))
    Loader.add_constructor("tag:yaml.org,2002:float", bounded_number(yaml.SafeLoader.construct_yaml_float))
    return Loader


def count_values(data: Any, limit: int = MAX_VALUES) -> Any:
    """``data`` unless it holds more than ``limit`` values once YAML's aliases are
    expanded (every later step, validation, a transcript's header, would walk them
    all); ``InputError`` then."""
    seen, stack = 0, [data]
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            raise InputError(f"holds more than {limit:,} values (YAML aliases expanded); a table needs far fewer")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return data


# ---------------------------------------------------------------------- values
_HUGE = 10**MAX_DIGITS  # the first number of MAX_DIGITS + 1 digits


def beyond(value: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """Why ``value`` (data already in hand: a model's parsed reply, a record about to
    be written) could not be read back within the bounds, or ``None``."""
    stack: list[tuple[Any, int]] = [([value], 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return too_deep(max_depth)
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list, tuple)):
                stack.append((child, depth + 1))
            elif isinstance(child, int) and not -_HUGE < child < _HUGE:
                return too_long()
    return None


def tame(value: Any, max_depth: int = MAX_DEPTH, *, _depth: int = 0) -> Any:
    """``value`` with what ``beyond`` refuses taken out: a list or mapping deeper than
    ``max_depth`` becomes a sentence saying so, a number of too many digits ``None``.
    For a record that must be written all the same (what a model server sent, in the
    record of a call it was paid for), so that its file can be read again."""
    if isinstance(value, (dict, list, tuple)):
        if _depth + 1 > max_depth:
            return f"(not recorded: {too_deep(max_depth)})"
        if isinstance(value, dict):
            return {k: tame(v, max_depth, _depth=_depth + 1) for k, v in value.items()}
        return [tame(v, max_depth, _depth=_depth + 1) for v in value]
    if isinstance(value, int) and not -_HUGE < value < _HUGE:
        return None
    return value


def loads(text: str, fmt: Format) -> Any:
    """``loads_json`` or ``loads_yaml``, by ``fmt``."""
    return loads_json(text) if fmt == "JSON" else loads_yaml(text)


def format_of(path: str | Path) -> Format:
    """JSON for a ``.json`` file, YAML for any other (YAML reads JSON too)."""
    return "JSON" if Path(path).suffix.lower() == ".json" else "YAML"

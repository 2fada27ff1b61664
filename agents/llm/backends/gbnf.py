"""A decision's JSON schema as a llama.cpp grammar (GBNF) that allows no free whitespace.

llama.cpp turns a request's JSON schema into a grammar itself, but its grammar lets
the model put up to two line breaks and twenty spaces or tabs between any two tokens
of the JSON (``SPACE_RULE`` in llama.cpp's ``common/json-schema-to-grammar.cpp``), and
a small model takes them: on the shipped SmolLM2 a quarter of every reply's tokens
were indentation and blank lines ("\\"text\\"\\n\\n:\\n\\n"), each one decoded at a few
tokens a second on a CPU. Sent as the request's ``grammar`` instead (llama.cpp's
server documentation: "grammar: Set grammar for grammar-based sampling"), the same
schema allows exactly one spelling of each answer's structure, and the model spends
its tokens on the answer.

The converter covers what ``agents.llm.schema.answer_schema`` writes: closed objects
with every property required, in order; strings with ``minLength`` and ``maxLength``; ``enum`` of
strings, integers, booleans and ``null``; booleans; arrays with ``items``,
``minItems`` and ``maxItems``; ``anyOf``. Anything else raises ``Unsupported``, and the
request keeps llama.cpp's own conversion of the schema.
"""

from __future__ import annotations

import json
from typing import Any

# One JSON string character: anything but a quote, a backslash or a control character,
# written as itself, or an escaped quote or backslash. JSON's other escapes (\n, \t,
# \uXXXX...) are left out: every character they stand for but the control characters
# can be written as itself, and a small model given \n writes it over and over (on
# SmolLM2, a speech of nothing but "\n\n\n...", refused as empty, then one that ran to
# the token limit: the game's one fallback). So a string is one line.
_CHAR = r'char ::= [^"\\\x7F\x00-\x1F] | [\\] ["\\]'
# A string's first character: any of those but a space. The reader strips a reply's
# words anyway, and a small model that opens with a space may write nothing else: on
# SmolLM2 a speech of " ", refused as empty twice, then "", and the fallback spoke.
_FIRST = r'first ::= [^"\\\x7F\x00-\x20] | [\\] ["\\]'


class Unsupported(ValueError):
    """A schema construct this converter does not write; the caller sends the schema."""


def literal(text: str) -> str:
    """``text`` as a GBNF literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f'"{escaped}"'


def _json(value: Any) -> str:
    return literal(json.dumps(value, ensure_ascii=False))


class _Writer:
    def __init__(self) -> None:
        self.rules: dict[str, str] = {}
        self.uses_char = False

    def rule(self, name: str, body: str) -> str:
        """A named rule (a repeated body is written once) and its name."""
        for existing, text in self.rules.items():
            if text == body:
                return existing
        base, n = name, 1
        while name in self.rules:
            n += 1
            name = f"{base}{n}"
        self.rules[name] = body
        return name

    def value(self, schema: Any, name: str) -> str:
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        if "anyOf" in schema:
            alternatives = [self.value(alt, f"{name}-{i}") for i, alt in enumerate(schema["anyOf"])]
            return self.rule(name, " | ".join(alternatives))
        if "enum" in schema:
            if not schema["enum"]:
                raise Unsupported("an empty enum")
            return self.rule(name, " | ".join(_json(v) for v in schema["enum"]))
        kind = schema.get("type")
        if kind == "object":
            return self.rule(name, self._object(schema, name))
        if kind == "array":
            return self.rule(name, self._array(schema, name))
        if kind == "string":
            return self.rule(name, self._string(schema))
        if kind == "boolean":
            return self.rule(name, '"true" | "false"')
        if kind == "null":
            return self.rule(name, '"null"')
        raise Unsupported(f"type {kind!r}")

    def _object(self, schema: dict[str, Any], name: str) -> str:
        props = schema.get("properties") or {}
        if set(schema.get("required", [])) != set(props) or schema.get("additionalProperties", True) is not False:
            raise Unsupported("an object whose properties are not all required and closed")
        if not props:
            return '"{}"'
        parts = []
        for i, (key, sub) in enumerate(props.items()):
            parts.append(("" if i == 0 else '"," ') + _json(key) + ' ":" ' + self.value(sub, f"{name}-{_name(key)}"))
        return '"{" ' + " ".join(parts) + ' "}"'

    def _string(self, schema: dict[str, Any]) -> str:
        """``minLength`` to ``maxLength`` characters, the first of them not a space."""
        least, most = schema.get("minLength", 0), schema.get("maxLength")
        if not isinstance(least, int) or least < 0 or (most is not None and (not isinstance(most, int) or most < least)):
            raise Unsupported(f"string lengths {least!r} to {most!r}")
        if most == 0:
            return '"\\"\\""'
        self.uses_char = True
        rest = f"char{{{max(least - 1, 0)},{most - 1}}}" if most is not None else f"char{{{least - 1},}}" if least > 1 else "char*"
        words = f"first {rest}"
        return f'"\\"" {words if least else f"({words})?"} "\\""'

    def _array(self, schema: dict[str, Any], name: str) -> str:
        item = self.value(schema.get("items", {}), f"{name}-item")
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        if high is not None and int(high) == 0:
            return '"[]"'
        more = "*" if high is None else f"{{{max(low - 1, 0)},{int(high) - 1}}}"
        if low == 0:
            return f'"[" ({item} ("," {item}){more})? "]"'
        return f'"[" {item} ("," {item}){more} "]"'


def _name(key: str) -> str:
    """A rule name from a property name: letters, digits and dashes only."""
    cleaned = "".join(c if c.isascii() and c.isalnum() else "-" for c in key).strip("-")
    return cleaned or "p"


def grammar(schema: dict[str, Any]) -> str:
    """The GBNF grammar of exactly the compact JSON texts ``schema`` allows (no
    whitespace outside strings). Raises ``Unsupported`` for what it cannot write."""
    w = _Writer()
    w.value(schema, "root")
    lines = [f"{n} ::= {body}" for n, body in w.rules.items()]
    if w.uses_char:
        lines += [_FIRST, _CHAR]
    return "\n".join(lines) + "\n"

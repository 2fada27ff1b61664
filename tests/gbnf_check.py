"""Reading llama.cpp grammars (GBNF) in the tests: which texts one accepts, and a text
it accepts drawn at random, as llama.cpp's sampler would be confined to.

Covers the notation ``agents.llm.backends.gbnf`` writes (rules without recursion;
literals, character classes, rule names, groups, ``|``, ``?``, ``*``, ``+`` and
``{m,n}``), which is enough to check that grammar against the JSON schema it comes
from and to let a stand-in server answer under it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Union


@dataclass
class Lit:
    text: str


@dataclass
class Cls:
    pattern: str  # the class as written, which Python's ``re`` reads the same way


@dataclass
class Ref:
    name: str


@dataclass
class Alt:
    options: list["Seq"]


@dataclass
class Seq:
    items: list["Rep"]


@dataclass
class Rep:
    node: "Node"
    low: int
    high: int | None  # None: unbounded


Node = Union[Lit, Cls, Ref, Alt]

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "[": "[", "]": "]"}


class _Parser:
    def __init__(self, text: str) -> None:
        self.s, self.i = text, 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def alt(self) -> Alt:
        options = [self.seq()]
        while self.peek() == "|":
            self.i += 1
            options.append(self.seq())
        return Alt(options)

    def peek(self) -> str:
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def seq(self) -> Seq:
        items: list[Rep] = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.rep(self.atom()))
        return Seq(items)

    def atom(self) -> Node:
        c = self.peek()
        if c == '"':
            self.i += 1
            out = []
            while self.s[self.i] != '"':
                if self.s[self.i] == "\\":
                    self.i += 1
                    out.append(_ESCAPES[self.s[self.i]])
                else:
                    out.append(self.s[self.i])
                self.i += 1
            self.i += 1
            return Lit("".join(out))
        if c == "[":
            j = self.i + 1
            while self.s[j] != "]":
                j += 2 if self.s[j] == "\\" else 1
            pattern, self.i = self.s[self.i : j + 1], j + 1
            return Cls(pattern)
        if c == "(":
            self.i += 1
            inner = self.alt()
            assert self.peek() == ")", self.s[self.i :]
            self.i += 1
            return inner
        m = re.compile(r"[A-Za-z0-9-]+").match(self.s, self.i)
        assert m, f"unexpected {self.s[self.i:self.i + 20]!r}"
        self.i = m.end()
        return Ref(m.group())

    def rep(self, node: Node) -> Rep:
        if self.i < len(self.s) and self.s[self.i] in "?*+":
            c = self.s[self.i]
            self.i += 1
            return Rep(node, 0 if c != "+" else 1, 1 if c == "?" else None)
        m = re.compile(r"\{(\d+)(,(\d*))?\}").match(self.s, self.i)
        if m:
            self.i = m.end()
            low = int(m.group(1))
            high = low if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
            return Rep(node, low, high)
        return Rep(node, 1, 1)


class Grammar:
    def __init__(self, text: str) -> None:
        self.rules: dict[str, Alt] = {}
        for line in text.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, body = line.split("::=", 1)
            p = _Parser(body)
            self.rules[name.strip()] = p.alt()
            assert p.peek() == "", f"trailing text in rule {name!r}: {body[p.i:]!r}"
        assert "root" in self.rules
        self._regex = re.compile(self._re(Ref("root"), set()), re.DOTALL)

    def _re(self, node: Node | Seq | Rep, stack: set[str]) -> str:
        if isinstance(node, Lit):
            return re.escape(node.text)
        if isinstance(node, Cls):
            return node.pattern
        if isinstance(node, Ref):
            assert node.name not in stack, f"recursive rule {node.name}"
            return "(?:" + self._re(self.rules[node.name], stack | {node.name}) + ")"
        if isinstance(node, Alt):
            return "(?:" + "|".join(self._re(s, stack) for s in node.options) + ")"
        if isinstance(node, Seq):
            return "".join(self._re(r, stack) for r in node.items)
        inner = "(?:" + self._re(node.node, stack) + ")"
        if (node.low, node.high) == (1, 1):
            return inner
        return inner + "{%d,%s}" % (node.low, "" if node.high is None else node.high)

    def accepts(self, text: str) -> bool:
        return self._regex.fullmatch(text) is not None

    def sample(self, rng: random.Random, *, plain: str = "abcdefghijklmnopqrstuvwxyz ") -> str:
        """A text the grammar accepts. A character class that allows most characters
        (a JSON string's) gives one of ``plain``, and an escape is rarely chosen, so
        the words read like words."""
        out: list[str] = []
        self._sample(Ref("root"), rng, plain, out)
        return "".join(out)

    def _sample(self, node: Node | Seq | Rep, rng: random.Random, plain: str, out: list[str]) -> None:
        if isinstance(node, Lit):
            out.append(node.text)
        elif isinstance(node, Cls):
            pool = [c for c in plain + "0123456789abcdefABCDEF\"\\bfnrtu" if re.fullmatch(node.pattern, c)]
            out.append(rng.choice(pool))
        elif isinstance(node, Ref):
            self._sample(self.rules[node.name], rng, plain, out)
        elif isinstance(node, Alt):
            # The first alternative most often: a JSON string's plain character, not its escape.
            options = node.options
            pick = options[0] if len(options) > 1 and _is_char_rule(node) and rng.random() < 0.97 else rng.choice(options)
            self._sample(pick, rng, plain, out)
        elif isinstance(node, Seq):
            for item in node.items:
                self._sample(item, rng, plain, out)
        else:
            high = node.high if node.high is not None else node.low + 3
            for _ in range(rng.randint(node.low, max(node.low, min(high, node.low + 40)))):
                self._sample(node.node, rng, plain, out)


def _is_char_rule(alt: Alt) -> bool:
    first = alt.options[0].items
    return len(first) == 1 and isinstance(first[0].node, Cls) and first[0].node.pattern.startswith("[^")

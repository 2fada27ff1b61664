"""The words of the prompts, loaded from ``prompts/<language>/*.yaml``.

Every word a model reads lives in those files so that writers and translators can
change it without touching code; the code only chooses a template and fills it.
Templates use ``string.Template`` (``$name``) rather than ``str.format`` because
prompts show JSON examples, whose braces would otherwise need escaping everywhere.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from string import Template
from typing import Any, Iterable

from engine.roles import ROLES
from prompts.yaml_parser import yaml_module

LANGUAGES: tuple[str, ...] = ("en", "zh")
FALLBACK = "en"
FILES: tuple[str, ...] = ("system", "rules", "roles", "events", "decisions", "terms", "narration")


def _load_file(lang: str, stem: str) -> dict[str, Any]:
    """Read through importlib.resources so an installed wheel and a bare checkout both work."""
    resource = files("prompts").joinpath(lang, f"{stem}.yaml")
    data = yaml_module().safe_load(resource.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"prompts/{lang}/{stem}.yaml must be a mapping")
    return data


@lru_cache(maxsize=None)
def _tree(lang: str) -> dict[str, Any]:
    return {stem: _load_file(lang, stem) for stem in FILES}


@lru_cache(maxsize=4096)
def _template(text: str) -> Template:
    return Template(text)


def _key(value: Any) -> str:
    """YAML turns ``true``/``yes`` keys into booleans; the files quote them, so the
    code looks option values up by their lower-case text form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Catalog:
    """One language's texts, with the English ones behind them as a safety net: a
    missing translation then reads in English instead of crashing a game (the tests
    check that both languages have every key, so the net is for future roles only)."""

    def __init__(self, lang: str, *, fallback: bool = True):
        """``fallback=False``: no English behind the language (the tests read a
        language alone, so that a missing translation fails instead of reading in
        English)."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown prompt language '{lang}' (known: {', '.join(LANGUAGES)})")
        self.lang = lang
        self._trees = [_tree(lang)] + ([_tree(FALLBACK)] if lang != FALLBACK and fallback else [])
        self._found: dict[str, Any] = {}  # a history re-renders every event on every call
        self._first: dict[tuple[str, ...], Any] = {}

    # ------------------------------------------------------------------ lookup
    def get(self, path: str, default: Any = None) -> Any:
        try:
            found = self._found[path]
        except KeyError:
            found = self._found[path] = self._lookup(path)
        return default if found is None else found

    def _lookup(self, path: str) -> Any:
        for tree in self._trees:
            node: Any = tree
            for part in path.split("."):
                if isinstance(node, dict) and part in node:
                    node = node[part]
                else:
                    node = None
                    break
            if node is not None:
                return node
        return None

    def first(self, paths: tuple[str, ...]) -> Any:
        """The first of ``paths`` this language has, else the first the fallback has:
        an override (the narrator's sentence) is preferred within a language, never
        over the language itself (a Chinese game never reads an English override)."""
        try:
            return self._first[paths]
        except KeyError:
            pass
        found = None
        for tree in self._trees:
            for path in paths:
                node: Any = tree
                for part in path.split("."):
                    node = node.get(part) if isinstance(node, dict) else None
                    if node is None:
                        break
                if node is not None:
                    found = node
                    break
            if found is not None:
                break
        self._first[paths] = found
        return found

    def has(self, path: str) -> bool:
        return self.get(path) is not None

    def text(self, path: str, **values: Any) -> str:
        raw = self.get(path)
        if raw is None:
            raise KeyError(f"no prompt text '{path}' in language '{self.lang}'")
        if not isinstance(raw, str):
            raise KeyError(f"prompt text '{path}' is not a string")
        return self.fill(raw, **values)

    def option(self, path: str, value: Any, **values: Any) -> str:
        """The sentence for one value of a rule option (``other`` covers numbers)."""
        node = self.get(path)
        if not isinstance(node, dict):
            raise KeyError(f"no option texts '{path}' in language '{self.lang}'")
        key = _key(value)
        chosen = node.get(key, node.get("other"))
        if chosen is None:
            raise KeyError(f"no text for {path} = {key!r} in language '{self.lang}'")
        return self.fill(chosen, **values)

    @staticmethod
    def fill(raw: str, **values: Any) -> str:
        return _template(raw).substitute({k: _key(v) if isinstance(v, bool) else v for k, v in values.items()})

    # ------------------------------------------------------------------ words
    def join(self, items: Iterable[Any], last: str = "last") -> str:
        """A list as a sentence would say it ("A, B and C" / "A、B和C"); ``last="or"``
        for alternatives."""
        parts = [str(i) for i in items]
        if not parts:
            return self.text("terms.list.empty")
        if len(parts) == 1:
            return parts[0]
        return self.get("terms.list.sep").join(parts[:-1]) + self.get(f"terms.list.{last}") + parts[-1]

    def table(self, items: Iterable[Any]) -> str:
        """Entries of a table (votes, counts): separated, without a closing "and"."""
        parts = [str(i) for i in items]
        return self.get("terms.list.sep").join(parts) if parts else self.text("terms.list.empty")

    def role_name(self, role: Any) -> str:
        name = self.get(f"roles.roles.{role}.name")
        if name is not None:
            return name
        spec = ROLES.get(role) if isinstance(role, str) else None
        return spec.name if spec else str(role)

    def role_summary(self, role: str) -> str:
        summary = self.get(f"roles.roles.{role}.summary")
        if summary is not None:
            return summary
        spec = ROLES.get(role)
        return spec.summary if spec else ""

    def word(self, group: str, key: Any) -> str:
        """A term from ``terms.<group>``; unknown keys (future causes, camps) read as themselves."""
        found = self.get(f"terms.{group}.{_key(key)}")
        return found if isinstance(found, str) else str(key)

    def literal(self, value: Any) -> str:
        """An answer exactly as the model must write it in JSON."""
        return json.dumps(value, ensure_ascii=False)


@lru_cache(maxsize=None)
def catalog(lang: str = "en") -> Catalog:
    return Catalog(lang)
